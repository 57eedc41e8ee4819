// NnetLdaStatsAccumulator: LDA statistics (train/lda-estimate.h) of a
// network's output, with the classes from the egs' supervision, as Kaldi's
// nnet3-acc-lda-stats: the network (typically init.raw, which only splices
// the input) computes "output" for each eg, and each output row is
// accumulated for each class with that row's supervision weight, after
// randomized pruning.
//
//   NnetLdaStatsAccumulator acc(rand_prune, nnet, seed);
//   for (...) acc.AccStats(eg);
//   WriteKaldiObject(acc.Stats(), "1.lda_stats", binary);
//
// Randomized pruning (Kaldi's RandPrune): a weight w with 0 < |w| <
// rand_prune becomes sign(w) rand_prune with probability |w| / rand_prune
// and 0 otherwise (so the expectation is unchanged); others are kept.
// rand_prune = 0 keeps every weight.
#ifndef NNET3_TRAIN_NNET_LDA_STATS_H_
#define NNET3_TRAIN_NNET_LDA_STATS_H_

#include <cstdint>

#include "base/random.h"
#include "nnet/nnet.h"
#include "train/lda-estimate.h"
#include "train/nnet-compute-from-eg.h"
#include "train/nnet-example.h"

namespace nnet3 {

// Kaldi's RandPrune (see above).
float RandPrune(float weight, float rand_prune, RandomState *rng);

class NnetLdaStatsAccumulator {
 public:
  // `nnet` must outlive this object.
  NnetLdaStatsAccumulator(float rand_prune, const Nnet &nnet, uint32_t seed);
  // UserError if the eg has no io named "output", or its supervision has
  // another number of classes than the earlier egs'.
  void AccStats(const NnetExample &eg);
  const LdaEstimate &Stats() const { return stats_; }

 private:
  float rand_prune_;
  NnetComputerFromEg computer_;
  RandomState rng_;
  LdaEstimate stats_;
};

}  // namespace nnet3

#endif  // NNET3_TRAIN_NNET_LDA_STATS_H_
