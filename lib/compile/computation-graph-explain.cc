// ComputationGraphBuilder::ExplainNotComputable: a short explanation of why
// requested outputs cannot be computed, in terms of frames (t values) the
// user can act on, instead of a dump of cindexes.
#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include "base/error.h"
#include "compile/computation-graph.h"

namespace nnet3 {

namespace {

// "0..2,8..9" / "5"; at most `max_ranges` ranges, then ",...".
std::string FormatTRanges(const std::set<int32_t> &ts, size_t max_ranges = 6) {
  std::ostringstream os;
  size_t num_ranges = 0;
  for (auto it = ts.begin(); it != ts.end();) {
    int32_t start = *it, end = *it;
    for (++it; it != ts.end() && *it == end + 1; ++it) end = *it;
    if (num_ranges++ == max_ranges) {
      os << ",...";
      break;
    }
    if (num_ranges > 1) os << ',';
    os << start;
    if (end != start) os << ".." << end;
  }
  return os.str();
}

std::string Quoted(const std::string &name) { return "'" + name + "'"; }

}  // namespace

void ComputationGraphBuilder::GetBlockingDependencies(
    int32_t cindex_id, std::vector<int32_t> *blocking) const {
  blocking->clear();
  std::vector<int32_t> candidates;
  for (int32_t d : graph_->dependencies[cindex_id])
    if (computable_info_[d] == kNotComputable) candidates.push_back(d);
  NodeType type = nnet_.GetNode(graph_->cindexes[cindex_id].first).node_type;
  if (candidates.size() <= 1 || (type != kDescriptor && type != kComponent)) {
    *blocking = candidates;
    return;
  }
  // A candidate is necessary if the cindex stays not computable even when
  // everything except it is available (Sum(a, b): both; Failover(a, b):
  // neither; IfDefined(a): never).
  for (int32_t d : candidates) {
    auto all_but_d = [d](int32_t id) { return id != d; };
    if (!EvaluateNode(cindex_id, all_but_d, nullptr)) blocking->push_back(d);
  }
  // No single one is necessary (e.g. Failover(a, b)): any of them would
  // help, so report all.
  if (blocking->empty()) *blocking = candidates;
}

std::vector<std::string> ComputationGraphBuilder::FailingOutputs(
    std::vector<int32_t> *failing_cindex_ids) const {
  std::vector<std::string> descriptions;
  size_t k = 0;  // position in output_cindex_ids_
  for (const IoSpecification &output : request_->outputs) {
    std::set<int32_t> failed, requested;
    for (size_t j = 0; j < output.indexes.size(); j++, k++) {
      const int32_t id = output_cindex_ids_[k];
      requested.insert(output.indexes[j].t);
      if (computable_info_[id] == kComputable) continue;
      failed.insert(output.indexes[j].t);
      failing_cindex_ids->push_back(id);
    }
    if (!failed.empty())
      descriptions.push_back(
          "output " + Quoted(output.name) + " at t=" + FormatTRanges(failed) +
          " (of t=" + FormatTRanges(requested) + " requested)");
  }
  return descriptions;
}

void ComputationGraphBuilder::DumpNotComputable(
    int32_t cindex_id, const std::vector<int32_t> &blocking,
    std::ostream *dump) const {
  const std::vector<std::string> &names = nnet_.GetNodeNames();
  *dump << CindexToString(graph_->cindexes[cindex_id], names)
        << " is not computable; all deps:";
  for (int32_t d : graph_->dependencies[cindex_id])
    *dump << ' ' << CindexToString(graph_->cindexes[d], names) << '['
          << static_cast<int>(computable_info_[d]) << ']';
  *dump << "; blocking:";
  for (int32_t d : blocking)
    *dump << ' ' << CindexToString(graph_->cindexes[d], names);
  *dump << '\n';
}

void ComputationGraphBuilder::TraceToMissingInputs(
    const std::vector<int32_t> &start, std::ostream *dump,
    std::map<int32_t, std::set<int32_t>> *missing) const {
  std::vector<bool> visited(graph_->cindexes.size(), false);
  std::vector<int32_t> stack;
  auto push = [&](int32_t id) {
    if (!visited[id]) {
      visited[id] = true;
      stack.push_back(id);
    }
  };
  for (int32_t id : start) push(id);
  size_t dump_lines = 0;
  while (!stack.empty()) {
    const int32_t c = stack.back();
    stack.pop_back();
    const Cindex &cindex = graph_->cindexes[c];
    if (nnet_.GetNode(cindex.first).node_type == kInput) {
      (*missing)[cindex.first].insert(cindex.second.t);
      continue;
    }
    std::vector<int32_t> blocking;
    GetBlockingDependencies(c, &blocking);
    if (dump != nullptr && dump_lines++ < 2000)
      DumpNotComputable(c, blocking, dump);
    for (int32_t d : blocking) push(d);
  }
}

namespace {

// "a", "a and b", "a, b and c".
std::string JoinWithAnd(const std::vector<std::string> &parts) {
  std::string s;
  for (size_t i = 0; i < parts.size(); i++)
    s += (i == 0 ? "" : (i + 1 == parts.size() ? " and " : ", ")) + parts[i];
  return s;
}

// ": it needs input 'x' at t=..., which the request does not supply. Supply
// frames t=A..B of 'x', or pad the utterance." for the missing input frames
// (input node -> t's) of `num_outputs` failing outputs.
std::string WhatToSupply(const std::map<int32_t, std::set<int32_t>> &missing,
                         const std::vector<std::string> &names,
                         const ComputationRequest &request,
                         size_t num_outputs) {
  std::vector<std::string> need_parts, supply_parts;
  for (const auto &entry : missing) {
    const std::string &name = names[entry.first];
    need_parts.push_back("input " + Quoted(name) +
                         " at t=" + FormatTRanges(entry.second));
    // The frames to supply: the missing ones and those already requested.
    std::set<int32_t> all(entry.second);
    const int32_t i = request.IndexForInput(name);
    if (i != -1)
      for (const Index &index : request.inputs[i].indexes) all.insert(index.t);
    std::ostringstream range;
    range << "t=" << *all.begin();
    if (*all.rbegin() != *all.begin()) range << ".." << *all.rbegin();
    supply_parts.push_back("frames " + range.str() + " of " + Quoted(name));
  }
  return std::string(": ") + (num_outputs > 1 ? "they need " : "it needs ") +
         JoinWithAnd(need_parts) +
         ", which the request does not supply. Supply " +
         JoinWithAnd(supply_parts) + ", or pad the utterance.";
}

}  // namespace

std::string ComputationGraphBuilder::ExplainNotComputable(
    std::ostream *dump) const {
  NNET3_ASSERT(computed_ && !pruned_);
  std::vector<int32_t> failing;
  const std::vector<std::string> outputs = FailingOutputs(&failing);
  if (outputs.empty()) return "All requested outputs are computable.";
  std::map<int32_t, std::set<int32_t>> missing;  // input node -> t's
  TraceToMissingInputs(failing, dump, &missing);
  const std::string what = "Cannot compute " + JoinWithAnd(outputs);
  if (missing.empty())
    return what +
           ": no missing input frames explain this (the network may have a " +
           (had_cycle_ ? "circular dependency, a node needing its own value "
                         "at the same t"
                       : "dependency that can never be satisfied") +
           ").";
  return what +
         WhatToSupply(missing, nnet_.GetNodeNames(), *request_, outputs.size());
}

}  // namespace nnet3
