// Bootstrap confidence intervals of a word error rate, and the probability
// that one system improves on another (Bisani and Ney's method, as Kaldi's
// compute-wer-bootci computes and prints it).
//
//   std::vector<std::pair<int32_t, int32_t>> edits, edits2;
//   ComputeUtteranceEdits(ref, hyp, "", mode, &edits, &edits2);
//   GlibcRandom rng;                       // rand()'s sequence, as Kaldi
//   BootstrapWer wer = BootstrapWerInterval(edits, 10000, &rng);
//   // Set1: %WER 5.61 95% Conf Interval [ 3.95, 7.27 ]
//
// Each replication draws as many utterances as there are, with replacement
// (Kaldi's RandInt over rand()), and takes the WER of the draw (errors over
// words, in float); the mean and 1.96 standard deviations of those WERs are
// the interval. The improvement probability is the fraction of
// replications in which the first system made more errors than the second
// on the same draw. Arithmetic is in float as Kaldi's, so that the printed
// figures match.
#ifndef NNET3_UTIL_WER_BOOTSTRAP_H_
#define NNET3_UTIL_WER_BOOTSTRAP_H_

#include <cstdint>
#include <ostream>
#include <utility>
#include <vector>

#include "base/glibc-random.h"

namespace nnet3 {

struct BootstrapWer {
  float mean = 0.0f;      // fraction, not percent
  float interval = 0.0f;  // half-width of the 95% interval
};

// edits: per utterance (word errors, reference words).
BootstrapWer BootstrapWerInterval(
    const std::vector<std::pair<int32_t, int32_t>> &edits, int32_t replications,
    GlibcRandom *rng);

// edits and edits2 cover the same utterances in the same order.
float BootstrapImprovementProbability(
    const std::vector<std::pair<int32_t, int32_t>> &edits,
    const std::vector<std::pair<int32_t, int32_t>> &edits2,
    int32_t replications, GlibcRandom *rng);

// "Set<n>: %WER m 95% Conf Interval [ lo, hi ]" (percent, two decimals).
void PrintBootstrapWer(int set, const BootstrapWer &wer, std::ostream &os);

}  // namespace nnet3

#endif  // NNET3_UTIL_WER_BOOTSTRAP_H_
