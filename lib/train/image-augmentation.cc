#include "train/image-augmentation.h"

#include <cmath>

#include "base/error.h"

namespace nnet3 {

void ImageAugmentationConfig::Register(OptionsRegistry *po) {
  po->Register("num-channels", &num_channels,
               "Number of colors in the image.It is important to specify "
               "this (helps interpret the image correctly.");
  po->Register("horizontal-flip-prob", &horizontal_flip_prob,
               "Probability of doing horizontal flip");
  po->Register("horizontal-shift", &horizontal_shift,
               "Maximum allowed horizontal shift as proportion of image "
               "width.  Padding is with closest pixel.");
  po->Register("vertical-shift", &vertical_shift,
               "Maximum allowed vertical shift as proportion of image "
               "height.  Padding is with closest pixel.");
  po->Register("rotation-degree", &rotation_degree,
               "Maximum allowed degree to rotate the image");
  po->Register("rotation-prob", &rotation_prob,
               "Probability of doing rotation");
  po->Register("fill-mode", &fill_mode_string,
               "Mode for dealing with points outside the image boundary when "
               "applying transformation. Choices = {nearest, reflect}");
}

void ImageAugmentationConfig::Check() const {
  auto check = [](bool ok, const char *option, float value, const char *range) {
    if (!ok)
      NNET3_ERR << "--" << option << "=" << value << " must be in " << range;
  };
  check(num_channels >= 1, "num-channels", num_channels, "[1, inf)");
  check(horizontal_flip_prob >= 0 && horizontal_flip_prob <= 1,
        "horizontal-flip-prob", horizontal_flip_prob, "[0, 1]");
  check(horizontal_shift >= 0 && horizontal_shift <= 1, "horizontal-shift",
        horizontal_shift, "[0, 1]");
  check(vertical_shift >= 0 && vertical_shift <= 1, "vertical-shift",
        vertical_shift, "[0, 1]");
  check(rotation_degree >= 0 && rotation_degree <= 180, "rotation-degree",
        rotation_degree, "[0, 180]");
  check(rotation_prob >= 0 && rotation_prob <= 1, "rotation-prob",
        rotation_prob, "[0, 1]");
  GetFillMode();
}

FillMode ImageAugmentationConfig::GetFillMode() const {
  if (fill_mode_string == "reflect") return FillMode::kReflect;
  if (fill_mode_string != "nearest")
    NNET3_ERR << "Choices for --fill-mode are 'nearest' or 'reflect', got: "
              << fill_mode_string;
  return FillMode::kNearest;
}

namespace {

// Kaldi's edge handling of the two neighbours lo <= x <= hi = lo + 1 of a
// coordinate in [0, size).
void FixEdges(FillMode mode, int32_t size, int32_t *lo, int32_t *hi) {
  if (mode == FillMode::kNearest) {
    if (*lo < 0) {
      *lo = 0;
      if (*hi < 0) *hi = 0;
    }
    if (*hi >= size) {
      *hi = size - 1;
      if (*lo >= size) *lo = size - 1;
    }
  } else {
    if (*lo < 0) {
      *lo = -*lo;
      if (*hi < 0) *hi = -*hi;
    }
    if (*hi >= size) {
      *hi = 2 * size - 2 - *hi;
      if (*lo >= size) *lo = 2 * size - 2 - *lo;
    }
  }
}

// 3x3 row-major products.
std::vector<double> Mul3(const std::vector<double> &a,
                         const std::vector<double> &b) {
  std::vector<double> c(9, 0.0);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      for (int k = 0; k < 3; k++) c[i * 3 + j] += a[i * 3 + k] * b[k * 3 + j];
  return c;
}

std::vector<double> Unit3() { return {1, 0, 0, 0, 1, 0, 0, 0, 1}; }

}  // namespace

void ApplyAffineTransform(const std::vector<double> &transform,
                          int32_t num_channels, FillMode fill_mode,
                          Matrix *image) {
  const int32_t width = image->NumRows(), num_cols = image->NumCols();
  NNET3_ASSERT(transform.size() == 9 && num_channels > 0 &&
               num_cols % num_channels == 0);
  const int32_t height = num_cols / num_channels;
  const std::vector<float> original = image->ToHost();
  std::vector<float> out(original.size());
  const auto t = [&](int i) { return static_cast<float>(transform[i]); };
  for (int32_t r = 0; r < width; r++) {
    for (int32_t c = 0; c < height; c++) {
      const float r_old = t(0) * r + t(1) * c + t(2),
                  c_old = t(3) * r + t(4) * c + t(5);
      int32_t r1 = static_cast<int32_t>(std::floor(r_old)), r2 = r1 + 1,
              c1 = static_cast<int32_t>(std::floor(c_old)), c2 = c1 + 1;
      const float w11 = (r2 - r_old) * (c2 - c_old),
                  w12 = (r2 - r_old) * (c_old - c1),
                  w21 = (r_old - r1) * (c2 - c_old),
                  w22 = (r_old - r1) * (c_old - c1);
      FixEdges(fill_mode, width, &r1, &r2);
      FixEdges(fill_mode, height, &c1, &c2);
      for (int32_t ch = 0; ch < num_channels; ch++) {
        const auto at = [&](int32_t row, int32_t col) {
          return original[static_cast<size_t>(row) * num_cols +
                          num_channels * col + ch];
        };
        out[static_cast<size_t>(r) * num_cols + num_channels * c + ch] =
            w11 * at(r1, c1) + w12 * at(r1, c2) + w21 * at(r2, c1) +
            w22 * at(r2, c2);
      }
    }
  }
  image->CopyFromHost(out);
}

void PerturbImage(const ImageAugmentationConfig &config, RandomState *rng,
                  Matrix *image) {
  const FillMode fill_mode = config.GetFillMode();
  const int32_t width = image->NumRows(), channels = config.num_channels;
  if (image->NumCols() % channels != 0)
    NNET3_ERR << "The image has " << image->NumCols()
              << " columns, which is not a multiple of --num-channels="
              << channels;
  const int32_t height = image->NumCols() / channels;
  std::vector<double> shift = Unit3();
  const double h_shift =
      (2.0 * rng->Uniform() - 1.0) * config.horizontal_shift * width;
  const double v_shift =
      (2.0 * rng->Uniform() - 1.0) * config.vertical_shift * height;
  shift[2] = std::round(h_shift);
  shift[5] = std::round(v_shift);
  if (rng->WithProb(config.horizontal_flip_prob)) shift[0] = -1.0;
  std::vector<double> rotation = Unit3();
  if (rng->Uniform() <= config.rotation_prob) {
    const double theta =
        (2 * config.rotation_degree * rng->Uniform() - config.rotation_degree) /
        180.0 * M_PI;
    rotation = {std::cos(theta),
                -std::sin(theta),
                0,
                std::sin(theta),
                std::cos(theta),
                0,
                0,
                0,
                1};
  }
  std::vector<double> transform = Mul3(rotation, shift);
  if (transform == Unit3()) return;  // nothing to do
  // About the centre: origin moved there before, and back after.
  std::vector<double> set_origin = Unit3(), reset_origin = Unit3();
  set_origin[2] = width / 2.0 - 0.5;
  set_origin[5] = height / 2.0 - 0.5;
  reset_origin[2] = -width / 2.0 + 0.5;
  reset_origin[5] = -height / 2.0 + 0.5;
  transform = Mul3(Mul3(set_origin, transform), reset_origin);
  ApplyAffineTransform(transform, channels, fill_mode, image);
}

void PerturbImageInNnetExample(const ImageAugmentationConfig &config,
                               RandomState *rng, NnetExample *eg) {
  bool found_input = false;
  for (NnetIo &io : eg->io) {
    if (io.name != "input") continue;
    found_input = true;
    Matrix image(CpuDevice());
    io.features.GetMatrix(&image);
    PerturbImage(config, rng, &image);
    io.features = image;
  }
  if (!found_input)
    NNET3_ERR << "Nnet example to perturb had no NnetIo object named 'input'";
}

}  // namespace nnet3
