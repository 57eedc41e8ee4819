// Configs that Kaldi's random network generator (nnet-test-utils.cc) makes
// with the attention, distribute and composite families, written out with
// Kaldi's own sizes, load with the parameter counts and contexts Kaldi
// computes for them. The expected numbers are worked out by hand from
// Kaldi's code (NumParameters of each component; ComputeSimpleNnetContext:
// an attention output at t needs the inputs t - stride * required-left ..
// t + stride * required-right) and written in the comments.
#include <catch2/catch.hpp>
#include <sstream>

#include "compile/nnet-context.h"
#include "nnet/nnet-utils.h"
#include "nnet/nnet.h"

namespace nnet3 {
namespace {

struct Numbers {
  int64_t num_parameters;
  int32_t left, right, output_dim;
};

Numbers NumbersOf(const std::string &config) {
  Nnet nnet;
  std::istringstream is(config);
  nnet.ReadConfig(is, "config");
  REQUIRE(IsSimpleNnet(nnet));
  Numbers n;
  ComputeSimpleNnetContext(nnet, &n.left, &n.right);
  n.num_parameters = NumParameters(nnet);
  n.output_dim = nnet.OutputDim("output");
  return n;
}

}  // namespace

TEST_CASE("Kaldi's restricted-attention configs: parameters and context",
          "[compiler][kaldi-numbers]") {
  // GenerateConfigSequenceRestrictedAttention with input_dim=120,
  // num_heads=2, key_dim=30, value_dim=25, time_stride=2,
  // num_left_inputs=3, num_right_inputs=1, required 2 and 1,
  // output_context=true: context_dim = 5, query_dim = 35, the affine makes
  // 2 * (30 + 25 + 35) = 180 dims: 120 * 180 + 180 = 21780 parameters
  // (attention has none); context 2 * 2 = 4 left, 2 * 1 = 2 right; output
  // 2 * (25 + 5) = 60.
  const char *kAttention =
      "input-node name=input dim=120\n"
      "component name=affine type=NaturalGradientAffineComponent "
      "input-dim=120 output-dim=180\n"
      "component-node name=affine component=affine input=input\n"
      "component-node name=attention component=attention input=affine\n"
      "component name=attention type=RestrictedAttentionComponent "
      "num-heads=2 key-dim=30 value-dim=25 time-stride=2 num-left-inputs=3 "
      "num-right-inputs=1 num-left-inputs-required=2 "
      "num-right-inputs-required=1 output-context=true key-scale=1.0\n"
      "output-node name=output input=attention\n";
  Numbers a = NumbersOf(kAttention);
  CHECK(a.num_parameters == 21780);
  CHECK(a.left == 4);
  CHECK(a.right == 2);
  CHECK(a.output_dim == 60);
  // One head, key_dim=20, value_dim=40, stride 3, 4 left (none required), 0
  // right, no context output: input to attention 20 + 40 + 20 + 5 = 85;
  // affine 100 -> 85: 8585 parameters; context 0 and 0; output 40.
  const char *kAttention2 =
      "input-node name=input dim=100\n"
      "component name=affine type=NaturalGradientAffineComponent "
      "input-dim=100 output-dim=85\n"
      "component-node name=affine component=affine input=input\n"
      "component-node name=attention component=attention input=affine\n"
      "component name=attention type=RestrictedAttentionComponent "
      "num-heads=1 key-dim=20 value-dim=40 time-stride=3 num-left-inputs=4 "
      "num-right-inputs=0 num-left-inputs-required=0 "
      "num-right-inputs-required=0 output-context=false\n"
      "output-node name=output input=attention\n";
  Numbers b = NumbersOf(kAttention2);
  CHECK(b.num_parameters == 8585);
  CHECK(b.left == 0);
  CHECK(b.right == 0);
  CHECK(b.output_dim == 40);
}

TEST_CASE("Kaldi's distribute and composite configs: parameters and context",
          "[compiler][kaldi-numbers]") {
  // GenerateConfigSequenceDistribute with output_dim=100, x_expand=3,
  // after_expand_dim=15: the affine 15 -> 100 has 1600 parameters; no
  // context.
  const char *kDistribute =
      "input-node name=input dim=45\n"
      "component name=distribute type=DistributeComponent input-dim=45 "
      "output-dim=15\n"
      "component-node name=distribute component=distribute input=input\n"
      "component name=affine type=AffineComponent input-dim=15 "
      "output-dim=100\n"
      "component-node name=affine component=affine input=distribute\n"
      "output-node name=output input=Sum(ReplaceIndex(affine, x, 0), "
      "ReplaceIndex(affine, x, 1), ReplaceIndex(affine, x, 2))\n";
  Numbers d = NumbersOf(kDistribute);
  CHECK(d.num_parameters == 1600);
  CHECK(d.left == 0);
  CHECK(d.right == 0);
  CHECK(d.output_dim == 100);
  // GenerateConfigSequenceCompositeBlock with 3 components of 10 blocks:
  // BlockAffine 30 -> 20 (20 x 3 weights + 20 biases = 80),
  // RepeatedAffine 20 -> 40 (block 4 x 2 + 4 = 12),
  // NaturalGradientRepeatedAffine 40 -> 10 (block 1 x 4 + 1 = 5): 97.
  const char *kComposite =
      "component name=composite1 type=CompositeComponent "
      "max-rows-process=1536 num-components=3 "
      "component1='type=BlockAffineComponent input-dim=30 output-dim=20 "
      "num-blocks=10' component2='type=RepeatedAffineComponent input-dim=20 "
      "output-dim=40 num-repeats=10' "
      "component3='type=NaturalGradientRepeatedAffineComponent input-dim=40 "
      "output-dim=10 num-repeats=10'\n"
      "\n"
      "input-node name=input dim=30\n"
      "component-node name=composite1 component=composite1 input=input\n"
      "output-node name=output input=composite1\n";
  Numbers c = NumbersOf(kComposite);
  CHECK(c.num_parameters == 97);
  CHECK(c.left == 0);
  CHECK(c.right == 0);
  CHECK(c.output_dim == 10);
}

}  // namespace nnet3
