// Helpers shared by the executor tests: a tiny network, random matrices,
// comparisons with tolerances, and the direct (hand) computation of an
// affine + ReLU layer's forward pass, backward pass and model update.
#ifndef NNET3_TESTS_UNIT_COMPUTE_COMPUTE_TEST_UTILS_H_
#define NNET3_TESTS_UNIT_COMPUTE_COMPUTE_TEST_UTILS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "matrix/matrix.h"
#include "matrix/vector.h"
#include "nnet/components/affine-components.h"
#include "nnet/nnet.h"
#include "nnet/components/nonlinear-components.h"

namespace nnet3 {

// input (dim 3) -> affine (3 -> 4, learning-rate 0.1) -> relu -> output.
Nnet TinyNnet();
// Reads `config` (named `name` in errors).
Nnet NnetFromConfigText(const std::string &config,
                        const std::string &name = "test.config");
// N(0, 1) entries from `seed`.
Matrix RandomMatrix(int32_t rows, int32_t cols, uint64_t seed);

// Element-wise |got - want| <= tol (Catch CHECKs).
void CheckNear(const std::vector<float> &got, const std::vector<float> &want,
               float tol = 1e-5f);
void CheckNear(const MatrixView &got, const MatrixView &want,
               float tol = 1e-5f);

// The components called "affine" and "relu".
const AffineComponent &GetAffine(const Nnet &nnet);
const NonlinearComponent &GetRelu(const Nnet &nnet);

// y1 = x W^T + b, y = relu(y1), d1 = dy .* (y > 0), dx = d1 W,
// W += lr d1^T x, b += lr colsum(d1).
struct Reference {
  Matrix y, dx, new_w;
  Vector new_b;
};
Reference DirectAffineRelu(const AffineComponent &affine, const Matrix &x,
                           const Matrix &dy);
// DirectAffineRelu with the nnet's "affine" component.
Reference Direct(const Nnet &nnet, const Matrix &x, const Matrix &dy);

}  // namespace nnet3

#endif  // NNET3_TESTS_UNIT_COMPUTE_COMPUTE_TEST_UTILS_H_
