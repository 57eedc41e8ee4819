#include "lat/lattice-scale-options.h"

#include "base/error.h"

namespace nnet3 {

void LatticeScaleOptions::Register(OptionsRegistry *po, bool with_lm_terms) {
  po->Register("acoustic-scale", &acoustic_scale,
               "Scaling factor for acoustic likelihoods");
  po->Register("inv-acoustic-scale", &inv_acoustic_scale,
               "An alternative way of setting the acoustic scale: you can "
               "set its inverse.");
  if (!with_lm_terms) return;
  po->Register("lm-scale", &lm_scale, "Scaling factor for graph/lm costs");
  po->Register("acoustic2lm-scale", &acoustic2lm_scale,
               "Add this times original acoustic costs to LM costs");
  po->Register("lm2acoustic-scale", &lm2acoustic_scale,
               "Add this times original LM costs to acoustic costs");
}

float LatticeScaleOptions::AcousticScale() const {
  if (acoustic_scale != 1.0f && inv_acoustic_scale != 1.0f)
    NNET3_ERR << "Give --acoustic-scale or --inv-acoustic-scale, not both ("
              << acoustic_scale << " and " << inv_acoustic_scale << ")";
  if (inv_acoustic_scale != 1.0f)
    return static_cast<float>(1.0 / inv_acoustic_scale);
  return acoustic_scale;
}

LatticeScaleMatrix LatticeScaleOptions::ScaleMatrix() const {
  return {{lm_scale, acoustic2lm_scale}, {lm2acoustic_scale, AcousticScale()}};
}

}  // namespace nnet3
