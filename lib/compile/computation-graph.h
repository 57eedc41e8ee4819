// The computation graph: the Cindexes (node, Index) a computation involves,
// numbered as cindex_ids, with the cindex_ids each one depends on; and
// ComputationGraphBuilder, which builds it from a network and a request
// (seed nnet3-compilation, "Creating the computation graph").
//
//   ComputationGraph graph;
//   ComputationGraphBuilder builder(nnet, request, &graph);
//   builder.Compute();                       // follow dependencies back
//   if (!builder.AllOutputsAreComputable())
//     NNET3_ERR << builder.ExplainNotComputable();
//   builder.Prune();                         // keep only what is used
//
// Multi-segment graphs (for looped computations, optimize/compile-looped.h):
// construct without a request, then Compute(request_k) and Prune() for each
// segment k in turn. Later segments reuse the cindexes of earlier ones
// (which stay computable), so a recurrence in segment k reads the state
// that segment k-1 computed; graph.segment_ends records where each
// segment's cindex_ids end.
//
// Compute() starts from the requested outputs and works back, breadth first,
// through Descriptor::GetDependencies / Component::GetInputIndexes, deciding
// for each cindex whether it is computable from the supplied inputs. A
// cindex that no usable cindex needs any more ("usable_count" 0) is marked
// kWillNotCompute and its dependencies are not followed, which is what makes
// recurrent networks (IfDefined(Offset(x, -1)) walking t towards -infinity)
// terminate. After Prune() the graph holds only cindexes needed for the
// outputs, plus all supplied inputs, all computable, and each cindex's
// dependencies are exactly the cindexes its value is computed from (the
// used inputs of Descriptor::IsComputable / Component::IsComputable).
#ifndef NNET3_COMPILE_COMPUTATION_GRAPH_H_
#define NNET3_COMPILE_COMPUTATION_GRAPH_H_

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "compile/cindex-map.h"
#include "compile/computation-request.h"
#include "nnet/descriptor.h"
#include "nnet/nnet.h"

namespace nnet3 {

struct ComputationGraph {
  // cindex_id -> Cindex.
  std::vector<Cindex> cindexes;
  // Whether the cindex was supplied as an input of the request (which may
  // be a kComponent node, e.g. a recurrent state carried over).
  std::vector<bool> is_input;
  // dependencies[c]: the cindex_ids c is computed from (sorted, unique).
  std::vector<std::vector<int32_t>> dependencies;
  // One past the last cindex_id of each segment, after each Prune() (one
  // entry for an ordinary computation). Cindexes added after the last
  // Prune() (by the steps code) belong to no segment's range.
  std::vector<int32_t> segment_ends;

  // The cindex_id of `cindex`, adding it (with `is_input` and no
  // dependencies) if absent; *is_new says whether it was added.
  int32_t GetCindexId(const Cindex &cindex, bool is_input, bool *is_new);
  // The cindex_id of `cindex`, or -1 if it is not in the graph.
  int32_t GetCindexId(const Cindex &cindex) const;
  // Keeps the cindex_ids with keep[c] true, renumbering them in order;
  // dependencies on removed cindexes must not exist (InternalError).
  void Renumber(const std::vector<bool> &keep);
  // One line per cindex: "name(n, t[, x]) [input] -> [ deps ]".
  void Print(std::ostream &os,
             const std::vector<std::string> &node_names) const;

 private:
  CindexMap cindex_to_cindex_id_;
};

// CindexSet (nnet/descriptor.h) over a pruned graph: every cindex in the
// graph counts as computable.
class GraphCindexSet : public CindexSet {
 public:
  explicit GraphCindexSet(const ComputationGraph &graph) : graph_(graph) {}
  bool operator()(const Cindex &cindex) const override {
    return graph_.GetCindexId(cindex) != -1;
  }

 private:
  const ComputationGraph &graph_;
};

class ComputationGraphBuilder {
 public:
  enum ComputableInfo : char {
    kUnknown = 0,  // not decided yet
    kComputable = 1,
    kNotComputable = 2,
    kWillNotCompute = 3,  // not usable, so never decided; as kNotComputable
  };

  // `graph` should be empty; nnet, request and graph must outlive this.
  ComputationGraphBuilder(const Nnet &nnet, const ComputationRequest &request,
                          ComputationGraph *graph);
  // For multi-segment graphs: give each segment's request to Compute().
  ComputationGraphBuilder(const Nnet &nnet, ComputationGraph *graph);

  // Populates the graph and decides what is computable (no pruning).
  // UserError for a request that names unknown nodes, an input that is not
  // an input or component node, an output that is not an output node, an
  // Index listed twice (or already given by an earlier segment), or no
  // outputs at all.
  void Compute();
  // Adds the next segment (the request must outlive this builder); after
  // the first segment, only after Prune().
  void Compute(const ComputationRequest &request);
  // After Compute(), before Prune(): whether every requested output is
  // computable.
  bool AllOutputsAreComputable() const;
  // After Compute(), before Prune(): computable[i][j] says whether Index j
  // of request.outputs[i] is computable.
  void GetComputableInfo(std::vector<std::vector<bool>> *computable) const;
  // After Compute(), when some output is not computable: one or two
  // sentences (one line) saying which output frames cannot be computed,
  // which input frames they need that the request does not supply, and
  // what to supply. If `dump` is non-null the cindexes followed, with their
  // status and dependencies, are written to it (for NNET3_VLOG(2)).
  std::string ExplainNotComputable(std::ostream *dump = nullptr) const;
  // Removes what the outputs do not need (inputs are kept) and prunes each
  // dependency list to the inputs actually used, for the current segment
  // (earlier segments are kept as they are). Needs all outputs computable
  // (InternalError otherwise). Appends to graph.segment_ends.
  void Prune();

  // The status of a cindex_id (before Prune()).
  ComputableInfo GetCindexComputableInfo(int32_t cindex_id) const {
    return static_cast<ComputableInfo>(computable_info_.at(cindex_id));
  }

 private:
  void AddInputs();
  void AddOutputs();
  void AddCindexId(int32_t cindex_id, bool is_input, bool is_output);
  void AddDependencies(int32_t cindex_id);
  // Gets the Cindexes cindex_id may depend on (before lookup in the graph).
  void GetInputCindexes(int32_t cindex_id, std::vector<Cindex> *inputs) const;
  void BuildGraphOneIter();
  ComputableInfo ComputeComputableInfo(int32_t cindex_id) const;
  // Evaluates Descriptor/Component IsComputable for cindex_id with
  // `is_available` deciding which cindexes count as computable; appends the
  // used inputs to *used if non-null. Not for kInput / kDimRange nodes.
  bool EvaluateNode(int32_t cindex_id,
                    const std::function<bool(int32_t)> &is_available,
                    std::vector<Cindex> *used) const;
  void UpdateComputableInfo(int32_t cindex_id);
  void UpdateAllComputableInfo();
  void SetAsWillNotCompute(int32_t cindex_id);
  void QueueDependents(int32_t cindex_id);
  // Records that `dependent` depends on `cindex_id`.
  void AddDependent(int32_t cindex_id, int32_t dependent);
  // Adds `delta` (+1 / -1) to usable_count_, propagating to dependencies
  // when the count leaves / reaches zero (iteratively, no recursion).
  void ChangeUsableCount(int32_t cindex_id, int32_t delta);
  // Marks cindexes left kUnknown (only possible in a cycle at the cindex
  // level) as not computable and re-evaluates what depends on them.
  void ResolveCycles();
  void PruneDependencies(int32_t cindex_id);
  void ComputeRequiredArray(std::vector<bool> *required) const;
  // For ExplainNotComputable: the not-computable dependencies of a
  // not-computable cindex that explain why it is not computable.
  void GetBlockingDependencies(int32_t cindex_id,
                               std::vector<int32_t> *blocking) const;
  // For ExplainNotComputable: "output 'o' at t=... (of t=... requested)" for
  // each output with cindexes that are not computable; appends those
  // cindex_ids to *failing_cindex_ids.
  std::vector<std::string> FailingOutputs(
      std::vector<int32_t> *failing_cindex_ids) const;
  // Follows the blocking dependencies from `start` down to input nodes and
  // collects the input frames that are missing (input node -> t's); one
  // line per cindex followed goes to `dump` if it is not null.
  void TraceToMissingInputs(
      const std::vector<int32_t> &start, std::ostream *dump,
      std::map<int32_t, std::set<int32_t>> *missing) const;
  // One line for the dump: the cindex, its dependencies with their status,
  // and the blocking ones.
  void DumpNotComputable(int32_t cindex_id,
                         const std::vector<int32_t> &blocking,
                         std::ostream *dump) const;

  const Nnet &nnet_;
  const ComputationRequest *request_ = nullptr;  // the current segment's
  ComputationGraph *graph_;
  int32_t segment_start_ = 0;  // first cindex_id of the current segment
  std::vector<int32_t> output_cindex_ids_;
  // Reverse of graph_->dependencies (before pruning), as one linked list
  // per cindex_id in a shared pool (not one vector each): the list of c
  // runs from dependents_head_[c] through DependentEntry::next (-1 ends
  // it), in the order the dependents were added.
  struct DependentEntry {
    int32_t cindex_id;
    int32_t next;
  };
  std::vector<DependentEntry> dependents_pool_;
  std::vector<int32_t> dependents_head_, dependents_tail_;
  std::vector<char> computable_info_;
  std::vector<bool> computable_queued_;
  // How many usable, not-kNotComputable cindexes depend on this one (+1 for
  // a requested output).
  std::vector<int32_t> usable_count_;
  std::vector<int32_t> current_queue_, next_queue_;
  std::deque<int32_t> computable_queue_;
  // Scratch space reused across calls (a cold compile of a training request
  // made some 30k short-lived allocations in these before).
  std::vector<Cindex> inputs_scratch_;                 // AddDependencies
  mutable std::vector<Index> input_indexes_scratch_;   // GetInputCindexes
  std::vector<int32_t> usable_stack_;                  // ChangeUsableCount
  std::vector<Cindex> used_scratch_;                   // PruneDependencies
  std::vector<int32_t> used_ids_scratch_;              // PruneDependencies
  mutable std::vector<Cindex> used_cindexes_scratch_;  // EvaluateNode
  mutable std::vector<Index> used_indexes_scratch_;    // EvaluateNode
  bool had_cycle_ = false;
  bool computed_ = false, pruned_ = false;
};

}  // namespace nnet3

#endif  // NNET3_COMPILE_COMPUTATION_GRAPH_H_
