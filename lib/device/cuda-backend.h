// The CUDA backend: the Backend table on one GPU, with cuBLAS for GEMM and
// the kernels of kernels/ (launchers.h) for everything else, all queued on
// one stream of its own. Built only with the CUDA backend (-Dcuda); only
// device.cc (the backend registry) includes this header.
//
//   std::unique_ptr<GpuProbe> probe = NewCudaProbe();
//   int id = ChooseGpu("yes", -1, probe.get(), &why);       // gpu-selection.h
//   std::unique_ptr<Backend> gpu = NewCudaBackend(id, opts);
//
// Guarantees:
//  - Order: every primitive is queued on the backend's stream, so they run
//    in the order they were called (from any thread); functions that return
//    data to the host (CopyToHost*, Sum, DotProduct, Max, Min) wait for it.
//    Host buffers may be reused as soon as a copy from the host returns
//    (small copies go through a pinned staging buffer, larger ones wait).
//  - Memory: Allocate calls cudaMalloc on demand (nothing is reserved up
//    front); with memory_cap > 0 the backend refuses to hold more than that
//    many bytes. Out of memory is a UserError saying the size asked for,
//    what this process holds on the GPU, and to use a smaller minibatch.
//  - Errors: every CUDA and cuBLAS status is checked; a failure throws with
//    the primitive and shapes named (cuda-check.h).
//  - Results equal the CPU backend's up to float rounding (tests/gpu);
//    RandUniform equals it exactly, RandGaussian to the last bit almost
//    always (random-bits.h); reductions are deterministic run to run.
//  - GEMM uses TF32 tensor cores only with use_tf32 (--cuda-use-tf32).
#ifndef NNET3_DEVICE_CUDA_BACKEND_H_
#define NNET3_DEVICE_CUDA_BACKEND_H_

#include <cuda_runtime_api.h>

#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "device/backend.h"
#include "device/cuda-cublas.h"
#include "device/gpu-selection.h"

namespace nnet3 {
namespace kernels {
enum class Binary;  // kernels/launchers.h
}  // namespace kernels

struct CudaBackendOptions {
  size_t memory_cap = 0;  // bytes; 0: no cap
  bool use_tf32 = false;
};

// The machine's GPUs as the CUDA runtime sees them (cuda-probe.cc).
std::unique_ptr<GpuProbe> NewCudaProbe();

// The backend on device `id`, which the probe has acquired. UserError when
// this build cannot run on it (no kernels for its compute capability) or
// cuBLAS cannot be loaded.
std::unique_ptr<Backend> NewCudaBackend(int id, const CudaBackendOptions &opts);

class CudaBackend : public Backend {
 public:
  CudaBackend(int id, const CublasApi &cublas, const CudaBackendOptions &opts);
  ~CudaBackend() override;
  CudaBackend(const CudaBackend &) = delete;
  CudaBackend &operator=(const CudaBackend &) = delete;

  std::string Name() const override { return name_; }
  bool IsGpu() const override { return true; }

  void *Allocate(size_t bytes) override;
  void Free(void *ptr) override;
  void Synchronize() override;

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

  // What this backend holds on the GPU now (for messages and tests).
  size_t BytesAllocated() const;

 private:
  // Makes this backend's GPU current for the calling thread (the CUDA
  // runtime keeps the current device per thread).
  void Enter() const;
  // MulElements, DivElements, MaxElements and MinElements: dst = dst op src.
  void BinaryElements(kernels::Binary op, const char *name, ConstMatView src,
                      MatView dst);
  // A device buffer of at least `bytes`, valid until the next call; the
  // caller holds mutex_ from the call until its kernels are queued.
  void *ScratchLocked(size_t bytes);
  // Copies `bytes` from the host through the pinned staging buffer (or
  // directly, waiting, when too large for it); the host buffer may be
  // reused on return. Returns the staged host pointer or nullptr.
  const void *StageLocked(const void *host_src, size_t bytes);
  // The whole-matrix reductions: result bytes copied back after the work.
  void Reduce(int op, ConstMatView a, ConstMatView b, void *result,
              size_t result_bytes, const char *name);
  std::string OutOfMemoryMessage(size_t bytes, const char *why) const;

  int id_;
  std::string name_;
  const CublasApi &cublas_;
  cublasHandle_t handle_ = nullptr;
  cudaStream_t stream_ = nullptr;
  size_t memory_cap_;

  mutable std::mutex mutex_;  // everything below
  std::unordered_map<void *, size_t> allocations_;
  size_t bytes_allocated_ = 0;
  void *scratch_ = nullptr;
  size_t scratch_bytes_ = 0;
  char *staging_ = nullptr;  // pinned host memory
  size_t staging_bytes_ = 0, staging_head_ = 0;
  void *host_result_ = nullptr;  // pinned, 16 bytes
};

}  // namespace nnet3

#endif  // NNET3_DEVICE_CUDA_BACKEND_H_
