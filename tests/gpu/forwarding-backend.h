// A Backend that forwards every primitive to another one: the base of
// test and benchmark backends that watch or time a real device (such as the
// GEMM recorder of gpu-bench.cc). Derive and override what to watch.
#ifndef NNET3_TESTS_EQUIVALENCE_FORWARDING_BACKEND_H_
#define NNET3_TESTS_EQUIVALENCE_FORWARDING_BACKEND_H_

#include <string>

#include "device/backend.h"

namespace nnet3 {
namespace gpu_test {

class ForwardingBackend : public Backend {
 public:
  explicit ForwardingBackend(Backend &inner) : inner_(inner) {}
  std::string Name() const override { return inner_.Name(); }
  bool IsGpu() const override { return inner_.IsGpu(); }

  void *Allocate(size_t bytes) override { return inner_.Allocate(bytes); }
  void Free(void *ptr) override { inner_.Free(ptr); }
  void Synchronize() override { inner_.Synchronize(); }
  void CopyFromHost(const void *host_src, void *dev_dst,
                    size_t bytes) override {
    inner_.CopyFromHost(host_src, dev_dst, bytes);
  }
  void CopyToHost(const void *dev_src, void *host_dst, size_t bytes) override {
    inner_.CopyToHost(dev_src, host_dst, bytes);
  }
  void CopyDeviceToDevice(const void *dev_src, void *dev_dst,
                          size_t bytes) override {
    inner_.CopyDeviceToDevice(dev_src, dev_dst, bytes);
  }
  void CopyFromHost2D(const float *host_src, int32_t host_stride,
                      MatView dst) override {
    inner_.CopyFromHost2D(host_src, host_stride, dst);
  }
  void CopyToHost2D(ConstMatView src, float *host_dst,
                    int32_t host_stride) override {
    inner_.CopyToHost2D(src, host_dst, host_stride);
  }
  void SetConst(MatView m, float value) override { inner_.SetConst(m, value); }
  void CopyMat(float alpha, ConstMatView src, Trans trans,
               MatView dst) override {
    inner_.CopyMat(alpha, src, trans, dst);
  }
  void AddMat(float alpha, ConstMatView src, Trans trans,
              MatView dst) override {
    inner_.AddMat(alpha, src, trans, dst);
  }
  void Scale(float alpha, MatView m) override { inner_.Scale(alpha, m); }
  void AddConst(float value, MatView m) override { inner_.AddConst(value, m); }
  void AddMatAndScaleSrc(float alpha, MatView src, float src_scale,
                         MatView dst) override {
    inner_.AddMatAndScaleSrc(alpha, src, src_scale, dst);
  }
  void ScaleAndAddMat(float beta, float alpha, ConstMatView src,
                      MatView dst) override {
    inner_.ScaleAndAddMat(beta, alpha, src, dst);
  }
  void ScaleOffsetCols(bool rectify, ConstMatView scale, ConstMatView offset,
                       ConstMatView in, MatView out) override {
    inner_.ScaleOffsetCols(rectify, scale, offset, in, out);
  }
  void Gemm(float alpha, ConstMatView a, Trans trans_a, ConstMatView b,
            Trans trans_b, float beta, MatView c) override {
    inner_.Gemm(alpha, a, trans_a, b, trans_b, beta, c);
  }
  void CopyRows(float alpha, ConstMatView src, const int32_t *idx,
                MatView dst) override {
    inner_.CopyRows(alpha, src, idx, dst);
  }
  void AddRows(float alpha, ConstMatView src, const int32_t *idx,
               MatView dst) override {
    inner_.AddRows(alpha, src, idx, dst);
  }
  void CopyToRows(ConstMatView src, const int32_t *idx, MatView dst) override {
    inner_.CopyToRows(src, idx, dst);
  }
  void AddToRows(float alpha, ConstMatView src, const int32_t *idx,
                 MatView dst) override {
    inner_.AddToRows(alpha, src, idx, dst);
  }
  void CopyRowsFromPtrs(float alpha, const float *const *ptrs,
                        MatView dst) override {
    inner_.CopyRowsFromPtrs(alpha, ptrs, dst);
  }
  void AddRowsFromPtrs(float alpha, const float *const *ptrs,
                       MatView dst) override {
    inner_.AddRowsFromPtrs(alpha, ptrs, dst);
  }
  void CopyToRowPtrs(ConstMatView src, float *const *ptrs) override {
    inner_.CopyToRowPtrs(src, ptrs);
  }
  void AddToRowPtrs(float alpha, ConstMatView src,
                    float *const *ptrs) override {
    inner_.AddToRowPtrs(alpha, src, ptrs);
  }
  void AddRowRanges(float alpha, ConstMatView src, const int32_t *ranges,
                    MatView dst) override {
    inner_.AddRowRanges(alpha, src, ranges, dst);
  }
  void CopyCols(ConstMatView src, const int32_t *idx, MatView dst) override {
    inner_.CopyCols(src, idx, dst);
  }
  void AddCols(ConstMatView src, const int32_t *idx, MatView dst) override {
    inner_.AddCols(src, idx, dst);
  }
  void EqualElementMask(ConstMatView a, ConstMatView b, MatView dst) override {
    inner_.EqualElementMask(a, b, dst);
  }
  void Apply(Func f, ConstMatView in, MatView out) override {
    inner_.Apply(f, in, out);
  }
  void ApplyPow(float power, ConstMatView in, MatView out) override {
    inner_.ApplyPow(power, in, out);
  }
  void Clamp(float lower, float upper, ConstMatView in, MatView out) override {
    inner_.Clamp(lower, upper, in, out);
  }
  void MulElements(ConstMatView src, MatView dst) override {
    inner_.MulElements(src, dst);
  }
  void DivElements(ConstMatView src, MatView dst) override {
    inner_.DivElements(src, dst);
  }
  void MaxElements(ConstMatView src, MatView dst) override {
    inner_.MaxElements(src, dst);
  }
  void MinElements(ConstMatView src, MatView dst) override {
    inner_.MinElements(src, dst);
  }
  void AddMatMatElements(float alpha, ConstMatView a, ConstMatView b,
                         float beta, MatView dst) override {
    inner_.AddMatMatElements(alpha, a, b, beta, dst);
  }
  void DiffSigmoid(ConstMatView y, ConstMatView out_deriv,
                   MatView in_deriv) override {
    inner_.DiffSigmoid(y, out_deriv, in_deriv);
  }
  void DiffTanh(ConstMatView y, ConstMatView out_deriv,
                MatView in_deriv) override {
    inner_.DiffTanh(y, out_deriv, in_deriv);
  }
  void DiffRelu(ConstMatView y, ConstMatView out_deriv,
                MatView in_deriv) override {
    inner_.DiffRelu(y, out_deriv, in_deriv);
  }
  void SoftmaxRows(ConstMatView in, MatView out) override {
    inner_.SoftmaxRows(in, out);
  }
  void LogSoftmaxRows(ConstMatView in, MatView out) override {
    inner_.LogSoftmaxRows(in, out);
  }
  void DiffSoftmax(ConstMatView y, ConstMatView out_deriv,
                   MatView in_deriv) override {
    inner_.DiffSoftmax(y, out_deriv, in_deriv);
  }
  void DiffLogSoftmax(ConstMatView y, ConstMatView out_deriv,
                      MatView in_deriv) override {
    inner_.DiffLogSoftmax(y, out_deriv, in_deriv);
  }
  void AddVecToRows(float alpha, ConstMatView v, MatView m) override {
    inner_.AddVecToRows(alpha, v, m);
  }
  void AddVecToCols(float alpha, ConstMatView v, MatView m) override {
    inner_.AddVecToCols(alpha, v, m);
  }
  void MulColsVec(ConstMatView v, MatView m) override {
    inner_.MulColsVec(v, m);
  }
  void MulRowsVec(ConstMatView v, MatView m) override {
    inner_.MulRowsVec(v, m);
  }
  void AddRowSumToVec(float alpha, ConstMatView m, float beta,
                      MatView v) override {
    inner_.AddRowSumToVec(alpha, m, beta, v);
  }
  void AddColSumToVec(float alpha, ConstMatView m, float beta,
                      MatView v) override {
    inner_.AddColSumToVec(alpha, m, beta, v);
  }
  double Sum(ConstMatView m) override { return inner_.Sum(m); }
  double DotProduct(ConstMatView a, ConstMatView b) override {
    return inner_.DotProduct(a, b);
  }
  float Max(ConstMatView m) override { return inner_.Max(m); }
  float Min(ConstMatView m) override { return inner_.Min(m); }
  void LstmNonlinearity(ConstMatView in, ConstMatView params,
                        MatView out) override {
    inner_.LstmNonlinearity(in, params, out);
  }
  void DiffLstmNonlinearity(ConstMatView in, ConstMatView params,
                            ConstMatView out_deriv, ConstMatView deriv_sum_in,
                            ConstMatView self_repair_config, double count_in,
                            MatView in_deriv, MatView params_deriv,
                            MatView value_sum_out, MatView deriv_sum_out,
                            MatView self_repair_sum_out) override {
    inner_.DiffLstmNonlinearity(in, params, out_deriv, deriv_sum_in,
                                self_repair_config, count_in, in_deriv,
                                params_deriv, value_sum_out, deriv_sum_out,
                                self_repair_sum_out);
  }
  void RandUniform(uint64_t seed, MatView m) override {
    inner_.RandUniform(seed, m);
  }
  void RandGaussian(uint64_t seed, MatView m) override {
    inner_.RandGaussian(seed, m);
  }
  void CompressMat(ConstMatView src, CompressedType type, float range,
                   void *packed) override {
    inner_.CompressMat(src, type, range, packed);
  }
  void DecompressMat(const void *packed, CompressedType type, float range,
                     MatView dst) override {
    inner_.DecompressMat(packed, type, range, dst);
  }
  void AddRowDotProducts(float alpha, ConstMatView a, ConstMatView b,
                         float beta, MatView v) override {
    inner_.AddRowDotProducts(alpha, a, b, beta, v);
  }
  void AddDiagVecMat(float alpha, ConstMatView v, ConstMatView m, float beta,
                     MatView dst) override {
    inner_.AddDiagVecMat(alpha, v, m, beta, dst);
  }

 protected:
  Backend &inner_;
};

}  // namespace gpu_test
}  // namespace nnet3

#endif  // NNET3_TESTS_EQUIVALENCE_FORWARDING_BACKEND_H_
