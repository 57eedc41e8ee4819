#include "lat/lattice-determinizer-pruned.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "base/error.h"
#include "base/log.h"

namespace nnet3 {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// Kaldi's memory estimate charges these sizes (its 64-bit layouts of a
// repository entry, twice, an output arc and a subset element), so that a
// --max-mem stops at the same point as Kaldi's.
constexpr int64_t kStringBytes = 32;
constexpr int64_t kArcBytes = 32;
constexpr int64_t kElementBytes = 24;

}  // namespace

LatticeDeterminizerPruned::LatticeDeterminizerPruned(
    const fst::ExpandedFst<LatticeArc> &ifst, double beam,
    const DeterminizeLatticePrunedOptions &opts)
    : beam_(beam),
      opts_(opts),
      minimal_subsets_(opts.delta),
      initial_subsets_(opts.delta) {
  CopyInput(ifst);
}

void LatticeDeterminizerPruned::CopyInput(
    const fst::ExpandedFst<LatticeArc> &ifst) {
  const int32_t num_states = ifst.NumStates();
  start_ = ifst.Start();
  first_arc_.resize(num_states + 1);
  first_emitting_.resize(num_states);
  final_.resize(num_states);
  arcs_.clear();
  for (int32_t s = 0; s < num_states; s++) {
    first_arc_[s] = static_cast<int32_t>(arcs_.size());
    final_[s] = ifst.Final(s);
    // Epsilons first, then the emitting arcs, each in input order (ties
    // between equal candidates then go as in Kaldi); zero weights dropped.
    for (int pass = 0; pass < 2; pass++) {
      if (pass == 1) first_emitting_[s] = static_cast<int32_t>(arcs_.size());
      for (fst::ArcIterator<fst::ExpandedFst<LatticeArc>> aiter(ifst, s);
           !aiter.Done(); aiter.Next()) {
        const LatticeArc &arc = aiter.Value();
        if (arc.nextstate <= s)
          NNET3_ERR << "Cannot determinize a lattice that is not "
                    << "topologically sorted (arc from state " << s
                    << " to state " << arc.nextstate
                    << "); a lattice with cycles cannot be determinized";
        if ((arc.ilabel != 0) != (pass == 1) ||
            arc.weight == LatticeWeight::Zero())
          continue;
        arcs_.push_back(
            InputArc{arc.ilabel, arc.olabel, arc.nextstate, arc.weight});
      }
    }
  }
  first_arc_[num_states] = static_cast<int32_t>(arcs_.size());
  closure_slot_.assign(num_states, -1);
}

void LatticeDeterminizerPruned::ComputeBackwardCosts() {
  NNET3_ASSERT(beam_ > 0);
  const int32_t num_states = static_cast<int32_t>(final_.size());
  backward_costs_.resize(num_states);
  for (int32_t s = num_states - 1; s >= 0; s--) {
    double cost = ConvertToCost(final_[s]);
    for (int32_t a = first_arc_[s]; a < first_arc_[s + 1]; a++)
      cost = std::min(cost, ConvertToCost(arcs_[a].weight) +
                                backward_costs_[arcs_[a].nextstate]);
    backward_costs_[s] = cost;
  }
  if (start_ < 0) return;
  const double best_cost = backward_costs_[start_];
  if (best_cost == kInfinity)
    NNET3_WARN << "Total weight of input lattice is zero.";
  cutoff_ = best_cost + beam_;
}

int LatticeDeterminizerPruned::Compare(const LatticeWeight &a_weight,
                                       StringId a_string,
                                       const LatticeWeight &b_weight,
                                       StringId b_string) const {
  const int c = nnet3::Compare(a_weight, b_weight);
  if (c != 0) return c;
  return repository_.Compare(a_string, b_string);
}

// Follows epsilon arcs from the sorted, unique `subset`, keeping for each
// state reached the best (weight, string). The input is topologically
// sorted, so taking states in increasing order finishes each state before
// its arcs are followed, and that order is the sorted output order.
void LatticeDeterminizerPruned::EpsilonClosure(
    std::vector<SubsetElement> *subset) {
  closure_.clear();
  closure_heap_.clear();
  const auto later = std::greater<int32_t>();
  for (const SubsetElement &e : *subset) {
    closure_slot_[e.state] = static_cast<int32_t>(closure_.size());
    closure_.push_back(e);
    closure_heap_.push_back(e.state);
  }
  std::make_heap(closure_heap_.begin(), closure_heap_.end(), later);
  subset->clear();
  int64_t visited = 0;
  while (!closure_heap_.empty()) {
    std::pop_heap(closure_heap_.begin(), closure_heap_.end(), later);
    const int32_t s = closure_heap_.back();
    closure_heap_.pop_back();
    if (opts_.max_loop > 0 && visited++ > opts_.max_loop)
      NNET3_ERR << "Lattice determinization aborted since looped more than "
                << opts_.max_loop << " times during epsilon closure.";
    const SubsetElement elem = closure_[closure_slot_[s]];
    subset->push_back(elem);
    for (int32_t a = first_arc_[s]; a < first_emitting_[s]; a++) {
      const InputArc &arc = arcs_[a];
      const LatticeWeight weight = Times(elem.weight, arc.weight);
      auto string = [&]() {
        return arc.olabel == 0 ? elem.string
                               : repository_.Successor(elem.string, arc.olabel);
      };
      int32_t &slot = closure_slot_[arc.nextstate];
      if (slot < 0) {
        slot = static_cast<int32_t>(closure_.size());
        closure_.push_back(SubsetElement{arc.nextstate, string(), weight});
        closure_heap_.push_back(arc.nextstate);
        std::push_heap(closure_heap_.begin(), closure_heap_.end(), later);
        continue;
      }
      SubsetElement &old = closure_[slot];
      int c = nnet3::Compare(weight, old.weight);
      StringId new_string = kEmptyString;
      if (c == 0) {
        new_string = string();
        c = Compare(weight, new_string, old.weight, old.string);
      } else if (c == 1) {
        new_string = string();
      }
      if (c == 1) {
        old.string = new_string;
        old.weight = weight;
      }
    }
  }
  for (const SubsetElement &e : closure_) closure_slot_[e.state] = -1;
}

void LatticeDeterminizerPruned::ConvertToMinimal(
    std::vector<SubsetElement> *subset) const {
  NNET3_ASSERT(!subset->empty());
  auto end = std::remove_if(
      subset->begin(), subset->end(),
      [this](const SubsetElement &e) { return !IsEmittingOrFinal(e.state); });
  subset->erase(end, subset->end());
}

// Takes out of the subset its total weight (the best) and the common
// prefix of its strings.
void LatticeDeterminizerPruned::NormalizeSubset(
    std::vector<SubsetElement> *subset, LatticeWeight *tot_weight,
    StringId *common_prefix) {
  if (subset->empty()) {
    NNET3_WARN << "empty subset";
    *common_prefix = kEmptyString;
    *tot_weight = LatticeWeight::Zero();
    return;
  }
  LatticeWeight weight = (*subset)[0].weight;
  StringId prefix = (*subset)[0].string;
  for (size_t i = 1; i < subset->size(); i++) {
    weight = Plus(weight, (*subset)[i].weight);
    prefix = repository_.CommonPrefix(prefix, (*subset)[i].string);
  }
  NNET3_ASSERT(weight != LatticeWeight::Zero());
  const size_t prefix_length = repository_.Length(prefix);
  for (SubsetElement &e : *subset) {
    e.weight = Divide(e.weight, weight, fst::DIVIDE_LEFT);
    e.string = repository_.RemovePrefix(e.string, prefix_length);
  }
  *common_prefix = prefix;
  *tot_weight = weight;
}

// The subset is sorted on state; of elements with the same state keep the
// best (the first of equals).
void LatticeDeterminizerPruned::MakeSubsetUnique(
    std::vector<SubsetElement> *subset) const {
  size_t out = 0;
  for (size_t in = 0; in < subset->size(); in++) {
    const SubsetElement &e = (*subset)[in];
    if (out > 0 && (*subset)[out - 1].state == e.state) {
      SubsetElement &kept = (*subset)[out - 1];
      if (Compare(e.weight, e.string, kept.weight, kept.string) == 1) {
        kept.string = e.string;
        kept.weight = e.weight;
      }
    } else {
      (*subset)[out++] = e;
    }
  }
  subset->resize(out);
}

int32_t LatticeDeterminizerPruned::AddOutputState(
    const std::vector<SubsetElement> &subset, uint64_t hash,
    double forward_cost) {
  const int32_t id =
      minimal_subsets_.Insert(subset.data(), subset.size(), hash);
  forward_costs_.push_back(forward_cost);
  num_elems_ += static_cast<int64_t>(subset.size());
  ProcessFinal(id);
  ProcessTransitions(id);
  return id;
}

int32_t LatticeDeterminizerPruned::MinimalToStateId(
    const std::vector<SubsetElement> &subset, double forward_cost) {
  uint64_t hash;
  const int32_t id = minimal_subsets_.Find(subset.data(), subset.size(), &hash);
  if (id < 0) return AddOutputState(subset, hash, forward_cost);
  // The queue expands the best path into a state first.
  if (forward_cost < forward_costs_[id] - 0.1)
    NNET3_WARN << "New cost is less (check the difference is small) "
               << forward_cost << ", " << forward_costs_[id];
  return id;
}

int32_t LatticeDeterminizerPruned::InitialToStateId(
    const std::vector<SubsetElement> &subset, double forward_cost,
    LatticeWeight *remaining, StringId *common_prefix) {
  uint64_t hash;
  const int32_t id = initial_subsets_.Find(subset.data(), subset.size(), &hash);
  if (id >= 0) {
    const InitialValue &value = initial_values_[id];
    *remaining = value.weight;
    *common_prefix = value.string;
    if (value.weight == LatticeWeight::Zero()) NNET3_WARN << "Zero weight!";
    return value.state;
  }
  closure_subset_ = subset;
  EpsilonClosure(&closure_subset_);
  ConvertToMinimal(&closure_subset_);
  InitialValue value;
  NormalizeSubset(&closure_subset_, &value.weight, &value.string);
  forward_cost += ConvertToCost(value.weight);
  value.state = MinimalToStateId(closure_subset_, forward_cost);
  *remaining = value.weight;
  *common_prefix = value.string;
  if (value.weight == LatticeWeight::Zero()) NNET3_WARN << "Zero weight!";
  initial_subsets_.Insert(subset.data(), subset.size(), hash);
  initial_values_.push_back(value);
  num_elems_ += static_cast<int64_t>(subset.size());
  return value.state;
}

// The best final weight of the state's subset, if within the beam.
void LatticeDeterminizerPruned::ProcessFinal(int32_t output_state) {
  const SubsetTable::Span subset = minimal_subsets_.Subset(output_state);
  bool is_final = false;
  LatticeWeight final_weight = LatticeWeight::Zero();
  StringId final_string = kEmptyString;
  for (size_t i = 0; i < subset.size; i++) {
    const SubsetElement &e = subset.begin[i];
    const LatticeWeight weight = Times(e.weight, final_[e.state]);
    if (weight != LatticeWeight::Zero() &&
        (!is_final ||
         Compare(weight, e.string, final_weight, final_string) == 1)) {
      is_final = true;
      final_weight = weight;
      final_string = e.string;
    }
  }
  if (is_final &&
      ConvertToCost(final_weight) + forward_costs_[output_state] <= cutoff_) {
    output_arcs_.push_back(
        OutputArc{output_state, 0, -1, final_string, final_weight});
    num_arcs_++;
  }
}

// Queues one task per input label leaving the state's subset (those within
// the beam).
void LatticeDeterminizerPruned::ProcessTransitions(int32_t output_state) {
  const SubsetTable::Span subset = minimal_subsets_.Subset(output_state);
  labeled_.clear();
  for (size_t i = 0; i < subset.size; i++) {
    const SubsetElement &e = subset.begin[i];
    for (int32_t a = first_emitting_[e.state]; a < first_arc_[e.state + 1];
         a++) {
      const InputArc &arc = arcs_[a];
      const StringId string = arc.olabel == 0
                                  ? e.string
                                  : repository_.Successor(e.string, arc.olabel);
      labeled_.push_back(LabeledElement{
          arc.ilabel,
          SubsetElement{arc.nextstate, string, Times(e.weight, arc.weight)}});
    }
  }
  std::sort(labeled_.begin(), labeled_.end(),
            [](const LabeledElement &a, const LabeledElement &b) {
              if (a.label != b.label) return a.label < b.label;
              return a.element.state < b.element.state;
            });
  for (size_t begin = 0, end; begin < labeled_.size(); begin = end) {
    double priority_cost = kInfinity;
    for (end = begin;
         end < labeled_.size() && labeled_[end].label == labeled_[begin].label;
         end++) {
      const SubsetElement &e = labeled_[end].element;
      priority_cost = std::min(
          priority_cost, ConvertToCost(e.weight) + backward_costs_[e.state]);
    }
    priority_cost += forward_costs_[output_state];
    if (priority_cost > cutoff_) continue;
    AddTask(output_state, labeled_[begin].label, priority_cost,
            labeled_.data() + begin, labeled_.data() + end);
  }
}

void LatticeDeterminizerPruned::AddTask(int32_t output_state, int32_t label,
                                        double priority_cost,
                                        const LabeledElement *begin,
                                        const LabeledElement *end) {
  int32_t t;
  if (!free_tasks_.empty()) {
    t = free_tasks_.back();
    free_tasks_.pop_back();
  } else {
    t = static_cast<int32_t>(tasks_.size());
    tasks_.emplace_back();
  }
  Task &task = tasks_[t];
  task.state = output_state;
  task.label = label;
  task.priority_cost = priority_cost;
  task.subset.clear();
  for (const LabeledElement *p = begin; p != end; ++p)
    task.subset.push_back(p->element);
  MakeSubsetUnique(&task.subset);
  queue_.push_back(t);
  std::push_heap(queue_.begin(), queue_.end(), [this](int32_t a, int32_t b) {
    return tasks_[a].priority_cost > tasks_[b].priority_cost;
  });
  const double best_cost = backward_costs_[start_],
               tolerance = 0.01 + 1.0e-04 * std::abs(best_cost);
  if (priority_cost < best_cost - tolerance)
    NNET3_WARN << "Cost below best cost was encountered:" << priority_cost
               << " < " << best_cost;
}

// Adds the arc for a task: normalizes its subset, finds (or makes) the
// state, and puts on the arc what was taken out of both subsets.
void LatticeDeterminizerPruned::ProcessTransition(
    int32_t output_state, int32_t label, std::vector<SubsetElement> *subset) {
  double forward_cost = forward_costs_[output_state];
  LatticeWeight tot_weight;
  StringId common_prefix;
  NormalizeSubset(subset, &tot_weight, &common_prefix);
  forward_cost += ConvertToCost(tot_weight);
  LatticeWeight next_weight;
  StringId next_prefix;
  const int32_t nextstate =
      InitialToStateId(*subset, forward_cost, &next_weight, &next_prefix);
  output_arcs_.push_back(
      OutputArc{output_state, label, nextstate,
                repository_.Concatenate(common_prefix, next_prefix),
                Times(tot_weight, next_weight)});
  num_arcs_++;
}

void LatticeDeterminizerPruned::InitializeDeterminization() {
  ComputeBackwardCosts();
  if (start_ < 0) return;
  // The start state's subset is not normalized: there is nowhere to put
  // what normalizing would take out.
  closure_subset_.assign(
      1, SubsetElement{start_, kEmptyString, LatticeWeight::One()});
  EpsilonClosure(&closure_subset_);
  ConvertToMinimal(&closure_subset_);
  uint64_t hash;
  minimal_subsets_.Find(closure_subset_.data(), closure_subset_.size(), &hash);
  AddOutputState(closure_subset_, hash, 0.0);
}

// Kaldi checks its memory estimate every time the number of output states
// is a multiple of 10; past max_mem it first frees the strings nothing
// refers to any more, and stops only if that leaves more than 80%.
bool LatticeDeterminizerPruned::CheckMemoryUsage() {
  const int64_t repo_size =
      static_cast<int64_t>(repository_.NumStrings()) * kStringBytes;
  const int64_t arcs_size = num_arcs_ * kArcBytes,
                elems_size = num_elems_ * kElementBytes;
  if (opts_.max_mem <= 0 || repo_size + arcs_size + elems_size <= opts_.max_mem)
    return true;
  RebuildRepository();
  const int64_t new_repo_size =
      static_cast<int64_t>(repository_.NumStrings()) * kStringBytes;
  NNET3_VLOG(2) << "Rebuilt repository in determinize-lattice: repository "
                << "shrank from " << repo_size << " to " << new_repo_size
                << " bytes (approximately)";
  if (new_repo_size + arcs_size + elems_size <=
      static_cast<int32_t>(opts_.max_mem * 0.8))
    return true;
  double effective_beam = beam_;
  if (!queue_.empty())
    effective_beam =
        tasks_[queue_.front()].priority_cost - backward_costs_[start_];
  NNET3_WARN << "Did not reach requested beam in determinize-lattice: "
             << "size exceeds maximum " << opts_.max_mem
             << " bytes; (repo,arcs,elems) = (" << repo_size << "," << arcs_size
             << "," << elems_size << "), after rebuilding, repo size was "
             << new_repo_size << ", effective beam was " << effective_beam
             << " vs. requested beam " << beam_;
  return false;
}

// Keeps the strings of the output so far, of the queued tasks and of the
// initial subsets and their values.
void LatticeDeterminizerPruned::RebuildRepository() {
  std::vector<StringId> needed;
  for (const SubsetElement &e : minimal_subsets_.Elements())
    needed.push_back(e.string);
  for (const OutputArc &arc : output_arcs_) needed.push_back(arc.string);
  for (int32_t t : queue_)
    for (const SubsetElement &e : tasks_[t].subset) needed.push_back(e.string);
  for (const SubsetElement &e : initial_subsets_.Elements())
    needed.push_back(e.string);
  for (const InitialValue &value : initial_values_)
    needed.push_back(value.string);
  NNET3_LOG << "Rebuilding repository.";
  repository_.Rebuild(needed);
}

bool LatticeDeterminizerPruned::Determinize(double *effective_beam) {
  NNET3_ASSERT(!determinized_);
  InitializeDeterminization();
  const auto worse = [this](int32_t a, int32_t b) {
    return tasks_[a].priority_cost > tasks_[b].priority_cost;
  };
  while (!queue_.empty()) {
    const int64_t num_states = minimal_subsets_.NumSubsets();
    if ((opts_.max_states > 0 && num_states > opts_.max_states) ||
        (opts_.max_arcs > 0 && num_arcs_ > opts_.max_arcs) ||
        (num_states % 10 == 0 && !CheckMemoryUsage())) {
      NNET3_VLOG(1) << "Lattice determinization terminated but not "
                    << " because of lattice-beam.  (#states, #arcs) is ( "
                    << num_states << ", " << num_arcs_ << " ), versus limits ( "
                    << opts_.max_states << ", " << opts_.max_arcs
                    << " ) (else, may be memory limit).";
      break;
    }
    std::pop_heap(queue_.begin(), queue_.end(), worse);
    const int32_t t = queue_.back();
    queue_.pop_back();
    // The task's slot may be reused (and tasks_ grow) while it is processed.
    task_subset_.swap(tasks_[t].subset);
    free_tasks_.push_back(t);
    ProcessTransition(tasks_[t].state, tasks_[t].label, &task_subset_);
  }
  determinized_ = true;
  if (effective_beam != nullptr) {
    *effective_beam = queue_.empty() ? beam_
                                     : tasks_[queue_.front()].priority_cost -
                                           backward_costs_[start_];
  }
  return queue_.empty();
}

std::vector<int32_t> LatticeDeterminizerPruned::ArcsBySource() const {
  const int32_t num_states = minimal_subsets_.NumSubsets();
  std::vector<int32_t> first(num_states + 1, 0);
  for (const OutputArc &arc : output_arcs_) first[arc.source + 1]++;
  for (int32_t s = 0; s < num_states; s++) first[s + 1] += first[s];
  std::vector<int32_t> order(output_arcs_.size());
  for (size_t i = 0; i < output_arcs_.size(); i++)
    order[first[output_arcs_[i].source]++] = static_cast<int32_t>(i);
  return order;
}

void LatticeDeterminizerPruned::Output(
    fst::MutableFst<CompactLatticeArc> *ofst) const {
  NNET3_ASSERT(determinized_);
  const int32_t num_states = minimal_subsets_.NumSubsets();
  ofst->DeleteStates();
  ofst->SetStart(fst::kNoStateId);
  if (num_states == 0) return;
  ofst->ReserveStates(num_states);
  for (int32_t s = 0; s < num_states; s++) ofst->AddState();
  ofst->SetStart(0);
  std::vector<int32_t> labels;
  for (int32_t i : ArcsBySource()) {
    const OutputArc &arc = output_arcs_[i];
    repository_.ToVector(arc.string, &labels);
    const CompactLatticeWeight weight(arc.weight, labels);
    if (arc.nextstate < 0)
      ofst->SetFinal(arc.source, weight);
    else
      ofst->AddArc(arc.source, CompactLatticeArc(arc.ilabel, arc.ilabel, weight,
                                                 arc.nextstate));
  }
}

void LatticeDeterminizerPruned::Output(
    fst::MutableFst<LatticeArc> *ofst) const {
  NNET3_ASSERT(determinized_);
  const int32_t num_states = minimal_subsets_.NumSubsets();
  ofst->DeleteStates();
  ofst->SetStart(fst::kNoStateId);
  if (num_states == 0) return;
  for (int32_t s = 0; s < num_states; s++) ofst->AddState();
  ofst->SetStart(0);
  std::vector<int32_t> labels;
  for (int32_t i : ArcsBySource()) {
    const OutputArc &arc = output_arcs_[i];
    repository_.ToVector(arc.string, &labels);
    // A chain of one arc per transition-id (at least one arc for a real
    // arc), the word and the weight on the first; a final weight with a
    // string becomes a chain to a new final state.
    const size_t chain =
        arc.nextstate < 0 ? labels.size() : std::max<size_t>(labels.size(), 1);
    int32_t state = arc.source;
    for (size_t k = 0; k < chain; k++) {
      const bool last = k + 1 == chain && arc.nextstate >= 0;
      const int32_t next = last ? arc.nextstate : ofst->AddState();
      ofst->AddArc(
          state,
          LatticeArc(k == 0 ? arc.ilabel : 0, labels.empty() ? 0 : labels[k],
                     k == 0 ? arc.weight : LatticeWeight::One(), next));
      state = next;
    }
    if (arc.nextstate < 0)
      ofst->SetFinal(state, chain == 0 ? arc.weight : LatticeWeight::One());
  }
}

}  // namespace nnet3
