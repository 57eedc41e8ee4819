// The Backend: the table of primitives that everything above lib/device calls
// without knowing which device it runs on (in the spirit of ggml's backend
// interface). The CPU backend (cpu-backend.h, OpenBLAS) is always built and is
// the reference; a CUDA backend implements the same table.
//
// Memory handed out by a backend is *device* memory: code above lib/device
// must never dereference it, only pass it back to primitives or copy it to or
// from the host with the Copy* functions. Index vectors and row-pointer lists
// passed to primitives must also live in device memory (copy them there first).
//
// Matrices are described by strided views: `data` points at element (0,0),
// element (r,c) is at data[r * stride + c], stride >= cols. All primitives
// accept empty views (rows or cols zero) and do nothing with them. Unless a
// primitive says otherwise, input and output views must not partially
// overlap (identical views are allowed where marked "in place ok").
//
// Derivative formulas are stated next to each Diff* primitive.
#ifndef NNET3_DEVICE_BACKEND_H_
#define NNET3_DEVICE_BACKEND_H_

#include <cstddef>
#include <cstdint>
#include <string>

namespace nnet3 {

// A mutable strided view of device memory.
struct MatView {
  float *data = nullptr;
  int32_t rows = 0, cols = 0, stride = 0;
  MatView() = default;
  MatView(float *d, int32_t r, int32_t c, int32_t s)
      : data(d), rows(r), cols(c), stride(s) {}
};

// A read-only strided view of device memory.
struct ConstMatView {
  const float *data = nullptr;
  int32_t rows = 0, cols = 0, stride = 0;
  ConstMatView() = default;
  ConstMatView(const float *d, int32_t r, int32_t c, int32_t s)
      : data(d), rows(r), cols(c), stride(s) {}
  ConstMatView(const MatView &m)  // NOLINT: implicit on purpose
      : data(m.data), rows(m.rows), cols(m.cols), stride(m.stride) {}
};

enum class Trans { kNo, kYes };

// Elementwise functions for Apply: out = f(in). In place ok.
enum class Func {
  kRelu,     // max(0, x)
  kSigmoid,  // 1 / (1 + exp(-x))
  kTanh,
  kExp,
  kLog,  // natural log; log(0) = -inf, log(x<0) = nan as in libm
  kAbs,
  kSquare,
  kSqrt,
  kSign,       // -1, 0 or 1
  kHeaviside,  // x > 0 ? 1 : 0
  kFloor,      // floor(x)
};

// The element types of a compressed matrix (Kaldi's CuCompressedMatrix),
// numbered as the type argument of kCompressMatrix.
enum class CompressedType : int32_t {
  kInt8 = 1,
  kUint8 = 2,
  kInt16 = 3,
  kUint16 = 4
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string Name() const = 0;  // "cpu", "cuda:0 (NVIDIA H100)"
  virtual bool IsGpu() const = 0;

  // ---- memory ----
  // Raw allocation; callers normally go through CachingAllocator. Returns
  // memory aligned to at least 64 bytes; bytes == 0 returns nullptr.
  virtual void *Allocate(size_t bytes) = 0;
  virtual void Free(void *ptr) = 0;
  // Waits until all queued work is done (no-op on CPU).
  virtual void Synchronize() = 0;

  // ---- copies ----
  virtual void CopyFromHost(const void *host_src, void *dev_dst,
                            size_t bytes) = 0;
  virtual void CopyToHost(const void *dev_src, void *host_dst,
                          size_t bytes) = 0;
  virtual void CopyDeviceToDevice(const void *dev_src, void *dev_dst,
                                  size_t bytes) = 0;
  // Strided 2-D copies. Host buffers are row-major with the given stride.
  virtual void CopyFromHost2D(const float *host_src, int32_t host_stride,
                              MatView dst) = 0;
  virtual void CopyToHost2D(ConstMatView src, float *host_dst,
                            int32_t host_stride) = 0;

  // ---- whole-matrix operations ----
  virtual void SetConst(MatView m, float value) = 0;
  // dst = alpha * op(src) where op is identity or transpose; in place ok
  // (same view, kNo) for a scale.
  virtual void CopyMat(float alpha, ConstMatView src, Trans trans,
                       MatView dst) = 0;
  // dst += alpha * op(src).
  virtual void AddMat(float alpha, ConstMatView src, Trans trans,
                      MatView dst) = 0;
  // m *= alpha; alpha == 0 sets zeros (even over NaN), as Kaldi's Scale.
  virtual void Scale(float alpha, MatView m) = 0;
  // m = m + value (every element).
  virtual void AddConst(float value, MatView m) = 0;
  // C = alpha * op(A) * op(B) + beta * C. beta == 0 ignores C's old contents
  // (even NaN).
  virtual void Gemm(float alpha, ConstMatView a, Trans trans_a, ConstMatView b,
                    Trans trans_b, float beta, MatView c) = 0;

  // ---- rows through index vectors (device int32 arrays of dst.rows) ----
  // dst row r = alpha * src row idx[r]; idx[r] == -1 gives a zero row.
  virtual void CopyRows(float alpha, ConstMatView src, const int32_t *idx,
                        MatView dst) = 0;
  // dst row r += alpha * src row idx[r]; idx[r] == -1 skips the row.
  virtual void AddRows(float alpha, ConstMatView src, const int32_t *idx,
                       MatView dst) = 0;
  // idx has src.rows entries: dst row idx[r] = src row r (-1: skip).
  virtual void CopyToRows(ConstMatView src, const int32_t *idx,
                          MatView dst) = 0;
  // dst row idx[r] += alpha * src row r (-1: skip). Destinations distinct.
  virtual void AddToRows(float alpha, ConstMatView src, const int32_t *idx,
                         MatView dst) = 0;

  // ---- rows through pointer lists (device arrays of dst.rows pointers,
  //      each pointing at `cols` floats in device memory) ----
  // dst row r = alpha * *ptrs[r]; nullptr gives a zero row.
  virtual void CopyRowsFromPtrs(float alpha, const float *const *ptrs,
                                MatView dst) = 0;
  // dst row r += alpha * *ptrs[r]; nullptr skips.
  virtual void AddRowsFromPtrs(float alpha, const float *const *ptrs,
                               MatView dst) = 0;
  // *ptrs[r] = src row r; nullptr skips. ptrs has src.rows entries.
  virtual void CopyToRowPtrs(ConstMatView src, float *const *ptrs) = 0;
  // *ptrs[r] += alpha * src row r; nullptr skips. Destinations distinct.
  virtual void AddToRowPtrs(float alpha, ConstMatView src,
                            float *const *ptrs) = 0;
  // dst row r += alpha * sum of src rows [ranges[2r], ranges[2r+1]);
  // an empty range adds nothing. ranges has 2 * dst.rows int32 entries.
  // Each column's sum is a float sum, row after row (Kaldi's rounding:
  // statistics pooling's variances depend on it).
  virtual void AddRowRanges(float alpha, ConstMatView src,
                            const int32_t *ranges, MatView dst) = 0;

  // ---- columns through index vectors (device int32 arrays of dst.cols;
  //      convolution and pooling gather their patches with these) ----
  // dst(r, c) = src(r, idx[c]); idx[c] == -1 gives a zero column.
  virtual void CopyCols(ConstMatView src, const int32_t *idx, MatView dst) = 0;
  // dst(r, c) += src(r, idx[c]); idx[c] == -1 adds nothing.
  virtual void AddCols(ConstMatView src, const int32_t *idx, MatView dst) = 0;
  // dst(r, c) = (a(r, c) == b(r, c)) ? 1 : 0 (max-pooling's backprop mask);
  // dst may be the same view as a or b.
  virtual void EqualElementMask(ConstMatView a, ConstMatView b,
                                MatView dst) = 0;

  // ---- elementwise ----
  virtual void Apply(Func f, ConstMatView in, MatView out) = 0;
  // out = std::pow(in, power), as Kaldi's ApplyPow (power 0.5, 2, ...;
  // negative inputs give NaN for non-integer powers and in^power for integer
  // ones, e.g. (-3)^2 = 9). In place ok.
  virtual void ApplyPow(float power, ConstMatView in, MatView out) = 0;
  // out = min(max(in, lower), upper); in place ok.
  virtual void Clamp(float lower, float upper, ConstMatView in,
                     MatView out) = 0;
  // dst = dst * src, dst = dst / src, dst = max(dst, src), dst = min(dst, src).
  virtual void MulElements(ConstMatView src, MatView dst) = 0;
  virtual void DivElements(ConstMatView src, MatView dst) = 0;
  virtual void MaxElements(ConstMatView src, MatView dst) = 0;
  virtual void MinElements(ConstMatView src, MatView dst) = 0;
  // dst = alpha * a .* b + beta * dst (beta == 0 ignores old contents).
  virtual void AddMatMatElements(float alpha, ConstMatView a, ConstMatView b,
                                 float beta, MatView dst) = 0;

  // ---- nonlinearity derivatives: in_deriv from the forward value y ----
  // (in_deriv may be the same view as out_deriv, here and for softmax)
  // sigmoid: in_deriv = out_deriv * y * (1 - y)
  virtual void DiffSigmoid(ConstMatView y, ConstMatView out_deriv,
                           MatView in_deriv) = 0;
  // tanh: in_deriv = out_deriv * (1 - y^2)
  virtual void DiffTanh(ConstMatView y, ConstMatView out_deriv,
                        MatView in_deriv) = 0;
  // relu: in_deriv = out_deriv * (y > 0)
  virtual void DiffRelu(ConstMatView y, ConstMatView out_deriv,
                        MatView in_deriv) = 0;

  // ---- row-wise softmax (in place ok) ----
  virtual void SoftmaxRows(ConstMatView in, MatView out) = 0;
  virtual void LogSoftmaxRows(ConstMatView in, MatView out) = 0;
  // softmax: in_deriv = y .* (out_deriv - rowsum(out_deriv .* y))
  virtual void DiffSoftmax(ConstMatView y, ConstMatView out_deriv,
                           MatView in_deriv) = 0;
  // log-softmax: in_deriv = out_deriv - exp(y) * rowsum(out_deriv)
  virtual void DiffLogSoftmax(ConstMatView y, ConstMatView out_deriv,
                              MatView in_deriv) = 0;

  // ---- vectors (a vector is a 1 x dim view) against matrices ----
  // m row r += alpha * v (v is 1 x m.cols), for every row.
  virtual void AddVecToRows(float alpha, ConstMatView v, MatView m) = 0;
  // m(r, c) += alpha * v(r) (v is 1 x m.rows).
  virtual void AddVecToCols(float alpha, ConstMatView v, MatView m) = 0;
  // m(r, c) *= v(c) (v is 1 x m.cols).
  virtual void MulColsVec(ConstMatView v, MatView m) = 0;
  // m(r, c) *= v(r) (v is 1 x m.rows).
  virtual void MulRowsVec(ConstMatView v, MatView m) = 0;

  // ---- reductions ----
  // v = beta * v + alpha * (sum over rows of m): v is 1 x m.cols. For both
  // sums, beta == 0 ignores v's old contents.
  virtual void AddRowSumToVec(float alpha, ConstMatView m, float beta,
                              MatView v) = 0;
  // v = beta * v + alpha * (sum over columns of m): v is 1 x m.rows.
  virtual void AddColSumToVec(float alpha, ConstMatView m, float beta,
                              MatView v) = 0;
  // Sum of all elements (accumulated in double).
  virtual double Sum(ConstMatView m) = 0;
  // Sum of a .* b (accumulated in double); a and b have equal shapes.
  virtual double DotProduct(ConstMatView a, ConstMatView b) = 0;
  virtual float Max(ConstMatView m) = 0;  // -inf for an empty view
  virtual float Min(ConstMatView m) = 0;  // +inf for an empty view

  // ---- fused recurrent cells (cpu-backend-lstm.cc) ----
  // The LSTM cell of Kaldi's LstmNonlinearityComponent. With C = params.cols,
  // `in` is rows x 5C, the blocks (i_part, f_part, c_part, o_part, c_prev),
  // or rows x (5C + 3), whose last three columns scale i, f and o (dropout
  // masks; 1 without them); params is 3 x C (the peepholes w_ic, w_fc,
  // w_oc); out is rows x 2C, the blocks (c_t, m_t):
  //   i = sigmoid(i_part + w_ic c_prev)      f = sigmoid(f_part + w_fc c_prev)
  //   c_t = f f_scale c_prev + i i_scale tanh(c_part)
  //   o = sigmoid(o_part + w_oc c_t)         m_t = o o_scale tanh(c_t)
  virtual void LstmNonlinearity(ConstMatView in, ConstMatView params,
                                MatView out) = 0;
  // Its backward pass, from out_deriv (rows x 2C: d/dc_t, d/dm_t):
  //  - in_deriv (rows x cols of `in`, or empty for none) = the derivative of
  //    the objective w.r.t. the first 5C input columns, plus self-repair
  //    terms; the 3 mask columns (if any) are set to 0 (as Kaldi, which
  //    does not backpropagate into dropout masks);
  //  - if params_deriv is not empty (3 x C): params_deriv = the derivative
  //    w.r.t. the peepholes (set, not added), and then value_sum_out and
  //    deriv_sum_out (5 x C) += the column sums over rows of the values and
  //    derivatives of the five nonlinearities (sigmoid i, sigmoid f,
  //    tanh(c_part), sigmoid o, tanh(c_t)), and self_repair_sum_out (5 x C)
  //    = rows where that unit was repaired, else 0.
  // Self-repair: unit (k, c) is repaired when deriv_sum_in(k, c) /
  // (count_in + 1) < self_repair_config(k); its input derivative then gets
  // -self_repair_config(k + 5) * (2 sigmoid - 1) for the sigmoids, or
  // -self_repair_config(k + 5) * tanh for the tanhs, added (so that it pushes
  // the unit back towards its linear range). self_repair_config is 1 x 10,
  // deriv_sum_in 5 x C; deriv_sum_in may be the same view as deriv_sum_out
  // (it is read before being added to).
  virtual void DiffLstmNonlinearity(ConstMatView in, ConstMatView params,
                                    ConstMatView out_deriv,
                                    ConstMatView deriv_sum_in,
                                    ConstMatView self_repair_config,
                                    double count_in, MatView in_deriv,
                                    MatView params_deriv, MatView value_sum_out,
                                    MatView deriv_sum_out,
                                    MatView self_repair_sum_out) = 0;

  // ---- random fill: counter-based, so the numbers depend only on (seed,
  //      row, col) and are the same on every backend ----
  virtual void RandUniform(uint64_t seed, MatView m) = 0;   // in [0, 1)
  virtual void RandGaussian(uint64_t seed, MatView m) = 0;  // N(0, 1)

  // ---- the SGD step with momentum in one pass (cpu-backend.cc) ----
  // dst += alpha * src, then src *= src_scale (src_scale == 0 sets zeros,
  // even over NaN and inf, as Scale does). src and dst must not overlap.
  virtual void AddMatAndScaleSrc(float alpha, MatView src, float src_scale,
                                 MatView dst) = 0;

  // ---- fused inference passes (optimize/fuse-memory-passes.h) ----
  // dst = beta * dst + alpha * src, each product rounded as the separate
  // Scale and AddMat round it; beta == 0 ignores dst's old contents (even
  // NaN), as Scale(0) does. src and dst have equal shapes and do not
  // overlap.
  virtual void ScaleAndAddMat(float beta, float alpha, ConstMatView src,
                              MatView dst) = 0;
  // out(r, c) = g(in(r, c)) * scale(c) + offset(c), g(x) = (x > 0 ? x : 0)
  // when `rectify` (Func::kRelu: a ReLU before a per-column affine map such as
  // a batch norm in test mode), else g(x) = x; scale and offset are 1 x cols.
  // One pass; in place (in and out the same view) is fine.
  virtual void ScaleOffsetCols(bool rectify, ConstMatView scale,
                               ConstMatView offset, ConstMatView in,
                               MatView out) = 0;

  // ---- compression of values kept for backprop (Kaldi's
  //      CuCompressedMatrix, behind kCompressMatrix / kDecompressMatrix) ----
  // `packed` is device memory holding m.rows * m.cols elements of `type`
  // (CompressedTypeBytes each), row-major, without padding. With range > 0
  // and (scale, inv_scale) = CompressionScales(type, range), each element is
  //   CompressMat:   q = clamp(round-half-even(x * inv_scale)) to the type's
  //                  limits (the product in float; NaN gives 0, ±inf a limit)
  //   DecompressMat: x = float(q) * scale
  // With range == 0 (kUint8 only; other types are an InternalError) only
  // whether x > 0 is kept: q = (x > 0 ? 1 : 0), and x = q.
  virtual void CompressMat(ConstMatView src, CompressedType type, float range,
                           void *packed) = 0;
  virtual void DecompressMat(const void *packed, CompressedType type,
                             float range, MatView dst) = 0;

  // ---- row-diagonal products (attention weights and their derivatives) ----
  // v(r) = alpha * sum_c a(r, c) * b(r, c) + beta * v(r), i.e. the diagonal
  // of a bᵀ; v is 1 x a.rows, a and b have equal shapes; beta == 0 ignores
  // v's old contents.
  virtual void AddRowDotProducts(float alpha, ConstMatView a, ConstMatView b,
                                 float beta, MatView v) = 0;
  // dst(r, c) = alpha * v(r) * m(r, c) + beta * dst(r, c), i.e. diag(v) m;
  // v is 1 x m.rows, dst has m's shape; beta == 0 ignores dst's old
  // contents.
  virtual void AddDiagVecMat(float alpha, ConstMatView v, ConstMatView m,
                             float beta, MatView dst) = 0;
};

// Bytes per element of a compressed matrix: 1 (kInt8, kUint8) or 2.
size_t CompressedTypeBytes(CompressedType type);
// The quantization step of CompressMat / DecompressMat as Kaldi computes it:
// scale = range / (the type's largest value), divided in float; inv_scale =
// 1 / scale divided in double and rounded to float. (0, 0) for range 0.
struct CompressionScales {
  float scale = 0.0f, inv_scale = 0.0f;
};
CompressionScales GetCompressionScales(CompressedType type, float range);

// The counter-based generator every backend uses for RandUniform /
// RandGaussian: a 64-bit mix of (seed, element counter). Declared here so
// that the CPU and CUDA backends agree bit for bit.
//
// Element (r, c) of an m.rows x m.cols fill uses the counter k = r * m.cols + c
// (independent of the stride): RandUniform gives UniformFromBits(RandomBits(
// seed, k)), RandGaussian gives GaussianFromBits(RandomBits(seed, 2k),
// RandomBits(seed, 2k + 1)) (Box-Muller, cosine branch, computed in double).
uint64_t RandomBits(uint64_t seed, uint64_t counter);
float UniformFromBits(uint64_t bits);  // in [0, 1), 24 high bits of `bits`
float GaussianFromBits(uint64_t bits1, uint64_t bits2);  // N(0, 1)

}  // namespace nnet3

#endif  // NNET3_DEVICE_BACKEND_H_
