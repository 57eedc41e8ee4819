// Compression of matrices kept for backprop (Backend::CompressMat /
// DecompressMat, Kaldi's CuCompressedMatrix): one thread per element,
// rounding with __float2int_rn (half to even; NaN gives 0) and clamping to
// the type's limits, as Kaldi's kernels with their bounds check do. The
// packed elements are row-major without padding. The scales come from the
// host (GetCompressionScales), the same floats the CPU backend uses.
#include <cstdint>
#include <limits>

#include "kernels/kernel-utils.cuh"
#include "kernels/launchers.h"

namespace nnet3 {
namespace kernels {

namespace {

// low and high: the limits of I (std::numeric_limits is host code).
template <class I>
__global__ void CompressKernel(ConstMatView src, float inv_scale, int low,
                               int high, I *packed) {
  NNET3_FOR_2D(r, c, src.rows, src.cols) {
    int q = __float2int_rn(src.data[At(r, src.stride, c)] * inv_scale);
    q = q < low ? low : (q > high ? high : q);
    packed[At(r, src.cols, c)] = static_cast<I>(q);
  }
}

// Range 0: only whether the value is positive.
__global__ void CompressSignKernel(ConstMatView src, uint8_t *packed) {
  NNET3_FOR_2D(r, c, src.rows, src.cols) {
    packed[At(r, src.cols, c)] = src.data[At(r, src.stride, c)] > 0.0f ? 1 : 0;
  }
}

template <class I>
__global__ void DecompressKernel(const I *packed, float scale, MatView dst) {
  NNET3_FOR_2D(r, c, dst.rows, dst.cols) {
    dst.data[At(r, dst.stride, c)] =
        static_cast<float>(packed[At(r, dst.cols, c)]) * scale;
  }
}

template <class I>
cudaError_t LaunchCompress(cudaStream_t stream, ConstMatView src,
                           float inv_scale, void *packed) {
  const Launch2D l = Config2D(src.rows, src.cols);
  CompressKernel<<<l.grid, l.block, 0, stream>>>(
      src, inv_scale, static_cast<int>(std::numeric_limits<I>::min()),
      static_cast<int>(std::numeric_limits<I>::max()),
      static_cast<I *>(packed));
  return LaunchStatus();
}

template <class I>
cudaError_t LaunchDecompress(cudaStream_t stream, const void *packed,
                             float scale, MatView dst) {
  const Launch2D l = Config2D(dst.rows, dst.cols);
  DecompressKernel<<<l.grid, l.block, 0, stream>>>(
      static_cast<const I *>(packed), scale, dst);
  return LaunchStatus();
}

}  // namespace

cudaError_t CompressMat(cudaStream_t stream, ConstMatView src,
                        CompressedType type, float inv_scale, void *packed) {
  if (IsEmpty(src)) return cudaSuccess;
  if (inv_scale == 0.0f) {  // range 0, uint8 (checked by the caller)
    const Launch2D l = Config2D(src.rows, src.cols);
    CompressSignKernel<<<l.grid, l.block, 0, stream>>>(
        src, static_cast<uint8_t *>(packed));
    return LaunchStatus();
  }
  switch (type) {
    case CompressedType::kInt8:
      return LaunchCompress<int8_t>(stream, src, inv_scale, packed);
    case CompressedType::kUint8:
      return LaunchCompress<uint8_t>(stream, src, inv_scale, packed);
    case CompressedType::kInt16:
      return LaunchCompress<int16_t>(stream, src, inv_scale, packed);
    default:
      return LaunchCompress<uint16_t>(stream, src, inv_scale, packed);
  }
}

cudaError_t DecompressMat(cudaStream_t stream, const void *packed,
                          CompressedType type, float scale, MatView dst) {
  if (IsEmpty(dst)) return cudaSuccess;
  switch (type) {
    case CompressedType::kInt8:
      return LaunchDecompress<int8_t>(stream, packed, scale, dst);
    case CompressedType::kUint8:
      return LaunchDecompress<uint8_t>(stream, packed, scale, dst);
    case CompressedType::kInt16:
      return LaunchDecompress<int16_t>(stream, packed, scale, dst);
    default:
      return LaunchDecompress<uint16_t>(stream, packed, scale, dst);
  }
}

}  // namespace kernels
}  // namespace nnet3
