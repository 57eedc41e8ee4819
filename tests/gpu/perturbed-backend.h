// A device under test that is wrong on purpose: another backend with one
// primitive changed, so that harness-test.cc can show that each of the
// suite's comparisons reports a wrong primitive, and does not report one
// that only rounds differently.
//
//   Device bad(std::make_unique<PerturbedBackend>(TestBackend(),
//                                                 Perturbation::kGemmScale,
//                                                 1e-3f));
//   CHECK_FALSE(CompareRandomNetwork(seed, bad).Agree());
//
// NumPerturbed() counts the calls that were changed (those with a non-empty
// output), so that a test can tell a comparison that missed the error from
// a case that never called the primitive.
#ifndef NNET3_TESTS_EQUIVALENCE_PERTURBED_BACKEND_H_
#define NNET3_TESTS_EQUIVALENCE_PERTURBED_BACKEND_H_

#include <cstdint>

#include "forwarding-backend.h"

namespace nnet3 {
namespace gpu_test {

enum class Perturbation {
  // Gemm's product alpha·op(A)·op(B) scaled by 1 + size.
  kGemmScale,
  // Gemm's result times 1 + size·N(0, 1), elementwise and different on
  // every call: a stand-in for a device that sums in another order.
  kGemmNoise,
  // Apply(kTanh) adds `size` to every output.
  kTanhShift,
  // CopyMat also writes `size` just right of the first row of its output,
  // outside the view (where the stride leaves room).
  kCopyOutside,
  // AddMatAndScaleSrc, the step in which the optimizer adds the update to
  // the parameters, adds (1 + size) times the update: -1 drops it.
  kUpdateScale,
};

class PerturbedBackend : public ForwardingBackend {
 public:
  PerturbedBackend(Backend &inner, Perturbation what, float size)
      : ForwardingBackend(inner), what_(what), size_(size) {}
  int64_t NumPerturbed() const { return num_perturbed_; }

  void Gemm(float alpha, ConstMatView a, Trans trans_a, ConstMatView b,
            Trans trans_b, float beta, MatView c) override {
    if (what_ == Perturbation::kGemmScale) alpha *= 1.0f + size_;
    inner_.Gemm(alpha, a, trans_a, b, trans_b, beta, c);
    if (c.rows == 0 || c.cols == 0) return;
    if (what_ == Perturbation::kGemmNoise) AddNoise(c);
    if (what_ == Perturbation::kGemmScale || what_ == Perturbation::kGemmNoise)
      num_perturbed_++;
  }
  void Apply(Func f, ConstMatView in, MatView out) override {
    inner_.Apply(f, in, out);
    if (f != Func::kTanh || what_ != Perturbation::kTanhShift) return;
    inner_.AddConst(size_, out);
    if (out.rows > 0 && out.cols > 0) num_perturbed_++;
  }
  void CopyMat(float alpha, ConstMatView src, Trans trans,
               MatView dst) override {
    inner_.CopyMat(alpha, src, trans, dst);
    if (what_ != Perturbation::kCopyOutside || dst.rows == 0 ||
        dst.stride <= dst.cols)
      return;
    inner_.SetConst(MatView(dst.data + dst.cols, 1, 1, dst.stride), size_);
    num_perturbed_++;
  }
  void AddMatAndScaleSrc(float alpha, MatView src, float src_scale,
                         MatView dst) override {
    if (what_ == Perturbation::kUpdateScale) {
      alpha *= 1.0f + size_;
      if (dst.rows > 0 && dst.cols > 0) num_perturbed_++;
    }
    inner_.AddMatAndScaleSrc(alpha, src, src_scale, dst);
  }

 private:
  // c *= 1 + size·N(0, 1), with a new seed each call.
  void AddNoise(MatView c) {
    const size_t bytes = sizeof(float) * c.rows * c.cols;
    float *noise = static_cast<float *>(inner_.Allocate(bytes));
    const MatView n(noise, c.rows, c.cols, c.cols);
    inner_.RandGaussian(0x5eed0000u + num_perturbed_, n);
    inner_.AddMatMatElements(size_, n, c, 1.0f, c);
    inner_.Synchronize();
    inner_.Free(noise);
  }

  Perturbation what_;
  float size_;
  int64_t num_perturbed_ = 0;
};

}  // namespace gpu_test
}  // namespace nnet3

#endif  // NNET3_TESTS_EQUIVALENCE_PERTURBED_BACKEND_H_
