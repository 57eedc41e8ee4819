// Internal to lib/matrix: the checks every operation makes on its operands
// (shapes agree, all on one device). Both are programming errors, so they
// throw InternalError naming the operation and the shapes.
#ifndef NNET3_MATRIX_MATRIX_CHECKS_H_
#define NNET3_MATRIX_MATRIX_CHECKS_H_

#include "base/error.h"
#include "matrix/matrix.h"

namespace nnet3 {
namespace matrix_checks {

inline void CheckShape(const char *op, bool ok, const MatrixView &a,
                       const MatrixView &b) {
  if (!ok)
    NNET3_INTERNAL_ERR << op << ": dimension mismatch: " << a.NumRows() << " x "
                       << a.NumCols() << " vs " << b.NumRows() << " x "
                       << b.NumCols();
}

inline void CheckDevice(const char *op, const MatrixView &a,
                        const MatrixView &b) {
  if (&a.device() != &b.device())
    NNET3_INTERNAL_ERR << op << ": operands on different devices ("
                       << a.device().Name() << " vs " << b.device().Name()
                       << ")";
}

}  // namespace matrix_checks
}  // namespace nnet3

#endif  // NNET3_MATRIX_MATRIX_CHECKS_H_
