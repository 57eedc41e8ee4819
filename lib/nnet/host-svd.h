// Singular value decomposition of a small dense matrix on the host, in
// double precision, for model edits (nnet3-copy --edits: apply-svd,
// reduce-rank) and for tests. Matrices are row-major std::vector<double>.
//
//   std::vector<double> s, u, vt;
//   HostSvd(rows, cols, a, &s, &u, &vt);
//   // a == u diag(s) vt, k = min(rows, cols): s has k values, largest
//   // first, all >= 0; u is rows x k with orthonormal columns; vt is
//   // k x cols with orthonormal rows.
//
// The method is one-sided Jacobi (Hestenes): plane rotations applied to
// pairs of columns until all columns are orthogonal; their norms are the
// singular values. It is accurate (small singular values to high relative
// accuracy) and has no failure modes; the cost is about 10 n^2 m flops per
// sweep for an m x n matrix (n <= m) and it takes 6-12 sweeps.
#ifndef NNET3_NNET_HOST_SVD_H_
#define NNET3_NNET_HOST_SVD_H_

#include <cstdint>
#include <vector>

namespace nnet3 {

// See the file comment. For a rank-deficient `a`, the columns of u that
// belong to zero singular values are still orthonormal (completed).
void HostSvd(int32_t rows, int32_t cols, const std::vector<double> &a,
             std::vector<double> *s, std::vector<double> *u,
             std::vector<double> *vt);

}  // namespace nnet3

#endif  // NNET3_NNET_HOST_SVD_H_
