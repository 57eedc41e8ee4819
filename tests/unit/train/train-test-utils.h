// Small helpers shared by the trainer's tests: networks from config text,
// host matrices, simple egs, and parameter access.
#ifndef NNET3_TESTS_UNIT_TRAIN_TRAIN_TEST_UTILS_H_
#define NNET3_TESTS_UNIT_TRAIN_TRAIN_TEST_UTILS_H_

#include <sstream>
#include <string>
#include <vector>

#include "matrix/matrix.h"
#include "matrix/vector.h"
#include "nnet/components/affine-components.h"
#include "nnet/nnet.h"
#include "train/nnet-example.h"

namespace nnet3 {
namespace train_test {

using Rows = std::vector<std::vector<double>>;

inline Nnet NnetFromConfig(const std::string &config) {
  Nnet nnet;
  std::istringstream is(config);
  nnet.ReadConfig(is, "test.config");
  return nnet;
}

inline Matrix HostMatrix(const Rows &rows) {
  Matrix m(static_cast<int32_t>(rows.size()),
           static_cast<int32_t>(rows[0].size()), ResizeType::kSetZero,
           CpuDevice());
  for (size_t r = 0; r < rows.size(); r++)
    for (size_t c = 0; c < rows[r].size(); c++)
      m.Set(static_cast<int32_t>(r), static_cast<int32_t>(c),
            static_cast<float>(rows[r][c]));
  return m;
}

inline Rows ToRows(const MatrixView &m) {
  Rows rows(m.NumRows(), std::vector<double>(m.NumCols()));
  for (int32_t r = 0; r < m.NumRows(); r++)
    for (int32_t c = 0; c < m.NumCols(); c++) rows[r][c] = m.Get(r, c);
  return rows;
}

// An eg with rows t = 0..R-1 of sequence n = 0, or, with num_n > 1, R/num_n
// frames per sequence in n-major order (as merged egs are).
inline NnetExample MakeExample(const Rows &input, const GeneralMatrix &output,
                               int32_t num_n = 1) {
  NnetExample eg;
  eg.io.emplace_back("input", 0, HostMatrix(input));
  NnetIo out;
  out.name = "output";
  out.features = output;
  out.indexes = eg.io[0].indexes;
  eg.io.push_back(out);
  const int32_t frames = static_cast<int32_t>(input.size()) / num_n;
  for (NnetIo &io : eg.io)
    for (size_t i = 0; i < io.indexes.size(); i++)
      io.indexes[i] = Index(static_cast<int32_t>(i) / frames,
                            static_cast<int32_t>(i) % frames, 0);
  return eg;
}

inline AffineComponent &Affine(Nnet *nnet, const std::string &name) {
  auto *ac = dynamic_cast<AffineComponent *>(
      nnet->GetComponent(nnet->GetComponentIndex(name)));
  REQUIRE(ac != nullptr);
  return *ac;
}

inline void SetAffine(Nnet *nnet, const std::string &name, const Rows &w,
                      const std::vector<double> &b) {
  std::vector<float> bf(b.begin(), b.end());
  Affine(nnet, name).SetParams(Vector(bf, CpuDevice()), HostMatrix(w));
}

inline std::string NnetBytes(const Nnet &nnet) {
  std::ostringstream os;
  nnet.Write(os, true);
  return os.str();
}

}  // namespace train_test
}  // namespace nnet3

#endif  // NNET3_TESTS_UNIT_TRAIN_TRAIN_TEST_UTILS_H_
