// CudaBackend: the primitives that are one kernel launch (or two, for the
// deterministic reductions) after the same shape checks as the CPU backend:
// rows, elementwise functions and their derivatives, softmax, vectors
// against matrices, reductions, the LSTM cell, random fills, compression
// and row diagonals.
#include <cstring>
#include <limits>
#include <mutex>

#include "base/error.h"
#include "device/cuda-backend.h"
#include "device/cuda-check.h"
#include "device/cuda-views.h"
#include "kernels/launchers.h"

namespace nnet3 {

using cuda::CheckSame;
using cuda::CheckSame3;
using cuda::CheckVector;
using cuda::CheckView;

// ---- rows through index vectors, pointer lists and ranges ----

void CudaBackend::CopyRows(float alpha, ConstMatView src, const int32_t *idx,
                           MatView dst) {
  CheckView(src);
  CheckView(dst);
  NNET3_ASSERT(src.cols == dst.cols);
  Enter();
  NNET3_CUDA_CHECK(kernels::GatherRows(stream_, alpha, src, idx, dst, false),
                   "CopyRows " << ShapeOf(src) << " -> " << ShapeOf(dst));
}

void CudaBackend::AddRows(float alpha, ConstMatView src, const int32_t *idx,
                          MatView dst) {
  CheckView(src);
  CheckView(dst);
  NNET3_ASSERT(src.cols == dst.cols);
  Enter();
  NNET3_CUDA_CHECK(kernels::GatherRows(stream_, alpha, src, idx, dst, true),
                   "AddRows " << ShapeOf(src) << " -> " << ShapeOf(dst));
}

void CudaBackend::CopyToRows(ConstMatView src, const int32_t *idx,
                             MatView dst) {
  CheckView(src);
  CheckView(dst);
  NNET3_ASSERT(src.cols == dst.cols);
  Enter();
  NNET3_CUDA_CHECK(kernels::ScatterRows(stream_, 1.0f, src, idx, dst, false),
                   "CopyToRows " << ShapeOf(src) << " -> " << ShapeOf(dst));
}

void CudaBackend::AddToRows(float alpha, ConstMatView src, const int32_t *idx,
                            MatView dst) {
  CheckView(src);
  CheckView(dst);
  NNET3_ASSERT(src.cols == dst.cols);
  Enter();
  NNET3_CUDA_CHECK(kernels::ScatterRows(stream_, alpha, src, idx, dst, true),
                   "AddToRows " << ShapeOf(src) << " -> " << ShapeOf(dst));
}

void CudaBackend::CopyRowsFromPtrs(float alpha, const float *const *ptrs,
                                   MatView dst) {
  CheckView(dst);
  Enter();
  NNET3_CUDA_CHECK(kernels::GatherRowPtrs(stream_, alpha, ptrs, dst, false),
                   "CopyRowsFromPtrs -> " << ShapeOf(dst));
}

void CudaBackend::AddRowsFromPtrs(float alpha, const float *const *ptrs,
                                  MatView dst) {
  CheckView(dst);
  Enter();
  NNET3_CUDA_CHECK(kernels::GatherRowPtrs(stream_, alpha, ptrs, dst, true),
                   "AddRowsFromPtrs -> " << ShapeOf(dst));
}

void CudaBackend::CopyToRowPtrs(ConstMatView src, float *const *ptrs) {
  CheckView(src);
  Enter();
  NNET3_CUDA_CHECK(kernels::ScatterRowPtrs(stream_, 1.0f, src, ptrs, false),
                   "CopyToRowPtrs " << ShapeOf(src));
}

void CudaBackend::AddToRowPtrs(float alpha, ConstMatView src,
                               float *const *ptrs) {
  CheckView(src);
  Enter();
  NNET3_CUDA_CHECK(kernels::ScatterRowPtrs(stream_, alpha, src, ptrs, true),
                   "AddToRowPtrs " << ShapeOf(src));
}

void CudaBackend::AddRowRanges(float alpha, ConstMatView src,
                               const int32_t *ranges, MatView dst) {
  CheckView(src);
  CheckView(dst);
  NNET3_ASSERT(src.cols == dst.cols);
  Enter();
  NNET3_CUDA_CHECK(kernels::AddRowRanges(stream_, alpha, src, ranges, dst),
                   "AddRowRanges " << ShapeOf(src) << " -> " << ShapeOf(dst));
}

// ---- columns through index vectors ----

void CudaBackend::CopyCols(ConstMatView src, const int32_t *idx, MatView dst) {
  CheckView(src);
  CheckView(dst);
  NNET3_ASSERT(src.rows == dst.rows);
  Enter();
  NNET3_CUDA_CHECK(kernels::GatherCols(stream_, src, idx, dst, false),
                   "CopyCols " << ShapeOf(src) << " -> " << ShapeOf(dst));
}

void CudaBackend::AddCols(ConstMatView src, const int32_t *idx, MatView dst) {
  CheckView(src);
  CheckView(dst);
  NNET3_ASSERT(src.rows == dst.rows);
  Enter();
  NNET3_CUDA_CHECK(kernels::GatherCols(stream_, src, idx, dst, true),
                   "AddCols " << ShapeOf(src) << " -> " << ShapeOf(dst));
}

// ---- elementwise ----

void CudaBackend::Apply(Func f, ConstMatView in, MatView out) {
  CheckSame(in, out);
  Enter();
  NNET3_CUDA_CHECK(kernels::Apply(stream_, f, in, out),
                   "Apply(" << static_cast<int>(f) << ") " << ShapeOf(in));
}

void CudaBackend::ApplyPow(float power, ConstMatView in, MatView out) {
  CheckSame(in, out);
  Enter();
  NNET3_CUDA_CHECK(kernels::ApplyPow(stream_, power, in, out),
                   "ApplyPow(" << power << ") " << ShapeOf(in));
}

void CudaBackend::Clamp(float lower, float upper, ConstMatView in,
                        MatView out) {
  CheckSame(in, out);
  Enter();
  NNET3_CUDA_CHECK(kernels::Clamp(stream_, lower, upper, in, out),
                   "Clamp " << ShapeOf(in));
}

void CudaBackend::BinaryElements(kernels::Binary op, const char *name,
                                 ConstMatView src, MatView dst) {
  CheckSame(src, dst);
  Enter();
  NNET3_CUDA_CHECK(kernels::BinaryElements(stream_, op, src, dst),
                   name << " " << ShapeOf(src));
}

void CudaBackend::MulElements(ConstMatView src, MatView dst) {
  BinaryElements(kernels::Binary::kMul, "MulElements", src, dst);
}

void CudaBackend::DivElements(ConstMatView src, MatView dst) {
  BinaryElements(kernels::Binary::kDiv, "DivElements", src, dst);
}

void CudaBackend::MaxElements(ConstMatView src, MatView dst) {
  BinaryElements(kernels::Binary::kMax, "MaxElements", src, dst);
}

void CudaBackend::MinElements(ConstMatView src, MatView dst) {
  BinaryElements(kernels::Binary::kMin, "MinElements", src, dst);
}

void CudaBackend::AddMatMatElements(float alpha, ConstMatView a, ConstMatView b,
                                    float beta, MatView dst) {
  CheckSame3(a, b, dst);
  Enter();
  NNET3_CUDA_CHECK(kernels::AddMatMatElements(stream_, alpha, a, b, beta, dst),
                   "AddMatMatElements " << ShapeOf(a));
}

void CudaBackend::EqualElementMask(ConstMatView a, ConstMatView b,
                                   MatView dst) {
  CheckSame3(a, b, dst);
  Enter();
  NNET3_CUDA_CHECK(kernels::EqualElementMask(stream_, a, b, dst),
                   "EqualElementMask " << ShapeOf(a));
}

// ---- nonlinearity derivatives ----

void CudaBackend::DiffSigmoid(ConstMatView y, ConstMatView out_deriv,
                              MatView in_deriv) {
  CheckSame3(y, out_deriv, in_deriv);
  Enter();
  NNET3_CUDA_CHECK(kernels::DiffNonlinearity(stream_, kernels::Diff::kSigmoid,
                                             y, out_deriv, in_deriv),
                   "DiffSigmoid " << ShapeOf(y));
}

void CudaBackend::DiffTanh(ConstMatView y, ConstMatView out_deriv,
                           MatView in_deriv) {
  CheckSame3(y, out_deriv, in_deriv);
  Enter();
  NNET3_CUDA_CHECK(kernels::DiffNonlinearity(stream_, kernels::Diff::kTanh, y,
                                             out_deriv, in_deriv),
                   "DiffTanh " << ShapeOf(y));
}

void CudaBackend::DiffRelu(ConstMatView y, ConstMatView out_deriv,
                           MatView in_deriv) {
  CheckSame3(y, out_deriv, in_deriv);
  Enter();
  NNET3_CUDA_CHECK(kernels::DiffNonlinearity(stream_, kernels::Diff::kRelu, y,
                                             out_deriv, in_deriv),
                   "DiffRelu " << ShapeOf(y));
}

// ---- softmax ----

void CudaBackend::SoftmaxRows(ConstMatView in, MatView out) {
  CheckSame(in, out);
  Enter();
  NNET3_CUDA_CHECK(kernels::SoftmaxRows(stream_, in, out, false),
                   "SoftmaxRows " << ShapeOf(in));
}

void CudaBackend::LogSoftmaxRows(ConstMatView in, MatView out) {
  CheckSame(in, out);
  Enter();
  NNET3_CUDA_CHECK(kernels::SoftmaxRows(stream_, in, out, true),
                   "LogSoftmaxRows " << ShapeOf(in));
}

void CudaBackend::DiffSoftmax(ConstMatView y, ConstMatView out_deriv,
                              MatView in_deriv) {
  CheckSame3(y, out_deriv, in_deriv);
  Enter();
  NNET3_CUDA_CHECK(kernels::DiffSoftmax(stream_, y, out_deriv, in_deriv, false),
                   "DiffSoftmax " << ShapeOf(y));
}

void CudaBackend::DiffLogSoftmax(ConstMatView y, ConstMatView out_deriv,
                                 MatView in_deriv) {
  CheckSame3(y, out_deriv, in_deriv);
  Enter();
  NNET3_CUDA_CHECK(kernels::DiffSoftmax(stream_, y, out_deriv, in_deriv, true),
                   "DiffLogSoftmax " << ShapeOf(y));
}

// ---- vectors against matrices ----

void CudaBackend::AddVecToRows(float alpha, ConstMatView v, MatView m) {
  CheckView(m);
  CheckVector(v, m.cols);
  Enter();
  NNET3_CUDA_CHECK(kernels::AddVecToRows(stream_, alpha, v, m),
                   "AddVecToRows " << ShapeOf(v) << " -> " << ShapeOf(m));
}

void CudaBackend::AddVecToCols(float alpha, ConstMatView v, MatView m) {
  CheckView(m);
  CheckVector(v, m.rows);
  Enter();
  NNET3_CUDA_CHECK(kernels::AddVecToCols(stream_, alpha, v, m),
                   "AddVecToCols " << ShapeOf(v) << " -> " << ShapeOf(m));
}

void CudaBackend::ScaleOffsetCols(bool rectify, ConstMatView scale,
                                  ConstMatView offset, ConstMatView in,
                                  MatView out) {
  CheckView(in);
  CheckView(out);
  NNET3_ASSERT(in.rows == out.rows && in.cols == out.cols);
  CheckVector(scale, out.cols);
  CheckVector(offset, out.cols);
  Enter();
  NNET3_CUDA_CHECK(
      kernels::ScaleOffsetCols(stream_, rectify, scale, offset, in, out),
      "ScaleOffsetCols " << ShapeOf(in) << " -> " << ShapeOf(out));
}

void CudaBackend::MulColsVec(ConstMatView v, MatView m) {
  CheckView(m);
  CheckVector(v, m.cols);
  Enter();
  NNET3_CUDA_CHECK(kernels::MulColsVec(stream_, v, m),
                   "MulColsVec " << ShapeOf(v) << " -> " << ShapeOf(m));
}

void CudaBackend::MulRowsVec(ConstMatView v, MatView m) {
  CheckView(m);
  CheckVector(v, m.rows);
  Enter();
  NNET3_CUDA_CHECK(kernels::MulRowsVec(stream_, v, m),
                   "MulRowsVec " << ShapeOf(v) << " -> " << ShapeOf(m));
}

// ---- reductions ----

void CudaBackend::AddRowSumToVec(float alpha, ConstMatView m, float beta,
                                 MatView v) {
  CheckView(m);
  CheckVector(v, m.cols);
  Enter();
  std::lock_guard<std::mutex> lock(mutex_);
  void *scratch =
      ScratchLocked(kernels::AddRowSumToVecScratchBytes(m.rows, m.cols));
  NNET3_CUDA_CHECK(kernels::AddRowSumToVec(stream_, alpha, m, beta, v, scratch),
                   "AddRowSumToVec " << ShapeOf(m) << " -> " << ShapeOf(v));
}

void CudaBackend::AddColSumToVec(float alpha, ConstMatView m, float beta,
                                 MatView v) {
  CheckView(m);
  CheckVector(v, m.rows);
  Enter();
  NNET3_CUDA_CHECK(kernels::AddColSumToVec(stream_, alpha, m, beta, v),
                   "AddColSumToVec " << ShapeOf(m) << " -> " << ShapeOf(v));
}

// The result goes to the end of the scratch buffer, then to pinned host
// memory; the stream is waited for before it is read.
void CudaBackend::Reduce(int op, ConstMatView a, ConstMatView b, void *result,
                         size_t result_bytes, const char *name) {
  Enter();
  std::lock_guard<std::mutex> lock(mutex_);
  const size_t partial_bytes = kernels::ReduceScratchBytes();
  char *scratch = static_cast<char *>(ScratchLocked(partial_bytes + 16));
  void *device_result = scratch + partial_bytes;
  NNET3_CUDA_CHECK(kernels::ReduceAll(stream_, static_cast<kernels::Reduce>(op),
                                      a, b, scratch, device_result),
                   name << " " << ShapeOf(a));
  NNET3_CUDA_CHECK(cudaMemcpyAsync(host_result_, device_result, result_bytes,
                                   cudaMemcpyDeviceToHost, stream_),
                   name << " " << ShapeOf(a) << " (copying the result)");
  NNET3_CUDA_CHECK(
      cudaStreamSynchronize(stream_),
      name << " " << ShapeOf(a) << " (or a kernel queued before it)");
  std::memcpy(result, host_result_, result_bytes);
}

double CudaBackend::Sum(ConstMatView m) {
  CheckView(m);
  double result = 0.0;
  Reduce(static_cast<int>(kernels::Reduce::kSum), m, m, &result, sizeof(result),
         "Sum");
  return result;
}

double CudaBackend::DotProduct(ConstMatView a, ConstMatView b) {
  CheckSame(a, b);
  double result = 0.0;
  Reduce(static_cast<int>(kernels::Reduce::kDot), a, b, &result, sizeof(result),
         "DotProduct");
  return result;
}

float CudaBackend::Max(ConstMatView m) {
  CheckView(m);
  float result = 0.0f;
  Reduce(static_cast<int>(kernels::Reduce::kMax), m, m, &result, sizeof(result),
         "Max");
  return result;
}

float CudaBackend::Min(ConstMatView m) {
  CheckView(m);
  float result = 0.0f;
  Reduce(static_cast<int>(kernels::Reduce::kMin), m, m, &result, sizeof(result),
         "Min");
  return result;
}

// ---- the LSTM cell ----

void CudaBackend::LstmNonlinearity(ConstMatView in, ConstMatView params,
                                   MatView out) {
  CheckView(in);
  CheckView(params);
  CheckView(out);
  const int32_t cell_dim = params.cols;
  NNET3_ASSERT(params.rows == 3 && cell_dim > 0);
  NNET3_ASSERT(in.cols == 5 * cell_dim || in.cols == 5 * cell_dim + 3);
  NNET3_ASSERT(out.rows == in.rows && out.cols == 2 * cell_dim);
  Enter();
  NNET3_CUDA_CHECK(
      kernels::LstmNonlinearity(stream_, in, params, out),
      "LstmNonlinearity " << ShapeOf(in) << " -> " << ShapeOf(out));
}

void CudaBackend::DiffLstmNonlinearity(
    ConstMatView in, ConstMatView params, ConstMatView out_deriv,
    ConstMatView deriv_sum_in, ConstMatView self_repair_config, double count_in,
    MatView in_deriv, MatView params_deriv, MatView value_sum_out,
    MatView deriv_sum_out, MatView self_repair_sum_out) {
  CheckView(in);
  CheckView(params);
  const int32_t cell_dim = params.cols;
  NNET3_ASSERT(params.rows == 3 && cell_dim > 0);
  NNET3_ASSERT(in.cols == 5 * cell_dim || in.cols == 5 * cell_dim + 3);
  NNET3_ASSERT(out_deriv.rows == in.rows && out_deriv.cols == 2 * cell_dim);
  NNET3_ASSERT(deriv_sum_in.rows == 5 && deriv_sum_in.cols == cell_dim);
  NNET3_ASSERT(self_repair_config.rows == 1 && self_repair_config.cols == 10);
  if (in_deriv.rows != 0 || in_deriv.cols != 0) {
    CheckView(in_deriv);
    NNET3_ASSERT(in_deriv.rows == in.rows && in_deriv.cols == in.cols);
  }
  if (params_deriv.rows != 0 || params_deriv.cols != 0) {
    CheckView(params_deriv);
    NNET3_ASSERT(params_deriv.rows == 3 && params_deriv.cols == cell_dim);
    for (const MatView *m :
         {&value_sum_out, &deriv_sum_out, &self_repair_sum_out}) {
      CheckView(*m);
      NNET3_ASSERT(m->rows == 5 && m->cols == cell_dim);
    }
  }
  Enter();
  std::lock_guard<std::mutex> lock(mutex_);
  void *scratch =
      ScratchLocked(kernels::DiffLstmScratchBytes(in.rows, cell_dim));
  NNET3_CUDA_CHECK(
      kernels::DiffLstmNonlinearity(
          stream_, in, params, out_deriv, deriv_sum_in, self_repair_config,
          count_in, in_deriv, params_deriv, value_sum_out, deriv_sum_out,
          self_repair_sum_out, scratch),
      "DiffLstmNonlinearity " << ShapeOf(in) << " (cell dim " << cell_dim
                              << ")");
}

// ---- random fills ----

void CudaBackend::RandUniform(uint64_t seed, MatView m) {
  CheckView(m);
  Enter();
  NNET3_CUDA_CHECK(kernels::RandUniform(stream_, seed, m),
                   "RandUniform " << ShapeOf(m));
}

void CudaBackend::RandGaussian(uint64_t seed, MatView m) {
  CheckView(m);
  Enter();
  NNET3_CUDA_CHECK(kernels::RandGaussian(stream_, seed, m),
                   "RandGaussian " << ShapeOf(m));
}

// ---- compression (Kaldi's CuCompressedMatrix) ----

void CudaBackend::CompressMat(ConstMatView src, CompressedType type,
                              float range, void *packed) {
  CheckView(src);
  const CompressionScales s = GetCompressionScales(type, range);
  if (range == 0.0f && type != CompressedType::kUint8)
    NNET3_INTERNAL_ERR << "compression with range 0 needs type uint8, not "
                       << static_cast<int32_t>(type);
  NNET3_ASSERT(packed != nullptr || src.rows == 0 || src.cols == 0);
  Enter();
  NNET3_CUDA_CHECK(
      kernels::CompressMat(stream_, src, type, s.inv_scale, packed),
      "CompressMat " << ShapeOf(src));
}

void CudaBackend::DecompressMat(const void *packed, CompressedType type,
                                float range, MatView dst) {
  CheckView(dst);
  const CompressionScales s = GetCompressionScales(type, range);
  if (range == 0.0f && type != CompressedType::kUint8)
    NNET3_INTERNAL_ERR << "compression with range 0 needs type uint8, not "
                       << static_cast<int32_t>(type);
  NNET3_ASSERT(packed != nullptr || dst.rows == 0 || dst.cols == 0);
  Enter();
  NNET3_CUDA_CHECK(kernels::DecompressMat(stream_, packed, type,
                                          range == 0.0f ? 1.0f : s.scale, dst),
                   "DecompressMat " << ShapeOf(dst));
}

// ---- row diagonals ----

void CudaBackend::AddRowDotProducts(float alpha, ConstMatView a, ConstMatView b,
                                    float beta, MatView v) {
  CheckSame(a, b);
  CheckView(v);
  NNET3_ASSERT(v.cols == a.rows && (v.rows == 1 || a.rows == 0));
  Enter();
  NNET3_CUDA_CHECK(kernels::AddRowDotProducts(stream_, alpha, a, b, beta, v),
                   "AddRowDotProducts " << ShapeOf(a));
}

void CudaBackend::AddDiagVecMat(float alpha, ConstMatView v, ConstMatView m,
                                float beta, MatView dst) {
  CheckView(v);
  CheckSame(m, dst);
  NNET3_ASSERT(v.cols == m.rows && (v.rows == 1 || m.rows == 0));
  Enter();
  NNET3_CUDA_CHECK(kernels::AddDiagVecMat(stream_, alpha, v, m, beta, dst),
                   "AddDiagVecMat " << ShapeOf(m));
}

}  // namespace nnet3
