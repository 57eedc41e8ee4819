// Random TimeHeightConvolutionComponent networks for the generator (after
// Kaldi's GenerateConfigSequenceCnnNew, nnet-test-utils.cc; our own code):
// 0-3 convolution layers with 3-high kernels (zero-padded or not), height
// subsampling, time offsets 0 / -1,0,1 / -2,0,2 with or without a smaller
// required set, sometimes a tiny max-memory-mb (the computation then runs in
// pieces), the natural-gradient options at random, ResNet-style Sum() when
// the shapes allow and Round() descriptors. Filter counts are smaller than
// Kaldi's (1-4 instead of 1-10).
#include <sstream>

#include "nnet-test-utils.h"

namespace nnet3 {

namespace {

// One layer's config line options after the required keys.
std::string LayerOptions(RandomState *rng, int32_t subsample) {
  std::string time_offsets, required;
  if (rng->Int(0, 3) == 0) {
    time_offsets = "0";
    required = rng->Int(0, 1) == 0 ? "" : "0";
  } else if (rng->Int(0, 1) == 0) {
    time_offsets = "-1,0,1";
    required = rng->Int(0, 1) == 0 ? "" : "-1";
  } else {
    time_offsets = "-2,0,2";
    required = rng->Int(0, 1) == 0 ? "" : "0";
  }
  std::ostringstream os;
  os << " time-offsets=" << time_offsets;
  if (rng->Int(0, 1) == 0) os << " max-memory-mb=1.0e-04";
  if (subsample != 1 || rng->Int(0, 1) == 0)
    os << " height-subsample-out=" << subsample;
  if (required.empty() && rng->Int(0, 1) == 0) required = time_offsets;
  if (!required.empty()) os << " required-time-offsets=" << required;
  if (rng->Int(0, 1) == 0) os << " param-stddev=0.1 bias-stddev=1";
  if (rng->Int(0, 1) == 0) os << " use-natural-gradient=false";
  if (rng->Int(0, 1) == 0) os << " rank-in=4";
  if (rng->Int(0, 1) == 0) os << " rank-out=4";
  if (rng->Int(0, 1) == 0) os << " alpha-in=2.0";
  if (rng->Int(0, 1) == 0) os << " alpha-out=2.0";
  return os.str();
}

}  // namespace

bool GenerateTimeHeightCnnConfigs(const NnetGenerationOptions &opts,
                                  RandomState *rng,
                                  std::vector<std::string> *configs) {
  if (!opts.allow_nonlinearity || !opts.allow_context || rng->Int(0, 11) != 0)
    return false;
  int32_t height = rng->Int(5, 15), filters = rng->Int(1, 3);
  const int32_t num_layers = rng->Int(0, 3);
  std::ostringstream os;
  os << "input-node name=input dim=" << height * filters << "\n";
  std::string desc = "input";
  for (int32_t l = 0; l < num_layers; l++) {
    int32_t next_filters = rng->Int(1, 4);
    const bool padding = height < 5 || rng->Int(0, 1) == 0;
    // An output height of 1 would leave height offsets unused: no
    // subsampling of small heights.
    const int32_t subsample = height < 4 ? 1 : rng->Int(1, 2);
    const int32_t next_height =
        ((padding ? height : height - 2) + subsample - 1) / subsample;
    if (next_height == height && rng->Int(0, 1) == 0) next_filters = filters;
    const std::string name = "layer" + std::to_string(l) + "-conv";
    os << "component type=TimeHeightConvolutionComponent name=" << name
       << " num-filters-in=" << filters << " num-filters-out=" << next_filters
       << " height-in=" << height << " height-out=" << next_height
       << " height-offsets=" << (padding ? "-1,0,1" : "0,1,2")
       << LayerOptions(rng, subsample) << "\n"
       << "component-node name=" << name << " component=" << name
       << " input=" << desc << "\n";
    desc =
        next_height == height && next_filters == filters && rng->Int(0, 1) == 0
            ? "Sum(" + desc + ", " + name + ")"
            : name;
    if (rng->Int(0, 3) == 0)
      desc = "Round(" + desc + ", " + std::to_string(rng->Int(2, 3)) + ")";
    height = next_height;
    filters = next_filters;
  }
  if (opts.output_dim > 0) {
    os << "component name=final_affine type=AffineComponent input-dim="
       << height * filters << " output-dim=" << opts.output_dim << "\n"
       << "component-node name=final_affine component=final_affine input="
       << desc << "\n";
    desc = "final_affine";
  }
  os << "output-node name=output input=" << desc << "\n";
  configs->push_back(os.str());
  return true;
}

namespace {

// The family's component types, for the generator's type test (the final
// AffineComponent, made only when opts.output_dim is set, is declared by
// other families).
[[maybe_unused]] const bool kTimeHeightCnnRegistered =
    RegisterRandomNetFamily({"time-height-cnn",
                             {"TimeHeightConvolutionComponent"},
                             GenerateTimeHeightCnnConfigs});

}  // namespace

}  // namespace nnet3
