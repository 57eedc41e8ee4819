// CpuBackend: compression of matrices kept for backprop (Kaldi's
// CuCompressedMatrix), quantizing exactly as its CUDA kernels do: the
// product x * inv_scale in float, rounded half to even (CUDA's
// __float2int_rn, here std::nearbyint in the default rounding mode), NaN to
// 0, then clamped to the type's limits.
#include <cmath>
#include <cstdint>
#include <limits>

#include "base/error.h"
#include "device/cpu-backend.h"
#include "device/cpu-loops.h"

namespace nnet3 {

using cpu::CheckView;
using cpu::RowOf;

namespace {

template <class I>
I Quantize(float x, float inv_scale) {
  const float y = x * inv_scale;
  if (std::isnan(y)) return 0;
  const float rounded = std::nearbyint(y);
  constexpr float kLow = static_cast<float>(std::numeric_limits<I>::min());
  constexpr float kHigh = static_cast<float>(std::numeric_limits<I>::max());
  if (rounded <= kLow) return std::numeric_limits<I>::min();
  if (rounded >= kHigh) return std::numeric_limits<I>::max();
  return static_cast<I>(rounded);
}

template <class I>
void CompressAs(ConstMatView src, float inv_scale, I *packed) {
  for (int32_t r = 0; r < src.rows; r++) {
    const float *x = RowOf(src, r);
    I *q = packed + static_cast<int64_t>(r) * src.cols;
    for (int32_t c = 0; c < src.cols; c++) q[c] = Quantize<I>(x[c], inv_scale);
  }
}

template <class I>
void DecompressAs(const I *packed, float scale, MatView dst) {
  for (int32_t r = 0; r < dst.rows; r++) {
    const I *q = packed + static_cast<int64_t>(r) * dst.cols;
    float *y = RowOf(dst, r);
    for (int32_t c = 0; c < dst.cols; c++)
      y[c] = static_cast<float>(q[c]) * scale;
  }
}

// Only the sign survives range 0, and only Kaldi's uint8 form has it.
void CheckSignForm(CompressedType type) {
  if (type != CompressedType::kUint8)
    NNET3_INTERNAL_ERR << "compression with range 0 needs type uint8, not "
                       << static_cast<int32_t>(type);
}

}  // namespace

void CpuBackend::CompressMat(ConstMatView src, CompressedType type, float range,
                             void *packed) {
  CheckView(src);
  if (src.rows == 0 || src.cols == 0) return;
  NNET3_ASSERT(packed != nullptr);
  const CompressionScales s = GetCompressionScales(type, range);
  if (range == 0.0f) {
    CheckSignForm(type);
    auto *q = static_cast<uint8_t *>(packed);
    for (int32_t r = 0; r < src.rows; r++) {
      const float *x = RowOf(src, r);
      uint8_t *row = q + static_cast<int64_t>(r) * src.cols;
      for (int32_t c = 0; c < src.cols; c++) row[c] = x[c] > 0.0f ? 1 : 0;
    }
    return;
  }
  switch (type) {
    case CompressedType::kInt8:
      CompressAs(src, s.inv_scale, static_cast<int8_t *>(packed));
      break;
    case CompressedType::kUint8:
      CompressAs(src, s.inv_scale, static_cast<uint8_t *>(packed));
      break;
    case CompressedType::kInt16:
      CompressAs(src, s.inv_scale, static_cast<int16_t *>(packed));
      break;
    case CompressedType::kUint16:
      CompressAs(src, s.inv_scale, static_cast<uint16_t *>(packed));
      break;
  }
}

void CpuBackend::DecompressMat(const void *packed, CompressedType type,
                               float range, MatView dst) {
  CheckView(dst);
  if (dst.rows == 0 || dst.cols == 0) return;
  NNET3_ASSERT(packed != nullptr);
  const CompressionScales s = GetCompressionScales(type, range);
  if (range == 0.0f) CheckSignForm(type);
  const float scale = range == 0.0f ? 1.0f : s.scale;
  switch (type) {
    case CompressedType::kInt8:
      DecompressAs(static_cast<const int8_t *>(packed), scale, dst);
      break;
    case CompressedType::kUint8:
      DecompressAs(static_cast<const uint8_t *>(packed), scale, dst);
      break;
    case CompressedType::kInt16:
      DecompressAs(static_cast<const int16_t *>(packed), scale, dst);
      break;
    case CompressedType::kUint16:
      DecompressAs(static_cast<const uint16_t *>(packed), scale, dst);
      break;
  }
}

}  // namespace nnet3
