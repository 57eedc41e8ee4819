// Configs exactly as Kaldi's random network generator (GenerateConfigSequence
// in nnet-test-utils.cc) writes them for the TDNN, statistics-pooling, old
// CNN and TimeHeightConvolution families, with Kaldi's sizes: each must
// load, compile, and have the parameter count and (left, right) context that
// Kaldi's code gives. The expected numbers are worked out by hand from
// Kaldi's component code next to each config.
#include <catch2/catch.hpp>
#include <sstream>

#include "compile/nnet-context.h"
#include "nnet-test-utils.h"
#include "nnet/nnet-utils.h"
#include "nnet/nnet.h"

namespace nnet3 {
namespace {

struct KaldiCase {
  const char *name;
  const char *config;
  int64_t num_parameters;
  int32_t left_context, right_context;
  int32_t input_dim, output_dim;
};

const KaldiCase kCases[] = {
    // GenerateConfigSequenceSimpleContext, TDNN branch: splice context
    // {-5,-2,0,3}, input 17, output 143. TdnnComponent params: output x
    // (input * #offsets) + bias = 143 * 68 + 143 = 9867; context 5 / 3.
    {"tdnn",
     R"(component name=tdnn1 type=TdnnComponent input-dim=17 output-dim=143 time-offsets=-5,-2,0,3 use-bias=true use-natural-gradient=false
input-node name=input dim=17
component-node name=tdnn1_node component=tdnn1 input=input
output-node name=output input=tdnn1_node
)",
     9867, 5, 3, 17, 143},
    // The same without a bias: 143 * 68 = 9724.
    {"tdnn-nobias",
     R"(component name=tdnn1 type=TdnnComponent input-dim=29 output-dim=100 time-offsets=-1,1 use-bias=false use-natural-gradient=true
input-node name=input dim=29
component-node name=tdnn1_node component=tdnn1 input=input
output-node name=output input=tdnn1_node
)",
     100 * 58, 1, 1, 29, 100},
    // GenerateConfigSequenceStatistics: input 20, input-period 2, stats
    // period 4, contexts 8 / 12, 2 log-count features, stddevs. Raw stats
    // dim 1 + 20 + 20 = 41, pooled 2 + 20 + 20 = 42; only the affine 20 -> 42
    // has parameters: 20 * 42 + 42 = 882. The output Sum(affine,
    // Round(pooling, 4)) needs the input at t and some input in the
    // extraction period of round(t), which the input at t already is
    // (inputs every frame): context 0 / 0.
    {"statistics", R"(input-node name=input dim=20
component name=statistics-extraction type=StatisticsExtractionComponent input-dim=20 input-period=2 output-period=4 include-variance=true
component name=statistics-pooling type=StatisticsPoolingComponent input-dim=41 input-period=4 left-context=8 right-context=12 num-log-count-features=2 output-stddevs=true variance-floor=3e-10
component name=affine type=AffineComponent input-dim=20 output-dim=42
component-node name=statistics-extraction component=statistics-extraction input=input
component-node name=statistics-pooling component=statistics-pooling input=statistics-extraction
component-node name=affine component=affine input=input
output-node name=output input=Sum(affine, Round(statistics-pooling, 4))
)",
     882, 0, 0, 20, 42},
    // Without stddevs: raw 1 + 13 = 14, pooled 0 + 13; affine 13 -> 13 =
    // 182.
    {"statistics-mean", R"(input-node name=input dim=13
component name=statistics-extraction type=StatisticsExtractionComponent input-dim=13 input-period=1 output-period=3 include-variance=false
component name=statistics-pooling type=StatisticsPoolingComponent input-dim=14 input-period=3 left-context=30 right-context=3 num-log-count-features=0 output-stddevs=false variance-floor=1e-10
component name=affine type=AffineComponent input-dim=13 output-dim=13
component-node name=statistics-extraction component=statistics-extraction input=input
component-node name=statistics-pooling component=statistics-pooling input=statistics-extraction
component-node name=affine component=affine input=input
output-node name=output input=Sum(affine, Round(statistics-pooling, 3))
)",
     182, 0, 0, 13, 13},
    // GenerateConfigSequenceCnn: input 20 x 15 x 5, filters 4 x 3 moving
    // 2, 3; 12 filters of dim 4 * 3 * 5 = 60 with biases: 12 * 61 = 732.
    // Output 9 x 5 patches x 12 = 540. The max-pooling node is left unused,
    // as Kaldi's generator leaves it; no time context.
    {"cnn",
     R"(component name=conv type=ConvolutionComponent  input-x-dim=20 input-y-dim=15 input-z-dim=5 filt-x-dim=4 filt-y-dim=3 filt-x-step=2 filt-y-step=3 num-filters=12 input-vectorization-order=zyx
component name=maxpooling type=MaxpoolingComponent  input-x-dim=9 input-y-dim=5 input-z-dim=12 pool-x-size=3 pool-y-size=5 pool-z-size=4 pool-x-step=3 pool-y-step=5 pool-z-step=4
input-node name=input dim=1500
component-node name=conv_node component=conv input=input
component-node name=maxpooling_node component=maxpooling input=conv_node
output-node name=output input=conv_node
)",
     732, 0, 0, 1500, 540},
    // GenerateConfigSequenceCnnNew: height 10, 2 filters; layer 0: 5
    // filters, padded 3x3 with time offsets -1,0,1 (all required), height
    // subsampled by 2 to 5: 5 x (9 * 2) + 5 = 95 params; layer 1: 3
    // filters, unpadded (height 5 -> 3), time offsets -2,0,2 with only 0
    // required: 3 x (9 * 5) + 3 = 138. Total 233. Context: layer 1 needs
    // only layer 0 at t, layer 0 needs t-1..t+1: 1 / 1.
    {"cnn-new", R"(input-node name=input dim=20
component type=TimeHeightConvolutionComponent name=layer0-conv num-filters-in=2 num-filters-out=5 height-in=10 height-out=5 height-offsets=-1,0,1 time-offsets=-1,0,1 max-memory-mb=1.0e-04 height-subsample-out=2 required-time-offsets=-1,0,1
component-node name=layer0-conv component=layer0-conv input=input
component type=TimeHeightConvolutionComponent name=layer1-conv num-filters-in=5 num-filters-out=3 height-in=5 height-out=3 height-offsets=0,1,2 time-offsets=-2,0,2 height-subsample-out=1 required-time-offsets=0 param-stddev=0.1 bias-stddev=1 use-natural-gradient=false rank-in=4 alpha-out=2.0
component-node name=layer1-conv component=layer1-conv input=layer0-conv
output-node name=output input=layer1-conv
)",
     233, 1, 1, 20, 9},
    // The same family with a Round(..., 3) after layer 0 and a residual
    // Sum (layer 1 keeps height 5 and 5 filters, padded): layer 1 is
    // 5 x 45 + 5 = 230, total 325; required offsets -1 on layer 1 (time
    // offsets -1,0,1) make the context: Round(layer0, 3) at t - 1 needs
    // layer 0 at round(t - 1) (down to t - 3) and its input t - 4; on the
    // right, layer 0 at round(t) <= t needs input t + 1: 4 / 1.
    {"cnn-new-round", R"(input-node name=input dim=20
component type=TimeHeightConvolutionComponent name=layer0-conv num-filters-in=2 num-filters-out=5 height-in=10 height-out=5 height-offsets=-1,0,1 time-offsets=-1,0,1 height-subsample-out=2
component-node name=layer0-conv component=layer0-conv input=input
component type=TimeHeightConvolutionComponent name=layer1-conv num-filters-in=5 num-filters-out=5 height-in=5 height-out=5 height-offsets=-1,0,1 time-offsets=-1,0,1 required-time-offsets=-1
component-node name=layer1-conv component=layer1-conv input=Round(layer0-conv, 3)
output-node name=output input=Sum(Round(layer0-conv, 3), layer1-conv)
)",
     325, 4, 1, 20, 25},
};

}  // namespace

TEST_CASE("Kaldi generator configs: parameter counts and contexts",
          "[computation]") {
  for (const KaldiCase &kc : kCases) {
    INFO(kc.name << ":\n" << kc.config);
    Nnet nnet;
    std::istringstream is(kc.config);
    REQUIRE_NOTHROW(nnet.ReadConfig(is, kc.name));
    REQUIRE_NOTHROW(nnet.Check(false));
    CHECK(NumParameters(nnet) == kc.num_parameters);
    CHECK(nnet.InputDim("input") == kc.input_dim);
    CHECK(nnet.OutputDim("output") == kc.output_dim);
    REQUIRE(IsSimpleNnet(nnet));
    int32_t left = -1, right = -1;
    ComputeSimpleNnetContext(nnet, &left, &right);
    CHECK(left == kc.left_context);
    CHECK(right == kc.right_context);
  }
}

}  // namespace nnet3
