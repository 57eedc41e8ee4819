// CudaBackend: creation, memory, copies, whole-matrix operations and GEMM.
// The other primitives are in cuda-backend-ops.cc.
#include "device/cuda-backend.h"

#include <algorithm>
#include <cstring>
#include <sstream>

#include "base/error.h"
#include "base/log.h"
#include "device/cuda-check.h"
#include "device/cuda-views.h"
#include "kernels/launchers.h"

namespace nnet3 {

using cuda::CheckView;
using cuda::SameShape;

namespace {

constexpr size_t kStagingBytes = size_t(4) << 20;
// Copies larger than this go straight from the caller's buffer.
constexpr size_t kMaxStagedCopy = size_t(256) << 10;

std::string MiB(size_t bytes) {
  std::ostringstream os;
  os.precision(1);
  os << std::fixed << bytes / 1048576.0 << " MiB";
  return os.str();
}

// Leading dimension for cuBLAS: >= max(1, cols) even where unused.
int Ld(const ConstMatView &m) { return std::max({m.stride, m.cols, 1}); }

cublasOperation_t Op(Trans t) {
  return t == Trans::kYes ? CUBLAS_OP_T : CUBLAS_OP_N;
}

}  // namespace

CudaBackend::CudaBackend(int id, const CublasApi &cublas,
                         const CudaBackendOptions &opts)
    : id_(id), cublas_(cublas), memory_cap_(opts.memory_cap) {
  Enter();
  cudaDeviceProp prop;
  NNET3_CUDA_CHECK(cudaGetDeviceProperties(&prop, id_),
                   "cudaGetDeviceProperties(" << id_ << ")");
  name_ = "cuda:" + std::to_string(id_) + " (" + prop.name + ")";
  NNET3_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking),
                   "cudaStreamCreateWithFlags on " << name_);
  NNET3_CUBLAS_CHECK(cublas_.create(&handle_), "cublasCreate on " << name_);
  NNET3_CUBLAS_CHECK(cublas_.set_stream(handle_, stream_),
                     "cublasSetStream on " << name_);
  NNET3_CUBLAS_CHECK(
      cublas_.set_math_mode(handle_, opts.use_tf32 ? CUBLAS_TF32_TENSOR_OP_MATH
                                                   : CUBLAS_DEFAULT_MATH),
      "cublasSetMathMode on " << name_);
  NNET3_CUDA_CHECK(cudaMallocHost(&host_result_, 16),
                   "cudaMallocHost(16) on " << name_);
  void *staging = nullptr;
  NNET3_CUDA_CHECK(cudaMallocHost(&staging, kStagingBytes),
                   "cudaMallocHost(" << kStagingBytes << ") on " << name_);
  staging_ = static_cast<char *>(staging);
  staging_bytes_ = kStagingBytes;
}

// Never throws: errors at this point (e.g. at process exit) are ignored.
CudaBackend::~CudaBackend() {
  Enter();
  cudaStreamSynchronize(stream_);
  if (scratch_ != nullptr) cudaFree(scratch_);
  if (staging_ != nullptr) cudaFreeHost(staging_);
  if (host_result_ != nullptr) cudaFreeHost(host_result_);
  if (handle_ != nullptr) cublas_.destroy(handle_);
  if (stream_ != nullptr) cudaStreamDestroy(stream_);
}

void CudaBackend::Enter() const {
  static thread_local int current = -1;
  if (current == id_) return;
  NNET3_CUDA_CHECK(cudaSetDevice(id_), "cudaSetDevice(" << id_ << ")");
  current = id_;
}

size_t CudaBackend::BytesAllocated() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return bytes_allocated_;
}

// ---- memory ----

std::string CudaBackend::OutOfMemoryMessage(size_t bytes,
                                            const char *why) const {
  size_t free_bytes = 0, total_bytes = 0;
  if (cudaMemGetInfo(&free_bytes, &total_bytes) != cudaSuccess)
    cudaGetLastError();
  std::ostringstream os;
  os << "Out of GPU memory: could not allocate " << MiB(bytes) << " on "
     << name_ << " (" << why << "); this process holds "
     << MiB(bytes_allocated_) << " on the GPU";
  if (memory_cap_ > 0) os << ", --cuda-memory-cap is " << MiB(memory_cap_);
  os << ", the GPU has " << MiB(free_bytes) << " free of " << MiB(total_bytes)
     << ". Use a smaller minibatch (e.g. --minibatch-size) or a smaller model";
  if (memory_cap_ > 0) os << ", or raise --cuda-memory-cap";
  return os.str();
}

void *CudaBackend::Allocate(size_t bytes) {
  if (bytes == 0) return nullptr;
  Enter();
  std::lock_guard<std::mutex> lock(mutex_);
  if (memory_cap_ > 0 && bytes_allocated_ + bytes > memory_cap_)
    NNET3_ERR << OutOfMemoryMessage(bytes, "over the cap");
  void *ptr = nullptr;
  const cudaError_t status = cudaMalloc(&ptr, bytes);
  if (status == cudaErrorMemoryAllocation) {
    cudaGetLastError();
    NNET3_ERR << OutOfMemoryMessage(bytes, "cudaMalloc failed");
  }
  NNET3_CUDA_CHECK(status, "cudaMalloc(" << bytes << ") on " << name_);
  allocations_[ptr] = bytes;
  bytes_allocated_ += bytes;
  return ptr;
}

void CudaBackend::Free(void *ptr) {
  if (ptr == nullptr) return;
  Enter();
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = allocations_.find(ptr);
  NNET3_ASSERT(it != allocations_.end());
  bytes_allocated_ -= it->second;
  allocations_.erase(it);
  NNET3_CUDA_CHECK(cudaFree(ptr), "cudaFree on " << name_);
}

void CudaBackend::Synchronize() {
  Enter();
  NNET3_CUDA_CHECK(cudaStreamSynchronize(stream_),
                   "cudaStreamSynchronize on " << name_
                                               << " (a kernel queued earlier "
                                                  "failed; rerun with "
                                                  "CUDA_LAUNCH_BLOCKING=1 to "
                                                  "find which)");
}

void *CudaBackend::ScratchLocked(size_t bytes) {
  if (bytes <= scratch_bytes_) return scratch_;
  if (scratch_ != nullptr) {
    NNET3_CUDA_CHECK(cudaFree(scratch_), "cudaFree (scratch) on " << name_);
    bytes_allocated_ -= scratch_bytes_;
    scratch_ = nullptr;
    scratch_bytes_ = 0;
  }
  const size_t size = std::max(bytes, size_t(64) << 10);
  if (memory_cap_ > 0 && bytes_allocated_ + size > memory_cap_)
    NNET3_ERR << OutOfMemoryMessage(size, "scratch space over the cap");
  NNET3_CUDA_CHECK(cudaMalloc(&scratch_, size),
                   "cudaMalloc(" << size << ") (scratch) on " << name_);
  scratch_bytes_ = size;
  bytes_allocated_ += size;
  return scratch_;
}

// ---- copies ----

const void *CudaBackend::StageLocked(const void *host_src, size_t bytes) {
  if (bytes > kMaxStagedCopy) return nullptr;
  if (staging_head_ + bytes > staging_bytes_) {
    // Earlier copies out of the buffer may still be queued: wait for them
    // before overwriting it from the start.
    NNET3_CUDA_CHECK(cudaStreamSynchronize(stream_),
                     "cudaStreamSynchronize (staging) on " << name_);
    staging_head_ = 0;
  }
  char *staged = staging_ + staging_head_;
  std::memcpy(staged, host_src, bytes);
  staging_head_ += (bytes + 255) / 256 * 256;
  return staged;
}

void CudaBackend::CopyFromHost(const void *host_src, void *dev_dst,
                               size_t bytes) {
  if (bytes == 0) return;
  Enter();
  std::lock_guard<std::mutex> lock(mutex_);
  const void *staged = StageLocked(host_src, bytes);
  NNET3_CUDA_CHECK(cudaMemcpyAsync(dev_dst, staged ? staged : host_src, bytes,
                                   cudaMemcpyHostToDevice, stream_),
                   "CopyFromHost of " << bytes << " bytes on " << name_);
  if (staged == nullptr)
    NNET3_CUDA_CHECK(cudaStreamSynchronize(stream_),
                     "CopyFromHost of " << bytes << " bytes on " << name_);
}

void CudaBackend::CopyToHost(const void *dev_src, void *host_dst,
                             size_t bytes) {
  if (bytes == 0) return;
  Enter();
  NNET3_CUDA_CHECK(cudaMemcpyAsync(host_dst, dev_src, bytes,
                                   cudaMemcpyDeviceToHost, stream_),
                   "CopyToHost of " << bytes << " bytes on " << name_);
  NNET3_CUDA_CHECK(cudaStreamSynchronize(stream_),
                   "CopyToHost of " << bytes << " bytes on " << name_
                                    << " (or a kernel queued before it)");
}

// Overlapping ranges (allowed, as memmove) go through the scratch buffer.
void CudaBackend::CopyDeviceToDevice(const void *dev_src, void *dev_dst,
                                     size_t bytes) {
  if (bytes == 0 || dev_src == dev_dst) return;
  Enter();
  const char *s = static_cast<const char *>(dev_src);
  char *d = static_cast<char *>(dev_dst);
  const bool overlap = s < d + bytes && d < s + bytes;
  std::lock_guard<std::mutex> lock(mutex_);
  if (overlap) {
    void *tmp = ScratchLocked(bytes);
    NNET3_CUDA_CHECK(
        cudaMemcpyAsync(tmp, s, bytes, cudaMemcpyDeviceToDevice, stream_),
        "CopyDeviceToDevice of " << bytes << " bytes");
    s = static_cast<const char *>(tmp);
  }
  NNET3_CUDA_CHECK(
      cudaMemcpyAsync(d, s, bytes, cudaMemcpyDeviceToDevice, stream_),
      "CopyDeviceToDevice of " << bytes << " bytes on " << name_);
}

void CudaBackend::CopyFromHost2D(const float *host_src, int32_t host_stride,
                                 MatView dst) {
  CheckView(dst);
  if (cuda::IsEmpty(dst)) return;
  NNET3_ASSERT(dst.rows == 1 || host_stride >= dst.cols);
  Enter();
  const size_t row_bytes = sizeof(float) * dst.cols;
  const size_t host_pitch = sizeof(float) * std::max(host_stride, dst.cols);
  const size_t dev_pitch = sizeof(float) * std::max(dst.stride, dst.cols);
  std::lock_guard<std::mutex> lock(mutex_);
  const size_t bytes = row_bytes * dst.rows;
  const char *src = reinterpret_cast<const char *>(host_src);
  size_t src_pitch = host_pitch;
  char *staged = nullptr;
  if (bytes <= kMaxStagedCopy) {
    // Pack the rows into the staging buffer, then one 2-D copy.
    if (staging_head_ + bytes > staging_bytes_) {
      NNET3_CUDA_CHECK(cudaStreamSynchronize(stream_),
                       "cudaStreamSynchronize (staging) on " << name_);
      staging_head_ = 0;
    }
    staged = staging_ + staging_head_;
    for (int32_t r = 0; r < dst.rows; r++)
      std::memcpy(staged + r * row_bytes, src + r * host_pitch, row_bytes);
    staging_head_ += (bytes + 255) / 256 * 256;
    src = staged;
    src_pitch = row_bytes;
  }
  NNET3_CUDA_CHECK(
      cudaMemcpy2DAsync(dst.data, dev_pitch, src, src_pitch, row_bytes,
                        dst.rows, cudaMemcpyHostToDevice, stream_),
      "CopyFromHost2D to " << ShapeOf(dst) << " on " << name_);
  if (staged == nullptr)
    NNET3_CUDA_CHECK(cudaStreamSynchronize(stream_),
                     "CopyFromHost2D to " << ShapeOf(dst) << " on " << name_);
}

void CudaBackend::CopyToHost2D(ConstMatView src, float *host_dst,
                               int32_t host_stride) {
  CheckView(src);
  if (cuda::IsEmpty(src)) return;
  NNET3_ASSERT(src.rows == 1 || host_stride >= src.cols);
  Enter();
  const size_t row_bytes = sizeof(float) * src.cols;
  NNET3_CUDA_CHECK(
      cudaMemcpy2DAsync(
          host_dst, sizeof(float) * std::max(host_stride, src.cols), src.data,
          sizeof(float) * std::max(src.stride, src.cols), row_bytes, src.rows,
          cudaMemcpyDeviceToHost, stream_),
      "CopyToHost2D from " << ShapeOf(src) << " on " << name_);
  NNET3_CUDA_CHECK(cudaStreamSynchronize(stream_),
                   "CopyToHost2D from " << ShapeOf(src) << " on " << name_
                                        << " (or a kernel queued before it)");
}

// ---- whole-matrix operations ----

void CudaBackend::SetConst(MatView m, float value) {
  CheckView(m);
  Enter();
  NNET3_CUDA_CHECK(kernels::SetConst(stream_, m, value),
                   "SetConst " << ShapeOf(m));
}

void CudaBackend::CopyMat(float alpha, ConstMatView src, Trans trans,
                          MatView dst) {
  CheckView(src);
  CheckView(dst);
  Enter();
  if (trans == Trans::kYes) {
    NNET3_ASSERT(src.rows == dst.cols && src.cols == dst.rows);
    NNET3_CUDA_CHECK(
        kernels::Transpose(stream_, alpha, src, dst, false),
        "CopyMat (transposed) " << ShapeOf(src) << " -> " << ShapeOf(dst));
    return;
  }
  NNET3_ASSERT(SameShape(src, dst));
  if (alpha == 1.0f && src.data == dst.data) return;
  NNET3_CUDA_CHECK(kernels::ScaleCopy(stream_, alpha, src, dst, false),
                   "CopyMat " << ShapeOf(src) << " -> " << ShapeOf(dst));
}

void CudaBackend::AddMat(float alpha, ConstMatView src, Trans trans,
                         MatView dst) {
  CheckView(src);
  CheckView(dst);
  Enter();
  if (trans == Trans::kYes) {
    NNET3_ASSERT(src.rows == dst.cols && src.cols == dst.rows);
    NNET3_CUDA_CHECK(
        kernels::Transpose(stream_, alpha, src, dst, true),
        "AddMat (transposed) " << ShapeOf(src) << " -> " << ShapeOf(dst));
    return;
  }
  NNET3_ASSERT(SameShape(src, dst));
  NNET3_CUDA_CHECK(kernels::ScaleCopy(stream_, alpha, src, dst, true),
                   "AddMat " << ShapeOf(src) << " -> " << ShapeOf(dst));
}

void CudaBackend::Scale(float alpha, MatView m) {
  if (alpha == 1.0f) return;
  if (alpha == 0.0f) {  // as Kaldi: scaling by zero clears NaN and inf too
    SetConst(m, 0.0f);
    return;
  }
  CheckView(m);
  Enter();
  NNET3_CUDA_CHECK(kernels::ScaleCopy(stream_, alpha, m, m, false),
                   "Scale " << ShapeOf(m));
}

void CudaBackend::AddConst(float value, MatView m) {
  CheckView(m);
  Enter();
  NNET3_CUDA_CHECK(kernels::AddConst(stream_, value, m),
                   "AddConst " << ShapeOf(m));
}

void CudaBackend::AddMatAndScaleSrc(float alpha, MatView src, float src_scale,
                                    MatView dst) {
  CheckView(src);
  CheckView(dst);
  NNET3_ASSERT(SameShape(src, dst));
  Enter();
  NNET3_CUDA_CHECK(
      kernels::AddMatAndScaleSrc(stream_, alpha, src, src_scale, dst),
      "AddMatAndScaleSrc " << ShapeOf(dst));
}

void CudaBackend::ScaleAndAddMat(float beta, float alpha, ConstMatView src,
                                 MatView dst) {
  CheckView(src);
  CheckView(dst);
  NNET3_ASSERT(src.rows == dst.rows && src.cols == dst.cols);
  Enter();
  NNET3_CUDA_CHECK(kernels::ScaleAndAddMat(stream_, beta, alpha, src, dst),
                   "ScaleAndAddMat " << ShapeOf(dst));
}

// ---- GEMM ----

// Row-major C = op(A) op(B) is column-major Cᵀ = op(B)ᵀ op(A)ᵀ, and a
// row-major buffer read column-major is the transpose: so cuBLAS gets B
// first, with the same transpose flags, and the row strides as leading
// dimensions.
void CudaBackend::Gemm(float alpha, ConstMatView a, Trans trans_a,
                       ConstMatView b, Trans trans_b, float beta, MatView c) {
  CheckView(a);
  CheckView(b);
  CheckView(c);
  const bool ta = trans_a == Trans::kYes, tb = trans_b == Trans::kYes;
  const int32_t m = ta ? a.cols : a.rows, k = ta ? a.rows : a.cols;
  const int32_t kb = tb ? b.cols : b.rows, n = tb ? b.rows : b.cols;
  NNET3_ASSERT(k == kb && c.rows == m && c.cols == n);
  if (m == 0 || n == 0) return;
  if (k == 0 || alpha == 0.0f) {  // C = beta * C, as BLAS defines it
    if (beta == 0.0f)
      SetConst(c, 0.0f);
    else
      Scale(beta, c);
    return;
  }
  Enter();
  // cuBLAS does not read C when beta == 0.
  NNET3_CUBLAS_CHECK(
      cublas_.sgemm(handle_, Op(trans_b), Op(trans_a), n, m, k, &alpha, b.data,
                    Ld(b), a.data, Ld(a), &beta, c.data, Ld(c)),
      "Gemm: C " << ShapeOf(c) << " = A " << ShapeOf(a) << (ta ? "ᵀ" : "")
                 << " * B " << ShapeOf(b) << (tb ? "ᵀ" : "") << " on "
                 << name_);
}

}  // namespace nnet3
