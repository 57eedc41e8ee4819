#include "lat/minimum-bayes-risk.h"

#include <fst/shortest-path.h>
#include <fst/topsort.h>

#include <algorithm>
#include <cmath>

#include "base/error.h"
#include "base/log.h"
#include "base/options.h"
#include "fstext/create-super-final.h"
#include "fstext/lattice-convert.h"
#include "fstext/lattice-scale.h"
#include "fstext/linear-symbol-sequence.h"
#include "lat/lattice-forward-backward.h"
#include "lat/lattice-state-times.h"

namespace nnet3 {
namespace {

// The edit-distance penalty added to an epsilon alignment of a word when
// the distance was not already zero, so that every word shows up in the
// statistics (a float in Kaldi, widened to double).
constexpr float kDelta = 1.0e-05f;

// l(a, b) of the paper, with the delta penalty when `penalize`.
inline double Loss(int32_t a, int32_t b, bool penalize = false) {
  if (a == b) return 0.0;
  return penalize ? 1.0 + kDelta : 1.0;
}

inline void AddToMap(int32_t word, double d, std::map<int32_t, double> *m) {
  if (d == 0) return;
  (*m)[word] += d;
}

double MapValue(const std::map<int32_t, double> &m, int32_t word) {
  auto it = m.find(word);
  return it == m.end() ? 0.0 : it->second;
}

void RemoveEps(std::vector<int32_t> *vec) {
  vec->erase(std::remove(vec->begin(), vec->end(), 0), vec->end());
}

// Words with an epsilon before, between and after them: 0 w1 0 w2 0.
void NormalizeEps(std::vector<int32_t> *vec) {
  RemoveEps(vec);
  std::vector<int32_t> out(1 + 2 * vec->size(), 0);
  for (size_t i = 0; i < vec->size(); ++i) out[2 * i + 1] = (*vec)[i];
  vec->swap(out);
}

// Most likely first; equal posteriors: the larger word first.
bool GammaBefore(const std::pair<int32_t, float> &a,
                 const std::pair<int32_t, float> &b) {
  if (a.second != b.second) return a.second > b.second;
  return a.first > b.first;
}

}  // namespace

void MinimumBayesRiskOptions::Register(OptionsRegistry *opts) {
  opts->Register("decode-mbr", &decode_mbr,
                 "If true, do Minimum Bayes Risk decoding (else, Maximum a "
                 "Posteriori)");
  opts->Register("print-silence", &print_silence,
                 "Keep the inter-word '<eps>' bins in the 1-best output "
                 "(ctm, <eps> can be a 'silence' or a 'deleted' word)");
}

// alpha[n], alpha'[n][q], beta'[n][q] for nodes n = 1..N and bins
// q = 0..Q, with the per-arc rows alpha'_arc, beta'_arc and the choice
// b_arc made in the forward step (1: substitution or match, 2: the arc's
// word is an insertion, 3: the bin's word is a deletion).
struct MinimumBayesRisk::Recursion {
  Recursion(int32_t num_nodes, int32_t num_bins)
      : N(num_nodes),
        Q(num_bins),
        alpha(N + 1, 0.0),
        alpha_dash((N + 1) * (Q + 1), 0.0),
        alpha_dash_arc(Q + 1, 0.0),
        beta_dash((N + 1) * (Q + 1), 0.0),
        beta_dash_arc(Q + 1, 0.0),
        b_arc(Q + 1, 0) {}
  double &AlphaDash(int32_t n, int32_t q) {
    return alpha_dash[n * (Q + 1) + q];
  }
  double &BetaDash(int32_t n, int32_t q) { return beta_dash[n * (Q + 1) + q]; }

  const int32_t N, Q;
  std::vector<double> alpha, alpha_dash, alpha_dash_arc, beta_dash,
      beta_dash_arc;
  std::vector<char> b_arc;
};

MinimumBayesRisk::MinimumBayesRisk(const CompactLattice &clat_in,
                                   const MinimumBayesRiskOptions &opts)
    : opts_(opts) {
  CompactLattice clat(clat_in);
  PrepareLatticeAndInitStats(&clat);
  SetBestPath(&clat);
  MbrDecode();
}

MinimumBayesRisk::MinimumBayesRisk(const CompactLattice &clat_in,
                                   const std::vector<int32_t> &words,
                                   const MinimumBayesRiskOptions &opts)
    : opts_(opts) {
  CompactLattice clat(clat_in);
  PrepareLatticeAndInitStats(&clat);
  hyp_ = words;
  MbrDecode();
}

MinimumBayesRisk::MinimumBayesRisk(const CompactLattice &clat_in,
                                   const std::vector<int32_t> &words,
                                   const std::vector<TimePair> &times,
                                   const MinimumBayesRiskOptions &opts)
    : opts_(opts) {
  CompactLattice clat(clat_in);
  PrepareLatticeAndInitStats(&clat);
  hyp_ = words;
  sausage_times_ = times;  // recomputed by AccStats, as in Kaldi
  MbrDecode();
}

void MinimumBayesRisk::PrepareLatticeAndInitStats(CompactLattice *clat) {
  if (clat->Start() == fst::kNoStateId) {
    // Kaldi's result for an empty lattice is that of one state, final with
    // weight One: no words, one epsilon bin, risk 0.
    clat->DeleteStates();
    clat->SetStart(clat->AddState());
    clat->SetFinal(0, CompactLatticeWeight::One());
  }
  CreateSuperFinal(clat);
  // Kaldi sorts unless the cached properties say it is sorted; sorting an
  // already sorted lattice can renumber it, so this test is Kaldi's too.
  if (!(clat->Properties(fst::kFstProperties, false) & fst::kTopSorted) &&
      !fst::TopSort(clat))
    NNET3_ERR << "Cycles detected in lattice.";
  std::vector<int32_t> times;
  CompactLatticeStateTimes(*clat, &times);
  state_times_.assign(1, 0);  // nodes count from 1
  state_times_.insert(state_times_.end(), times.begin(), times.end());
  const int32_t num_nodes = clat->NumStates();
  pre_.assign(num_nodes + 1, {});
  arcs_.clear();
  for (int32_t n = 1; n <= num_nodes; ++n) {
    for (fst::ArcIterator<CompactLattice> aiter(*clat, n - 1); !aiter.Done();
         aiter.Next()) {
      const CompactLatticeArc &carc = aiter.Value();
      const LatticeWeight &w = carc.weight.Weight();
      Arc arc{carc.ilabel, n, carc.nextstate + 1, -(w.Value1() + w.Value2())};
      pre_[arc.end_node].push_back(static_cast<int32_t>(arcs_.size()));
      arcs_.push_back(arc);
    }
  }
}

void MinimumBayesRisk::SetBestPath(CompactLattice *clat) {
  RemoveAlignmentsFromCompactLattice(clat);
  Lattice lat;
  ConvertLattice(*clat, &lat);
  fst::VectorFst<fst::StdArc> fst, best;
  ConvertLattice(lat, &fst);
  fst::ShortestPath(fst, &best);
  std::vector<int32_t> alignment;
  fst::TropicalWeight weight;
  GetLinearSymbolSequence(best, &alignment, &hyp_, &weight);
  NNET3_ASSERT(alignment.empty());
  risk_ = 0.0;
}

double MinimumBayesRisk::EditDistance(Recursion *r) const {
  const int32_t N = r->N, Q = r->Q;
  r->alpha[1] = 0.0;
  r->AlphaDash(1, 0) = 0.0;
  for (int32_t q = 1; q <= Q; ++q)
    r->AlphaDash(1, q) = r->AlphaDash(1, q - 1) + Loss(0, HypWord(q));
  for (int32_t n = 2; n <= N; ++n) {
    double alpha_n = kLogZeroDouble;
    for (int32_t a : pre_[n])
      alpha_n =
          LogAdd(alpha_n, r->alpha[arcs_[a].start_node] + arcs_[a].loglike);
    r->alpha[n] = alpha_n;
    for (int32_t a : pre_[n]) {
      const Arc &arc = arcs_[a];
      const int32_t s = arc.start_node;
      const double p = std::exp(r->alpha[s] + arc.loglike - r->alpha[n]);
      for (int32_t q = 0; q <= Q; ++q) {
        if (q == 0) {
          r->alpha_dash_arc[0] = r->AlphaDash(s, 0) + Loss(arc.word, 0, true);
        } else {
          const double a1 = r->AlphaDash(s, q - 1) + Loss(arc.word, HypWord(q)),
                       a2 = r->AlphaDash(s, q) + Loss(arc.word, 0, true),
                       a3 = r->alpha_dash_arc[q - 1] + Loss(0, HypWord(q));
          r->alpha_dash_arc[q] = std::min(a1, std::min(a2, a3));
        }
        r->AlphaDash(n, q) += p * r->alpha_dash_arc[q];
      }
    }
  }
  return r->AlphaDash(N, Q);
}

// Lines 13-26 of Figure 5 for one arc entering node n.
void MinimumBayesRisk::AccArcStats(
    int32_t n, const Arc &arc, Recursion *r,
    std::vector<std::map<int32_t, double>> *gamma,
    std::vector<std::map<int32_t, double>> *tau_b,
    std::vector<std::map<int32_t, double>> *tau_e) const {
  const int32_t Q = r->Q, s = arc.start_node, w = arc.word;
  r->alpha_dash_arc[0] = r->AlphaDash(s, 0) + Loss(w, 0, true);
  for (int32_t q = 1; q <= Q; ++q) {
    const double a1 = r->AlphaDash(s, q - 1) + Loss(w, HypWord(q)),
                 a2 = r->AlphaDash(s, q) + Loss(w, 0, true),
                 a3 = r->alpha_dash_arc[q - 1] + Loss(0, HypWord(q));
    if (a1 <= a2) {
      r->b_arc[q] = a1 <= a3 ? 1 : 3;
      r->alpha_dash_arc[q] = a1 <= a3 ? a1 : a3;
    } else {
      r->b_arc[q] = a2 <= a3 ? 2 : 3;
      r->alpha_dash_arc[q] = a2 <= a3 ? a2 : a3;
    }
  }
  std::fill(r->beta_dash_arc.begin(), r->beta_dash_arc.end(), 0.0);
  const double p = std::exp(r->alpha[s] + arc.loglike - r->alpha[n]);
  for (int32_t q = Q; q >= 1; --q) {
    r->beta_dash_arc[q] += p * r->BetaDash(n, q);
    const double b = r->beta_dash_arc[q];
    switch (r->b_arc[q]) {
      case 1:
        r->BetaDash(s, q - 1) += b;
        AddToMap(w, b, &(*gamma)[q]);
        AddToMap(w, state_times_[s] * b, &(*tau_b)[q]);
        AddToMap(w, state_times_[n] * b, &(*tau_e)[q]);
        break;
      case 2:
        r->BetaDash(s, q) += b;
        break;
      default:  // 3
        r->beta_dash_arc[q - 1] += b;
        AddToMap(0, b, &(*gamma)[q]);
        // A deletion sits at the arc's end (Appendix C of the paper says
        // its start, which is an erratum).
        AddToMap(0, state_times_[n] * b, &(*tau_b)[q]);
        AddToMap(0, state_times_[n] * b, &(*tau_e)[q]);
        break;
    }
  }
  r->beta_dash_arc[0] += p * r->BetaDash(n, 0);
  r->BetaDash(s, 0) += r->beta_dash_arc[0];
}

void MinimumBayesRisk::AccStats() {
  const int32_t N = static_cast<int32_t>(pre_.size()) - 1,
                Q = static_cast<int32_t>(hyp_.size());
  Recursion r(N, Q);
  std::vector<std::map<int32_t, double>> gamma(Q + 1), tau_b(Q + 1),
      tau_e(Q + 1);
  const double risk = EditDistance(&r);
  if (risk_ != 0 && risk > risk_)  // risk_ == 0 on the first iteration
    NNET3_WARN << "Edit distance increased: " << risk << " > " << risk_;
  risk_ = risk;
  NNET3_VLOG(2) << "L = " << risk_;
  r.BetaDash(N, Q) = 1.0;
  for (int32_t n = N; n >= 2; --n)
    for (int32_t a : pre_[n])
      AccArcStats(n, arcs_[a], &r, &gamma, &tau_b, &tau_e);
  std::fill(r.beta_dash_arc.begin(), r.beta_dash_arc.end(), 0.0);
  for (int32_t q = Q; q >= 1; --q) {  // what is left at the start node
    r.beta_dash_arc[q] += r.BetaDash(1, q);
    r.beta_dash_arc[q - 1] += r.beta_dash_arc[q];
    AddToMap(0, r.beta_dash_arc[q], &gamma[q]);
    AddToMap(0, state_times_[1] * r.beta_dash_arc[q], &tau_b[q]);
    AddToMap(0, state_times_[1] * r.beta_dash_arc[q], &tau_e[q]);
  }
  gamma_.assign(Q, {});
  for (int32_t q = 1; q <= Q; ++q) {
    double sum = 0.0;
    for (const auto &wp : gamma[q]) {
      sum += wp.second;
      gamma_[q - 1].emplace_back(wp.first, static_cast<float>(wp.second));
    }
    if (std::fabs(sum - 1.0) > 0.1)
      NNET3_WARN << "sum of gamma[" << q << ",s] is " << sum;
    std::sort(gamma_[q - 1].begin(), gamma_[q - 1].end(), GammaBefore);
  }
  SetTimes(tau_b, tau_e);
}

void MinimumBayesRisk::SetTimes(
    const std::vector<std::map<int32_t, double>> &tau_b,
    const std::vector<std::map<int32_t, double>> &tau_e) {
  const size_t Q = gamma_.size();
  times_.assign(Q, {});
  sausage_times_.assign(Q, TimePair(0.0f, 0.0f));
  for (size_t q = 1; q <= Q; ++q) {
    double t_b = 0.0, t_e = 0.0;
    for (const auto &wp : gamma_[q - 1]) {
      const double w_b = MapValue(tau_b[q], wp.first),
                   w_e = MapValue(tau_e[q], wp.first);
      if (w_b > w_e) NNET3_WARN << "Times out of order";
      times_[q - 1].emplace_back(static_cast<float>(w_b / wp.second),
                                 static_cast<float>(w_e / wp.second));
      t_b += w_b;
      t_e += w_e;
    }
    TimePair &bin = sausage_times_[q - 1];
    bin = TimePair(static_cast<float>(t_b), static_cast<float>(t_e));
    if (bin.first > bin.second) NNET3_WARN << "Times out of order";
    if (q > 1 && sausage_times_[q - 2].second > bin.first) {
      // Overlapping bins meet half way.
      const float mid = 0.5 * (sausage_times_[q - 2].second + bin.first);
      sausage_times_[q - 2].second = bin.first = mid;
    }
  }
}

void MinimumBayesRisk::AddOneBestEntry(size_t q) {
  const std::vector<std::pair<int32_t, float>> &bin = gamma_[q];
  size_t s = 0;
  float confidence = 0.0f;
  for (size_t j = 0; j < bin.size(); ++j) {
    if (bin[j].first == hyp_[q]) {
      s = j;
      confidence = bin[j].second;
      break;
    }
  }
  if (times_[q].empty())
    NNET3_ERR << "Bin " << q << " of the confusion network is empty (does the "
              << "lattice have a path of finite cost?)";
  one_best_times_.push_back(times_[q][s]);
  one_best_confidences_.push_back(confidence);
  const size_t i = one_best_times_.size();
  if (i < 2 || one_best_times_[i - 2].second <= one_best_times_[i - 1].first)
    return;
  // Overlapping words share the span they cover in proportion to their
  // durations.
  TimePair &prev = one_best_times_[i - 2], &cur = one_best_times_[i - 1];
  const float prev_right = i > 2 ? one_best_times_[i - 3].second : 0.0f;
  const float left = std::max(prev_right, std::min(prev.first, cur.first));
  const float right = std::max(prev.second, cur.second);
  const float first_dur = prev.second - prev.first;
  const float second_dur = cur.second - cur.first;
  const float mid = first_dur > 0 ? left + (right - left) * first_dur /
                                               (first_dur + second_dur)
                                  : left;
  prev.first = left;
  prev.second = cur.first = mid;
  cur.second = right;
}

void MinimumBayesRisk::MbrDecode() {
  for (size_t counter = 0;; ++counter) {
    NormalizeEps(&hyp_);
    AccStats();
    double delta_q = 0.0;  // change in the objective (<= 0)
    one_best_times_.clear();
    one_best_confidences_.clear();
    for (size_t q = 0; q < hyp_.size(); ++q) {
      const std::vector<std::pair<int32_t, float>> &bin = gamma_[q];
      if (opts_.decode_mbr && !bin.empty()) {
        double old_gamma = 0;
        for (const auto &wp : bin)
          if (wp.first == hyp_[q]) old_gamma = wp.second;
        delta_q += old_gamma - bin[0].second;
        if (hyp_[q] != bin[0].first) {
          NNET3_VLOG(2) << "Changing word " << hyp_[q] << " to "
                        << bin[0].first;
        }
        hyp_[q] = bin[0].first;
      }
      if (hyp_[q] != 0 || opts_.print_silence) AddOneBestEntry(q);
    }
    NNET3_VLOG(2) << "Iter = " << counter << ", delta-Q = " << delta_q;
    if (delta_q == 0) break;
    if (counter > 100) {
      NNET3_WARN << "Iterating too many times in MbrDecode; stopping.";
      break;
    }
  }
  if (!opts_.print_silence) RemoveEps(&hyp_);
}

}  // namespace nnet3
