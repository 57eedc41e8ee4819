#include "fstext/remove-symbols.h"

#include <fst/arc-map.h>
#include <fst/connect.h>

#include <algorithm>

#include "base/error.h"
#include "base/log.h"

namespace nnet3 {
namespace {

// A sorted set of labels with O(1) membership for small labels.
class LabelSet {
 public:
  explicit LabelSet(const std::vector<int32_t> &labels) : sorted_(labels) {
    std::sort(sorted_.begin(), sorted_.end());
    sorted_.erase(std::unique(sorted_.begin(), sorted_.end()), sorted_.end());
    if (!sorted_.empty() && sorted_.front() >= 0 && sorted_.back() < 1000000) {
      dense_.assign(sorted_.back() + 1, false);
      for (int32_t l : sorted_) dense_[l] = true;
    }
  }
  bool Contains(int32_t label) const {
    if (!dense_.empty())
      return label >= 0 && static_cast<size_t>(label) < dense_.size() &&
             dense_[label];
    return std::binary_search(sorted_.begin(), sorted_.end(), label);
  }

 private:
  std::vector<int32_t> sorted_;
  std::vector<bool> dense_;
};

// Maps listed input labels to epsilon.
class InputSymbolRemover {
 public:
  explicit InputSymbolRemover(const LabelSet &set) : set_(set) {}
  fst::StdArc operator()(const fst::StdArc &arc) const {
    fst::StdArc out = arc;
    if (set_.Contains(out.ilabel)) out.ilabel = 0;
    return out;
  }
  fst::MapFinalAction FinalAction() const { return fst::MAP_NO_SUPERFINAL; }
  fst::MapSymbolsAction InputSymbolsAction() const {
    return fst::MAP_CLEAR_SYMBOLS;
  }
  fst::MapSymbolsAction OutputSymbolsAction() const {
    return fst::MAP_COPY_SYMBOLS;
  }
  uint64_t Properties(uint64_t props) const {
    const uint64_t unknown = fst::kAcceptor | fst::kNotAcceptor |
                             fst::kIDeterministic | fst::kNonIDeterministic |
                             fst::kNoEpsilons | fst::kNoIEpsilons |
                             fst::kILabelSorted | fst::kNotILabelSorted;
    return props & ~unknown;
  }

 private:
  const LabelSet &set_;
};

void CheckNoEpsilon(const std::vector<int32_t> &symbols) {
  if (std::find(symbols.begin(), symbols.end(), 0) != symbols.end())
    NNET3_ERR << "The list of symbols to remove contains 0 (epsilon), "
                 "which cannot be removed";
}

}  // namespace

void RemoveSomeInputSymbols(const std::vector<int32_t> &symbols,
                            fst::VectorFst<fst::StdArc> *fst) {
  CheckNoEpsilon(symbols);
  const LabelSet set(symbols);
  InputSymbolRemover mapper(set);
  fst::ArcMap(fst, mapper);
}

void RemoveArcsWithSomeInputSymbols(const std::vector<int32_t> &symbols,
                                    fst::VectorFst<fst::StdArc> *fst) {
  CheckNoEpsilon(symbols);
  const LabelSet set(symbols);
  const fst::StdArc::StateId num_states = fst->NumStates();
  const fst::StdArc::StateId dead = fst->AddState();
  for (fst::StdArc::StateId s = 0; s < num_states; ++s) {
    for (fst::MutableArcIterator<fst::VectorFst<fst::StdArc>> it(fst, s);
         !it.Done(); it.Next()) {
      if (!set.Contains(it.Value().ilabel)) continue;
      fst::StdArc arc = it.Value();
      arc.nextstate = dead;
      it.SetValue(arc);
    }
  }
  fst::Connect(fst);
  if (fst->NumStates() == 0) NNET3_WARN << "After Connect(), fst was empty.";
}

void PenalizeArcsWithSomeInputSymbols(const std::vector<int32_t> &symbols,
                                      float penalty,
                                      fst::VectorFst<fst::StdArc> *fst) {
  CheckNoEpsilon(symbols);
  const LabelSet set(symbols);
  const fst::TropicalWeight penalty_weight(penalty);
  const fst::StdArc::StateId num_states = fst->NumStates();
  for (fst::StdArc::StateId s = 0; s < num_states; ++s) {
    for (fst::MutableArcIterator<fst::VectorFst<fst::StdArc>> it(fst, s);
         !it.Done(); it.Next()) {
      if (!set.Contains(it.Value().ilabel)) continue;
      fst::StdArc arc = it.Value();
      arc.weight = fst::Times(arc.weight, penalty_weight);
      it.SetValue(arc);
    }
  }
}

}  // namespace nnet3
