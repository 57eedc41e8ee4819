// LatticeDeterminizerPruned: Kaldi's pruned lattice determinization, one
// run of it (DeterminizeLatticePruned, determinize-lattice-pruned.h, wraps
// it with the retries; use that).
//
//   LatticeDeterminizerPruned det(ifst, beam, opts);  // copies what it needs
//   double effective_beam;
//   bool complete = det.Determinize(&effective_beam);
//   det.Output(&clat);      // CompactLattice, or a Lattice (strings as arcs)
//
// The input is a raw lattice with words on the input side and
// transition-ids on the output side, topologically sorted. It is
// determinized as an acceptor on the words, each path's transition-id
// string and (graph, acoustic) cost carried in the weight; where several
// paths share a word sequence the best one wins (Kaldi's CompactLattice
// order: lower cost, then lower graph cost, then the shorter string, then
// the lexicographically larger), so the output keeps for each word
// sequence its best path, with that path's alignment and costs. Epsilons
// are removed on the way.
//
// Pruning: the output is built from the best paths down. Each pending
// transition out of an output state has a priority, the cost of the best
// input path through it (forward cost of the output state plus the best
// input cost to the end); transitions are expanded in that order and only
// while it is within `beam` of the best path, so a word sequence survives
// exactly when its best path is within the beam. Stopping early (max_states,
// max_arcs, max_mem) keeps the best part; Determinize then returns false
// and *effective_beam says how far it got.
//
// Output states are numbered in order of creation, and arcs in order of
// expansion, the order Kaldi's LatticeDeterminizerPruned produces
// (same priority queue, same ties), so the output equals Kaldi's.
//
// Storage is flat: the input as arc arrays, strings in a
// LatticeStringRepository, subsets in two SubsetTables, output arcs in one
// array, tasks in a pool whose subset buffers are reused.
#ifndef NNET3_LAT_LATTICE_DETERMINIZER_PRUNED_H_
#define NNET3_LAT_LATTICE_DETERMINIZER_PRUNED_H_

#include <fst/expanded-fst.h>
#include <fst/mutable-fst.h>

#include <cstdint>
#include <vector>

#include "lat/determinize-lattice-options.h"
#include "lat/kaldi-lattice.h"
#include "lat/lattice-string-repository.h"
#include "lat/subset-table.h"

namespace nnet3 {

class LatticeDeterminizerPruned {
 public:
  // ifst: words on the input side, topologically sorted (UserError if
  // not). Everything needed is copied, so ifst may be the output later.
  LatticeDeterminizerPruned(const fst::ExpandedFst<LatticeArc> &ifst,
                            double beam,
                            const DeterminizeLatticePrunedOptions &opts);
  LatticeDeterminizerPruned(const LatticeDeterminizerPruned &) = delete;
  LatticeDeterminizerPruned &operator=(const LatticeDeterminizerPruned &) =
      delete;

  // Runs the determinization (once). Returns true if it expanded everything
  // within the beam, false if a limit stopped it; *effective_beam (may be
  // null) is the beam it reached.
  bool Determinize(double *effective_beam);
  // The result, as an acceptor on words with the transition-id strings in
  // the weights...
  void Output(fst::MutableFst<CompactLatticeArc> *ofst) const;
  // ... or as a lattice: an arc with a string of n > 1 transition-ids
  // becomes a chain of n arcs (word and weight on the first).
  void Output(fst::MutableFst<LatticeArc> *ofst) const;

 private:
  struct InputArc {
    int32_t ilabel;
    int32_t olabel;
    int32_t nextstate;
    LatticeWeight weight;
  };
  // An output arc, or (nextstate < 0) an output state's final weight.
  struct OutputArc {
    int32_t source;
    int32_t ilabel;
    int32_t nextstate;
    StringId string;
    LatticeWeight weight;
  };
  // A pending transition: `label` out of output state `state` to the
  // (unnormalized) subset.
  struct Task {
    int32_t state;
    int32_t label;
    double priority_cost;
    std::vector<SubsetElement> subset;
  };
  struct LabeledElement {
    int32_t label;
    SubsetElement element;
  };
  struct InitialValue {  // what an initial subset leads to
    int32_t state;
    StringId string;
    LatticeWeight weight;
  };

  void CopyInput(const fst::ExpandedFst<LatticeArc> &ifst);
  void ComputeBackwardCosts();
  void InitializeDeterminization();
  bool CheckMemoryUsage();
  void RebuildRepository();
  // Epsilon arcs of input state s are arcs_[first_arc_[s], first_emitting_[s])
  // and the emitting ones follow up to first_arc_[s + 1].
  bool IsEmittingOrFinal(int32_t s) const {
    return first_emitting_[s] < first_arc_[s + 1] ||
           final_[s] != LatticeWeight::Zero();
  }
  // Kaldi's order on (weight, string) pairs: -1, 0, 1.
  int Compare(const LatticeWeight &a_weight, StringId a_string,
              const LatticeWeight &b_weight, StringId b_string) const;

  void EpsilonClosure(std::vector<SubsetElement> *subset);
  void ConvertToMinimal(std::vector<SubsetElement> *subset) const;
  void NormalizeSubset(std::vector<SubsetElement> *subset,
                       LatticeWeight *tot_weight, StringId *common_prefix);
  void MakeSubsetUnique(std::vector<SubsetElement> *subset) const;
  int32_t MinimalToStateId(const std::vector<SubsetElement> &subset,
                           double forward_cost);
  int32_t InitialToStateId(const std::vector<SubsetElement> &subset,
                           double forward_cost, LatticeWeight *remaining,
                           StringId *common_prefix);
  int32_t AddOutputState(const std::vector<SubsetElement> &subset,
                         uint64_t hash, double forward_cost);
  void ProcessFinal(int32_t output_state);
  void ProcessTransitions(int32_t output_state);
  void AddTask(int32_t output_state, int32_t label, double priority_cost,
               const LabeledElement *begin, const LabeledElement *end);
  void ProcessTransition(int32_t output_state, int32_t label,
                         std::vector<SubsetElement> *subset);
  // The order in which Output writes the arcs: by source, then creation.
  std::vector<int32_t> ArcsBySource() const;

  double beam_;
  double cutoff_ = 0.0;
  DeterminizeLatticePrunedOptions opts_;
  bool determinized_ = false;

  // The input.
  int32_t start_ = -1;
  std::vector<InputArc> arcs_;
  std::vector<int32_t> first_arc_;       // per state, and one past the end
  std::vector<int32_t> first_emitting_;  // per state
  std::vector<LatticeWeight> final_;
  std::vector<double> backward_costs_;  // best cost from each state to end

  // The output.
  LatticeStringRepository repository_;
  SubsetTable minimal_subsets_;        // id = output state
  std::vector<double> forward_costs_;  // per output state
  std::vector<OutputArc> output_arcs_;
  SubsetTable initial_subsets_;
  std::vector<InitialValue> initial_values_;  // per initial subset
  // Memory accounting as Kaldi counts it.
  int64_t num_arcs_ = 0;
  int64_t num_elems_ = 0;

  // The queue of tasks: a heap of indices into tasks_, best (lowest
  // priority cost) on top, operated as std::priority_queue does.
  std::vector<Task> tasks_;
  std::vector<int32_t> free_tasks_;
  std::vector<int32_t> queue_;

  // Scratch.
  std::vector<LabeledElement> labeled_;
  std::vector<SubsetElement> task_subset_;
  std::vector<SubsetElement> closure_subset_;
  std::vector<SubsetElement> closure_;
  std::vector<int32_t> closure_slot_;  // per input state, -1 if not in closure_
  std::vector<int32_t> closure_heap_;
};

}  // namespace nnet3

#endif  // NNET3_LAT_LATTICE_DETERMINIZER_PRUNED_H_
