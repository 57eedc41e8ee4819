// Small dense linear algebra in double precision on the host, for the
// R x R problems of the online natural-gradient preconditioner (R <= ~100)
// and for reference computations in tests. Matrices are row-major
// std::vector<double> of n * n elements.
//
//   std::vector<double> a = ...;             // symmetric n x n
//   std::vector<double> eigvals, eigvecs;
//   SymmetricEigen(n, a, &eigvals, &eigvecs);
//   // a == U diag(eigvals) U^T with U(i, k) = eigvecs[i * n + k]; the
//   // eigenvalues are sorted from largest to smallest and the columns of U
//   // are orthonormal.
//
// The eigen-solver is the cyclic Jacobi method: slow for large n (O(n^3) per
// sweep, ~6-10 sweeps) but simple, very accurate (small relative errors even
// for small eigenvalues) and free of failure modes, which is what a
// preconditioner that runs for millions of minibatches needs.
#ifndef NNET3_NNET_HOST_LINEAR_ALGEBRA_H_
#define NNET3_NNET_HOST_LINEAR_ALGEBRA_H_

#include <cstdint>
#include <vector>

namespace nnet3 {

// Eigendecomposition of the symmetric n x n matrix `a` (only its average
// with its transpose is used). See the file comment for the outputs.
void SymmetricEigen(int32_t n, const std::vector<double> &a,
                    std::vector<double> *eigenvalues,
                    std::vector<double> *eigenvectors);

// c = a * b for row-major n x m times m x p matrices.
std::vector<double> HostMatMul(int32_t n, int32_t m, int32_t p,
                               const std::vector<double> &a,
                               const std::vector<double> &b);

// Orthonormalizes the rows of the row-major r x d matrix `m` (r <= d) in
// place by modified Gram-Schmidt in double; a row that is (numerically) in
// the span of the previous ones is replaced by the first unit vector e_j
// that is not. Used as the robust fallback when a faster re-orthogonalization
// is ill-conditioned.
void OrthonormalizeRows(int32_t r, int32_t d, std::vector<double> *m);

// Cholesky factor of the symmetric positive definite n x n matrix `a`:
// a == L L^T with L lower-triangular (row-major n x n, zeros above the
// diagonal) in *l. Returns false, leaving *l unspecified, if `a` is not
// (numerically) positive definite.
bool CholeskyLower(int32_t n, const std::vector<double> &a,
                   std::vector<double> *l);

// The inverse of the lower-triangular n x n matrix `l` (nonzero diagonal),
// itself lower-triangular.
std::vector<double> InvertLowerTriangular(int32_t n,
                                          const std::vector<double> &l);

}  // namespace nnet3

#endif  // NNET3_NNET_HOST_LINEAR_ALGEBRA_H_
