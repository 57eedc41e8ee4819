// TableMatcher: an OpenFst matcher (fst::MatcherBase) that finds the arcs
// of a state with a given label through a lookup table, built the first
// time the state is visited, from label to the position of its first arc.
// It suits FSTs whose states have either few arcs or arcs for a large part
// of the label range on the matched side: a lexicon's loop state (one arc
// per word), a context FST. States with fewer than `min_table_size` arcs,
// or whose table would be less than `table_ratio` full, are matched by an
// fst::SortedMatcher instead. Found arcs come in the order a SortedMatcher
// gives (the implicit epsilon self-loop first, then the arcs in their
// order), so a composition using it equals one using SortedMatcher.
//
//   TableMatcher<fst::Fst<fst::StdArc>> m(lexicon, fst::MATCH_OUTPUT);
//   m.SetState(s);
//   for (m.Find(word); !m.Done(); m.Next()) use(m.Value());
//
// The FST must be sorted on the matched side (olabel for MATCH_OUTPUT,
// ilabel for MATCH_INPUT); the constructor checks it (InternalError
// otherwise: callers sort or check first). Copies share the tables.
#ifndef NNET3_FSTEXT_TABLE_MATCHER_H_
#define NNET3_FSTEXT_TABLE_MATCHER_H_

#include <fst/fst.h>
#include <fst/matcher.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "base/error.h"

namespace nnet3 {

struct TableMatcherOptions {
  // A table is built when at least this fraction of its entries (one per
  // label up to the state's highest) would hold an arc...
  float table_ratio = 0.25;
  // ...and the state has at least this many arcs.
  int min_table_size = 4;
};

template <class F>
class TableMatcher : public fst::MatcherBase<typename F::Arc> {
 public:
  using FST = F;
  using Arc = typename F::Arc;
  using Label = typename Arc::Label;
  using StateId = typename Arc::StateId;
  using Weight = typename Arc::Weight;

  TableMatcher(const F &fst, fst::MatchType match_type,
               const TableMatcherOptions &opts = TableMatcherOptions())
      : shared_(std::make_shared<Shared>(fst, match_type, opts)),
        fallback_(fst, match_type),
        loop_(match_type == fst::MATCH_INPUT
                  ? Arc(fst::kNoLabel, 0, Weight::One(), fst::kNoStateId)
                  : Arc(0, fst::kNoLabel, Weight::One(), fst::kNoStateId)) {}

  TableMatcher(const TableMatcher &other, bool /*safe*/ = false)
      : shared_(other.shared_),
        fallback_(other.fallback_),
        loop_(other.loop_) {}

  TableMatcher *Copy(bool safe = false) const override {
    return new TableMatcher(*this, safe);
  }
  fst::MatchType Type(bool /*test*/) const override {
    return shared_->match_type;
  }
  const F &GetFst() const override { return *shared_->fst; }
  uint64_t Properties(uint64_t props) const override { return props; }

  void SetState(StateId s) override {
    table_ = shared_->TableOf(s);
    if (table_ == nullptr) {
      fallback_.SetState(s);
      return;
    }
    aiter_ = std::make_unique<fst::ArcIterator<F>>(*shared_->fst, s);
    aiter_->SetFlags(fst::kArcNoCache, fst::kArcNoCache);
    loop_.nextstate = s;
  }

  bool Find(Label label) override {
    if (table_ == nullptr) return fallback_.Find(label);
    current_loop_ = label == 0;
    match_label_ = label == fst::kNoLabel ? 0 : label;
    if (match_label_ >= 0 &&
        static_cast<size_t>(match_label_) < table_->size() &&
        (*table_)[match_label_] != kNoArc) {
      aiter_->Seek((*table_)[match_label_]);
      return true;
    }
    return current_loop_;
  }

  bool Done() const override {
    if (table_ == nullptr) return fallback_.Done();
    if (current_loop_) return false;
    if (aiter_->Done()) return true;
    return LabelOf(aiter_->Value()) != match_label_;
  }

  const Arc &Value() const override {
    if (table_ == nullptr) return fallback_.Value();
    return current_loop_ ? loop_ : aiter_->Value();
  }

  void Next() override {
    if (table_ == nullptr) {
      fallback_.Next();
    } else if (current_loop_) {
      current_loop_ = false;
    } else {
      aiter_->Next();
    }
  }

 private:
  static constexpr int32_t kNoArc = -1;
  using Table = std::vector<int32_t>;  // label -> position of first arc

  // What copies share: the FST and the tables built so far.
  struct Shared {
    Shared(const F &f, fst::MatchType type, const TableMatcherOptions &o)
        : fst(f.Copy()), match_type(type), opts(o) {
      const uint64_t sorted =
          type == fst::MATCH_INPUT ? fst::kILabelSorted : fst::kOLabelSorted;
      NNET3_ASSERT(type == fst::MATCH_INPUT || type == fst::MATCH_OUTPUT);
      NNET3_ASSERT(fst->Properties(sorted, true) == sorted);
      NNET3_ASSERT(opts.min_table_size > 0);
    }
    Label LabelOf(const Arc &arc) const {
      return match_type == fst::MATCH_OUTPUT ? arc.olabel : arc.ilabel;
    }
    // The table of state s, built on the first call; null when the state
    // is matched by the fallback matcher.
    const Table *TableOf(StateId s) {
      if (static_cast<size_t>(s) >= decided.size()) {
        decided.resize(s + 1, false);
        tables.resize(s + 1);
      }
      if (!decided[s]) {
        decided[s] = true;
        tables[s] = Build(s);
      }
      return tables[s].get();
    }
    std::unique_ptr<Table> Build(StateId s) const {
      const int64_t num_arcs = fst->NumArcs(s);
      if (num_arcs == 0 || num_arcs < opts.min_table_size) return nullptr;
      fst::ArcIterator<F> aiter(*fst, s);
      aiter.SetFlags(fst::kArcNoCache | (match_type == fst::MATCH_OUTPUT
                                             ? fst::kArcOLabelValue
                                             : fst::kArcILabelValue),
                     fst::kArcNoCache | fst::kArcValueFlags);
      aiter.Seek(num_arcs - 1);
      const Label highest = LabelOf(aiter.Value());
      if ((highest + 1) * opts.table_ratio > num_arcs) return nullptr;
      auto table = std::make_unique<Table>(highest + 1, kNoArc);
      int32_t pos = 0;
      for (aiter.Seek(0); !aiter.Done(); aiter.Next(), ++pos) {
        const Label label = LabelOf(aiter.Value());
        NNET3_ASSERT(label >= 0 && label <= highest);
        if ((*table)[label] == kNoArc) (*table)[label] = pos;
      }
      return table;
    }

    std::unique_ptr<const F> fst;
    fst::MatchType match_type;
    TableMatcherOptions opts;
    std::vector<bool> decided;
    std::vector<std::unique_ptr<Table>> tables;
  };

  Label LabelOf(const Arc &arc) const { return shared_->LabelOf(arc); }

  std::shared_ptr<Shared> shared_;
  fst::SortedMatcher<F> fallback_;
  Arc loop_;
  const Table *table_ = nullptr;
  std::unique_ptr<fst::ArcIterator<F>> aiter_;
  bool current_loop_ = false;
  Label match_label_ = fst::kNoLabel;
};

}  // namespace nnet3

#endif  // NNET3_FSTEXT_TABLE_MATCHER_H_
