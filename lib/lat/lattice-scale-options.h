// The scale options of Kaldi's lattice programs (lattice-scale,
// lattice-prune): --acoustic-scale, or its inverse --inv-acoustic-scale (the
// LM weight of scoring scripts: --inv-acoustic-scale=12 scales acoustic costs
// by 1/12), and lattice-scale's graph and cross terms.
//
//   LatticeScaleOptions opts;
//   opts.Register(&po, /*with_lm_terms=*/true);
//   po.Read(argc, argv);
//   ScaleLattice(opts.ScaleMatrix(), &clat);   // UserError if both acoustic
//                                              // forms are given
//
// As in Kaldi, 1 / inv-acoustic-scale is stored as a float before it
// becomes the (double) scale, so the scaled costs are Kaldi's to the bit.
#ifndef NNET3_LAT_LATTICE_SCALE_OPTIONS_H_
#define NNET3_LAT_LATTICE_SCALE_OPTIONS_H_

#include "base/options.h"
#include "fstext/lattice-scale.h"

namespace nnet3 {

struct LatticeScaleOptions {
  float acoustic_scale = 1.0f;
  float inv_acoustic_scale = 1.0f;
  float lm_scale = 1.0f;
  float acoustic2lm_scale = 0.0f;
  float lm2acoustic_scale = 0.0f;

  // Registers --acoustic-scale and --inv-acoustic-scale, and with
  // with_lm_terms --lm-scale, --acoustic2lm-scale, --lm2acoustic-scale.
  void Register(OptionsRegistry *po, bool with_lm_terms);

  // The acoustic scale in effect; UserError if both forms differ from 1.
  float AcousticScale() const;

  // [[lm, acoustic2lm], [lm2acoustic, acoustic]].
  LatticeScaleMatrix ScaleMatrix() const;
};

}  // namespace nnet3

#endif  // NNET3_LAT_LATTICE_SCALE_OPTIONS_H_
