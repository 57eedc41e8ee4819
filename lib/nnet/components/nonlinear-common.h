// Helpers shared by the nonlinear component group (nonlinear-components,
// normalize-components, dropout-components, identity-components): config
// checks whose one-line errors name the component type, the key and the
// value; a block view that reshapes a rows x dim matrix into
// (rows * dim / block) x block (Kaldi's reshaping for block-dim), copying
// through a contiguous temporary when the matrix has padded rows; row-wise
// dot products. (SummarizeVector for Info() lines is in parameter-stats.h.)
//
//   int32_t dim = 0;
//   GetRequiredKey("SigmoidComponent", "dim", cfl, &dim);
//   CheckConfig(dim > 0, "SigmoidComponent", "dim", dim, "must be > 0", *cfl);
//
//   BlockView in_blocks(in, block_dim, /*copy_in=*/true);
//   BlockView out_blocks(*out, block_dim, /*copy_in=*/false);
//   ... compute out_blocks.View() from in_blocks.View() ...
//   out_blocks.WriteBack();   // no-op unless a temporary was used
#ifndef NNET3_NNET_NONLINEAR_COMMON_H_
#define NNET3_NNET_NONLINEAR_COMMON_H_

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "base/error.h"
#include "matrix/matrix.h"
#include "matrix/vector.h"
#include "nnet/component-config.h"
#include "nnet/parameter-stats.h"
#include "util/config-line.h"

namespace nnet3 {

// Throws UserError "<type>: invalid <key>=<value> (<why>) in '<line>'"
// unless `ok`.
template <class T>
void CheckConfig(bool ok, const std::string &type, const std::string &key,
                 const T &value, const char *why, const ConfigLine &cfl) {
  if (!ok)
    NNET3_ERR << type << ": invalid " << key << "=" << value << " (" << why
              << ") in '" << cfl.WholeLine() << "'";
}

// A view of the rows x cols matrix `m` as (rows * cols / block) x block,
// i.e. each row split into cols / block consecutive blocks. Kaldi reshapes
// in place and needs contiguous rows (kInputContiguous/kOutputContiguous);
// when `m` has padded rows (or block == cols needs no reshape) this still
// works: padded matrices go through a contiguous temporary, filled from `m`
// if copy_in, and copied back by WriteBack().
class BlockView {
 public:
  BlockView(const MatrixView &m, int32_t block, bool copy_in);
  BlockView(const BlockView &) = delete;
  BlockView &operator=(const BlockView &) = delete;
  const MatrixView &View() const { return view_; }
  MatrixView *Mutable() { return &view_; }
  // Copies the temporary back into the original matrix (if one was used).
  void WriteBack();

 private:
  static bool NeedsTemp(const MatrixView &m, int32_t block);
  static MatrixView MakeView(const MatrixView &m, const Matrix &temp,
                             bool use_temp, int32_t block);
  MatrixView orig_;
  bool use_temp_;
  Matrix temp_;
  MatrixView view_;
};

// v(r) = alpha * sum_c a(r, c) * b(r, c) + beta * v(r)   (a, b same shape).
void AddRowDotProducts(float alpha, const MatrixView &a, const MatrixView &b,
                       float beta, VectorView *v);
// v(c) = alpha * sum_r a(r, c) * b(r, c) + beta * v(c).
void AddColDotProducts(float alpha, const MatrixView &a, const MatrixView &b,
                       float beta, VectorView *v);

// Makes `v` hold `dim` zeros if it has another dimension.
void ResizeIfNeeded(int32_t dim, Vector *v);

}  // namespace nnet3

#endif  // NNET3_NNET_NONLINEAR_COMMON_H_
