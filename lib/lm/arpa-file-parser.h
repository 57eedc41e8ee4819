// Reading ARPA language-model files (Kaldi's lm/arpa-file-parser): a
// subclass receives the n-gram counts of the \data\ section and then each
// n-gram, in file order, so that every (k-1)-gram has been seen before
// any k-gram.
//
//   class MyLm : public ArpaFileParser { ... ConsumeNGram(...) ... };
//   ArpaParseOptions opts;  opts.bos_symbol = 1;  opts.eos_symbol = 2;
//   MyLm lm(opts, &words);          // words: symbol table, or null for
//   lm.Read(stream, "lm.arpa");     // files of integer word ids
//
// Format: anything before a line "\data\" is ignored; then lines
// "ngram N=COUNT"; then for N = 1, 2, ... a line "\N-grams:" followed by
// lines "LOGPROB W1 .. WN [BACKOFF]" (log10; the highest order has no
// back-off column); then "\end\". Blank lines are skipped. Log
// probabilities are converted to natural logs (times ln 10, as floats).
// A word not in the symbol table is handled per `oov_handling` (arpa2fst:
// added to a new table, or with --read-symbol-table the n-gram is skipped
// with a warning).
//
// Errors are one-line UserErrors naming the source and the line, as
// "'lm.arpa' line 12 [ngram 1=x]: cannot parse ngram count": a bad count,
// a missing \data\ section or section header, a data line with the wrong
// number of fields or a bad number, an epsilon or unknown word (when the
// OOV handling says so), more n-grams than the header said, no \end\.
// Warnings (at most max_warnings, -1: all) for what Kaldi tolerates:
// uninterpretable \data\ lines, a zero count, an unexpected directive,
// skipped n-grams.
#ifndef NNET3_LM_ARPA_FILE_PARSER_H_
#define NNET3_LM_ARPA_FILE_PARSER_H_

#include <fst/symbol-table.h>

#include <cstdint>
#include <istream>
#include <string>
#include <vector>

namespace nnet3 {

struct ArpaParseOptions {
  enum OovHandling {
    kRaiseError,      // an unknown word is an error
    kAddToSymbols,    // unknown words are added to the symbol table
    kReplaceWithUnk,  // unknown words become unk_symbol
    kSkipNGram        // n-grams with unknown words are skipped (warning)
  };
  int32_t bos_symbol = -1;  // <s>; required, not 0
  int32_t eos_symbol = -1;  // </s>; required, not 0
  int32_t unk_symbol = -1;  // needed by kReplaceWithUnk
  OovHandling oov_handling = kRaiseError;
  int32_t max_warnings = 30;  // -1: all
};

// One n-gram: words left to right, natural-log probability and back-off.
struct NGram {
  std::vector<int32_t> words;
  float logprob = 0.0f;
  float backoff = 0.0f;  // 0 when the line has none
};

class ArpaFileParser {
 public:
  // `symbols` (may be null: the file then holds integer word ids) is not
  // owned; kAddToSymbols adds to it.
  ArpaFileParser(const ArpaParseOptions &options, fst::SymbolTable *symbols);
  virtual ~ArpaFileParser() = default;

  // Reads the whole file. `source` names it in messages.
  void Read(std::istream &is, const std::string &source);

  const ArpaParseOptions &Options() const { return options_; }

 protected:
  // Called when the counts are known (NgramCounts() is valid).
  virtual void HeaderAvailable() {}
  virtual void ConsumeNGram(const NGram &ngram) = 0;
  virtual void ReadComplete() {}

  const fst::SymbolTable *Symbols() const { return symbols_; }
  // "'source' line N [text]", for messages about the current line.
  std::string LineReference() const;
  // Counts a warning; true if it should be printed.
  bool ShouldWarn();
  // Counts by order: NgramCounts()[k - 1] is the number of k-grams.
  const std::vector<int32_t> &NgramCounts() const { return counts_; }

 private:
  void CheckSymbols() const;
  // Reads the next line into line_; false at the end of the stream (a
  // last line without a newline is read but not returned, as Kaldi does).
  bool NextLine(std::istream &is);
  void ReadDataSection(std::istream &is);
  void ReadNGramSection(std::istream &is, int32_t order);
  // Parses a data line of the given order; false if the n-gram is skipped.
  bool ParseNGram(int32_t order, NGram *ngram);
  int32_t WordId(const std::string &word, bool *skip);
  void WarnIfTooManyWarnings() const;

  ArpaParseOptions options_;
  fst::SymbolTable *symbols_;
  std::string source_;
  int64_t line_number_ = 0;
  uint32_t warning_count_ = 0;
  std::string line_;
  std::vector<int32_t> counts_;
};

}  // namespace nnet3

#endif  // NNET3_LM_ARPA_FILE_PARSER_H_
