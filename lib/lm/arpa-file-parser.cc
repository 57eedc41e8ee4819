#include "lm/arpa-file-parser.h"

#include <cmath>
#include <cstdlib>
#include <sstream>

#include "base/error.h"
#include "base/log.h"
#include "base/text-utils.h"

namespace nnet3 {
namespace {

bool IsBlank(const std::string &line) {
  return line.find_first_not_of(" \t\n\r") == std::string::npos;
}

void TrimRight(std::string *line) {
  line->erase(line->find_last_not_of(" \n\r\t") + 1);
}

// A float read as strtof reads it (rounded once, as a stream would); the
// whole token must be a number.
bool ParseFloat(const std::string &token, float *value) {
  if (token.empty()) return false;
  char *end = nullptr;
  *value = std::strtof(token.c_str(), &end);
  return end == token.c_str() + token.size();
}

std::string SectionHeader(int32_t order) {
  return "\\" + std::to_string(order) + "-grams:";
}

}  // namespace

ArpaFileParser::ArpaFileParser(const ArpaParseOptions &options,
                               fst::SymbolTable *symbols)
    : options_(options), symbols_(symbols) {}

std::string ArpaFileParser::LineReference() const {
  std::ostringstream ss;
  ss << "'" << source_ << "' line " << line_number_ << " [" << line_ << "]";
  return ss.str();
}

bool ArpaFileParser::ShouldWarn() {
  return ++warning_count_ <= static_cast<uint32_t>(options_.max_warnings);
}

void ArpaFileParser::WarnIfTooManyWarnings() const {
  if (warning_count_ > 0 &&
      warning_count_ > static_cast<uint32_t>(options_.max_warnings))
    NNET3_WARN << "Of " << warning_count_ << " parse warnings, "
               << options_.max_warnings << " were reported. Run program with "
               << "--max-arpa-warnings=-1 to see all warnings";
}

void ArpaFileParser::CheckSymbols() const {
  const ArpaParseOptions &o = options_;
  if (o.bos_symbol <= 0 || o.eos_symbol <= 0 || o.bos_symbol == o.eos_symbol)
    NNET3_ERR << "The begin- and end-of-sentence symbols must be given, "
                 "differ, and not be epsilon (BOS="
              << o.bos_symbol << ", EOS=" << o.eos_symbol << ")";
  if (symbols_ == nullptr) return;
  if (o.oov_handling == ArpaParseOptions::kReplaceWithUnk &&
      (o.unk_symbol <= 0 || o.unk_symbol == o.bos_symbol ||
       o.unk_symbol == o.eos_symbol))
    NNET3_ERR << "Replacing unknown words needs an unknown-word symbol that "
                 "is not epsilon, BOS or EOS (UNK="
              << o.unk_symbol << ")";
  if (symbols_->Find(o.bos_symbol).empty() ||
      symbols_->Find(o.eos_symbol).empty() ||
      (o.unk_symbol > 0 && symbols_->Find(o.unk_symbol).empty()))
    NNET3_ERR << "The begin-of-sentence, end-of-sentence and unknown-word "
                 "symbols must be in the symbol table";
}

bool ArpaFileParser::NextLine(std::istream &is) {
  ++line_number_;
  return std::getline(is, line_) && !is.eof();
}

void ArpaFileParser::Read(std::istream &is, const std::string &source) {
  CheckSymbols();
  source_ = source;
  counts_.clear();
  line_number_ = 0;
  warning_count_ = 0;
  line_.clear();
  ReadDataSection(is);
  HeaderAvailable();
  for (int32_t order = 1; order <= static_cast<int32_t>(counts_.size());
       ++order)
    ReadNGramSection(is, order);
  if (line_ != "\\end\\")
    NNET3_ERR << LineReference()
              << ": invalid or unexpected directive line, expecting \\end\\";
  WarnIfTooManyWarnings();
  line_.clear();
  ReadComplete();
}

void ArpaFileParser::ReadDataSection(std::istream &is) {
  bool in_data = false;
  while (NextLine(is)) {
    if (IsBlank(line_)) continue;
    TrimRight(&line_);
    if (!in_data) {
      if (line_ == "\\data\\") {
        NNET3_LOG << "Reading \\data\\ section.";
        in_data = true;
      }
      continue;
    }
    if (line_[0] == '\\') break;
    std::string spaced = line_;
    const size_t equals = spaced.find('=');
    if (equals != std::string::npos) spaced.replace(equals, 1, " = ");
    const std::vector<std::string> col = SplitString(spaced, " \t", true);
    if (col.size() == 4 && col[0] == "ngram" && col[2] == "=") {
      int32_t order, count;
      if (!ConvertStringToInteger(col[1], &order) ||
          !ConvertStringToInteger(col[3], &count) || order < 1 ||
          order > 1000 || count < 0)
        NNET3_ERR << LineReference() << ": cannot parse ngram count";
      if (static_cast<int32_t>(counts_.size()) < order) counts_.resize(order);
      counts_[order - 1] = count;
    } else {
      NNET3_WARN << LineReference()
                 << ": uninterpretable line in \\data\\ section";
    }
  }
  if (counts_.empty())
    NNET3_ERR << LineReference() << ": \\data\\ section missing or empty.";
}

void ArpaFileParser::ReadNGramSection(std::istream &is, int32_t order) {
  if (counts_[order - 1] == 0)
    NNET3_WARN << "Zero ngram count in ngram order " << order
               << "(look for 'ngram " << order << "=0' in the \\data\\ "
               << " section). There is possibly a problem with the file.";
  if (line_ != SectionHeader(order))
    NNET3_ERR << LineReference() << ": invalid directive, expecting '"
              << SectionHeader(order) << "'";
  NNET3_LOG << "Reading " << line_ << " section.";
  int32_t seen = 0;
  NGram ngram;
  while (NextLine(is)) {
    if (IsBlank(line_)) continue;
    if (line_[0] == '\\') {
      TrimRight(&line_);
      if (line_ == SectionHeader(order + 1) || line_ == "\\end\\") break;
      if (ShouldWarn()) {
        NNET3_WARN << "ignoring possible directive '" << line_
                   << "' expecting '" << SectionHeader(order + 1) << "'";
        WarnIfTooManyWarnings();
      }
    }
    ++seen;
    if (ParseNGram(order, &ngram)) ConsumeNGram(ngram);
  }
  if (seen > counts_[order - 1])
    NNET3_ERR << LineReference() << ": header said there would be "
              << counts_[order - 1] << " n-grams of order " << order
              << ", but we saw more already.";
}

bool ArpaFileParser::ParseNGram(int32_t order, NGram *ngram) {
  const std::vector<std::string> col = SplitString(line_, " \t", true);
  const size_t n = static_cast<size_t>(order);
  const bool highest = order == static_cast<int32_t>(counts_.size());
  if (col.size() < 1 + n || col.size() > 2 + n ||
      (highest && col.size() != 1 + n))
    NNET3_ERR << LineReference() << ": Invalid n-gram data line (expected "
              << "a log-probability, " << order << " word(s)"
              << (highest ? "" : " and an optional back-off weight") << ")";
  if (!ParseFloat(col[0], &ngram->logprob))
    NNET3_ERR << LineReference() << ": invalid n-gram logprob '" << col[0]
              << "'";
  ngram->backoff = 0.0f;
  if (col.size() > 1 + n && !ParseFloat(col[1 + n], &ngram->backoff))
    NNET3_ERR << LineReference() << ": invalid backoff weight '" << col[1 + n]
              << "'";
  ngram->logprob *= M_LN10;
  ngram->backoff *= M_LN10;
  ngram->words.resize(n);
  for (size_t i = 0; i < n; ++i) {
    bool skip = false;
    ngram->words[i] = WordId(col[1 + i], &skip);
    if (skip) return false;
  }
  return true;
}

int32_t ArpaFileParser::WordId(const std::string &word, bool *skip) {
  int64_t id;
  if (symbols_ == nullptr) {
    if (!ConvertStringToInteger(word, &id) || id < 0 || id > INT32_MAX)
      NNET3_ERR << LineReference() << ": invalid symbol '" << word << "'";
  } else if (options_.oov_handling == ArpaParseOptions::kAddToSymbols) {
    id = symbols_->AddSymbol(word);
  } else {
    id = symbols_->Find(word);
    if (id == fst::kNoSymbol) {
      switch (options_.oov_handling) {
        case ArpaParseOptions::kReplaceWithUnk:
          id = options_.unk_symbol;
          break;
        case ArpaParseOptions::kSkipNGram:
          if (ShouldWarn())
            NNET3_WARN << LineReference() << " skipped: word '" << word
                       << "' not in symbol table";
          *skip = true;
          return 0;
        default:
          NNET3_ERR << LineReference() << ": word '" << word
                    << "' not in symbol table";
      }
    }
  }
  if (id == 0)
    NNET3_ERR << LineReference() << ": epsilon symbol '" << word
              << "' is illegal in ARPA LM";
  return static_cast<int32_t>(id);
}

}  // namespace nnet3
