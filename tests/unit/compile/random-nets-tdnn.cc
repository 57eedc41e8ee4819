// Random TDNN networks for the generator (the TdnnComponent branch of
// Kaldi's GenerateConfigSequenceSimpleContext, nnet-test-utils.cc; our own
// code): a TdnnComponent over a random subset of the offsets -5..3 (use-bias
// and natural gradient at random), sometimes followed by a ReLU and a
// second, TDNN-F-like layer (a linear TdnnComponent with a floating
// orthonormal constraint, or offsets -3,0,3), then an output affine when the
// options fix the output dim. Dims are small for speed (Kaldi's are 10-29
// in, 100-299 out).
#include <sstream>

#include "nnet-test-utils.h"

namespace nnet3 {

bool GenerateTdnnConfigs(const NnetGenerationOptions &opts, RandomState *rng,
                         std::vector<std::string> *configs) {
  if (!opts.allow_context || rng->Int(0, 11) != 0) return false;
  std::vector<int32_t> offsets;
  for (int32_t t = -5; t < 4; t++)
    if (rng->Int(0, 2) == 0) offsets.push_back(t);
  if (offsets.empty()) offsets.push_back(0);
  auto list = [](const std::vector<int32_t> &v) {
    std::string s;
    for (size_t i = 0; i < v.size(); i++)
      s += (i > 0 ? "," : "") + std::to_string(v[i]);
    return s;
  };
  const int32_t input_dim = rng->Int(2, 8), hidden = rng->Int(2, 10);
  std::ostringstream os;
  os << "input-node name=input dim=" << input_dim << "\n"
     << "component name=tdnn1 type=TdnnComponent input-dim=" << input_dim
     << " output-dim=" << hidden << " time-offsets=" << list(offsets)
     << " use-bias=" << (rng->Int(0, 1) == 0 ? "true" : "false")
     << " use-natural-gradient=" << (rng->Int(0, 1) == 0 ? "true" : "false")
     << "\n"
     << "component-node name=tdnn1 component=tdnn1 input=input\n";
  std::string last = "tdnn1";
  int32_t dim = hidden;
  if (opts.allow_nonlinearity && rng->Int(0, 1) == 0) {
    const int32_t out2 = rng->Int(2, 8);
    const bool linear = rng->Int(0, 1) == 0;
    os << "component name=relu1 type=RectifiedLinearComponent dim=" << hidden
       << "\n"
       << "component-node name=relu1 component=relu1 input=tdnn1\n"
       << "component name=tdnn2 type=TdnnComponent input-dim=" << hidden
       << " output-dim=" << out2
       << (linear ? " time-offsets=-1,0 use-bias=false "
                    "orthonormal-constraint=-1"
                  : " time-offsets=-3,0,3")
       << "\n"
       << "component-node name=tdnn2 component=tdnn2 input=relu1\n";
    last = "tdnn2";
    dim = out2;
  }
  if (opts.output_dim > 0) {
    os << "component name=final_affine type=AffineComponent input-dim=" << dim
       << " output-dim=" << opts.output_dim << "\n"
       << "component-node name=final_affine component=final_affine input="
       << last << "\n";
    last = "final_affine";
  }
  os << "output-node name=output input=" << last << "\n";
  configs->push_back(os.str());
  return true;
}

namespace {

// The family's component types, for the generator's type test (the final
// AffineComponent, made only when opts.output_dim is set, is declared by
// other families).
[[maybe_unused]] const bool kTdnnRegistered =
    RegisterRandomNetFamily({"tdnn",
                             {"RectifiedLinearComponent", "TdnnComponent"},
                             GenerateTdnnConfigs});

}  // namespace

}  // namespace nnet3
