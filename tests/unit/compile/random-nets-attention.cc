// The RestrictedAttentionComponent family of the random network generator
// (Kaldi's GenerateConfigSequenceRestrictedAttention): an affine layer
// makes keys, values and queries for 1-2 heads, the attention component
// looks at 1-4 frames left and 0-2 right with time stride 1-3 (only some
// of them required), with or without the weights appended to its output.
// Key and value dims are smaller than Kaldi's to keep the tests fast; the
// widest window (4 frames left at stride 3) stays within
// kMaxGeneratedContext.
#include <sstream>

#include "nnet-test-utils.h"

namespace nnet3 {

bool GenerateRestrictedAttentionConfigs(const NnetGenerationOptions &opts,
                                        RandomState *rng,
                                        std::vector<std::string> *configs) {
  // One network in 6 (Kaldi draws this family 2 times in 15).
  if (!opts.allow_nonlinearity || !opts.allow_context || rng->Int(0, 5) != 0)
    return false;
  const int32_t input_dim = rng->Int(2, 8), num_heads = rng->Int(1, 2),
                key_dim = rng->Int(1, 4), value_dim = rng->Int(1, 4),
                time_stride = rng->Int(1, 3), num_left = rng->Int(1, 4),
                num_right = rng->Int(0, 2),
                num_left_required = rng->Int(0, num_left),
                num_right_required = rng->Int(0, num_right);
  const bool output_context = rng->Int(0, 1) == 0;
  const int32_t context_dim = num_left + 1 + num_right,
                attention_input_dim =
                    num_heads * (2 * key_dim + value_dim + context_dim);
  std::ostringstream os;
  os << "input-node name=input dim=" << input_dim << "\n"
     << "component name=affine type=NaturalGradientAffineComponent "
     << "input-dim=" << input_dim << " output-dim=" << attention_input_dim
     << "\n"
     << "component-node name=affine component=affine input=input\n"
     << "component-node name=attention component=attention input=affine\n"
     << "component name=attention type=RestrictedAttentionComponent"
     << " num-heads=" << num_heads << " key-dim=" << key_dim
     << " value-dim=" << value_dim << " time-stride=" << time_stride
     << " num-left-inputs=" << num_left << " num-right-inputs=" << num_right
     << " num-left-inputs-required=" << num_left_required
     << " num-right-inputs-required=" << num_right_required
     << " output-context=" << (output_context ? "true" : "false")
     << (rng->Int(0, 1) == 0 ? " key-scale=1.0" : "") << "\n"
     << "output-node name=output input=attention\n";
  configs->push_back(os.str());
  return true;
}

namespace {

// The family's component types, for the generator's type test.
[[maybe_unused]] const bool kRestrictedAttentionRegistered =
    RegisterRandomNetFamily(
        {"restricted-attention",
         {"NaturalGradientAffineComponent", "RestrictedAttentionComponent"},
         GenerateRestrictedAttentionConfigs});

}  // namespace

}  // namespace nnet3
