#include "util/word-error-rate.h"

#include <ios>
#include <memory>

#include "base/error.h"
#include "util/edit-distance.h"
#include "util/token-holder.h"

namespace nnet3 {
namespace {

// Throws.
void NoHypothesis(const std::string &key, const char *tables) {
  NNET3_ERR << "No hypothesis for key " << key << tables
            << " and strict mode specifier (--mode=present scores only the "
               "utterances present, --mode=all counts a missing one as "
               "empty).";
}

}  // namespace

WerMode ParseWerMode(const std::string &mode) {
  if (mode == "present") return WerMode::kPresent;
  if (mode == "all") return WerMode::kAll;
  if (mode == "strict") return WerMode::kStrict;
  NNET3_ERR << "--mode option invalid: expected \"present\"|\"all\"|"
            << "\"strict\", got " << mode;
  return WerMode::kStrict;  // not reached
}

WerStats ComputeWerStats(const std::string &ref_rspecifier,
                         const std::string &hyp_rspecifier, WerMode mode) {
  WerStats stats;
  SequentialTokenVectorReader ref_reader(ref_rspecifier);
  RandomAccessTokenVectorReader hyp_reader(hyp_rspecifier);
  for (; !ref_reader.Done(); ref_reader.Next()) {
    const std::string key = ref_reader.Key();
    const std::vector<std::string> &ref = ref_reader.Value();
    std::vector<std::string> hyp;
    if (hyp_reader.HasKey(key)) {
      hyp = hyp_reader.Value(key);
    } else {
      if (mode == WerMode::kStrict) NoHypothesis(key, "");
      ++stats.num_absent;
      if (mode == WerMode::kPresent) continue;
    }
    EditCounts counts;
    stats.word_errors += LevenshteinEditDistance(ref, hyp, &counts);
    stats.num_words += static_cast<int32_t>(ref.size());
    stats.ins += counts.ins;
    stats.del += counts.del;
    stats.sub += counts.sub;
    ++stats.num_sentences;
    if (ref != hyp) ++stats.sentence_errors;
  }
  ref_reader.Close();
  return stats;
}

void PrintWerReport(const WerStats &s, std::ostream &os) {
  const float wer = 100.0 * static_cast<float>(s.word_errors) /
                    static_cast<float>(s.num_words);
  const float ser = 100.0 * static_cast<float>(s.sentence_errors) /
                    static_cast<float>(s.num_sentences);
  const std::streamsize precision = os.precision(2);
  const std::ios_base::fmtflags flags = os.flags();
  os << "%WER " << std::fixed << wer << " [ " << s.word_errors << " / "
     << s.num_words << ", " << s.ins << " ins, " << s.del << " del, " << s.sub
     << " sub ]" << (s.num_absent != 0 ? " [PARTIAL]" : "") << '\n';
  os << "%SER " << ser << " [ " << s.sentence_errors << " / " << s.num_sentences
     << " ]\n";
  os << "Scored " << s.num_sentences << " sentences, " << s.num_absent
     << " not present in hyp.\n";
  os.precision(precision);
  os.flags(flags);
}

void ComputeUtteranceEdits(const std::string &ref_rspecifier,
                           const std::string &hyp_rspecifier,
                           const std::string &hyp2_rspecifier, WerMode mode,
                           std::vector<std::pair<int32_t, int32_t>> *edits,
                           std::vector<std::pair<int32_t, int32_t>> *edits2) {
  edits->clear();
  edits2->clear();
  SequentialTokenVectorReader ref_reader(ref_rspecifier);
  RandomAccessTokenVectorReader hyp_reader(hyp_rspecifier);
  std::unique_ptr<RandomAccessTokenVectorReader> hyp2_reader;
  if (!hyp2_rspecifier.empty())
    hyp2_reader.reset(new RandomAccessTokenVectorReader(hyp2_rspecifier));
  const char *tables = hyp2_reader ? " in both transcripts" : "";
  for (; !ref_reader.Done(); ref_reader.Next()) {
    const std::string key = ref_reader.Key();
    const std::vector<std::string> &ref = ref_reader.Value();
    const int32_t num_words = static_cast<int32_t>(ref.size());
    const bool have = hyp_reader.HasKey(key),
               have2 = !hyp2_reader || hyp2_reader->HasKey(key);
    if (!(have && have2)) {
      if (mode == WerMode::kStrict) NoHypothesis(key, tables);
      if (mode == WerMode::kPresent) continue;
    }
    EditCounts counts;
    edits->emplace_back(
        have ? LevenshteinEditDistance(ref, hyp_reader.Value(key), &counts)
             : num_words,
        num_words);
    if (!hyp2_reader) continue;
    edits2->emplace_back(
        have2 ? LevenshteinEditDistance(ref, hyp2_reader->Value(key), &counts)
              : num_words,
        num_words);
  }
  ref_reader.Close();
}

}  // namespace nnet3
