// CpuBackend: memory, copies, whole-matrix operations and GEMM.
#include "device/cpu-backend.h"

#include <cblas.h>
#include <sys/mman.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "base/error.h"
#include "device/blas-workspace.h"
#include "device/cpu-gemm.h"
#include "device/cpu-kernels.h"
#include "device/cpu-loops.h"

namespace nnet3 {

using cpu::CheckView;
using cpu::RowOf;
using cpu::SameShape;

namespace {

constexpr size_t kAlignment = 64;
// Blocks this large are mapped directly (see Allocate).
constexpr size_t kMapBytes = size_t{1} << 20;

// Products with at most this many rows of op(A) = A and op(B) = B^T go to
// the small-product kernel (cpu-kernels.h).
constexpr int32_t kSmallGemmRows = 12;

// BLAS wants a leading dimension >= max(1, cols) even where it is unused (a
// single-row view may carry any stride).
inline int Ld(const ConstMatView &m) { return std::max({m.stride, m.cols, 1}); }

inline CBLAS_TRANSPOSE BlasTrans(Trans t) {
  return t == Trans::kYes ? CblasTrans : CblasNoTrans;
}

// dst(r, c) = alpha * src(c, r) (add == false) or += (add == true), in
// square tiles so that both the reads and the writes stay in cache.
void TransposeInto(float alpha, ConstMatView src, MatView dst, bool add) {
  NNET3_ASSERT(src.rows == dst.cols && src.cols == dst.rows);
  constexpr int32_t kTile = 32;
  for (int32_t r0 = 0; r0 < dst.rows; r0 += kTile) {
    const int32_t r1 = std::min(dst.rows, r0 + kTile);
    for (int32_t c0 = 0; c0 < dst.cols; c0 += kTile) {
      const int32_t c1 = std::min(dst.cols, c0 + kTile);
      for (int32_t r = r0; r < r1; r++) {
        float *y = RowOf(dst, r);
        const float *x = src.data + r;
        if (add) {
          for (int32_t c = c0; c < c1; c++)
            y[c] += alpha * x[static_cast<int64_t>(c) * src.stride];
        } else {
          for (int32_t c = c0; c < c1; c++)
            y[c] = alpha * x[static_cast<int64_t>(c) * src.stride];
        }
      }
    }
  }
}

}  // namespace

CpuBackend::CpuBackend() { ReserveBlasWorkspace(); }

// ---- memory ----

void *CpuBackend::Allocate(size_t bytes) {
  if (bytes == 0) return nullptr;
  // aligned_alloc needs a size that is a multiple of the alignment.
  const size_t rounded = (bytes + kAlignment - 1) / kAlignment * kAlignment;
  // Blocks of 1 MiB and more are mapped here and unmapped when freed: the
  // caching allocator is their one cache and decides what to keep. They
  // do not go through malloc, whose own thresholds are left to adapt to
  // the other large blocks of the process: the products' packing buffers,
  // which oneDNN allocates and frees on every call. (With malloc's mmap
  // threshold fixed at 1 MiB for our blocks' sake, each product mapped
  // and unmapped its 1.8-12 MB buffer and faulted all of it in again.)
  if (rounded >= kMapBytes) {
    void *ptr = mmap(nullptr, rounded, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (ptr == MAP_FAILED)
      NNET3_ERR << "Out of memory: could not allocate " << bytes
                << " bytes of CPU memory; use smaller minibatches or models.";
    std::lock_guard<std::mutex> lock(mapped_mutex_);
    mapped_[ptr] = rounded;
    return ptr;
  }
  void *ptr = std::aligned_alloc(kAlignment, rounded);
  if (ptr == nullptr)
    NNET3_ERR << "Out of memory: could not allocate " << bytes
              << " bytes of CPU memory; use smaller minibatches or models.";
  return ptr;
}

void CpuBackend::Free(void *ptr) {
  if (ptr == nullptr) return;
  {
    std::lock_guard<std::mutex> lock(mapped_mutex_);
    auto it = mapped_.find(ptr);
    if (it != mapped_.end()) {
      const size_t bytes = it->second;
      mapped_.erase(it);
      munmap(ptr, bytes);
      return;
    }
  }
  std::free(ptr);
}

// ---- copies ----

void CpuBackend::CopyFromHost(const void *host_src, void *dev_dst,
                              size_t bytes) {
  if (bytes > 0 && host_src != dev_dst) std::memcpy(dev_dst, host_src, bytes);
}

void CpuBackend::CopyToHost(const void *dev_src, void *host_dst, size_t bytes) {
  if (bytes > 0 && dev_src != host_dst) std::memcpy(host_dst, dev_src, bytes);
}

void CpuBackend::CopyDeviceToDevice(const void *dev_src, void *dev_dst,
                                    size_t bytes) {
  if (bytes > 0 && dev_src != dev_dst) std::memmove(dev_dst, dev_src, bytes);
}

void CpuBackend::CopyFromHost2D(const float *host_src, int32_t host_stride,
                                MatView dst) {
  CheckView(dst);
  if (dst.rows == 0 || dst.cols == 0) return;
  NNET3_ASSERT(dst.rows == 1 || host_stride >= dst.cols);
  const size_t row_bytes = sizeof(float) * dst.cols;
  for (int32_t r = 0; r < dst.rows; r++)
    std::memcpy(RowOf(dst, r), host_src + static_cast<int64_t>(r) * host_stride,
                row_bytes);
}

void CpuBackend::CopyToHost2D(ConstMatView src, float *host_dst,
                              int32_t host_stride) {
  CheckView(src);
  if (src.rows == 0 || src.cols == 0) return;
  NNET3_ASSERT(src.rows == 1 || host_stride >= src.cols);
  const size_t row_bytes = sizeof(float) * src.cols;
  for (int32_t r = 0; r < src.rows; r++)
    std::memcpy(host_dst + static_cast<int64_t>(r) * host_stride, RowOf(src, r),
                row_bytes);
}

// ---- whole-matrix operations ----

void CpuBackend::SetConst(MatView m, float value) {
  cpu::MapInPlace(m, [value](float) { return value; });
}

void CpuBackend::CopyMat(float alpha, ConstMatView src, Trans trans,
                         MatView dst) {
  CheckView(src);
  CheckView(dst);
  if (trans == Trans::kYes) {
    TransposeInto(alpha, src, dst, false);
    return;
  }
  NNET3_ASSERT(SameShape(src, dst));
  if (alpha == 1.0f) {
    if (src.data == dst.data) return;
    const size_t row_bytes = sizeof(float) * dst.cols;
    for (int32_t r = 0; r < dst.rows && row_bytes > 0; r++)
      std::memcpy(RowOf(dst, r), RowOf(src, r), row_bytes);
    return;
  }
  cpu::Map(src, dst, [alpha](float x) { return alpha * x; });
}

void CpuBackend::AddMat(float alpha, ConstMatView src, Trans trans,
                        MatView dst) {
  CheckView(src);
  CheckView(dst);
  if (trans == Trans::kYes) {
    TransposeInto(alpha, src, dst, true);
    return;
  }
  cpu::Zip(src, dst, [alpha](float x, float y) { return y + alpha * x; });
}

void CpuBackend::Scale(float alpha, MatView m) {
  if (alpha == 1.0f) return;
  if (alpha == 0.0f) {  // as Kaldi: scaling by zero clears NaN and inf too
    SetConst(m, 0.0f);
    return;
  }
  cpu::MapInPlace(m, [alpha](float x) { return alpha * x; });
}

void CpuBackend::AddConst(float value, MatView m) {
  cpu::MapInPlace(m, [value](float x) { return x + value; });
}

void CpuBackend::AddMatAndScaleSrc(float alpha, MatView src, float src_scale,
                                   MatView dst) {
  CheckView(src);
  CheckView(dst);
  NNET3_ASSERT(SameShape(src, dst));
  for (int32_t r = 0; r < dst.rows; r++) {
    float *x = RowOf(src, r), *y = RowOf(dst, r);
    if (src_scale == 0.0f) {
      for (int32_t c = 0; c < dst.cols; c++) {
        y[c] += alpha * x[c];
        x[c] = 0.0f;
      }
    } else {
      for (int32_t c = 0; c < dst.cols; c++) {
        y[c] += alpha * x[c];
        x[c] *= src_scale;
      }
    }
  }
}

void CpuBackend::ScaleAndAddMat(float beta, float alpha, ConstMatView src,
                                MatView dst) {
  CheckView(src);
  CheckView(dst);
  NNET3_ASSERT(src.rows == dst.rows && src.cols == dst.cols);
  for (int32_t r = 0; r < dst.rows; r++) {
    const float *x = src.data + int64_t(r) * src.stride;
    float *y = RowOf(dst, r);
    if (beta == 0.0f) {
      for (int32_t c = 0; c < dst.cols; c++) y[c] = alpha * x[c];
    } else {
      for (int32_t c = 0; c < dst.cols; c++) y[c] = beta * y[c] + alpha * x[c];
    }
  }
}

// ---- GEMM ----

void CpuBackend::Gemm(float alpha, ConstMatView a, Trans trans_a,
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
  if (m == 1 || n == 1) {
    GemvProduct(alpha, a, trans_a, b, trans_b, beta, c);
    return;
  }
  // A few rows times a transposed weight matrix (the forward product of a
  // small batch): OpenBLAS's sgemm packs the whole of B for them and runs at
  // a fraction of its speed; the small kernel reads each row of B once for
  // all rows of A (2-4x faster for 2..12 rows, on one or two threads).
  if (!ta && tb && m <= kSmallGemmRows) {
    cpu::ActiveKernels().gemm_small_nt(m, n, k, alpha, a.data, Ld(a), b.data,
                                       Ld(b), beta, c.data, Ld(c));
    return;
  }
  // OpenBLAS's and oneDNN's beta == 0 paths write C without reading it.
  cpu::Sgemm(cpu::ActiveGemmLibrary(), ta, tb, m, n, k, alpha, a.data, Ld(a),
             b.data, Ld(b), beta, c.data, Ld(c));
}

// One-row (or one-column) products through sgemv, which OpenBLAS runs about
// 13x faster than sgemm on such shapes. Row-major C = op(A) op(B):
//   one row:    c^T = op(B)^T x  where x is the single row of op(A);
//   one column: c   = op(A) x    where x is the single column of op(B).
void CpuBackend::GemvProduct(float alpha, ConstMatView a, Trans trans_a,
                             ConstMatView b, Trans trans_b, float beta,
                             MatView c) {
  const bool ta = trans_a == Trans::kYes, tb = trans_b == Trans::kYes;
  const int32_t m = c.rows, n = c.cols, k = ta ? a.rows : a.cols;
  // sgemv's handling of beta == 0 differs between OpenBLAS versions (some
  // multiply, propagating NaN), so clear C ourselves; it is only a vector.
  if (beta == 0.0f) SetConst(c, 0.0f);
  if (m == 1) {
    const int incx = ta ? std::max(a.stride, 1) : 1;
    if (!tb)  // B is k x n: c^T = B^T x
      cblas_sgemv(CblasRowMajor, CblasTrans, k, n, alpha, b.data, Ld(b), a.data,
                  incx, beta, c.data, 1);
    else  // B is n x k: c^T = B x
      cblas_sgemv(CblasRowMajor, CblasNoTrans, n, k, alpha, b.data, Ld(b),
                  a.data, incx, beta, c.data, 1);
    return;
  }
  const int incx = tb ? 1 : std::max(b.stride, 1);
  const int incy = std::max(c.stride, 1);
  if (!ta)  // A is m x k: c = A x
    cblas_sgemv(CblasRowMajor, CblasNoTrans, m, k, alpha, a.data, Ld(a), b.data,
                incx, beta, c.data, incy);
  else  // A is k x m: c = A^T x
    cblas_sgemv(CblasRowMajor, CblasTrans, k, m, alpha, a.data, Ld(a), b.data,
                incx, beta, c.data, incy);
}

}  // namespace nnet3
