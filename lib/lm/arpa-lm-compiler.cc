#include "lm/arpa-lm-compiler.h"

#include <unordered_map>
#include <vector>

#include "base/error.h"
#include "base/log.h"
#include "fstext/remove-eps-local.h"

namespace nnet3 {
namespace {

using StateId = fst::StdArc::StateId;

// A history of up to three words of at most 21 bits each, packed in one
// integer, the first word lowest.
class PackedHistory {
 public:
  static constexpr int kBits = 21;
  static constexpr int64_t kMaxWord = (int64_t{1} << kBits) - 1;
  PackedHistory() = default;
  template <class It>
  PackedHistory(It begin, It end) {
    for (int shift = 0; begin != end; ++begin, shift += kBits)
      bits_ |= static_cast<uint64_t>(*begin) << shift;
  }
  // The history without its first (oldest) word.
  PackedHistory Tail() const { return PackedHistory(bits_ >> kBits); }
  bool operator==(const PackedHistory &other) const {
    return bits_ == other.bits_;
  }
  struct Hash {
    size_t operator()(const PackedHistory &h) const { return h.bits_; }
  };

 private:
  explicit PackedHistory(uint64_t bits) : bits_(bits) {}
  uint64_t bits_ = 0;
};

// A history of any length.
class WordsHistory {
 public:
  WordsHistory() = default;
  template <class It>
  WordsHistory(It begin, It end) : words_(begin, end) {}
  WordsHistory Tail() const {
    return WordsHistory(words_.begin() + 1, words_.end());
  }
  bool operator==(const WordsHistory &other) const {
    return words_ == other.words_;
  }
  struct Hash {
    size_t operator()(const WordsHistory &h) const {
      size_t hash = 0;
      for (int32_t w : h.words_) hash = hash * 7853 + static_cast<size_t>(w);
      return hash;
    }
  };

 private:
  std::vector<int32_t> words_;
};

}  // namespace

// Adds n-grams to the FST; one implementation per history key type.
class ArpaLmBuilderBase {
 public:
  enum Result { kAdded, kNoHistory, kDisambigWord };
  virtual ~ArpaLmBuilderBase() = default;
  virtual Result Add(const NGram &ngram, bool highest) = 0;
};

namespace {

template <class History>
class ArpaLmBuilder : public ArpaLmBuilderBase {
 public:
  ArpaLmBuilder(fst::StdVectorFst *fst, int32_t bos, int32_t eos,
                int32_t disambig)
      : fst_(fst), bos_(bos), eos_(eos), disambig_(disambig) {
    states_[History()] = fst_->AddState();  // the empty history
    if (disambig_ == 0) {
      eos_state_ = fst_->AddState();
      fst_->SetFinal(eos_state_, 0);
    }
  }

  Result Add(const NGram &ngram, bool highest) override {
    const std::vector<int32_t> &w = ngram.words;
    auto from = states_.find(History(w.begin(), w.end() - 1));
    if (from == states_.end()) return kNoHistory;
    StateId source = from->second, dest;
    const int32_t word = w.back();
    if (word == disambig_ || word == 0) return kDisambigWord;
    float cost = -ngram.logprob;
    if (word == eos_) {
      if (disambig_ != 0) {
        fst_->SetFinal(source, cost);
        return kAdded;
      }
      dest = eos_state_;
    } else {
      dest = StateWithBackoff(History(w.begin() + (highest ? 1 : 0), w.end()),
                              -ngram.backoff);
    }
    if (word == bos_) {
      cost = 0;
      if (disambig_ != 0) {
        fst_->SetStart(dest);
        return kAdded;
      }
      source = fst_->AddState();
      fst_->SetStart(source);
    }
    fst_->AddArc(source, fst::StdArc(word, word, cost, dest));
    return kAdded;
  }

 private:
  // The state of `history`; a new one gets its back-off arc.
  StateId StateWithBackoff(const History &history, float backoff_cost) {
    auto it = states_.find(history);
    if (it != states_.end()) return it->second;
    const StateId state = fst_->AddState();
    states_[history] = state;
    History suffix = history.Tail();
    auto to = states_.find(suffix);
    while (to == states_.end()) {
      suffix = suffix.Tail();
      to = states_.find(suffix);
    }
    fst_->AddArc(state, fst::StdArc(disambig_, 0, backoff_cost, to->second));
    return state;
  }

  fst::StdVectorFst *fst_;
  int32_t bos_, eos_, disambig_;
  StateId eos_state_ = fst::kNoStateId;
  std::unordered_map<History, StateId, typename History::Hash> states_;
};

}  // namespace

ArpaLmCompiler::ArpaLmCompiler(const ArpaParseOptions &options,
                               int32_t disambig_symbol,
                               fst::SymbolTable *symbols)
    : ArpaFileParser(options, symbols), disambig_symbol_(disambig_symbol) {}

ArpaLmCompiler::~ArpaLmCompiler() = default;

void ArpaLmCompiler::HeaderAvailable() {
  NNET3_ASSERT(builder_ == nullptr);
  const int32_t bos = Options().bos_symbol, eos = Options().eos_symbol;
  int64_t max_symbol = 0;
  if (Symbols() != nullptr) max_symbol = Symbols()->AvailableKey() - 1;
  if (Options().oov_handling == ArpaParseOptions::kAddToSymbols)
    max_symbol += NgramCounts()[0];
  if (Symbols() != nullptr && NgramCounts().size() <= 4 &&
      max_symbol < PackedHistory::kMaxWord) {
    builder_ = std::make_unique<ArpaLmBuilder<PackedHistory>>(&fst_, bos, eos,
                                                              disambig_symbol_);
  } else {
    builder_ = std::make_unique<ArpaLmBuilder<WordsHistory>>(&fst_, bos, eos,
                                                             disambig_symbol_);
    NNET3_LOG << "Reverting to slower state tracking because model is large: "
              << NgramCounts().size() << "-gram with symbols up to "
              << max_symbol;
  }
}

void ArpaLmCompiler::ConsumeNGram(const NGram &ngram) {
  const std::vector<int32_t> &w = ngram.words;
  for (size_t i = 0; i < w.size(); ++i) {
    if ((i > 0 && w[i] == Options().bos_symbol) ||
        (i + 1 < w.size() && w[i] == Options().eos_symbol)) {
      if (ShouldWarn())
        NNET3_WARN << LineReference()
                   << " skipped: n-gram has invalid BOS/EOS placement";
      return;
    }
  }
  const bool highest = w.size() == NgramCounts().size();
  switch (builder_->Add(ngram, highest)) {
    case ArpaLmBuilderBase::kAdded:
      break;
    case ArpaLmBuilderBase::kNoHistory:
      if (ShouldWarn())
        NNET3_WARN << LineReference()
                   << " skipped: no parent (n-1)-gram exists";
      break;
    case ArpaLmBuilderBase::kDisambigWord:
      NNET3_ERR << LineReference() << ": the disambiguation symbol (or "
                << "<eps>) is used as a word in the ARPA file";
  }
}

void ArpaLmCompiler::RemoveRedundantStates() {
  if (disambig_symbol_ == 0) return;  // G keeps <s> and </s> as words
  const StateId num_states = fst_.NumStates();
  for (StateId s = 0; s < num_states; ++s) {
    if (fst_.NumArcs(s) != 1 || fst_.Final(s) != fst::TropicalWeight::Zero())
      continue;
    fst::MutableArcIterator<fst::StdVectorFst> it(&fst_, s);
    fst::StdArc arc = it.Value();
    if (arc.ilabel != disambig_symbol_) continue;
    arc.ilabel = 0;
    it.SetValue(arc);
  }
  RemoveEpsLocal(&fst_);
  NNET3_LOG << "Reduced num-states from " << num_states << " to "
            << fst_.NumStates();
}

void ArpaLmCompiler::ReadComplete() {
  fst_.SetInputSymbols(Symbols());
  fst_.SetOutputSymbols(Symbols());
  RemoveRedundantStates();
  if (fst_.Start() == fst::kNoStateId) {
    std::string bos = "<s>";
    if (Symbols() != nullptr) bos = Symbols()->Find(Options().bos_symbol);
    NNET3_ERR << "The ARPA file did not contain the beginning-of-sentence "
                 "symbol "
              << bos << " (as a unigram), so G would have no start state";
  }
}

}  // namespace nnet3
