// Levenshtein edit distance between a reference and a hypothesis word
// sequence, with Kaldi's tie-breaking (util/edit-distance), so that word
// error counts (compute-wer) and alignments (align-text) come out as
// Kaldi's to the count.
//
//   EditCounts counts;
//   int32_t errors = LevenshteinEditDistance(ref, hyp, &counts);
//   // counts.ins + counts.del + counts.sub == errors
//   std::vector<std::pair<std::string, std::string>> pairs;
//   LevenshteinAlignment(ref, hyp, "<eps>", &pairs);  // ("a","a"),
//   ("b","<eps>")
//
// The distance counts one error per inserted, deleted or substituted word.
// Counting: the hypothesis is walked word by word against every prefix of
// the reference; at each cell a substitution (or match) wins only when it is
// strictly cheaper than both a deletion and an insertion, and a deletion
// wins over an insertion only when strictly cheaper. The alignment is traced
// back from the end of a separate table, preferring, among equal costs, a
// match or substitution, then a deletion, then an insertion. (The two can
// split equal-cost errors differently; both are what Kaldi prints.)
#ifndef NNET3_UTIL_EDIT_DISTANCE_H_
#define NNET3_UTIL_EDIT_DISTANCE_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace nnet3 {

struct EditCounts {
  int32_t ins = 0;
  int32_t del = 0;
  int32_t sub = 0;
};

int32_t LevenshteinEditDistance(const std::vector<std::string> &ref,
                                const std::vector<std::string> &hyp,
                                EditCounts *counts);

// The aligned pairs (ref word or eps, hyp word or eps), in order; returns
// the distance. Neither sequence may contain eps (UserError).
int32_t LevenshteinAlignment(
    const std::vector<std::string> &ref, const std::vector<std::string> &hyp,
    const std::string &eps,
    std::vector<std::pair<std::string, std::string>> *alignment);

}  // namespace nnet3

#endif  // NNET3_UTIL_EDIT_DISTANCE_H_
