#include "compile/computation-graph.h"

#include <algorithm>
#include <utility>

#include "base/error.h"
#include "base/log.h"

namespace nnet3 {

namespace {

void SortAndUniq(std::vector<int32_t> *v) {
  std::sort(v->begin(), v->end());
  v->erase(std::unique(v->begin(), v->end()), v->end());
}

using Pred = std::function<bool(int32_t)>;

// CindexSet / IndexSet views of the graph where a predicate on cindex_ids
// decides what counts as computable; cindexes not in the graph never do.
class PredicateCindexSet : public CindexSet {
 public:
  PredicateCindexSet(const ComputationGraph &graph, const Pred &pred)
      : graph_(graph), pred_(pred) {}
  bool operator()(const Cindex &cindex) const override {
    int32_t id = graph_.GetCindexId(cindex);
    return id != -1 && pred_(id);
  }

 private:
  const ComputationGraph &graph_;
  const Pred &pred_;
};

class PredicateIndexSet : public IndexSet {
 public:
  PredicateIndexSet(const ComputationGraph &graph, int32_t node,
                    const Pred &pred)
      : graph_(graph), node_(node), pred_(pred) {}
  bool operator()(const Index &index) const override {
    int32_t id = graph_.GetCindexId(Cindex(node_, index));
    return id != -1 && pred_(id);
  }

 private:
  const ComputationGraph &graph_;
  int32_t node_;
  const Pred &pred_;
};

}  // namespace

// ---------------------------------------------------------------------------
// ComputationGraph

int32_t ComputationGraph::GetCindexId(const Cindex &cindex, bool input,
                                      bool *is_new) {
  const int32_t new_id = static_cast<int32_t>(cindexes.size());
  const int32_t id = cindex_to_cindex_id_.Insert(cindex, new_id, is_new);
  if (!*is_new) return id;
  cindexes.push_back(cindex);
  is_input.push_back(input);
  dependencies.emplace_back();
  return new_id;
}

int32_t ComputationGraph::GetCindexId(const Cindex &cindex) const {
  return cindex_to_cindex_id_.Find(cindex);
}

void ComputationGraph::Renumber(const std::vector<bool> &keep) {
  const int32_t old_num = static_cast<int32_t>(cindexes.size());
  NNET3_ASSERT(static_cast<int32_t>(keep.size()) == old_num);
  std::vector<int32_t> old2new(old_num, -1);
  int32_t new_num = 0;
  for (int32_t c = 0; c < old_num; c++)
    if (keep[c]) old2new[c] = new_num++;
  // In place: old2new[c] <= c, so each kept entry moves down to a slot
  // already vacated, and the dependency lists keep their memory.
  for (int32_t c = 0; c < old_num; c++) {
    int32_t n = old2new[c];
    if (n < 0) continue;
    std::vector<int32_t> &deps = dependencies[c];
    for (int32_t &d : deps) {
      NNET3_ASSERT(old2new[d] >= 0);
      d = old2new[d];
    }
    if (n == c) continue;
    cindexes[n] = cindexes[c];
    is_input[n] = is_input[c];
    dependencies[n].swap(deps);
  }
  cindexes.resize(new_num);
  is_input.resize(new_num);
  dependencies.resize(new_num);
  cindex_to_cindex_id_.Clear();
  bool is_new;
  for (int32_t c = 0; c < new_num; c++)
    cindex_to_cindex_id_.Insert(cindexes[c], c, &is_new);
}

void ComputationGraph::Print(std::ostream &os,
                             const std::vector<std::string> &node_names) const {
  std::vector<int32_t> order(cindexes.size());
  for (size_t i = 0; i < order.size(); i++) order[i] = static_cast<int32_t>(i);
  std::sort(order.begin(), order.end(),
            [this](int32_t a, int32_t b) { return cindexes[a] < cindexes[b]; });
  for (int32_t c : order) {
    os << CindexToString(cindexes[c], node_names);
    if (is_input[c]) os << " [input]";
    os << " -> [";
    for (int32_t d : dependencies[c])
      os << ' ' << CindexToString(cindexes[d], node_names);
    os << " ]\n";
  }
}

// ---------------------------------------------------------------------------
// ComputationGraphBuilder: building

ComputationGraphBuilder::ComputationGraphBuilder(
    const Nnet &nnet, const ComputationRequest &request,
    ComputationGraph *graph)
    : nnet_(nnet), request_(&request), graph_(graph) {
  NNET3_ASSERT(graph_ != nullptr && graph_->cindexes.empty());
}

ComputationGraphBuilder::ComputationGraphBuilder(const Nnet &nnet,
                                                 ComputationGraph *graph)
    : nnet_(nnet), graph_(graph) {
  NNET3_ASSERT(graph_ != nullptr && graph_->cindexes.empty());
}

void ComputationGraphBuilder::AddCindexId(int32_t cindex_id, bool is_input,
                                          bool is_output) {
  NNET3_ASSERT(cindex_id == static_cast<int32_t>(computable_info_.size()));
  computable_info_.push_back(is_input ? kComputable : kUnknown);
  computable_queued_.push_back(false);
  dependents_head_.push_back(-1);
  dependents_tail_.push_back(-1);
  usable_count_.push_back(is_output ? 1 : 0);
  if (!is_input) next_queue_.push_back(cindex_id);
}

void ComputationGraphBuilder::AddInputs() {
  for (const IoSpecification &input : request_->inputs) {
    int32_t n = nnet_.GetNodeIndex(input.name);
    if (n == -1)
      NNET3_ERR << "The computation request supplies input '" << input.name
                << "', but the network has no node called '" << input.name
                << "'";
    NodeType type = nnet_.GetNode(n).node_type;
    if (type != kInput && type != kComponent)
      NNET3_ERR << "The computation request supplies '" << input.name
                << "' as an input, but it is neither an input node nor a "
                   "component node";
    for (const Index &index : input.indexes) {
      bool is_new;
      int32_t id = graph_->GetCindexId(Cindex(n, index), true, &is_new);
      if (!is_new)
        NNET3_ERR << "The computation request lists "
                  << CindexToString(Cindex(n, index), nnet_.GetNodeNames())
                  << " twice among its inputs (or under two inputs with the "
                     "same name, or an earlier segment already has it)";
      AddCindexId(id, true, false);
    }
  }
}

void ComputationGraphBuilder::AddOutputs() {
  size_t num_added = 0;
  for (const IoSpecification &output : request_->outputs) {
    int32_t n = nnet_.GetNodeIndex(output.name);
    if (n == -1)
      NNET3_ERR << "The computation request asks for output '" << output.name
                << "', but the network has no node called '" << output.name
                << "'";
    if (!nnet_.IsOutputNode(n))
      NNET3_ERR << "The computation request asks for '" << output.name
                << "' as an output, but it is not an output node";
    for (const Index &index : output.indexes) {
      bool is_new;
      int32_t id = graph_->GetCindexId(Cindex(n, index), false, &is_new);
      if (!is_new)
        NNET3_ERR << "The computation request lists "
                  << CindexToString(Cindex(n, index), nnet_.GetNodeNames())
                  << " twice among its outputs";
      AddCindexId(id, false, true);
      output_cindex_ids_.push_back(id);
      num_added++;
    }
  }
  if (num_added == 0)
    NNET3_ERR << "The computation request asks for no output Indexes; "
                 "there is nothing to compute";
  NNET3_ASSERT(current_queue_.empty());
  current_queue_.swap(next_queue_);
}

void ComputationGraphBuilder::GetInputCindexes(
    int32_t cindex_id, std::vector<Cindex> *inputs) const {
  inputs->clear();
  const Cindex cindex = graph_->cindexes[cindex_id];
  const int32_t node_index = cindex.first;
  const NetworkNode &node = nnet_.GetNode(node_index);
  switch (node.node_type) {
    case kDescriptor:
      node.descriptor.GetDependencies(cindex.second, inputs);
      break;
    case kComponent: {
      const Component *c = nnet_.GetComponent(node.component_index);
      std::vector<Index> &input_indexes = input_indexes_scratch_;
      input_indexes.clear();
      c->GetInputIndexes(request_->misc_info, cindex.second, &input_indexes);
      for (const Index &index : input_indexes)
        inputs->emplace_back(node_index - 1, index);
      break;
    }
    case kDimRange:
      inputs->emplace_back(node.node_index, cindex.second);
      break;
    default:
      break;  // kInput: no dependencies.
  }
}

void ComputationGraphBuilder::AddDependencies(int32_t cindex_id) {
  std::vector<Cindex> &inputs = inputs_scratch_;
  GetInputCindexes(cindex_id, &inputs);
  std::vector<int32_t> deps;
  deps.reserve(inputs.size());
  for (const Cindex &input : inputs) {
    bool is_new;
    int32_t dep = graph_->GetCindexId(input, false, &is_new);
    if (is_new) AddCindexId(dep, false, false);
    deps.push_back(dep);
  }
  SortAndUniq(&deps);
  // This cindex is kUnknown with usable_count_ > 0, so it counts towards
  // the usable_count_ of each thing it depends on.
  for (int32_t dep : deps) {
    AddDependent(dep, cindex_id);
    ChangeUsableCount(dep, +1);
  }
  graph_->dependencies[cindex_id].swap(deps);
  NNET3_ASSERT(!computable_queued_[cindex_id]);
  computable_queue_.push_back(cindex_id);
  computable_queued_[cindex_id] = true;
}

void ComputationGraphBuilder::BuildGraphOneIter() {
  while (!current_queue_.empty()) {
    int32_t cindex_id = current_queue_.back();
    current_queue_.pop_back();
    NNET3_ASSERT(computable_info_[cindex_id] == kUnknown);
    if (usable_count_[cindex_id] == 0)
      SetAsWillNotCompute(cindex_id);
    else
      AddDependencies(cindex_id);
  }
  current_queue_.swap(next_queue_);
}

bool ComputationGraphBuilder::EvaluateNode(int32_t cindex_id,
                                           const Pred &is_available,
                                           std::vector<Cindex> *used) const {
  const Cindex &cindex = graph_->cindexes[cindex_id];
  const NetworkNode &node = nnet_.GetNode(cindex.first);
  if (node.node_type == kDescriptor) {
    PredicateCindexSet set(*graph_, is_available);
    std::vector<Cindex> &this_used = used_cindexes_scratch_;
    this_used.clear();
    bool ans = node.descriptor.IsComputable(cindex.second, set,
                                            used ? &this_used : nullptr);
    if (used) used->insert(used->end(), this_used.begin(), this_used.end());
    return ans;
  }
  NNET3_ASSERT(node.node_type == kComponent);
  const Component *c = nnet_.GetComponent(node.component_index);
  PredicateIndexSet set(*graph_, cindex.first - 1, is_available);
  std::vector<Index> &used_indexes = used_indexes_scratch_;
  used_indexes.clear();
  bool ans = c->IsComputable(request_->misc_info, cindex.second, set,
                             used ? &used_indexes : nullptr);
  if (ans && used)
    for (const Index &index : used_indexes)
      used->emplace_back(cindex.first - 1, index);
  return ans;
}

ComputationGraphBuilder::ComputableInfo
ComputationGraphBuilder::ComputeComputableInfo(int32_t cindex_id) const {
  const NetworkNode &node = nnet_.GetNode(graph_->cindexes[cindex_id].first);
  switch (node.node_type) {
    case kDescriptor:
    case kComponent: {
      auto computable = [this](int32_t id) {
        return computable_info_[id] == kComputable;
      };
      if (EvaluateNode(cindex_id, computable, nullptr)) return kComputable;
      auto maybe = [this](int32_t id) {
        return computable_info_[id] == kComputable ||
               computable_info_[id] == kUnknown;
      };
      if (!EvaluateNode(cindex_id, maybe, nullptr)) return kNotComputable;
      return kUnknown;
    }
    case kDimRange: {
      const std::vector<int32_t> &deps = graph_->dependencies[cindex_id];
      NNET3_ASSERT(deps.size() == 1);
      char info = computable_info_[deps[0]];
      return info == kWillNotCompute ? kNotComputable
                                     : static_cast<ComputableInfo>(info);
    }
    default:
      // Supplied inputs start as kComputable and are never evaluated; any
      // other cindex of an input node is not available.
      return kNotComputable;
  }
}

void ComputationGraphBuilder::AddDependent(int32_t cindex_id,
                                           int32_t dependent) {
  const int32_t entry = static_cast<int32_t>(dependents_pool_.size());
  dependents_pool_.push_back(DependentEntry{dependent, -1});
  int32_t &tail = dependents_tail_[cindex_id];
  if (tail < 0)
    dependents_head_[cindex_id] = entry;
  else
    dependents_pool_[tail].next = entry;
  tail = entry;
}

void ComputationGraphBuilder::QueueDependents(int32_t cindex_id) {
  for (int32_t e = dependents_head_[cindex_id]; e >= 0;
       e = dependents_pool_[e].next) {
    const int32_t other = dependents_pool_[e].cindex_id;
    if (computable_info_[other] == kUnknown && !computable_queued_[other]) {
      computable_queue_.push_back(other);
      computable_queued_[other] = true;
    }
  }
}

void ComputationGraphBuilder::UpdateComputableInfo(int32_t cindex_id) {
  char &info = computable_info_[cindex_id];
  NNET3_ASSERT(info == kUnknown);
  info = static_cast<char>(ComputeComputableInfo(cindex_id));
  if (info == kUnknown) return;
  QueueDependents(cindex_id);
  // A kNotComputable cindex no longer counts towards the usable_count_ of
  // what it depends on.
  if (info == kNotComputable && usable_count_[cindex_id] != 0)
    for (int32_t dep : graph_->dependencies[cindex_id])
      ChangeUsableCount(dep, -1);
}

void ComputationGraphBuilder::UpdateAllComputableInfo() {
  while (!computable_queue_.empty()) {
    int32_t cindex_id = computable_queue_.front();
    computable_queue_.pop_front();
    computable_queued_[cindex_id] = false;
    UpdateComputableInfo(cindex_id);
  }
}

void ComputationGraphBuilder::SetAsWillNotCompute(int32_t cindex_id) {
  NNET3_ASSERT(usable_count_[cindex_id] == 0);
  computable_info_[cindex_id] = kWillNotCompute;
  QueueDependents(cindex_id);
}

void ComputationGraphBuilder::ChangeUsableCount(int32_t cindex_id,
                                                int32_t delta) {
  std::vector<int32_t> &stack = usable_stack_;
  stack.assign(1, cindex_id);
  while (!stack.empty()) {
    int32_t c = stack.back();
    stack.pop_back();
    int32_t before = usable_count_[c];
    usable_count_[c] += delta;
    NNET3_ASSERT(usable_count_[c] >= 0);
    bool crossed = (delta > 0) ? (before == 0) : (usable_count_[c] == 0);
    if (crossed && computable_info_[c] != kNotComputable)
      for (int32_t d : graph_->dependencies[c]) stack.push_back(d);
  }
}

void ComputationGraphBuilder::ResolveCycles() {
  while (true) {
    std::vector<int32_t> unknown;
    for (size_t c = segment_start_; c < computable_info_.size(); c++)
      if (computable_info_[c] == kUnknown)
        unknown.push_back(static_cast<int32_t>(c));
    if (unknown.empty()) return;
    had_cycle_ = true;
    NNET3_VLOG(2) << unknown.size()
                  << " cindexes depend on themselves (a cycle at the cindex "
                     "level); treating them as not computable";
    for (int32_t c : unknown) {
      computable_info_[c] = kNotComputable;
      if (usable_count_[c] != 0)
        for (int32_t dep : graph_->dependencies[c]) ChangeUsableCount(dep, -1);
    }
    for (int32_t c : unknown) QueueDependents(c);
    UpdateAllComputableInfo();
  }
}

void ComputationGraphBuilder::Compute() {
  NNET3_ASSERT(request_ != nullptr && graph_->segment_ends.empty());
  Compute(*request_);
}

void ComputationGraphBuilder::Compute(const ComputationRequest &request) {
  NNET3_ASSERT((!computed_ || pruned_) &&
               "Compute() again only after Prune() (one call per segment)");
  computed_ = true;
  pruned_ = false;
  request_ = &request;
  segment_start_ = static_cast<int32_t>(graph_->cindexes.size());
  output_cindex_ids_.clear();
  had_cycle_ = false;
  AddInputs();
  AddOutputs();
  while (!current_queue_.empty()) {
    BuildGraphOneIter();
    UpdateAllComputableInfo();
  }
  ResolveCycles();
}

bool ComputationGraphBuilder::AllOutputsAreComputable() const {
  NNET3_ASSERT(computed_ && !pruned_);
  for (int32_t id : output_cindex_ids_)
    if (computable_info_[id] != kComputable) return false;
  return true;
}

void ComputationGraphBuilder::GetComputableInfo(
    std::vector<std::vector<bool>> *computable) const {
  NNET3_ASSERT(computed_ && !pruned_);
  computable->clear();
  computable->resize(request_->outputs.size());
  size_t k = 0;
  for (size_t i = 0; i < request_->outputs.size(); i++) {
    size_t size = request_->outputs[i].indexes.size();
    (*computable)[i].resize(size);
    for (size_t j = 0; j < size; j++, k++)
      (*computable)[i][j] =
          (computable_info_[output_cindex_ids_[k]] == kComputable);
  }
}

// ---------------------------------------------------------------------------
// ComputationGraphBuilder: pruning

void ComputationGraphBuilder::PruneDependencies(int32_t cindex_id) {
  std::vector<int32_t> &deps = graph_->dependencies[cindex_id];
  char info = computable_info_[cindex_id];
  NNET3_ASSERT(info != kUnknown);
  if (info != kComputable || graph_->is_input[cindex_id]) {
    deps.clear();
    return;
  }
  NodeType type = nnet_.GetNode(graph_->cindexes[cindex_id].first).node_type;
  if (type == kDimRange || type == kInput) return;
  auto computable = [this](int32_t id) {
    return computable_info_[id] == kComputable;
  };
  std::vector<Cindex> &used = used_scratch_;
  used.clear();
  bool ans = EvaluateNode(cindex_id, computable, &used);
  // Computable with kUnknown counted as not computable, so it must still be.
  NNET3_ASSERT(ans);
  std::vector<int32_t> &used_ids = used_ids_scratch_;
  used_ids.clear();
  std::sort(deps.begin(), deps.end());
  for (const Cindex &c : used) {
    int32_t id = graph_->GetCindexId(c);
    NNET3_ASSERT(id != -1 && std::binary_search(deps.begin(), deps.end(), id));
    used_ids.push_back(id);
  }
  SortAndUniq(&used_ids);
  // A subset of deps: fits in its memory.
  deps.assign(used_ids.begin(), used_ids.end());
}

void ComputationGraphBuilder::ComputeRequiredArray(
    std::vector<bool> *required) const {
  required->assign(graph_->cindexes.size(), false);
  std::vector<int32_t> queue;
  for (int32_t id : output_cindex_ids_) {
    (*required)[id] = true;
    queue.push_back(id);
  }
  while (!queue.empty()) {
    int32_t c = queue.back();
    queue.pop_back();
    for (int32_t d : graph_->dependencies[c]) {
      if (d < segment_start_) continue;  // earlier segments are kept
      if (!(*required)[d]) {
        (*required)[d] = true;
        queue.push_back(d);
      }
    }
  }
}

void ComputationGraphBuilder::Prune() {
  NNET3_ASSERT(computed_ && !pruned_);
  const int32_t num_cindex_ids = static_cast<int32_t>(graph_->cindexes.size());
  for (int32_t c = segment_start_; c < num_cindex_ids; c++)
    PruneDependencies(c);
  std::vector<bool> required;
  ComputeRequiredArray(&required);
  std::vector<bool> keep(num_cindex_ids, false);
  for (int32_t c = 0; c < segment_start_; c++) keep[c] = true;
  for (int32_t c = segment_start_; c < num_cindex_ids; c++) {
    if (required[c] || graph_->is_input[c]) {
      if (computable_info_[c] != kComputable)
        NNET3_INTERNAL_ERR << "Prune() called when a needed cindex ("
                           << CindexToString(graph_->cindexes[c],
                                             nnet_.GetNodeNames())
                           << ") is not computable";
      keep[c] = true;
    }
  }
  graph_->Renumber(keep);
  std::vector<int32_t> old2new(num_cindex_ids, -1);
  for (int32_t c = 0, n = 0; c < num_cindex_ids; c++)
    if (keep[c]) old2new[c] = n++;
  for (int32_t &id : output_cindex_ids_) id = old2new[id];
  const size_t new_num = graph_->cindexes.size();
  computable_info_.assign(new_num, kComputable);
  usable_count_.assign(new_num, 1);
  computable_queued_.assign(new_num, false);
  // Later segments may add dependents of these cindexes.
  dependents_pool_.clear();
  dependents_head_.assign(new_num, -1);
  dependents_tail_.assign(new_num, -1);
  graph_->segment_ends.push_back(static_cast<int32_t>(new_num));
  pruned_ = true;
}

}  // namespace nnet3
