// The CUDA kernels of the CUDA backend, behind plain C++ launcher
// declarations: this header needs no CUDA compiler, only the CUDA runtime's
// C API header (for cudaStream_t and cudaError_t). The launchers are
// defined in kernels/*.cu; only lib/device/cuda-backend*.cc calls them.
//
// Each launcher queues its kernels on `stream` and returns the launch status
// (cudaGetLastError after the launch; cudaSuccess when there was nothing to
// do). The caller turns a failure into an exception naming the primitive and
// the shapes. Views, index vectors and pointer lists are device memory with
// the meanings of the Backend primitive of the same name (device/backend.h);
// shapes are checked by the caller, not here. Launchers that reduce take a
// device scratch buffer of at least the bytes that the matching *ScratchBytes
// function returns.
#ifndef NNET3_KERNELS_LAUNCHERS_H_
#define NNET3_KERNELS_LAUNCHERS_H_

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "device/backend.h"

namespace nnet3 {
namespace kernels {

// ---- elementwise.cu: whole-matrix and elementwise operations ----
cudaError_t SetConst(cudaStream_t stream, MatView m, float value);
// dst = alpha * src (add == false) or dst += alpha * src (add == true).
cudaError_t ScaleCopy(cudaStream_t stream, float alpha, ConstMatView src,
                      MatView dst, bool add);
// dst = alpha * srcᵀ or dst += alpha * srcᵀ (dst is src.cols x src.rows).
cudaError_t Transpose(cudaStream_t stream, float alpha, ConstMatView src,
                      MatView dst, bool add);
cudaError_t AddConst(cudaStream_t stream, float value, MatView m);
// dst += alpha * src, then src *= src_scale (0: zeros, even over NaN).
cudaError_t AddMatAndScaleSrc(cudaStream_t stream, float alpha, MatView src,
                              float src_scale, MatView dst);
// dst = beta * dst + alpha * src (beta == 0 ignores dst).
cudaError_t ScaleAndAddMat(cudaStream_t stream, float beta, float alpha,
                           ConstMatView src, MatView dst);
cudaError_t Apply(cudaStream_t stream, Func f, ConstMatView in, MatView out);
cudaError_t ApplyPow(cudaStream_t stream, float power, ConstMatView in,
                     MatView out);
cudaError_t Clamp(cudaStream_t stream, float lower, float upper,
                  ConstMatView in, MatView out);
enum class Binary { kMul, kDiv, kMax, kMin };
// dst = dst op src.
cudaError_t BinaryElements(cudaStream_t stream, Binary op, ConstMatView src,
                           MatView dst);
cudaError_t AddMatMatElements(cudaStream_t stream, float alpha, ConstMatView a,
                              ConstMatView b, float beta, MatView dst);
// dst(r, c) = (a(r, c) == b(r, c)) ? 1 : 0.
cudaError_t EqualElementMask(cudaStream_t stream, ConstMatView a,
                             ConstMatView b, MatView dst);
enum class Diff { kSigmoid, kTanh, kRelu };
cudaError_t DiffNonlinearity(cudaStream_t stream, Diff kind, ConstMatView y,
                             ConstMatView out_deriv, MatView in_deriv);

// ---- vectors.cu: vectors against matrices ----
cudaError_t AddVecToRows(cudaStream_t stream, float alpha, ConstMatView v,
                         MatView m);
cudaError_t AddVecToCols(cudaStream_t stream, float alpha, ConstMatView v,
                         MatView m);
cudaError_t MulColsVec(cudaStream_t stream, ConstMatView v, MatView m);
// out(r, c) = g(in(r, c)) * scale(c) + offset(c), g = ReLU when rectify.
cudaError_t ScaleOffsetCols(cudaStream_t stream, bool rectify,
                            ConstMatView scale, ConstMatView offset,
                            ConstMatView in, MatView out);
cudaError_t MulRowsVec(cudaStream_t stream, ConstMatView v, MatView m);
cudaError_t AddDiagVecMat(cudaStream_t stream, float alpha, ConstMatView v,
                          ConstMatView m, float beta, MatView dst);

// ---- rows.cu: rows and columns through index vectors, pointer lists and
//      ranges ----
// add == false: CopyRows; add == true: AddRows.
cudaError_t GatherRows(cudaStream_t stream, float alpha, ConstMatView src,
                       const int32_t *idx, MatView dst, bool add);
// add == false: CopyToRows (alpha must be 1); add == true: AddToRows.
cudaError_t ScatterRows(cudaStream_t stream, float alpha, ConstMatView src,
                        const int32_t *idx, MatView dst, bool add);
// add == false: CopyRowsFromPtrs; add == true: AddRowsFromPtrs.
cudaError_t GatherRowPtrs(cudaStream_t stream, float alpha,
                          const float *const *ptrs, MatView dst, bool add);
// add == false: CopyToRowPtrs (alpha 1); add == true: AddToRowPtrs.
cudaError_t ScatterRowPtrs(cudaStream_t stream, float alpha, ConstMatView src,
                           float *const *ptrs, bool add);
cudaError_t AddRowRanges(cudaStream_t stream, float alpha, ConstMatView src,
                         const int32_t *ranges, MatView dst);
// add == false: CopyCols; add == true: AddCols.
cudaError_t GatherCols(cudaStream_t stream, ConstMatView src,
                       const int32_t *idx, MatView dst, bool add);

// ---- softmax.cu: row-wise softmax and row reductions ----
cudaError_t SoftmaxRows(cudaStream_t stream, ConstMatView in, MatView out,
                        bool log);
cudaError_t DiffSoftmax(cudaStream_t stream, ConstMatView y,
                        ConstMatView out_deriv, MatView in_deriv, bool log);
// v(r) = beta * v(r) + alpha * sum_c m(r, c).
cudaError_t AddColSumToVec(cudaStream_t stream, float alpha, ConstMatView m,
                           float beta, MatView v);
cudaError_t AddRowDotProducts(cudaStream_t stream, float alpha, ConstMatView a,
                              ConstMatView b, float beta, MatView v);

// ---- reduce.cu: reductions over rows and over whole matrices ----
// v(c) = beta * v(c) + alpha * sum_r m(r, c).
size_t AddRowSumToVecScratchBytes(int32_t rows, int32_t cols);
cudaError_t AddRowSumToVec(cudaStream_t stream, float alpha, ConstMatView m,
                           float beta, MatView v, void *scratch);
enum class Reduce { kSum, kDot, kMax, kMin };
size_t ReduceScratchBytes();
// Writes the result to *result (device memory): a double for kSum and kDot
// (b is used by kDot only), a float for kMax and kMin (-inf / +inf for an
// empty view).
cudaError_t ReduceAll(cudaStream_t stream, Reduce op, ConstMatView a,
                      ConstMatView b, void *scratch, void *result);

// ---- lstm.cu: the fused LSTM cell (Backend::LstmNonlinearity) ----
cudaError_t LstmNonlinearity(cudaStream_t stream, ConstMatView in,
                             ConstMatView params, MatView out);
size_t DiffLstmScratchBytes(int32_t rows, int32_t cell_dim);
// Arguments as Backend::DiffLstmNonlinearity; want_in_deriv / want_params
// say whether in_deriv / params_deriv (and the stats) are wanted.
cudaError_t DiffLstmNonlinearity(cudaStream_t stream, ConstMatView in,
                                 ConstMatView params, ConstMatView out_deriv,
                                 ConstMatView deriv_sum_in,
                                 ConstMatView self_repair_config,
                                 double count_in, MatView in_deriv,
                                 MatView params_deriv, MatView value_sum_out,
                                 MatView deriv_sum_out,
                                 MatView self_repair_sum_out, void *scratch);

// ---- compress.cu: Backend::CompressMat / DecompressMat ----
// inv_scale == 0 means range 0 (the sign form, uint8 only); scale is 1 then.
cudaError_t CompressMat(cudaStream_t stream, ConstMatView src,
                        CompressedType type, float inv_scale, void *packed);
cudaError_t DecompressMat(cudaStream_t stream, const void *packed,
                          CompressedType type, float scale, MatView dst);

// ---- random.cu: counter-based fills (device/random-bits.h) ----
cudaError_t RandUniform(cudaStream_t stream, uint64_t seed, MatView m);
cudaError_t RandGaussian(cudaStream_t stream, uint64_t seed, MatView m);

// ---- probe.cu ----
// cudaSuccess if this build has a kernel image the current device can run,
// else the error (cudaErrorNoKernelImageForDevice, ...).
cudaError_t ProbeKernelImage();

}  // namespace kernels
}  // namespace nnet3

#endif  // NNET3_KERNELS_LAUNCHERS_H_
