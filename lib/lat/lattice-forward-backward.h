// Forward-backward over lattices (Kaldi's LatticeForwardBackward and
// ComputeCompactLatticeAlphas / Betas): total log-likelihoods and arc
// posteriors, with the costs (graph + acoustic, already scaled as wanted)
// read as negated log-likelihoods.
//
//   ScaleLattice(LatticeScale(lm_scale, acoustic_scale), &lat);
//   TopSortLatticeIfNeeded(&lat);
//   Posterior post;                       // [frame] -> (transition-id, p)
//   double ac_like;
//   float like = LatticeForwardBackward(lat, &post, &ac_like);
//
//   std::vector<double> alpha, beta;      // CompactLattice, per state
//   ComputeCompactLatticeAlphas(clat, &alpha);
//   ComputeCompactLatticeBetas(clat, &beta);   // beta[0] = total
//
// Guarantees: each frame's posteriors sum to 1 (up to rounding) on a
// lattice whose paths all have the same length; the arithmetic is Kaldi's
// (double sums, LogAdd's cut-off, float arc costs), so numbers agree with
// Kaldi's to the last bit on the same lattice.
#ifndef NNET3_LAT_LATTICE_FORWARD_BACKWARD_H_
#define NNET3_LAT_LATTICE_FORWARD_BACKWARD_H_

#include <cfloat>
#include <cmath>
#include <limits>
#include <vector>

#include "lat/kaldi-lattice.h"
#include "matrix/posterior.h"

namespace nnet3 {

constexpr double kLogZeroDouble = -std::numeric_limits<double>::infinity();

// log(exp(x) + exp(y)), as Kaldi computes it: the smaller term is dropped
// when it is below DBL_EPSILON times the larger.
inline double LogAdd(double x, double y) {
  double diff;
  if (x < y) {
    diff = x - y;
    x = y;
  } else {
    diff = y - x;
  }
  static const double kMinLogDiff = std::log(DBL_EPSILON);
  if (diff >= kMinLogDiff) return x + std::log1p(std::exp(diff));
  return x;
}

// Posteriors of the transition-ids per frame (each frame's pairs sorted by
// transition-id, equal ones summed, zeros dropped), and the total
// log-likelihood (the backward pass's, rounded to float as Kaldi returns
// it). With acoustic_like_sum, also the
// expected acoustic log-likelihood (minus the posterior-weighted acoustic
// costs). The lattice must be topologically sorted and start at state 0
// (UserError otherwise); a warning when the forward and backward totals
// differ as floats. An empty lattice (no start state) gives no frames and
// -inf, with a warning (Kaldi's crashes).
float LatticeForwardBackward(const Lattice &lat, Posterior *post,
                             double *acoustic_like_sum = nullptr);

// Forward log-likelihoods of every state (the start's is 0; final weights
// are not included). False, with a warning, unless the lattice is
// topologically sorted and starts at state 0.
bool ComputeCompactLatticeAlphas(const CompactLattice &clat,
                                 std::vector<double> *alpha);
// Backward log-likelihoods, final weights included.
bool ComputeCompactLatticeBetas(const CompactLattice &clat,
                                std::vector<double> *beta);

// Sorts `vec` by its first members and sums the second members of equal
// ones, dropping pairs that sum to zero (Kaldi's MergePairVectorSumming).
void MergePairVectorSumming(std::vector<std::pair<int32_t, float>> *vec);

}  // namespace nnet3

#endif  // NNET3_LAT_LATTICE_FORWARD_BACKWARD_H_
