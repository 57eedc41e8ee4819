// The opaque backend: the CPU backend behind device pointers that the host
// cannot dereference, for checking without a GPU that nothing above
// lib/device reads or writes device memory directly (which would crash on a
// GPU). Every address it hands out is the CPU address plus 2^62, which is
// not a canonical x86-64 address, so any host access through it faults at
// once; its primitives take the offset off (also inside pointer lists)
// and call the CPU backend. Results are therefore exactly the CPU
// backend's.
//
//   Device opaque(std::make_unique<OpaqueBackend>());
//   SetActiveDevice(opaque);   // device.h; or NNET3_DEBUG_OPAQUE_DEVICE=1
//
// A program run with the environment variable NNET3_DEBUG_OPAQUE_DEVICE=1
// and --use-gpu=yes|wait|optional uses this device instead of a GPU (in any
// build), so that the command-line tests can run the GPU code paths of the
// programs on a machine without a GPU. It is a debugging aid; its name,
// "opaque-cpu", says what it is.
#ifndef NNET3_DEVICE_OPAQUE_BACKEND_H_
#define NNET3_DEVICE_OPAQUE_BACKEND_H_

#include <mutex>
#include <string>
#include <unordered_set>
#include <vector>

#include "device/backend.h"
#include "device/cpu-backend.h"

namespace nnet3 {

class OpaqueBackend : public Backend {
 public:
  static constexpr uintptr_t kOffset = uintptr_t(1) << 62;

  std::string Name() const override { return "opaque-cpu"; }
  // It stands in for a GPU: code that asks must take the device path.
  bool IsGpu() const override { return true; }

  void *Allocate(size_t bytes) override;
  void Free(void *ptr) override;
  void Synchronize() override {}

  void CopyFromHost(const void *host_src, void *dev_dst, size_t bytes) override;
  void CopyToHost(const void *dev_src, void *host_dst, size_t bytes) override;
  void CopyDeviceToDevice(const void *dev_src, void *dev_dst,
                          size_t bytes) override;
  void CopyFromHost2D(const float *host_src, int32_t host_stride,
                      MatView dst) override;
  void CopyToHost2D(ConstMatView src, float *host_dst,
                    int32_t host_stride) override;

  void SetConst(MatView m, float value) override;
  void CopyMat(float alpha, ConstMatView src, Trans trans,
               MatView dst) override;
  void AddMat(float alpha, ConstMatView src, Trans trans, MatView dst) override;
  void Scale(float alpha, MatView m) override;
  void AddConst(float value, MatView m) override;
  void AddMatAndScaleSrc(float alpha, MatView src, float src_scale,
                         MatView dst) override;
  void ScaleAndAddMat(float beta, float alpha, ConstMatView src,
                      MatView dst) override;
  void ScaleOffsetCols(bool rectify, ConstMatView scale, ConstMatView offset,
                       ConstMatView in, MatView out) override;
  void Gemm(float alpha, ConstMatView a, Trans trans_a, ConstMatView b,
            Trans trans_b, float beta, MatView c) override;

  void CopyRows(float alpha, ConstMatView src, const int32_t *idx,
                MatView dst) override;
  void AddRows(float alpha, ConstMatView src, const int32_t *idx,
               MatView dst) override;
  void CopyToRows(ConstMatView src, const int32_t *idx, MatView dst) override;
  void AddToRows(float alpha, ConstMatView src, const int32_t *idx,
                 MatView dst) override;
  void CopyRowsFromPtrs(float alpha, const float *const *ptrs,
                        MatView dst) override;
  void AddRowsFromPtrs(float alpha, const float *const *ptrs,
                       MatView dst) override;
  void CopyToRowPtrs(ConstMatView src, float *const *ptrs) override;
  void AddToRowPtrs(float alpha, ConstMatView src, float *const *ptrs) override;
  void AddRowRanges(float alpha, ConstMatView src, const int32_t *ranges,
                    MatView dst) override;
  void CopyCols(ConstMatView src, const int32_t *idx, MatView dst) override;
  void AddCols(ConstMatView src, const int32_t *idx, MatView dst) override;
  void EqualElementMask(ConstMatView a, ConstMatView b, MatView dst) override;

  void Apply(Func f, ConstMatView in, MatView out) override;
  void ApplyPow(float power, ConstMatView in, MatView out) override;
  void Clamp(float lower, float upper, ConstMatView in, MatView out) override;
  void MulElements(ConstMatView src, MatView dst) override;
  void DivElements(ConstMatView src, MatView dst) override;
  void MaxElements(ConstMatView src, MatView dst) override;
  void MinElements(ConstMatView src, MatView dst) override;
  void AddMatMatElements(float alpha, ConstMatView a, ConstMatView b,
                         float beta, MatView dst) override;

  void DiffSigmoid(ConstMatView y, ConstMatView out_deriv,
                   MatView in_deriv) override;
  void DiffTanh(ConstMatView y, ConstMatView out_deriv,
                MatView in_deriv) override;
  void DiffRelu(ConstMatView y, ConstMatView out_deriv,
                MatView in_deriv) override;

  void SoftmaxRows(ConstMatView in, MatView out) override;
  void LogSoftmaxRows(ConstMatView in, MatView out) override;
  void DiffSoftmax(ConstMatView y, ConstMatView out_deriv,
                   MatView in_deriv) override;
  void DiffLogSoftmax(ConstMatView y, ConstMatView out_deriv,
                      MatView in_deriv) override;

  void AddVecToRows(float alpha, ConstMatView v, MatView m) override;
  void AddVecToCols(float alpha, ConstMatView v, MatView m) override;
  void MulColsVec(ConstMatView v, MatView m) override;
  void MulRowsVec(ConstMatView v, MatView m) override;

  void AddRowSumToVec(float alpha, ConstMatView m, float beta,
                      MatView v) override;
  void AddColSumToVec(float alpha, ConstMatView m, float beta,
                      MatView v) override;
  double Sum(ConstMatView m) override;
  double DotProduct(ConstMatView a, ConstMatView b) override;
  float Max(ConstMatView m) override;
  float Min(ConstMatView m) override;

  void LstmNonlinearity(ConstMatView in, ConstMatView params,
                        MatView out) override;
  void DiffLstmNonlinearity(ConstMatView in, ConstMatView params,
                            ConstMatView out_deriv, ConstMatView deriv_sum_in,
                            ConstMatView self_repair_config, double count_in,
                            MatView in_deriv, MatView params_deriv,
                            MatView value_sum_out, MatView deriv_sum_out,
                            MatView self_repair_sum_out) override;

  void RandUniform(uint64_t seed, MatView m) override;
  void RandGaussian(uint64_t seed, MatView m) override;

  void CompressMat(ConstMatView src, CompressedType type, float range,
                   void *packed) override;
  void DecompressMat(const void *packed, CompressedType type, float range,
                     MatView dst) override;

  void AddRowDotProducts(float alpha, ConstMatView a, ConstMatView b,
                         float beta, MatView v) override;
  void AddDiagVecMat(float alpha, ConstMatView v, ConstMatView m, float beta,
                     MatView dst) override;

 private:
  CpuBackend cpu_;
  // The real addresses of the live blocks: a leak checker (LeakSanitizer)
  // sees them referenced from here, since it cannot follow the offset
  // addresses that their owners hold.
  std::mutex mutex_;
  std::unordered_set<void *> blocks_;
};

}  // namespace nnet3

#endif  // NNET3_DEVICE_OPAQUE_BACKEND_H_
