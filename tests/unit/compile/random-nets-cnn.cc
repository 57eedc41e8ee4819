// Random networks with the old 3-D ConvolutionComponent and a
// MaxpoolingComponent for the generator (after Kaldi's
// GenerateConfigSequenceCnn, nnet-test-utils.cc; our own code). The
// geometry is drawn as Kaldi draws it (filter and pooling sizes and steps
// that tile the input exactly, zyx or yzx vectorization) but smaller (Kaldi:
// inputs up to 29 x 29 x 12), and the output reads the max-pooling node
// (Kaldi's leaves it unused). An output affine follows when the options fix
// the output dim.
#include <sstream>

#include "nnet-test-utils.h"

namespace nnet3 {

namespace {

// Draws a step in [1, size] with (input - size) % step == 0.
int32_t TilingStep(int32_t input, int32_t size, RandomState *rng) {
  int32_t step;
  do {
    step = rng->Int(1, size);
  } while ((input - size) % step != 0);
  return step;
}

}  // namespace

bool GenerateCnnConfigs(const NnetGenerationOptions &opts, RandomState *rng,
                        std::vector<std::string> *configs) {
  if (!opts.allow_nonlinearity || rng->Int(0, 11) != 0) return false;
  int32_t x = rng->Int(3, 7), y = rng->Int(3, 7);
  const int32_t z = rng->Int(1, 3), fx = rng->Int(1, x), fy = rng->Int(1, y),
                num_filters = rng->Int(2, 5), sx = rng->Int(1, fx),
                sy = rng->Int(1, fy);
  x -= (x - fx) % sx;  // so that the filters tile the input
  y -= (y - fy) % sy;
  const int32_t cx = 1 + (x - fx) / sx, cy = 1 + (y - fy) / sy,
                cz = num_filters;
  const int32_t px = rng->Int(1, cx), py = rng->Int(1, cy),
                pz = rng->Int(1, cz);
  const int32_t psx = TilingStep(cx, px, rng), psy = TilingStep(cy, py, rng),
                psz = TilingStep(cz, pz, rng);
  const int32_t pooled =
      (1 + (cx - px) / psx) * (1 + (cy - py) / psy) * (1 + (cz - pz) / psz);
  std::ostringstream os;
  os << "component name=conv type=ConvolutionComponent input-x-dim=" << x
     << " input-y-dim=" << y << " input-z-dim=" << z << " filt-x-dim=" << fx
     << " filt-y-dim=" << fy << " filt-x-step=" << sx << " filt-y-step=" << sy
     << " num-filters=" << num_filters
     << " input-vectorization-order=" << (rng->Int(0, 1) == 0 ? "yzx" : "zyx")
     << "\n"
     << "component name=maxpooling type=MaxpoolingComponent input-x-dim=" << cx
     << " input-y-dim=" << cy << " input-z-dim=" << cz << " pool-x-size=" << px
     << " pool-y-size=" << py << " pool-z-size=" << pz << " pool-x-step=" << psx
     << " pool-y-step=" << psy << " pool-z-step=" << psz << "\n"
     << "input-node name=input dim=" << x * y * z << "\n"
     << "component-node name=conv_node component=conv input=input\n"
     << "component-node name=maxpooling_node component=maxpooling "
        "input=conv_node\n";
  std::string last = "maxpooling_node";
  if (opts.output_dim > 0) {
    os << "component name=final_affine type=AffineComponent input-dim="
       << pooled << " output-dim=" << opts.output_dim << "\n"
       << "component-node name=final_affine component=final_affine "
          "input=maxpooling_node\n";
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
[[maybe_unused]] const bool kCnnRegistered =
    RegisterRandomNetFamily({"cnn",
                             {"ConvolutionComponent", "MaxpoolingComponent"},
                             GenerateCnnConfigs});

}  // namespace

}  // namespace nnet3
