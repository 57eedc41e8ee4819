#include "lat/lattice-forward-backward.h"

#include <algorithm>
#include <cstdint>
#include <limits>

#include "base/error.h"
#include "base/log.h"
#include "lat/lattice-state-times.h"

namespace nnet3 {
namespace {

// The negated cost of a weight, its two floats summed in float (as Kaldi
// does for final weights and compact-lattice arcs).
double FloatLogLike(const LatticeWeight &w) {
  return -(w.Value1() + w.Value2());
}

// Whether the forward and backward totals agree, compared as Kaldi does:
// in float, to 1e-8 of the sum of their magnitudes (so in practice: equal
// as floats). Equal infinities agree; NaN agrees with nothing.
bool ApproxEqualTotals(float a, float b) {
  if (a == b) return true;
  const float diff = std::fabs(a - b);
  if (std::isinf(diff) || std::isnan(diff)) return false;
  return diff <= 1e-8f * (std::fabs(a) + std::fabs(b));
}

bool CheckSortedFromZero(const CompactLattice &clat) {
  if (clat.Properties(fst::kTopSorted, true) == 0) {
    NNET3_WARN << "Input lattice must be topologically sorted.";
    return false;
  }
  if (clat.Start() != 0) {
    NNET3_WARN << "Input lattice must start from state 0.";
    return false;
  }
  return true;
}

}  // namespace

void MergePairVectorSumming(std::vector<std::pair<int32_t, float>> *vec) {
  std::sort(
      vec->begin(), vec->end(),
      [](const std::pair<int32_t, float> &a,
         const std::pair<int32_t, float> &b) { return a.first < b.first; });
  auto out = vec->begin();
  for (auto in = vec->begin(); in != vec->end();) {
    *out = *in;
    for (++in; in != vec->end() && in->first == out->first; ++in)
      out->second += in->second;
    if (out->second != 0.0f) ++out;
  }
  vec->erase(out, vec->end());
}

float LatticeForwardBackward(const Lattice &lat, Posterior *post,
                             double *acoustic_like_sum) {
  if (acoustic_like_sum != nullptr) *acoustic_like_sum = 0.0;
  post->clear();
  if (lat.Start() == fst::kNoStateId) {
    NNET3_WARN << "Forward-backward over an empty lattice: no frames, "
               << "log-likelihood -inf";
    return -std::numeric_limits<float>::infinity();
  }
  if (lat.Properties(fst::kTopSorted, true) == 0)
    NNET3_ERR << "Input lattice must be topologically sorted.";
  if (lat.Start() != 0)
    NNET3_ERR << "Input lattice must start at state 0 (it starts at "
              << lat.Start() << ")";
  const int32_t num_states = lat.NumStates();
  std::vector<int32_t> state_times;
  const int32_t max_time = LatticeStateTimes(lat, &state_times);
  std::vector<double> alpha(num_states, kLogZeroDouble);
  double tot_forward = kLogZeroDouble;
  post->resize(max_time);
  alpha[0] = 0.0;
  for (int32_t s = 0; s < num_states; ++s) {
    for (fst::ArcIterator<Lattice> aiter(lat, s); !aiter.Done(); aiter.Next()) {
      const LatticeArc &arc = aiter.Value();
      alpha[arc.nextstate] =
          LogAdd(alpha[arc.nextstate], alpha[s] - ConvertToCost(arc.weight));
    }
    const LatticeWeight f = lat.Final(s);
    if (f != LatticeWeight::Zero()) {
      tot_forward = LogAdd(tot_forward, alpha[s] + FloatLogLike(f));
      if (state_times[s] != max_time)
        NNET3_ERR << "Lattice is inconsistent: final state " << s
                  << " is at frame " << state_times[s] << ", not at the "
                  << "last frame " << max_time;
    }
  }
  std::vector<double> beta(num_states, kLogZeroDouble);
  for (int32_t s = num_states - 1; s >= 0; --s) {
    const LatticeWeight f = lat.Final(s);
    double this_beta = FloatLogLike(f);
    for (fst::ArcIterator<Lattice> aiter(lat, s); !aiter.Done(); aiter.Next()) {
      const LatticeArc &arc = aiter.Value();
      const double arc_beta = beta[arc.nextstate] - ConvertToCost(arc.weight);
      this_beta = LogAdd(this_beta, arc_beta);
      if (arc.ilabel == 0 && acoustic_like_sum == nullptr) continue;
      const double p = std::exp(alpha[s] + arc_beta - tot_forward);
      if (arc.ilabel != 0)
        (*post)[state_times[s]].emplace_back(arc.ilabel, static_cast<float>(p));
      if (acoustic_like_sum != nullptr)
        *acoustic_like_sum -= p * arc.weight.Value2();
    }
    if (acoustic_like_sum != nullptr && f != LatticeWeight::Zero()) {
      const double p = std::exp(alpha[s] - ConvertToCost(f) - tot_forward);
      *acoustic_like_sum -= p * f.Value2();
    }
    beta[s] = this_beta;
  }
  const double tot_backward = beta[0];
  if (!ApproxEqualTotals(tot_forward, tot_backward))
    NNET3_WARN << "Total forward probability over lattice = " << tot_forward
               << ", while total backward probability = " << tot_backward;
  for (auto &frame : *post) MergePairVectorSumming(&frame);
  return tot_backward;
}

bool ComputeCompactLatticeAlphas(const CompactLattice &clat,
                                 std::vector<double> *alpha) {
  if (!CheckSortedFromZero(clat)) return false;
  const int32_t num_states = clat.NumStates();
  alpha->assign(num_states, kLogZeroDouble);
  (*alpha)[0] = 0.0;
  for (int32_t s = 0; s < num_states; ++s) {
    for (fst::ArcIterator<CompactLattice> aiter(clat, s); !aiter.Done();
         aiter.Next()) {
      const CompactLatticeArc &arc = aiter.Value();
      (*alpha)[arc.nextstate] =
          LogAdd((*alpha)[arc.nextstate],
                 (*alpha)[s] + FloatLogLike(arc.weight.Weight()));
    }
  }
  return true;
}

bool ComputeCompactLatticeBetas(const CompactLattice &clat,
                                std::vector<double> *beta) {
  if (!CheckSortedFromZero(clat)) return false;
  const int32_t num_states = clat.NumStates();
  beta->assign(num_states, kLogZeroDouble);
  for (int32_t s = num_states - 1; s >= 0; --s) {
    double this_beta = FloatLogLike(clat.Final(s).Weight());
    for (fst::ArcIterator<CompactLattice> aiter(clat, s); !aiter.Done();
         aiter.Next()) {
      const CompactLatticeArc &arc = aiter.Value();
      this_beta = LogAdd(this_beta, (*beta)[arc.nextstate] +
                                        FloatLogLike(arc.weight.Weight()));
    }
    (*beta)[s] = this_beta;
  }
  return true;
}

}  // namespace nnet3
