// Word error rate of hypothesis transcripts against reference transcripts,
// as Kaldi's compute-wer computes and prints it (the lines utils/best_wer.sh
// and the scoring scripts parse).
//
//   WerMode mode = ParseWerMode("present");        // UserError if unknown
//   WerStats stats = ComputeWerStats("ark:data/test/text",
//                                    "ark,p:hyp.txt", mode);
//   PrintWerReport(stats, std::cout);
//   // %WER 5.62 [ 46 / 819, 2 ins, 25 del, 19 sub ]
//   // %SER 15.33 [ 23 / 150 ]
//   // Scored 150 sentences, 0 not present in hyp.
//
// Transcripts are tables of tokens ("key w1 w2 ...", words or integers
// alike). Every reference utterance is scored in reference order; one the
// hypotheses lack is, by mode: kStrict a UserError naming the key, kPresent
// left out (and counted as not present; the %WER line then ends in
// " [PARTIAL]"), kAll scored against an empty hypothesis (also counted).
// Errors per utterance are LevenshteinEditDistance's (edit-distance.h); a
// sentence is in error unless the two token lists are equal. Percentages are
// Kaldi's floats, printed with two decimals.
#ifndef NNET3_UTIL_WORD_ERROR_RATE_H_
#define NNET3_UTIL_WORD_ERROR_RATE_H_

#include <cstdint>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace nnet3 {

enum class WerMode { kPresent, kAll, kStrict };

// "present", "all" or "strict"; UserError otherwise.
WerMode ParseWerMode(const std::string &mode);

struct WerStats {
  int32_t num_words = 0, word_errors = 0;
  int32_t num_sentences = 0, sentence_errors = 0;
  int32_t ins = 0, del = 0, sub = 0;
  int32_t num_absent = 0;  // reference keys the hypotheses lack
};

WerStats ComputeWerStats(const std::string &ref_rspecifier,
                         const std::string &hyp_rspecifier, WerMode mode);

// The %WER, %SER and "Scored" lines.
void PrintWerReport(const WerStats &stats, std::ostream &os);

// Per scored utterance, (word errors, reference words), in reference
// order: what the bootstrap (wer-bootstrap.h) resamples. With two
// hypothesis tables (hyp2_rspecifier not empty), an utterance is scored
// only where the mode allows it for both (kStrict: UserError if either
// lacks it, kPresent: left out, kAll: a missing one counts every
// reference word as an error), and edits2 gets the second system's.
void ComputeUtteranceEdits(const std::string &ref_rspecifier,
                           const std::string &hyp_rspecifier,
                           const std::string &hyp2_rspecifier, WerMode mode,
                           std::vector<std::pair<int32_t, int32_t>> *edits,
                           std::vector<std::pair<int32_t, int32_t>> *edits2);

}  // namespace nnet3

#endif  // NNET3_UTIL_WORD_ERROR_RATE_H_
