// The DistributeComponent family of the random network generator (Kaldi's
// GenerateConfigSequenceDistribute): the input is split by
// DistributeComponent into x_expand blocks that differ in x, one affine
// component transforms every block, and the output sums the blocks back
// with ReplaceIndex(affine, x, i). Dims are smaller than Kaldi's to keep
// the tests fast.
#include <sstream>

#include "nnet-test-utils.h"

namespace nnet3 {

bool GenerateDistributeConfigs(const NnetGenerationOptions &opts,
                               RandomState *rng,
                               std::vector<std::string> *configs) {
  if (!opts.allow_use_of_x_dim || rng->Int(0, 11) != 0)  // one network in 12
    return false;
  const int32_t output_dim =
      opts.output_dim > 0 ? opts.output_dim : rng->Int(1, 12);
  const int32_t x_expand = rng->Int(1, 5), after_expand_dim = rng->Int(2, 6),
                input_dim = x_expand * after_expand_dim;
  std::ostringstream os;
  os << "input-node name=input dim=" << input_dim << "\n"
     << "component name=distribute type=DistributeComponent input-dim="
     << input_dim << " output-dim=" << after_expand_dim << "\n"
     << "component-node name=distribute component=distribute input=input\n"
     << "component name=affine type=AffineComponent input-dim="
     << after_expand_dim << " output-dim=" << output_dim << "\n"
     << "component-node name=affine component=affine input=distribute\n"
     << "output-node name=output input=Sum(";
  for (int32_t i = 0; i < x_expand; i++)
    os << (i > 0 ? ", " : "") << "ReplaceIndex(affine, x, " << i << ")";
  os << ")\n";
  configs->push_back(os.str());
  return true;
}

namespace {

// The family's component types, for the generator's type test.
[[maybe_unused]] const bool kDistributeRegistered =
    RegisterRandomNetFamily({"distribute",
                             {"AffineComponent", "DistributeComponent"},
                             GenerateDistributeConfigs});

}  // namespace

}  // namespace nnet3
