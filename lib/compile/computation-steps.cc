#include "compile/computation-steps.h"

#include <algorithm>
#include <map>
#include <utility>

#include "base/error.h"
#include "compile/nnet-graph.h"

namespace nnet3 {

namespace {

// Whether each epoch (numbered as in ComputeComputationPhases: 0 for the
// supplied inputs, node_to_epoch + 1 for the rest) is "trivial": no cindex
// in it can depend on another in it, except a component on its own
// component-input node, whose cindexes the steps code never uses directly.
void ComputeEpochIsTrivial(const Nnet &nnet,
                           const std::vector<int32_t> &node_to_epoch,
                           int32_t num_epochs, std::vector<bool> *trivial) {
  DirectedGraph graph;
  NnetToDirectedGraph(nnet, &graph);
  trivial->assign(num_epochs, true);
  for (int32_t a = 0; a < nnet.NumNodes(); a++)
    for (int32_t b : graph[a]) {
      if (node_to_epoch[a] != node_to_epoch[b]) continue;
      if (nnet.IsComponentInputNode(a) && b == a + 1) continue;
      (*trivial)[node_to_epoch[a] + 1] = false;
    }
}

// One list of ints per cindex_id, all in one buffer: list c is
// items[offsets[c], offsets[c + 1]).
struct CindexLists {
  std::vector<int32_t> offsets, items;
  const int32_t *begin(int32_t c) const { return items.data() + offsets[c]; }
  const int32_t *end(int32_t c) const { return items.data() + offsets[c + 1]; }
  bool empty(int32_t c) const { return offsets[c] == offsets[c + 1]; }
};

// The dependencies of each cindex that lie in its own (segment, epoch), and
// their reverse (each list in increasing order of the dependent).
void ComputeSameEpochDependencies(const ComputationGraph &graph,
                                  const std::vector<int32_t> &cindex_epoch,
                                  CindexLists *deps, CindexLists *users) {
  const int32_t num_cindex_ids = static_cast<int32_t>(graph.cindexes.size());
  deps->offsets.assign(num_cindex_ids + 1, 0);
  users->offsets.assign(num_cindex_ids + 1, 0);
  for (int32_t c = 0; c < num_cindex_ids; c++)
    for (int32_t d : graph.dependencies[c])
      if (cindex_epoch[d] == cindex_epoch[c]) {
        deps->offsets[c + 1]++;
        users->offsets[d + 1]++;
      }
  for (int32_t c = 0; c < num_cindex_ids; c++) {
    deps->offsets[c + 1] += deps->offsets[c];
    users->offsets[c + 1] += users->offsets[c];
  }
  deps->items.resize(deps->offsets[num_cindex_ids]);
  users->items.resize(users->offsets[num_cindex_ids]);
  std::vector<int32_t> user_fill(users->offsets.begin(),
                                 users->offsets.end() - 1);
  for (int32_t c = 0, k = 0; c < num_cindex_ids; c++)
    for (int32_t d : graph.dependencies[c])
      if (cindex_epoch[d] == cindex_epoch[c]) {
        deps->items[k++] = d;
        users->items[user_fill[d]++] = c;
      }
}

// Appends the phases of one epoch to *phases. `phase_of` (-1 = not yet)
// is shared across epochs.
void ComputePhasesForEpoch(const std::vector<int32_t> &epoch, bool trivial,
                           const CindexLists &deps_subset,
                           const CindexLists &users_subset,
                           std::vector<int32_t> *phase_of,
                           std::vector<std::vector<int32_t>> *phases) {
  if (epoch.empty()) return;
  if (trivial) {
    phases->push_back(epoch);
    return;
  }
  std::vector<int32_t> this_phase, candidates;
  for (int32_t c : epoch)
    if (deps_subset.empty(c)) this_phase.push_back(c);
  size_t num_done = 0;
  while (!this_phase.empty()) {
    const int32_t phase_index = static_cast<int32_t>(phases->size());
    for (int32_t c : this_phase) (*phase_of)[c] = phase_index;
    num_done += this_phase.size();
    candidates.clear();
    for (int32_t c : this_phase)
      candidates.insert(candidates.end(), users_subset.begin(c),
                        users_subset.end(c));
    phases->push_back(std::move(this_phase));
    this_phase.clear();
    std::sort(candidates.begin(), candidates.end());
    candidates.erase(std::unique(candidates.begin(), candidates.end()),
                     candidates.end());
    for (int32_t c : candidates) {
      if ((*phase_of)[c] >= 0) continue;
      bool ready = true;
      for (const int32_t *d = deps_subset.begin(c); d != deps_subset.end(c);
           ++d)
        if ((*phase_of)[*d] < 0) {
          ready = false;
          break;
        }
      if (ready) this_phase.push_back(c);
    }
  }
  if (num_done != epoch.size())
    NNET3_INTERNAL_ERR << "The computation has a cycle at the cindex level "
                          "(some value would depend on itself)";
}

}  // namespace

void ComputeComputationPhasesPerSegment(
    const Nnet &nnet, const ComputationGraph &graph,
    std::vector<std::vector<std::vector<int32_t>>> *phases_per_segment) {
  std::vector<int32_t> node_to_epoch;
  ComputeNnetComputationEpochs(nnet, &node_to_epoch);
  int32_t num_epochs = 1;
  for (int32_t e : node_to_epoch) num_epochs = std::max(num_epochs, e + 2);
  const int32_t num_cindex_ids = static_cast<int32_t>(graph.cindexes.size());
  std::vector<int32_t> segment_ends = graph.segment_ends;
  if (segment_ends.empty()) segment_ends.push_back(num_cindex_ids);
  NNET3_ASSERT(segment_ends.back() == num_cindex_ids);
  const int32_t num_segments = static_cast<int32_t>(segment_ends.size());
  // (segment, epoch) pairs, numbered in order.
  std::vector<int32_t> cindex_epoch(num_cindex_ids);
  std::vector<std::vector<std::vector<int32_t>>> epochs(
      num_segments, std::vector<std::vector<int32_t>>(num_epochs));
  for (int32_t s = 0, c = 0; s < num_segments; s++) {
    for (; c < segment_ends[s]; c++) {
      int32_t e =
          graph.is_input[c] ? 0 : node_to_epoch[graph.cindexes[c].first] + 1;
      cindex_epoch[c] = e + s * num_epochs;
      epochs[s][e].push_back(c);
    }
  }
  std::vector<bool> trivial;
  ComputeEpochIsTrivial(nnet, node_to_epoch, num_epochs, &trivial);

  // Dependencies inside the same segment and epoch, and their reverse.
  CindexLists deps_subset, users_subset;
  ComputeSameEpochDependencies(graph, cindex_epoch, &deps_subset,
                               &users_subset);
  phases_per_segment->clear();
  phases_per_segment->resize(num_segments);
  std::vector<int32_t> phase_of(num_cindex_ids, -1);
  for (int32_t s = 0; s < num_segments; s++) {
    std::vector<std::vector<int32_t>> *phases = &(*phases_per_segment)[s];
    for (int32_t e = 0; e < num_epochs; e++)
      ComputePhasesForEpoch(epochs[s][e], trivial[e], deps_subset, users_subset,
                            &phase_of, phases);
  }
}

void ComputeComputationPhases(const Nnet &nnet, const ComputationGraph &graph,
                              std::vector<std::vector<int32_t>> *phases) {
  NNET3_ASSERT(graph.segment_ends.size() <= 1);
  std::vector<std::vector<std::vector<int32_t>>> per_segment;
  ComputeComputationPhasesPerSegment(nnet, graph, &per_segment);
  phases->swap(per_segment[0]);
}

namespace {

class ComputationStepsComputer {
 public:
  ComputationStepsComputer(const Nnet &nnet, ComputationGraph *graph,
                           std::vector<std::vector<int32_t>> *steps)
      : nnet_(nnet), graph_(graph), steps_(steps) {
    steps_->clear();
    locations_.assign(graph_->cindexes.size(), -1);
  }

  // The steps of one segment, appended to *steps_.
  void ComputeForSegment(const ComputationRequest &request,
                         const std::vector<std::vector<int32_t>> &phases) {
    AddIoSteps(request.inputs);
    for (const std::vector<int32_t> &phase : phases) {
      std::vector<Cindex> cindexes;
      cindexes.reserve(phase.size());
      for (int32_t c : phase)
        if (!graph_->is_input[c]) cindexes.push_back(graph_->cindexes[c]);
      std::sort(cindexes.begin(), cindexes.end());
      for (size_t begin = 0, end; begin < cindexes.size(); begin = end) {
        for (end = begin + 1; end < cindexes.size() &&
                              cindexes[end].first == cindexes[begin].first;
             end++) {
        }
        ProcessSubPhase(std::vector<Cindex>(cindexes.begin() + begin,
                                            cindexes.begin() + end));
      }
    }
    AddIoSteps(request.outputs);
  }

  // Every cindex is in some step.
  void Check() const {
    for (size_t c = 0; c < graph_->cindexes.size(); c++)
      if (locations_[c] < 0)
        NNET3_INTERNAL_ERR << "Cindex "
                           << CindexToString(graph_->cindexes[c],
                                             nnet_.GetNodeNames())
                           << " was not assigned to any step";
  }

 private:
  int32_t GetId(const Cindex &cindex) const {
    int32_t id = graph_->GetCindexId(cindex);
    NNET3_ASSERT(id != -1);
    return id;
  }
  // Adds `cindex` to the graph if absent (not an input, with `dep` as its
  // only dependency if dep >= 0).
  int32_t GetOrAddId(const Cindex &cindex, int32_t dep) {
    bool is_new;
    int32_t id = graph_->GetCindexId(cindex, false, &is_new);
    if (is_new && dep >= 0) graph_->dependencies[id].push_back(dep);
    return id;
  }
  void AddStep(std::vector<int32_t> ids) {
    const int32_t step = static_cast<int32_t>(steps_->size());
    if (locations_.size() < graph_->cindexes.size())
      locations_.resize(graph_->cindexes.size(), -1);
    for (int32_t id : ids) locations_[id] = step;
    steps_->push_back(std::move(ids));
  }

  void AddIoSteps(const std::vector<IoSpecification> &ios) {
    for (const IoSpecification &io : ios) {
      if (io.indexes.empty()) continue;
      int32_t node = nnet_.GetNodeIndex(io.name);
      std::vector<int32_t> ids;
      ids.reserve(io.indexes.size());
      for (const Index &index : io.indexes)
        ids.push_back(GetId(Cindex(node, index)));
      AddStep(std::move(ids));
    }
  }

  void ProcessSubPhase(const std::vector<Cindex> &sub_phase) {
    const int32_t node = sub_phase[0].first;
    if (nnet_.IsComponentNode(node)) {
      ProcessComponentStep(sub_phase);
    } else if (nnet_.IsDimRangeNode(node)) {
      ProcessDimRangeSubPhase(sub_phase);
    } else if (nnet_.IsComponentInputNode(node) || nnet_.IsOutputNode(node)) {
      // Component inputs come with their component's step; outputs last.
    } else {
      NNET3_INTERNAL_ERR << "Unexpected cindex "
                         << CindexToString(sub_phase[0], nnet_.GetNodeNames())
                         << " in the steps computation (an input node that "
                            "was not supplied?)";
    }
  }

  void ProcessComponentStep(const std::vector<Cindex> &step) {
    const int32_t node = step[0].first, input_node = node - 1;
    const Component *component =
        nnet_.GetComponent(nnet_.GetNode(node).component_index);
    std::vector<int32_t> output_ids, input_ids;
    for (const Cindex &cindex : step) output_ids.push_back(GetId(cindex));
    if (component->Properties() & kSimpleComponent) {
      for (const Cindex &cindex : step)
        input_ids.push_back(GetId(Cindex(input_node, cindex.second)));
      AddStep(std::move(input_ids));
      AddStep(std::move(output_ids));
      return;
    }
    std::vector<Cindex> inputs;
    for (int32_t id : output_ids)
      for (int32_t d : graph_->dependencies[id])
        inputs.push_back(graph_->cindexes[d]);
    std::sort(inputs.begin(), inputs.end());
    inputs.erase(std::unique(inputs.begin(), inputs.end()), inputs.end());
    if (component->Properties() & kReordersIndexes) {
      std::vector<Index> input_indexes, output_indexes;
      for (const Cindex &c : inputs) input_indexes.push_back(c.second);
      for (const Cindex &c : step) output_indexes.push_back(c.second);
      component->ReorderIndexes(&input_indexes, &output_indexes);
      // Blanks (t == kNoTime) may have been added: they enter the graph
      // with no dependencies and give zero rows.
      output_ids.clear();
      for (const Index &index : input_indexes)
        input_ids.push_back(GetOrAddId(Cindex(input_node, index), -1));
      for (const Index &index : output_indexes)
        output_ids.push_back(GetOrAddId(Cindex(node, index), -1));
    } else {
      for (const Cindex &c : inputs) input_ids.push_back(GetId(c));
    }
    AddStep(std::move(input_ids));
    AddStep(std::move(output_ids));
  }

  // Rule (c): one step per source step, with exactly its Indexes.
  void ProcessDimRangeSubPhase(const std::vector<Cindex> &sub_phase) {
    const int32_t node = sub_phase[0].first;
    const int32_t source_node = nnet_.GetNode(node).node_index;
    for (const Cindex &cindex : sub_phase) {
      if (locations_[GetId(cindex)] >= 0) continue;  // already covered
      int32_t source_step =
          locations_[GetId(Cindex(source_node, cindex.second))];
      NNET3_ASSERT(source_step >= 0);
      std::vector<int32_t> ids;
      // Copy: AddStep below may reallocate steps_.
      std::vector<int32_t> source_ids = (*steps_)[source_step];
      for (int32_t source_id : source_ids)
        ids.push_back(GetOrAddId(
            Cindex(node, graph_->cindexes[source_id].second), source_id));
      AddStep(std::move(ids));
    }
  }

  const Nnet &nnet_;
  ComputationGraph *graph_;
  std::vector<std::vector<int32_t>> *steps_;
  std::vector<int32_t> locations_;  // cindex_id -> step (last one)
};

}  // namespace

void ComputeComputationSteps(const Nnet &nnet,
                             const ComputationRequest &request,
                             const std::vector<std::vector<int32_t>> &phases,
                             ComputationGraph *graph,
                             std::vector<std::vector<int32_t>> *steps) {
  ComputationStepsComputer computer(nnet, graph, steps);
  computer.ComputeForSegment(request, phases);
  computer.Check();
}

void ComputeComputationSteps(
    const Nnet &nnet, const std::vector<const ComputationRequest *> &requests,
    const std::vector<std::vector<std::vector<int32_t>>> &phases_per_segment,
    ComputationGraph *graph, std::vector<std::vector<int32_t>> *steps,
    std::vector<int32_t> *step_to_segment) {
  NNET3_ASSERT(requests.size() == phases_per_segment.size());
  ComputationStepsComputer computer(nnet, graph, steps);
  step_to_segment->clear();
  for (size_t s = 0; s < requests.size(); s++) {
    computer.ComputeForSegment(*requests[s], phases_per_segment[s]);
    step_to_segment->resize(steps->size(), static_cast<int32_t>(s));
  }
  computer.Check();
}

}  // namespace nnet3
