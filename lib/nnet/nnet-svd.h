// The SVD edits of nnet3-copy --edits (Kaldi's nnet-utils.cc): apply-svd,
// which factors affine components into a LinearComponent followed by a
// NaturalGradientAffineComponent through a narrower "bottleneck", and
// reduce-rank, which replaces an affine component's matrix by its best
// lower-rank approximation in place.
//
//   ApplySvdOptions opts;
//   opts.name_pattern = "tdnn*.affine";
//   opts.bottleneck_dim = 128;        // or opts.energy_threshold = 0.9;
//   ApplySvdToComponents(opts, &nnet);
//   ReduceRankOfComponents("tdnn*.affine", 64, &nnet);
//
// Both act on the components whose names match the pattern and that are
// AffineComponents (NaturalGradientAffineComponent included); others that
// match get a warning, as in Kaldi. W = U S Vᵀ is computed in double
// (host-svd.h) and the largest singular values are kept.
//
// apply-svd, for a component C of node N (W: out x in, bias b) and
// bottleneck dim d: C_a = LinearComponent(S_d^½ V_dᵀ) (d x in) and
// C_b = NaturalGradientAffineComponent(U_d S_d^½, b) (out x d), both with
// C's learning rate, learning-rate-factor, l2-regularize and max-change;
// node N becomes N_a (C_a, N's input) then N_b (C_b, input N_a), and every
// reference to N now refers to N_b; C and any orphan nodes and components
// are removed, as Kaldi does. The parameter count changes by
// d (in + out) - in out per component. d is bottleneck-dim or, with
// energy-threshold=e, the fewest singular values whose squares sum to at
// least e times the total. A component is left alone if d >= its input or
// output dim (a warning) or if d (in + out) / (in out) > shrinkage-threshold
// (a log line).
#ifndef NNET3_NNET_NNET_SVD_H_
#define NNET3_NNET_NNET_SVD_H_

#include <cstdint>
#include <string>

#include "nnet/nnet.h"

namespace nnet3 {

struct ApplySvdOptions {
  std::string name_pattern;          // component names ('*' matches any run)
  int32_t bottleneck_dim = -1;       // used if energy_threshold <= 0
  float energy_threshold = -1.0f;    // in (0, 1); overrides bottleneck_dim
  float shrinkage_threshold = 1.0f;  // skip if the parameter ratio exceeds it
};

// Applies apply-svd (see the file comment); returns the number of
// components factored. UserError for bad options or if a C_a / C_b
// component or N_a / N_b node name is taken; the network is then unchanged.
int32_t ApplySvdToComponents(const ApplySvdOptions &opts, Nnet *nnet);

// Applies reduce-rank: W <- U_r S_r V_rᵀ for each matching affine component
// whose input and output dims both exceed `rank` (others: a warning).
// Returns the number of components changed.
int32_t ReduceRankOfComponents(const std::string &name_pattern, int32_t rank,
                               Nnet *nnet);

}  // namespace nnet3

#endif  // NNET3_NNET_NNET_SVD_H_
