// The CompositeComponent family of the random network generator (Kaldi's
// GenerateConfigSequenceCompositeBlock): one CompositeComponent holding 1-5
// BlockAffine / RepeatedAffine / NaturalGradientRepeatedAffine components,
// all with 10 blocks (dims multiples of 10, at most 50 here). Kaldi's
// max-rows-process (1024-2048) never splits a test minibatch; half of the
// networks here use 1-8 rows instead, so that the chunked paths run too.
// A requested output dim must be a multiple of 10 (else nothing is made).
#include <sstream>
#include <string>

#include "nnet-test-utils.h"

namespace nnet3 {

bool GenerateCompositeBlockConfigs(const NnetGenerationOptions &opts,
                                   RandomState *rng,
                                   std::vector<std::string> *configs) {
  // (Kaldi ignores a requested output dim here, with a warning; this one
  // honours it when it is a multiple of 10, else makes nothing.)
  if ((opts.output_dim > 0 && opts.output_dim % 10 != 0) ||
      rng->Int(0, 11) != 0)  // one network in 12
    return false;
  const int32_t num_components = rng->Int(1, 5),
                input_dim = 10 * rng->Int(1, 5);
  const int32_t max_rows_process =
      rng->Int(0, 1) == 0 ? 512 + 512 * rng->Int(1, 3) : rng->Int(1, 8);
  const char *const types[] = {"BlockAffineComponent",
                               "RepeatedAffineComponent",
                               "NaturalGradientRepeatedAffineComponent"};
  std::ostringstream os;
  os << "component name=composite1 type=CompositeComponent max-rows-process="
     << max_rows_process << " num-components=" << num_components;
  int32_t last_dim = input_dim;
  for (int32_t i = 1; i <= num_components; i++) {
    const std::string type = types[rng->Int(0, 2)];
    const int32_t dim = i == num_components && opts.output_dim > 0
                            ? opts.output_dim
                            : 10 * rng->Int(1, 5);
    os << " component" << i << "='type=" << type << " input-dim=" << last_dim
       << " output-dim=" << dim << " "
       << (type == "BlockAffineComponent" ? "num-blocks" : "num-repeats")
       << "=10'";
    last_dim = dim;
  }
  os << "\n\n"
     << "input-node name=input dim=" << input_dim << "\n"
     << "component-node name=composite1 component=composite1 input=input\n"
     << "output-node name=output input=composite1\n";
  configs->push_back(os.str());
  return true;
}

namespace {

// The family's component types, for the generator's type test.
[[maybe_unused]] const bool kCompositeBlockRegistered = RegisterRandomNetFamily(
    {"composite-block",
     {"BlockAffineComponent", "CompositeComponent",
      "NaturalGradientRepeatedAffineComponent", "RepeatedAffineComponent"},
     GenerateCompositeBlockConfigs});

}  // namespace

}  // namespace nnet3
