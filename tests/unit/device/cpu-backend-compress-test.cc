// Tests of the CPU backend's compression (Kaldi's CuCompressedMatrix): the
// codes of hand-picked values, worked out with Kaldi's formula in float32
// arithmetic (Python, struct-rounded: scale = range / max in float, inverse
// 1 / scale in double rounded to float, product in float, half to even,
// NaN 0, clamped), and random round trips of every type on padded views
// (within half a step; nothing outside the view written).
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "base/error.h"
#include "device/cpu-backend.h"
#include "test-views.h"

namespace nnet3 {
namespace {

using test::RandDim;
using test::RandFloat;
using test::Rng;
using test::TestMat;

const float kInf = std::numeric_limits<float>::infinity();
const float kNaN = std::numeric_limits<float>::quiet_NaN();

// Compresses `x` (one row) and returns the codes, widened to int32.
std::vector<int32_t> Codes(CpuBackend *cpu, CompressedType type, float range,
                           const std::vector<float> &x) {
  const int32_t n = static_cast<int32_t>(x.size());
  std::vector<uint8_t> packed(x.size() * CompressedTypeBytes(type), 0xee);
  cpu->CompressMat(ConstMatView(x.data(), 1, n, n), type, range, packed.data());
  std::vector<int32_t> codes;
  for (int32_t i = 0; i < n; i++) {
    switch (type) {
      case CompressedType::kInt8:
        codes.push_back(reinterpret_cast<const int8_t *>(packed.data())[i]);
        break;
      case CompressedType::kUint8:
        codes.push_back(packed[i]);
        break;
      case CompressedType::kInt16:
        codes.push_back(reinterpret_cast<const int16_t *>(packed.data())[i]);
        break;
      case CompressedType::kUint16:
        codes.push_back(reinterpret_cast<const uint16_t *>(packed.data())[i]);
        break;
    }
  }
  return codes;
}

// Compresses and decompresses `x` (one row).
std::vector<float> RoundTrip(CpuBackend *cpu, CompressedType type, float range,
                             const std::vector<float> &x) {
  const int32_t n = static_cast<int32_t>(x.size());
  std::vector<uint8_t> packed(x.size() * CompressedTypeBytes(type));
  std::vector<float> y(x.size(), 7.0f);
  cpu->CompressMat(ConstMatView(x.data(), 1, n, n), type, range, packed.data());
  cpu->DecompressMat(packed.data(), type, range, MatView(y.data(), 1, n, n));
  return y;
}

uint32_t Bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, sizeof(b));
  return b;
}

TEST_CASE("Compression scales are Kaldi's", "[device][compress]") {
  // Bit patterns from the float32 emulation of Kaldi's constructor.
  CompressionScales s = GetCompressionScales(CompressedType::kInt8, 1.0f);
  CHECK(Bits(s.scale) == 0x3c010204u);
  CHECK(s.inv_scale == 127.0f);
  s = GetCompressionScales(CompressedType::kUint8, 2.0f);
  CHECK(Bits(s.scale) == 0x3c008081u);
  CHECK(Bits(s.inv_scale) == 0x42feffffu);  // 127.49999, not 127.5
  s = GetCompressionScales(CompressedType::kInt16, 10.0f);
  CHECK(Bits(s.scale) == 0x39a00140u);
  CHECK(Bits(s.inv_scale) == 0x454ccb33u);
  s = GetCompressionScales(CompressedType::kUint16, 10.0f);
  CHECK(Bits(s.scale) == 0x392000a0u);
  CHECK(s.inv_scale == 6553.5f);
  s = GetCompressionScales(CompressedType::kUint8, 0.0f);
  CHECK((s.scale == 0.0f && s.inv_scale == 0.0f));
  CHECK(CompressedTypeBytes(CompressedType::kInt8) == 1);
  CHECK(CompressedTypeBytes(CompressedType::kUint8) == 1);
  CHECK(CompressedTypeBytes(CompressedType::kInt16) == 2);
  CHECK(CompressedTypeBytes(CompressedType::kUint16) == 2);
}

TEST_CASE("CpuBackend CompressMat: Kaldi's codes", "[device][compress]") {
  CpuBackend cpu;
  SECTION("int8, range 1: half to even, clamping, NaN and inf") {
    // 63.5 -> 64 and 1.5 -> 2 (even), 0.5 -> 0, -190.5 -> -128.
    const std::vector<float> x = {0.0f,
                                  0.5f,
                                  -0.5f,
                                  1.0f,
                                  -1.0f,
                                  1.5f,
                                  -1.5f,
                                  0.011811023578047752f,
                                  0.003937007859349251f,
                                  kNaN,
                                  kInf,
                                  -kInf};
    CHECK(Codes(&cpu, CompressedType::kInt8, 1.0f, x) ==
          std::vector<int32_t>{0, 64, -64, 127, -127, 127, -128, 2, 0, 0, 127,
                               -128});
    const std::vector<float> y =
        RoundTrip(&cpu, CompressedType::kInt8, 1.0f, {0.5f, -1.5f, 1.0f});
    CHECK(y ==
          std::vector<float>{0.5039370059967041f, -1.0078740119934082f, 1.0f});
  }
  SECTION("uint8, range 2: the inverse scale is 127.49999") {
    const std::vector<float> x = {0.0f,
                                  1.0f,
                                  -0.25f,
                                  2.0f,
                                  3.0f,
                                  0.0117647061124444f,
                                  0.019607843831181526f};
    CHECK(Codes(&cpu, CompressedType::kUint8, 2.0f, x) ==
          std::vector<int32_t>{0, 127, 0, 255, 255, 1, 2});
    CHECK(RoundTrip(&cpu, CompressedType::kUint8, 2.0f, {1.0f, 3.0f}) ==
          std::vector<float>{0.9960784912109375f, 2.0f});
  }
  SECTION("int16, range 10") {
    const std::vector<float> x = {3.14159f, -9.99f, -10.0f,
                                  11.0f,    -11.0f, 0.00045777764171361923f};
    CHECK(Codes(&cpu, CompressedType::kInt16, 10.0f, x) ==
          std::vector<int32_t>{10294, -32734, -32767, 32767, -32768, 2});
    CHECK(RoundTrip(&cpu, CompressedType::kInt16, 10.0f, {3.14159f, -11.0f}) ==
          std::vector<float>{3.141575336456299f, -10.00030517578125f});
  }
  SECTION("uint16, range 10") {
    const std::vector<float> x = {3.14159f, 9.999f, -1.0f, 12.0f,
                                  7.629510946571827e-05f};
    CHECK(Codes(&cpu, CompressedType::kUint16, 10.0f, x) ==
          std::vector<int32_t>{20588, 65528, 0, 65535, 0});
    CHECK(RoundTrip(&cpu, CompressedType::kUint16, 10.0f, {9.999f}) ==
          std::vector<float>{9.998931884765625f});
  }
  SECTION("uint8, range 0: whether the value is positive, exactly 0 or 1") {
    const std::vector<float> x = {-1.0f, 0.0f, -0.0f, 1e-30f, 5.0f,
                                  kNaN,  kInf, -kInf, 1e30f};
    CHECK(Codes(&cpu, CompressedType::kUint8, 0.0f, x) ==
          std::vector<int32_t>{0, 0, 0, 1, 1, 0, 1, 0, 1});
    const std::vector<float> y =
        RoundTrip(&cpu, CompressedType::kUint8, 0.0f, x);
    CHECK(y == std::vector<float>{0, 0, 0, 1, 1, 0, 1, 0, 1});
    // Other types have no sign form (Kaldi: "Not implemented").
    CHECK_THROWS_AS(Codes(&cpu, CompressedType::kInt8, 0.0f, x), InternalError);
    CHECK_THROWS_AS(Codes(&cpu, CompressedType::kUint16, 0.0f, x),
                    InternalError);
  }
}

TEST_CASE("CpuBackend compression round trips", "[device][compress]") {
  CpuBackend cpu;
  const uint32_t seed = 2718;
  INFO("seed " << seed);
  Rng rng(seed);
  struct Form {
    CompressedType type;
    float lo, hi;  // the representable interval for range 1
  };
  const Form forms[] = {{CompressedType::kInt8, -1, 1},
                        {CompressedType::kUint8, 0, 1},
                        {CompressedType::kInt16, -1, 1},
                        {CompressedType::kUint16, 0, 1}};
  for (int trial = 0; trial < 40; trial++) {
    const Form &form = forms[trial % 4];
    const float range = trial % 8 < 4 ? 10.0f : 0.37f;
    const int32_t rows = RandDim(&rng, 20), cols = RandDim(&rng, 30);
    INFO("trial " << trial << ", type " << static_cast<int>(form.type)
                  << ", range " << range << ", " << rows << "x" << cols);
    TestMat x(rows, cols, &rng), y(rows, cols, &rng);
    x.FillView(&rng, form.lo * range, form.hi * range);
    const TestMat y_before = y;
    std::vector<uint8_t> packed(
        static_cast<size_t>(rows) * cols * CompressedTypeBytes(form.type) + 1,
        0xab);
    cpu.CompressMat(x.cview(), form.type, range, packed.data());
    CHECK(packed.back() == 0xab);  // nothing written past the elements
    cpu.DecompressMat(packed.data(), form.type, range, y.view());
    // Half a step, plus the float rounding of x * inv_scale (up to 65535
    // steps times 2^-23) and of the decompressed product.
    const float half_step = 0.5f * GetCompressionScales(form.type, range).scale;
    int32_t bad = 0;
    for (int32_t r = 0; r < rows; r++)
      for (int32_t c = 0; c < cols; c++)
        if (!(std::fabs(y(r, c) - x(r, c)) <=
              half_step * 1.02f + 1e-7f * std::fabs(x(r, c))))
          bad++;
    CHECK(bad == 0);
    CHECK(y.OutsideChanges(y_before) == 0);
  }
}

}  // namespace
}  // namespace nnet3
