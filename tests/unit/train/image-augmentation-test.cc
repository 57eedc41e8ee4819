// Image augmentation: the affine resampling against hand-computed images
// (identity, flip, whole-pixel shifts with both fill modes, a half-pixel
// shift interpolating), the random transform's options, bad options.
#include "train/image-augmentation.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <vector>

#include "base/error.h"

namespace nnet3 {
namespace {

// A 4 (x) by 3 (y) single-channel image with distinct pixels.
Matrix Image() {
  Matrix m(4, 3, ResizeType::kSetZero, CpuDevice());
  m.CopyFromHost(
      std::vector<float>{0, 1, 2, 10, 11, 12, 20, 21, 22, 30, 31, 32});
  return m;
}

std::vector<double> Shift(double dr, double dc) {
  return {1, 0, dr, 0, 1, dc, 0, 0, 1};
}

TEST_CASE("ApplyAffineTransform", "[image-augmentation]") {
  Matrix m = Image();
  ApplyAffineTransform(Shift(0, 0), 1, FillMode::kNearest, &m);
  CHECK(m.ToHost() == Image().ToHost());
  // Output row r takes input row r + 1; the last row repeats (nearest) or
  // mirrors about the edge (reflect: row 4 -> row 2).
  m = Image();
  ApplyAffineTransform(Shift(1, 0), 1, FillMode::kNearest, &m);
  CHECK(m.ToHost() ==
        std::vector<float>{10, 11, 12, 20, 21, 22, 30, 31, 32, 30, 31, 32});
  m = Image();
  ApplyAffineTransform(Shift(1, 0), 1, FillMode::kReflect, &m);
  CHECK(m.ToHost() ==
        std::vector<float>{10, 11, 12, 20, 21, 22, 30, 31, 32, 20, 21, 22});
  // Columns: output column c takes column c - 1.
  m = Image();
  ApplyAffineTransform(Shift(0, -1), 1, FillMode::kNearest, &m);
  CHECK(m.ToHost() ==
        std::vector<float>{0, 0, 1, 10, 10, 11, 20, 20, 21, 30, 30, 31});
  // Half a pixel: the mean of two neighbours.
  m = Image();
  ApplyAffineTransform(Shift(0.5, 0), 1, FillMode::kNearest, &m);
  CHECK(m.ToHost() ==
        std::vector<float>{5, 6, 7, 15, 16, 17, 25, 26, 27, 30, 31, 32});
  // A flip about the centre, r -> 3 - r.
  m = Image();
  ApplyAffineTransform({-1, 0, 3, 0, 1, 0, 0, 0, 1}, 1, FillMode::kNearest, &m);
  CHECK(m.ToHost() ==
        std::vector<float>{30, 31, 32, 20, 21, 22, 10, 11, 12, 0, 1, 2});
  // Two channels: columns (y0c0, y0c1, y1c0, ...) move in pairs.
  Matrix two(1, 4, ResizeType::kSetZero, CpuDevice());
  two.CopyFromHost(std::vector<float>{1, 2, 3, 4});
  ApplyAffineTransform(Shift(0, 1), 2, FillMode::kNearest, &two);
  CHECK(two.ToHost() == std::vector<float>{3, 4, 3, 4});
}

TEST_CASE("PerturbImage options", "[image-augmentation]") {
  ImageAugmentationConfig config;
  RandomState rng(5);
  Matrix m = Image();
  PerturbImage(config, &rng, &m);  // all zero: unchanged
  CHECK(m.ToHost() == Image().ToHost());
  config.horizontal_flip_prob = 1.0f;
  PerturbImage(config, &rng, &m);
  CHECK(m.ToHost() ==
        std::vector<float>{30, 31, 32, 20, 21, 22, 10, 11, 12, 0, 1, 2});
  // Shifts are whole pixels: every output value is an input value.
  config.horizontal_flip_prob = 0.0f;
  config.horizontal_shift = config.vertical_shift = 0.5f;
  bool changed = false;
  for (int i = 0; i < 20; i++) {
    m = Image();
    PerturbImage(config, &rng, &m);
    changed = changed || m.ToHost() != Image().ToHost();
    for (float v : m.ToHost()) {
      const std::vector<float> in = Image().ToHost();
      CHECK(std::find(in.begin(), in.end(), v) != in.end());
    }
  }
  CHECK(changed);
}

TEST_CASE("ImageAugmentationConfig::Check", "[image-augmentation]") {
  ImageAugmentationConfig config;
  config.Check();
  config.rotation_degree = 200;
  CHECK_THROWS_AS(config.Check(), UserError);
  config.rotation_degree = 10;
  config.fill_mode_string = "constant";
  CHECK_THROWS_AS(config.Check(), UserError);
  config.fill_mode_string = "reflect";
  CHECK(config.GetFillMode() == FillMode::kReflect);
  config.num_channels = 2;
  RandomState rng(1);
  Matrix m = Image();  // 3 columns
  CHECK_THROWS_AS(PerturbImage(config, &rng, &m), UserError);
}

}  // namespace
}  // namespace nnet3
