// The CPU backend: the reference implementation of the Backend table, on
// OpenBLAS for matrix products and plain row-major loops for everything else.
//
//   std::unique_ptr<Backend> cpu = std::make_unique<CpuBackend>();
//
// Device memory is host memory here (64-byte aligned), so this backend reads
// index vectors and row-pointer lists directly; code above lib/device must
// still treat that memory as opaque. Sums and dot products accumulate in
// double; softmax and log-softmax subtract the row maximum first. Shape
// mismatches are InternalErrors (the matrix layer checks user-visible shapes).
// The implementation is split by concept: cpu-backend.cc (memory, copies,
// whole-matrix operations, GEMM), cpu-backend-rows.cc (index and pointer
// gathers/scatters), cpu-backend-math.cc (elementwise functions, their
// derivatives, softmax), cpu-backend-reduce.cc (vector-matrix operations,
// reductions, random fills), cpu-backend-diag.cc (row-diagonal products),
// cpu-backend-lstm.cc (fused recurrent cells);
// cpu-loops.h holds the shared loop templates.
#ifndef NNET3_DEVICE_CPU_BACKEND_H_
#define NNET3_DEVICE_CPU_BACKEND_H_

#include <cstddef>
#include <mutex>
#include <string>
#include <unordered_map>

#include "device/backend.h"

namespace nnet3 {

class CpuBackend : public Backend {
 public:
  // Under an address-space limit, makes the BLAS library take its work
  // buffer now (device/blas-workspace.h); UserError if it cannot fit.
  CpuBackend();
  std::string Name() const override { return "cpu"; }
  bool IsGpu() const override { return false; }

  // Blocks of 1 MiB and more are mapped (mmap) rather than malloc'd.
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
  // (cpu-backend-cols.cc)
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

  void AddMatAndScaleSrc(float alpha, MatView src, float src_scale,
                         MatView dst) override;
  void ScaleAndAddMat(float beta, float alpha, ConstMatView src,
                      MatView dst) override;
  void ScaleOffsetCols(bool rectify, ConstMatView scale, ConstMatView offset,
                       ConstMatView in, MatView out) override;

  // (cpu-backend-compress.cc)
  void CompressMat(ConstMatView src, CompressedType type, float range,
                   void *packed) override;
  void DecompressMat(const void *packed, CompressedType type, float range,
                     MatView dst) override;

  void AddRowDotProducts(float alpha, ConstMatView a, ConstMatView b,
                         float beta, MatView v) override;
  void AddDiagVecMat(float alpha, ConstMatView v, ConstMatView m, float beta,
                     MatView dst) override;

 private:
  // Gemm when op(A) has one row or op(B) one column: sgemv.
  void GemvProduct(float alpha, ConstMatView a, Trans trans_a, ConstMatView b,
                   Trans trans_b, float beta, MatView c);

  std::mutex mapped_mutex_;
  std::unordered_map<void *, size_t> mapped_;  // mapped blocks' sizes
};

}  // namespace nnet3

#endif  // NNET3_DEVICE_CPU_BACKEND_H_
