#include "fstext/determinize-star.h"

#include <fst/arcsort.h>

#include <algorithm>
#include <deque>
#include <memory>
#include <sstream>
#include <unordered_map>
#include <utility>
#include <vector>

#include "base/error.h"
#include "base/log.h"
#include "fstext/label-sequence-repository.h"

namespace nnet3 {
namespace {

// One member of a determinized state: an input state reached with an
// output string and a weight not yet emitted.
template <class Weight>
struct SubsetElement {
  int32_t state;
  SequenceId string;
  Weight weight;
};

// The epsilon closure of subsets: adds every state reachable over input
// epsilons, appending their output labels to the strings and propagating
// weights until a state's weight changes by less than delta.
template <class Arc>
class StarEpsilonClosure {
 public:
  using Weight = typename Arc::Weight;
  using Element = SubsetElement<Weight>;

  StarEpsilonClosure(const fst::Fst<Arc> &ifst, int max_states, float delta,
                     LabelSequenceRepository *strings)
      : ifst_(ifst),
        max_states_(max_states),
        delta_(delta),
        strings_(strings) {}

  // The closure of `subset` (sorted by state, one element per state),
  // sorted by state.
  void Close(const std::vector<Element> &subset, std::vector<Element> *out);

 private:
  struct Entry {
    Element element;  // the weight propagated so far
    Weight pending;   // the weight still to propagate
    bool queued;
  };

  // Calls visit(next_element, propagated_weight) for each input-epsilon
  // arc out of `from` (whose string is `string`), with `weight` moved
  // along the arc.
  template <class Visit>
  void FollowEpsilons(int32_t from, SequenceId string, const Weight &weight,
                      Visit visit);
  void Add(const Element &element, const Weight &weight);
  void NonFunctional(SequenceId a, SequenceId b) const;

  const fst::Fst<Arc> &ifst_;
  int max_states_;
  float delta_;
  LabelSequenceRepository *strings_;
  bool sorted_ = false;
  std::deque<int32_t> queue_;
  std::vector<Element> first_step_;  // what the input's own arcs reach
  std::vector<int> index_of_;        // state -> entries_ index (may be stale)
  std::vector<Entry> entries_;
};

template <class Arc>
template <class Visit>
void StarEpsilonClosure<Arc>::FollowEpsilons(int32_t from, SequenceId string,
                                             const Weight &weight,
                                             Visit visit) {
  for (fst::ArcIterator<fst::Fst<Arc>> aiter(ifst_, from); !aiter.Done();
       aiter.Next()) {
    const Arc &arc = aiter.Value();
    if (sorted_ && arc.ilabel > 0) break;
    if (arc.ilabel != 0) continue;
    Element next;
    next.state = arc.nextstate;
    next.string =
        arc.olabel == 0 ? string : strings_->Append(string, arc.olabel);
    next.weight = Weight::Zero();
    visit(next, fst::Times(weight, arc.weight));
  }
}

template <class Arc>
void StarEpsilonClosure<Arc>::Close(const std::vector<Element> &subset,
                                    std::vector<Element> *out) {
  entries_.clear();
  sorted_ =
      (ifst_.Properties(fst::kILabelSorted, false) & fst::kILabelSorted) != 0;
  for (const Element &e : subset)
    FollowEpsilons(e.state, e.string, e.weight,
                   [this](Element next, const Weight &w) {
                     next.weight = w;
                     first_step_.push_back(next);
                   });
  if (first_step_.empty()) {
    *out = subset;
    return;
  }
  for (const Element &e : subset) {
    entries_.push_back(Entry{e, e.weight, false});
    entries_.back().element.weight = Weight::Zero();
    if (index_of_.size() < static_cast<size_t>(e.state) + 1)
      index_of_.resize(2 * e.state + 1, -1);
    index_of_[e.state] = static_cast<int>(entries_.size()) - 1;
  }
  for (const Element &e : first_step_)
    Add(Element{e.state, e.string, Weight::Zero()}, e.weight);
  first_step_.clear();
  int rounds = 0;
  while (!queue_.empty()) {
    const int32_t state = queue_.front();
    Entry &entry = entries_[index_of_[state]];
    const Weight pending = entry.pending;
    entry.element.weight = fst::Plus(entry.element.weight, pending);
    entry.pending = Weight::Zero();
    entry.queued = false;
    const SequenceId string = entry.element.string;
    queue_.pop_front();
    if (max_states_ > 0 && rounds++ > max_states_)
      NNET3_ERR << "Determinization aborted since looped more than "
                << max_states_ << " times during epsilon closure";
    FollowEpsilons(
        state, string, pending,
        [this](const Element &next, const Weight &w) { Add(next, w); });
  }
  std::sort(entries_.begin(), entries_.end(),
            [](const Entry &a, const Entry &b) {
              return a.element.state < b.element.state;
            });
  out->clear();
  out->reserve(entries_.size());
  for (Entry &entry : entries_) {
    if (entry.pending != Weight::Zero())
      entry.element.weight = fst::Plus(entry.element.weight, entry.pending);
    out->push_back(entry.element);
  }
}

template <class Arc>
void StarEpsilonClosure<Arc>::Add(const Element &element,
                                  const Weight &weight) {
  int index = -1;
  if (static_cast<size_t>(element.state) < index_of_.size())
    index = index_of_[element.state];
  if (index != -1 && (static_cast<size_t>(index) >= entries_.size() ||
                      entries_[index].element.state != element.state))
    index = -1;
  if (index == -1) {
    entries_.push_back(Entry{element, weight, true});
    if (index_of_.size() < static_cast<size_t>(element.state) + 1)
      index_of_.resize(2 * element.state + 1, -1);
    index_of_[element.state] = static_cast<int>(entries_.size()) - 1;
    queue_.push_back(element.state);
    return;
  }
  Entry &entry = entries_[index];
  if (entry.element.string != element.string)
    NonFunctional(entry.element.string, element.string);
  entry.pending = fst::Plus(entry.pending, weight);
  if (!entry.queued) {
    const Weight total = fst::Plus(entry.element.weight, entry.pending);
    if (!fst::ApproxEqual(total, entry.element.weight, delta_)) {
      entry.queued = true;
      queue_.push_back(element.state);
    }
  }
}

template <class Arc>
void StarEpsilonClosure<Arc>::NonFunctional(SequenceId a, SequenceId b) const {
  std::vector<int32_t> first, second;
  strings_->SequenceOf(a, &first);
  strings_->SequenceOf(b, &second);
  std::ostringstream msg;
  msg << "FST was not functional -> not determinizable: one input sequence "
         "has two output strings, first:";
  for (int32_t label : first) msg << ' ' << label;
  msg << "; second:";
  for (int32_t label : second) msg << ' ' << label;
  NNET3_ERR << msg.str();
}

}  // namespace

namespace {

template <class Arc>
class DeterminizerStar {
 public:
  using Label = typename Arc::Label;
  using StateId = typename Arc::StateId;
  using Weight = typename Arc::Weight;
  using Element = SubsetElement<Weight>;
  using Subset = std::vector<Element>;

  DeterminizerStar(const fst::Fst<Arc> &ifst, float delta, int max_states,
                   bool allow_partial)
      : ifst_(ifst.Copy()),
        max_states_(max_states),
        allow_partial_(allow_partial),
        subsets_(
            ifst.Properties(fst::kExpanded, false)
                ? static_cast<const fst::ExpandedFst<Arc> &>(ifst).NumStates() /
                          2 +
                      3
                : 20,
            SubsetHash(), SubsetEqual{delta}),
        closure_(*ifst_, max_states, delta, &strings_) {}

  // Returns true if stopped early (allow_partial).
  bool Determinize();
  void Output(fst::MutableFst<Arc> *ofst);

 private:
  // An arc of the result, or (nextstate == kNoStateId) a final weight;
  // `string` is its output labels.
  struct TempArc {
    Label ilabel;
    SequenceId string;
    StateId nextstate;
    Weight weight;
  };
  // Hashes states and strings only; weights are compared within delta.
  struct SubsetHash {
    size_t operator()(const Subset &subset) const {
      size_t hash = 0, factor = 1;
      for (const Element &e : subset) {
        hash *= factor;
        hash += e.state + size_t(103333) * e.string;
        factor *= 23531;
      }
      return hash;
    }
  };
  struct SubsetEqual {
    float delta;
    bool operator()(const Subset &a, const Subset &b) const {
      if (a.size() != b.size()) return false;
      for (size_t i = 0; i < a.size(); ++i) {
        const Element &x = a[i], &y = b[i];
        if (x.state != y.state || x.string != y.string ||
            !fst::ApproxEqual(x.weight, y.weight, delta))
          return false;
      }
      return true;
    }
  };

  StateId StateOf(const Subset &subset);
  void ProcessState(const Subset &subset, StateId state);
  void ProcessFinal(const Subset &closed, StateId state);
  void ProcessArcs(const Subset &closed, StateId state);
  void AddArc(StateId state, Label ilabel, Subset *next);
  void OutputArc(StateId state, const TempArc &arc, fst::MutableFst<Arc> *ofst);

  std::unique_ptr<const fst::Fst<Arc>> ifst_;
  int max_states_;
  bool allow_partial_;
  LabelSequenceRepository strings_;
  // The subsets found so far (the map's nodes hold them, so the queue can
  // point at them).
  std::unordered_map<Subset, StateId, SubsetHash, SubsetEqual> subsets_;
  std::deque<std::pair<const Subset *, StateId>> queue_;
  std::vector<std::vector<TempArc>> arcs_;  // by state of the result
  StarEpsilonClosure<Arc> closure_;
};

template <class Arc>
bool DeterminizerStar<Arc>::Determinize() {
  const StateId start = ifst_->Start();
  if (start == fst::kNoStateId) return false;
  StateOf(Subset{Element{start, strings_.Empty(), Weight::One()}});
  while (!queue_.empty()) {
    const std::pair<const Subset *, StateId> next = queue_.front();
    queue_.pop_front();
    ProcessState(*next.first, next.second);
    if (max_states_ > 0 && arcs_.size() > static_cast<size_t>(max_states_)) {
      if (!allow_partial_)
        NNET3_ERR << "Determinization aborted since passed " << max_states_
                  << " states";
      NNET3_WARN << "Determinization terminated since passed " << max_states_
                 << " states, partial results will be generated";
      return true;
    }
  }
  return false;
}

// The state of `subset`, added (and queued) if new.
template <class Arc>
typename Arc::StateId DeterminizerStar<Arc>::StateOf(const Subset &subset) {
  auto it = subsets_.find(subset);
  if (it != subsets_.end()) return it->second;
  const StateId state = static_cast<StateId>(arcs_.size());
  const Subset *stored = &subsets_.emplace(subset, state).first->first;
  arcs_.emplace_back();
  if (allow_partial_)
    queue_.emplace_back(stored, state);  // breadth first
  else
    queue_.emplace_front(stored, state);
  return state;
}

template <class Arc>
void DeterminizerStar<Arc>::ProcessState(const Subset &subset, StateId state) {
  Subset closed;
  closure_.Close(subset, &closed);
  ProcessFinal(closed, state);
  ProcessArcs(closed, state);
}

template <class Arc>
void DeterminizerStar<Arc>::ProcessFinal(const Subset &closed, StateId state) {
  bool is_final = false;
  SequenceId string = strings_.Empty();
  Weight weight = Weight::One();
  for (const Element &e : closed) {
    const Weight final = ifst_->Final(e.state);
    if (final == Weight::Zero()) continue;
    if (!is_final) {
      string = e.string;
      weight = fst::Times(e.weight, final);
      is_final = true;
    } else {
      if (string != e.string)
        NNET3_ERR << "FST was not functional -> not determinizable: two "
                     "paths with the same input end with different outputs";
      weight = fst::Plus(weight, fst::Times(e.weight, final));
    }
  }
  if (is_final)
    arcs_[state].push_back(TempArc{0, string, fst::kNoStateId, weight});
}

// Groups the non-epsilon arcs out of the subset by input label; each group
// becomes one arc.
template <class Arc>
void DeterminizerStar<Arc>::ProcessArcs(const Subset &closed, StateId state) {
  std::vector<std::pair<Label, Element>> moves;
  for (const Element &e : closed) {
    for (fst::ArcIterator<fst::Fst<Arc>> aiter(*ifst_, e.state); !aiter.Done();
         aiter.Next()) {
      const Arc &arc = aiter.Value();
      if (arc.ilabel == 0) continue;
      Element next;
      next.state = arc.nextstate;
      next.weight = fst::Times(e.weight, arc.weight);
      next.string =
          arc.olabel == 0 ? e.string : strings_.Append(e.string, arc.olabel);
      moves.emplace_back(arc.ilabel, next);
    }
  }
  std::sort(moves.begin(), moves.end(),
            [](const std::pair<Label, Element> &a,
               const std::pair<Label, Element> &b) {
              if (a.first != b.first) return a.first < b.first;
              return a.second.state < b.second.state;
            });
  Subset next;
  for (size_t i = 0; i < moves.size();) {
    const Label ilabel = moves[i].first;
    next.clear();
    for (; i < moves.size() && moves[i].first == ilabel; ++i)
      next.push_back(moves[i].second);
    AddArc(state, ilabel, &next);
  }
}

// `next` holds the elements reached with `ilabel`, sorted by state (a state
// may repeat). Merges repeats, takes out the common string prefix and the
// total weight, and adds the arc to the subset's state.
template <class Arc>
void DeterminizerStar<Arc>::AddArc(StateId state, Label ilabel, Subset *next) {
  size_t kept = 0;
  for (size_t i = 0; i < next->size();) {
    Element merged = (*next)[i++];
    for (; i < next->size() && (*next)[i].state == merged.state; ++i) {
      if ((*next)[i].string != merged.string)
        NNET3_ERR << "FST was not functional -> not determinizable: two "
                     "paths with the same input reach one state with "
                     "different outputs";
      merged.weight = fst::Plus(merged.weight, (*next)[i].weight);
    }
    (*next)[kept++] = merged;
  }
  next->resize(kept);

  std::vector<int32_t> prefix, labels;
  for (size_t i = 0; i < next->size(); ++i) {
    if (i == 0) {
      strings_.SequenceOf((*next)[i].string, &prefix);
    } else {
      strings_.SequenceOf((*next)[i].string, &labels);
      if (labels.size() < prefix.size()) prefix.resize(labels.size());
      for (size_t j = 0; j < prefix.size(); ++j)
        if (labels[j] != prefix[j]) prefix.resize(j);
    }
    if (prefix.empty()) break;
  }
  const SequenceId common = strings_.IdOf(prefix);
  Weight total = (*next)[0].weight;
  for (size_t i = 1; i < next->size(); ++i)
    total = fst::Plus(total, (*next)[i].weight);
  for (Element &e : *next) {
    e.weight = fst::Divide(e.weight, total);
    e.string = strings_.RemovePrefix(e.string, prefix.size());
  }
  const StateId nextstate = StateOf(*next);
  arcs_[state].push_back(TempArc{ilabel, common, nextstate, total});
}

template <class Arc>
void DeterminizerStar<Arc>::Output(fst::MutableFst<Arc> *ofst) {
  const StateId num_states = static_cast<StateId>(arcs_.size());
  decltype(subsets_)().swap(subsets_);
  ifst_.reset();
  ofst->DeleteStates();
  if (num_states == 0) {
    ofst->SetStart(fst::kNoStateId);
    return;
  }
  for (StateId s = 0; s < num_states; ++s) ofst->AddState();
  ofst->SetStart(0);
  for (StateId s = 0; s < num_states; ++s) {
    for (const TempArc &arc : arcs_[s]) OutputArc(s, arc, ofst);
    std::vector<TempArc>().swap(arcs_[s]);
  }
  arcs_.clear();
  strings_.Clear();
}

// Writes one arc (or final weight) whose string may have several labels:
// the first arc of the chain carries the input label and the weight.
template <class Arc>
void DeterminizerStar<Arc>::OutputArc(StateId state, const TempArc &arc,
                                      fst::MutableFst<Arc> *ofst) {
  std::vector<int32_t> labels;
  strings_.SequenceOf(arc.string, &labels);
  const bool is_final = arc.nextstate == fst::kNoStateId;
  // A final weight needs a new state per label; an arc one fewer.
  const size_t chain =
      is_final ? labels.size() : (labels.empty() ? 0 : labels.size() - 1);
  StateId cur = state;
  for (size_t i = 0; i < chain; ++i) {
    const StateId next = ofst->AddState();
    ofst->AddArc(cur, Arc(i == 0 && !is_final ? arc.ilabel : 0, labels[i],
                          i == 0 ? arc.weight : Weight::One(), next));
    cur = next;
  }
  if (is_final) {
    ofst->SetFinal(cur, chain == 0 ? arc.weight : Weight::One());
  } else {
    ofst->AddArc(
        cur,
        Arc(chain == 0 ? arc.ilabel : 0, labels.empty() ? 0 : labels.back(),
            chain == 0 ? arc.weight : Weight::One(), arc.nextstate));
  }
}

}  // namespace

template <class Arc>
bool DeterminizeStar(const fst::Fst<Arc> &ifst, fst::MutableFst<Arc> *ofst,
                     float delta, int max_states, bool allow_partial) {
  ofst->SetOutputSymbols(ifst.OutputSymbols());
  ofst->SetInputSymbols(ifst.InputSymbols());
  DeterminizerStar<Arc> det(ifst, delta, max_states, allow_partial);
  const bool partial = det.Determinize();
  det.Output(ofst);
  return partial;
}

template bool DeterminizeStar(const fst::Fst<fst::StdArc> &,
                              fst::MutableFst<fst::StdArc> *, float, int, bool);
template bool DeterminizeStar(const fst::Fst<fst::LogArc> &,
                              fst::MutableFst<fst::LogArc> *, float, int, bool);

void DeterminizeStarInLog(fst::VectorFst<fst::StdArc> *fst, float delta,
                          int max_states) {
  fst::ArcSort(fst, fst::ILabelCompare<fst::StdArc>());
  fst::VectorFst<fst::LogArc> log_fst;
  fst::Cast(*fst, &log_fst);
  *fst = fst::VectorFst<fst::StdArc>();
  fst::VectorFst<fst::LogArc> det;
  DeterminizeStar(log_fst, &det, delta, max_states);
  fst::Cast(det, fst);
}

}  // namespace nnet3
