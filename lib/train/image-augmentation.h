// Image augmentation of egs, as Kaldi's nnet3-egs-augment-image: each eg's
// "input" is an image whose rows (successive t) are x positions and whose
// columns are y positions times channels (channel fastest); a random affine
// transform (shift, horizontal flip, rotation about the centre) is applied
// with bilinear interpolation.
//
//   ImageAugmentationConfig config;  config.Register(&po);  config.Check();
//   RandomState rng(srand);
//   PerturbImageInNnetExample(config, &rng, &eg);
//
// The transform (Kaldi's): with W the width (rows) and H the height (columns
// / channels), a shift of round(u W horizontal_shift) rows and round(u H
// vertical_shift) columns (u uniform in [-1, 1), one each), a flip of the x
// axis with probability horizontal_flip_prob, and with probability
// rotation_prob a rotation by an angle uniform in [-rotation_degree,
// rotation_degree), all about the image centre ((W-1)/2, (H-1)/2). Output
// pixel (r, c) takes the bilinear interpolation of the input at T (r, c, 1);
// points outside the image take the nearest edge pixel (fill mode
// "nearest") or their mirror image about the edge pixel ("reflect"). An
// identity transform leaves the image untouched. The random draws come from
// `rng`, in Kaldi's order; with RandomState::KaldiDraws (as the program
// makes it) they are Kaldi's draws for the same --srand.
#ifndef NNET3_TRAIN_IMAGE_AUGMENTATION_H_
#define NNET3_TRAIN_IMAGE_AUGMENTATION_H_

#include <cstdint>
#include <string>
#include <vector>

#include "base/options.h"
#include "base/random.h"
#include "matrix/matrix.h"
#include "train/nnet-example.h"

namespace nnet3 {

enum class FillMode { kNearest, kReflect };

struct ImageAugmentationConfig {
  int32_t num_channels = 1;
  float horizontal_flip_prob = 0.0f;
  float horizontal_shift = 0.0f;
  float vertical_shift = 0.0f;
  float rotation_degree = 0.0f;
  float rotation_prob = 0.0f;
  std::string fill_mode_string = "nearest";

  void Register(OptionsRegistry *po);
  // UserError naming the option for a value out of range.
  void Check() const;
  FillMode GetFillMode() const;
};

// Applies the 3x3 transform (row-major; maps output (r, c, 1) to input
// coordinates) to the image, whose rows are x and whose columns are y times
// num_channels. InternalError if the columns are not a multiple of
// num_channels.
void ApplyAffineTransform(const std::vector<double> &transform,
                          int32_t num_channels, FillMode fill_mode,
                          Matrix *image);

// Draws a transform as described in the file comment and applies it.
// UserError if the image's columns are not a multiple of num_channels.
void PerturbImage(const ImageAugmentationConfig &config, RandomState *rng,
                  Matrix *image);

// Perturbs the eg's "input" (decompressing it); UserError if it has none.
void PerturbImageInNnetExample(const ImageAugmentationConfig &config,
                               RandomState *rng, NnetExample *eg);

}  // namespace nnet3

#endif  // NNET3_TRAIN_IMAGE_AUGMENTATION_H_
