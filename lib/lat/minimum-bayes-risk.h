// Minimum Bayes Risk decoding and confusion networks ("sausages") from a
// word lattice (Kaldi's MinimumBayesRisk, lat/sausages.h), after Xu, Povey,
// Mangu and Zhu, "Minimum Bayes Risk decoding and system combination based
// on a recursion for edit distance" (Computer Speech and Language, 2011).
//
//   ScaleLattice(LatticeScale(lm_scale, acoustic_scale), &clat);
//   MinimumBayesRisk mbr(clat);             // the whole computation
//   mbr.GetOneBest();                       // MBR words (no epsilons)
//   mbr.GetOneBestConfidences();            // their posteriors
//   mbr.GetOneBestTimes();                  // their (begin, end) frames
//   mbr.GetBayesRisk();                     // expected word errors
//   mbr.GetSausageStats();                  // per bin: (word, posterior)
//
// What it computes: starting from the lattice's best path R (or given
// words), with epsilon bins between and around its words, it aligns every
// lattice path to R by edit distance (forward recursion over the lattice,
// backward pass for the statistics) and gets, per bin q, the posterior of
// each word (0 = no word) aligned to it: the sausage. With decode_mbr, R's
// words become each bin's most likely word and this repeats until the
// expected edit distance stops falling; without it, R stays the MAP path
// and the sausage gives its confidences. Times are posterior-weighted
// averages of the aligned arcs' begin and end frames (meaningful after
// lattice-align-words), made non-overlapping.
//
// The arithmetic is Kaldi's (the same sums in the same order, the same
// float roundings), so the outputs equal Kaldi's on the same lattice. The
// costs must already be scaled; the lattice must be acyclic (UserError
// otherwise). An empty lattice gives no words, one epsilon bin and risk 0,
// as in Kaldi.
#ifndef NNET3_LAT_MINIMUM_BAYES_RISK_H_
#define NNET3_LAT_MINIMUM_BAYES_RISK_H_

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "lat/kaldi-lattice.h"

namespace nnet3 {

class OptionsRegistry;

struct MinimumBayesRiskOptions {
  // Update the hypothesis to the MBR one (false: keep the MAP path and
  // just compute its statistics).
  bool decode_mbr = true;
  // Keep the epsilon bins between words in the one-best output (with
  // their times and confidences).
  bool print_silence = false;
  void Register(OptionsRegistry *opts);
};

class MinimumBayesRisk {
 public:
  using TimePair = std::pair<float, float>;

  // Starts from the lattice's best path.
  explicit MinimumBayesRisk(
      const CompactLattice &clat,
      const MinimumBayesRiskOptions &opts = MinimumBayesRiskOptions());
  // Starts from `words` (epsilons are ignored).
  MinimumBayesRisk(
      const CompactLattice &clat, const std::vector<int32_t> &words,
      const MinimumBayesRiskOptions &opts = MinimumBayesRiskOptions());
  // As above; `times` are accepted for Kaldi's interface but, as in
  // Kaldi, the bins' times are recomputed from the lattice.
  MinimumBayesRisk(
      const CompactLattice &clat, const std::vector<int32_t> &words,
      const std::vector<TimePair> &times,
      const MinimumBayesRiskOptions &opts = MinimumBayesRiskOptions());

  // The one-best words: without epsilons unless print_silence.
  const std::vector<int32_t> &GetOneBest() const { return hyp_; }
  // Per bin, the average (begin, end) frames of each of its words, in the
  // order of GetSausageStats(); raw averages, which may overlap.
  const std::vector<std::vector<TimePair>> &GetTimes() const { return times_; }
  // Per bin, its average (begin, end) frames; overlaps are split.
  const std::vector<TimePair> &GetSausageTimes() const {
    return sausage_times_;
  }
  // Per one-best word, its (begin, end) frames; overlaps redistributed.
  const std::vector<TimePair> &GetOneBestTimes() const {
    return one_best_times_;
  }
  const std::vector<float> &GetOneBestConfidences() const {
    return one_best_confidences_;
  }
  // The expected edit distance between the lattice and the one-best.
  float GetBayesRisk() const { return static_cast<float>(risk_); }
  // Per bin, (word, posterior) pairs, the most likely first (ties: the
  // larger word id first); word 0 means no word.
  const std::vector<std::vector<std::pair<int32_t, float>>> &GetSausageStats()
      const {
    return gamma_;
  }

 private:
  // One arc of the lattice, states numbered from 1.
  struct Arc {
    int32_t word;
    int32_t start_node;
    int32_t end_node;
    float loglike;  // minus (graph + acoustic cost)
  };
  // The recursion's tables, indexed as in the paper.
  struct Recursion;

  // Adds a super-final state, sorts, and builds arcs_, pre_ and
  // state_times_. Leaves `clat` sorted with one final state.
  void PrepareLatticeAndInitStats(CompactLattice *clat);
  void SetBestPath(CompactLattice *clat);
  void MbrDecode();
  // Records one-best time and confidence for bin q (a word of hyp_).
  void AddOneBestEntry(size_t q);
  // Figure 4 of the paper: the expected edit distance to hyp_.
  double EditDistance(Recursion *r) const;
  // Figure 5: gamma_, times_, sausage_times_ and risk_.
  void AccStats();
  void AccArcStats(int32_t n, const Arc &arc, Recursion *r,
                   std::vector<std::map<int32_t, double>> *gamma,
                   std::vector<std::map<int32_t, double>> *tau_b,
                   std::vector<std::map<int32_t, double>> *tau_e) const;
  void SetTimes(const std::vector<std::map<int32_t, double>> &tau_b,
                const std::vector<std::map<int32_t, double>> &tau_e);

  // The hypothesis word of bin q (1-based, as in the paper).
  int32_t HypWord(int32_t q) const { return hyp_[q - 1]; }

  MinimumBayesRiskOptions opts_;
  std::vector<Arc> arcs_;
  std::vector<std::vector<int32_t>> pre_;  // [node] arcs entering it
  std::vector<int32_t> state_times_;       // [node], node from 1
  // R: while decoding, words with epsilons between and around them.
  std::vector<int32_t> hyp_;
  double risk_ = 0.0;  // L: the expected edit distance to hyp_
  std::vector<std::vector<std::pair<int32_t, float>>> gamma_;
  std::vector<std::vector<TimePair>> times_;
  std::vector<TimePair> sausage_times_;
  std::vector<TimePair> one_best_times_;
  std::vector<float> one_best_confidences_;
};

}  // namespace nnet3

#endif  // NNET3_LAT_MINIMUM_BAYES_RISK_H_
