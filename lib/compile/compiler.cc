// Compiler: from the request to steps with their matrices (the commands
// are made in compiler-commands.cc).
#include "compile/compiler.h"

#include <algorithm>
#include <sstream>

#include "base/error.h"
#include "base/log.h"
#include "compile/computation-steps.h"
#include "compile/descriptor-terms.h"

namespace nnet3 {

namespace {

std::vector<ComputationRequest> CopyRequests(
    const std::vector<const ComputationRequest *> &requests) {
  NNET3_ASSERT(!requests.empty());
  std::vector<ComputationRequest> copies;
  for (const ComputationRequest *r : requests) {
    if (requests.size() > 1)
      NNET3_ASSERT(!r->need_model_derivative &&
                   r->store_component_stats ==
                       requests[0]->store_component_stats &&
                   "multi-segment computations cannot train");
    copies.push_back(*r);
  }
  return copies;
}

}  // namespace

Compiler::Compiler(const ComputationRequest &request, const Nnet &nnet)
    : requests_(1, request), nnet_(nnet) {}

Compiler::Compiler(const std::vector<const ComputationRequest *> &requests,
                   const Nnet &nnet)
    : requests_(CopyRequests(requests)), nnet_(nnet) {}

void Compiler::CreateComputation(const CompilerOptions &opts,
                                 NnetComputation *computation) {
  NNET3_ASSERT(graph_.cindexes.empty() &&
               "CreateComputation() may be called once");
  *computation = NnetComputation();
  ComputationGraphBuilder builder(nnet_, &graph_);
  for (const ComputationRequest &request : requests_) {
    builder.Compute(request);
    if (!builder.AllOutputsAreComputable()) {
      if (VerboseLevel() >= 2) {
        std::ostringstream dump;
        builder.ExplainNotComputable(&dump);
        NNET3_VLOG(2) << "Cindexes that are not computable, with their "
                         "dependencies ([status] 1 computable, 2 not, 3 not "
                         "used):\n"
                      << dump.str();
      }
      NNET3_ERR << builder.ExplainNotComputable();
    }
    builder.Prune();
  }

  std::vector<std::vector<std::vector<int32_t>>> phases_per_segment;
  std::vector<std::vector<int32_t>> steps;
  ComputeComputationPhasesPerSegment(nnet_, graph_, &phases_per_segment);
  std::vector<const ComputationRequest *> request_ptrs;
  for (const ComputationRequest &request : requests_)
    request_ptrs.push_back(&request);
  std::vector<int32_t> step_to_segment;
  ComputeComputationSteps(nnet_, request_ptrs, phases_per_segment, &graph_,
                          &steps, &step_to_segment);
  phases_per_segment.clear();
  CreateLocationInfo(steps);
  steps_.resize(steps.size());
  for (size_t step = 0; step < steps.size(); step++)
    steps_[step].segment = step_to_segment[step];
  std::vector<bool> deriv_needed;
  ComputeDerivNeeded(steps, &deriv_needed);
  CreateStepInfo(deriv_needed, &steps, computation);
  AddCommands(deriv_needed, computation);
  if (opts.output_debug_info) OutputDebugInfo(computation);
}

void Compiler::CreateLocationInfo(
    const std::vector<std::vector<int32_t>> &steps) {
  cindex_id_to_location_.assign(graph_.cindexes.size(), Location(-1, -1));
  for (size_t s = 0; s < steps.size(); s++)
    for (size_t r = 0; r < steps[s].size(); r++)
      cindex_id_to_location_[steps[s][r]] =
          Location(static_cast<int32_t>(s), static_cast<int32_t>(r));
}

void Compiler::ComputeStepDependencies(const std::vector<int32_t> &this_step,
                                       int32_t step_index,
                                       std::vector<int32_t> *dep_steps) const {
  dep_steps->clear();
  if (this_step.empty() || graph_.is_input[this_step[0]]) return;
  if (nnet_.IsComponentNode(graph_.cindexes[this_step[0]].first)) {
    // A component step reads only its component-input step, just before.
    dep_steps->push_back(step_index - 1);
    return;
  }
  for (int32_t cindex_id : this_step)
    for (int32_t dep : graph_.dependencies[cindex_id])
      dep_steps->push_back(cindex_id_to_location_[dep].first);
  std::sort(dep_steps->begin(), dep_steps->end());
  dep_steps->erase(std::unique(dep_steps->begin(), dep_steps->end()),
                   dep_steps->end());
}

void Compiler::ComputeDerivNeeded(
    const std::vector<std::vector<int32_t>> &steps,
    std::vector<bool> *deriv_needed) const {
  const int32_t num_steps = static_cast<int32_t>(steps.size());
  deriv_needed->assign(num_steps, false);
  std::vector<int32_t> dep_steps;
  for (int32_t step = 0; step < num_steps; step++) {
    const std::vector<int32_t> &this_step = steps[step];
    if (this_step.empty()) continue;
    const int32_t node_index = graph_.cindexes[this_step[0]].first;
    const std::string &name = nnet_.GetNodeName(node_index);
    bool needed = false;
    ComputeStepDependencies(this_step, step, &dep_steps);
    for (int32_t d : dep_steps) {
      NNET3_ASSERT(d >= 0 && d < step);
      if ((*deriv_needed)[d]) needed = true;
    }
    const ComputationRequest &request = RequestOf(step);
    if (graph_.is_input[this_step[0]]) {
      int32_t i = request.IndexForInput(name);
      NNET3_ASSERT(i != -1);
      if (request.inputs[i].has_deriv) needed = true;
    }
    if (nnet_.IsOutputNode(node_index)) {
      // Only where the user supplies it: an output without has_deriv
      // contributes nothing to the backward pass.
      int32_t i = request.IndexForOutput(name);
      NNET3_ASSERT(i != -1);
      needed = request.outputs[i].has_deriv;
    }
    if (nnet_.IsComponentNode(node_index) && request.need_model_derivative &&
        !graph_.is_input[this_step[0]]) {
      const Component *c =
          nnet_.GetComponent(nnet_.GetNode(node_index).component_index);
      if (c->Properties() & kUpdatableComponent) {
        const auto *u = dynamic_cast<const UpdatableComponent *>(c);
        NNET3_ASSERT(u != nullptr);
        if (u->LearningRate() != 0.0f) needed = true;
      }
    }
    (*deriv_needed)[step] = needed;
  }
}

MatrixStrideType Compiler::GetStrideType(int32_t node_index) const {
  int32_t component_node;
  bool is_input;
  if (nnet_.IsComponentNode(node_index)) {
    component_node = node_index;
    is_input = false;
  } else if (nnet_.IsComponentInputNode(node_index)) {
    component_node = node_index + 1;
    is_input = true;
  } else {
    return MatrixStrideType::kDefaultStride;
  }
  const Component *c =
      nnet_.GetComponent(nnet_.GetNode(component_node).component_index);
  int32_t flag = is_input ? kInputContiguous : kOutputContiguous;
  return (c->Properties() & flag) ? MatrixStrideType::kStrideEqualNumCols
                                  : MatrixStrideType::kDefaultStride;
}

void Compiler::CreateStepInfo(const std::vector<bool> &deriv_needed,
                              std::vector<std::vector<int32_t>> *steps,
                              NnetComputation *computation) {
  const int32_t num_steps = static_cast<int32_t>(steps->size());
  NNET3_ASSERT(steps_.size() == steps->size());
  for (int32_t step = 0; step < num_steps; step++) {
    StepInfo &info = steps_[step];
    info.output_cindex_ids.swap((*steps)[step]);
    const int32_t num_rows =
        static_cast<int32_t>(info.output_cindex_ids.size());
    if (num_rows == 0) {
      // The input step of a non-simple component that needs no input: a
      // placeholder that makes no commands.
      NNET3_ASSERT(step + 1 < num_steps && !(*steps)[step + 1].empty());
      info.node_index = graph_.cindexes[(*steps)[step + 1][0]].first - 1;
      continue;
    }
    for (int32_t id : info.output_cindex_ids)
      info.output_indexes.push_back(graph_.cindexes[id].second);
    info.node_index = graph_.cindexes[info.output_cindex_ids[0]].first;
    info.is_input = graph_.is_input[info.output_cindex_ids[0]];
    const NetworkNode &node = nnet_.GetNode(info.node_index);
    const int32_t num_cols = node.Dim(nnet_);
    if (node.node_type != kDimRange) {
      MatrixStrideType stride = GetStrideType(info.node_index);
      info.value = computation->NewMatrix(num_rows, num_cols, stride);
      if (deriv_needed[step])
        info.deriv = computation->NewMatrix(num_rows, num_cols, stride);
    } else {
      // Rule (c): the same rows as a step of the source node.
      int32_t source_id = graph_.dependencies[info.output_cindex_ids[0]].at(0);
      int32_t source_step = cindex_id_to_location_[source_id].first;
      NNET3_ASSERT(source_step >= 0 && source_step < step &&
                   steps_[source_step].output_indexes == info.output_indexes);
      info.value = computation->NewSubMatrix(steps_[source_step].value, 0, -1,
                                             node.dim_offset, node.dim);
      if (deriv_needed[step]) {
        NNET3_ASSERT(steps_[source_step].deriv != 0);
        info.deriv = computation->NewSubMatrix(steps_[source_step].deriv, 0, -1,
                                               node.dim_offset, node.dim);
      }
    }
    if (node.node_type == kDescriptor)
      SetUpDescriptorParts(step, deriv_needed[step], computation);
  }
}

void Compiler::SetUpDescriptorParts(int32_t step, bool deriv_needed,
                                    NnetComputation *computation) {
  StepInfo &info = steps_[step];
  const Descriptor &desc = nnet_.GetNode(info.node_index).descriptor;
  const int32_t num_parts = desc.NumParts();
  NNET3_ASSERT(num_parts > 0);
  info.input_locations_list.resize(num_parts);
  info.input_scales_list.resize(num_parts);
  for (int32_t part = 0; part < num_parts; part++)
    ComputeInputLocationsList(step, part, &info.input_locations_list[part],
                              &info.input_scales_list[part]);
  if (num_parts == 1) {
    info.value_parts.push_back(info.value);
    if (deriv_needed) info.deriv_parts.push_back(info.deriv);
    return;
  }
  NodeDimFunction node_dim = [this](int32_t n) {
    return nnet_.GetNode(n).Dim(nnet_);
  };
  int32_t offset = 0;
  for (int32_t part = 0; part < num_parts; part++) {
    int32_t dim = desc.Part(part).Dim(node_dim);
    info.value_parts.push_back(
        computation->NewSubMatrix(info.value, 0, -1, offset, dim));
    if (deriv_needed)
      info.deriv_parts.push_back(
          computation->NewSubMatrix(info.deriv, 0, -1, offset, dim));
    offset += dim;
  }
  NNET3_ASSERT(offset == computation->submatrices[info.value].num_cols);
}

void Compiler::ComputeInputLocationsList(
    int32_t step, int32_t part,
    std::vector<std::vector<Location>> *input_locations_list,
    std::vector<std::vector<float>> *input_scales_list) const {
  const StepInfo &info = steps_[step];
  const SumDescriptor &descriptor =
      nnet_.GetNode(info.node_index).descriptor.Part(part);
  const size_t num_rows = info.output_indexes.size();
  input_locations_list->assign(num_rows, std::vector<Location>());
  input_scales_list->assign(num_rows, std::vector<float>());
  GraphCindexSet cindex_set(graph_);
  std::vector<DescriptorTerm> terms;
  for (size_t r = 0; r < num_rows; r++) {
    const Index &index = info.output_indexes[r];
    if (index.t == kNoTime) continue;  // a blank row: zero
    terms.clear();
    bool ans = GetDescriptorTerms(descriptor, index, cindex_set, &terms);
    // The graph holds what made this cindex computable.
    NNET3_ASSERT(ans);
    std::sort(terms.begin(), terms.end(),
              [](const DescriptorTerm &a, const DescriptorTerm &b) {
                return a.cindex < b.cindex ||
                       (a.cindex == b.cindex && a.scale < b.scale);
              });
    for (const DescriptorTerm &term : terms) {
      int32_t id = graph_.GetCindexId(term.cindex);
      NNET3_ASSERT(id != -1);
      Location loc = cindex_id_to_location_[id];
      NNET3_ASSERT(loc.first >= 0 && loc.first < step);
      (*input_locations_list)[r].push_back(loc);
      (*input_scales_list)[r].push_back(term.scale);
    }
  }
}

void Compiler::SetUpPrecomputedIndexes(NnetComputation *computation) {
  for (size_t step = 0; step < steps_.size(); step++) {
    const ComputationRequest &request = RequestOf(step);
    const bool need_derivs = request.NeedDerivatives();
    StepInfo &info = steps_[step];
    if (info.is_input || !nnet_.IsComponentNode(info.node_index)) continue;
    const StepInfo &input_info = steps_[step - 1];
    NNET3_ASSERT(input_info.node_index == info.node_index - 1);
    const Component *c =
        nnet_.GetComponent(nnet_.GetNode(info.node_index).component_index);
    std::unique_ptr<ComponentPrecomputedIndexes> data =
        c->PrecomputeIndexes(request.misc_info, input_info.output_indexes,
                             info.output_indexes, need_derivs);
    if (data == nullptr) continue;
    info.precomputed_indexes_index =
        static_cast<int32_t>(computation->component_precomputed_indexes.size());
    NnetComputation::PrecomputedIndexesInfo entry;
    entry.data = std::move(data);
    entry.input_indexes = input_info.output_indexes;
    entry.output_indexes = info.output_indexes;
    computation->component_precomputed_indexes.push_back(std::move(entry));
  }
}

void Compiler::OutputDebugInfo(NnetComputation *computation) const {
  computation->matrix_debug_info.clear();
  computation->matrix_debug_info.resize(computation->matrices.size());
  for (const StepInfo &info : steps_) {
    if (info.value == 0 || !computation->IsWholeMatrix(info.value)) continue;
    int32_t m = computation->submatrices[info.value].matrix_index;
    NnetComputation::MatrixDebugInfo &value_info =
        computation->matrix_debug_info[m];
    value_info.is_deriv = false;
    value_info.cindexes.clear();
    for (const Index &index : info.output_indexes)
      value_info.cindexes.emplace_back(info.node_index, index);
    if (info.deriv != 0 && computation->IsWholeMatrix(info.deriv)) {
      NnetComputation::MatrixDebugInfo &deriv_info =
          computation->matrix_debug_info[computation->submatrices[info.deriv]
                                             .matrix_index];
      deriv_info.is_deriv = true;
      deriv_info.cindexes = value_info.cindexes;
    }
  }
}

}  // namespace nnet3
