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

std::string ComputationGraphBuilder::ExplainNotComputable(
    std::ostream *dump) const {
  NNET3_ASSERT(computed_ && !pruned_);
  const std::vector<std::string> &names = nnet_.GetNodeNames();
  std::vector<bool> visited(graph_->cindexes.size(), false);
  std::vector<int32_t> stack;
  // Failing outputs, in request order: name, failing t's, requested t's.
  std::vector<std::string> output_parts;
  size_t k = 0;
  for (const IoSpecification &output : request_->outputs) {
    std::set<int32_t> failed, requested;
    for (size_t j = 0; j < output.indexes.size(); j++, k++) {
      int32_t id = output_cindex_ids_[k];
      requested.insert(output.indexes[j].t);
      if (computable_info_[id] == kComputable) continue;
      failed.insert(output.indexes[j].t);
      if (!visited[id]) {
        visited[id] = true;
        stack.push_back(id);
      }
    }
    if (!failed.empty())
      output_parts.push_back(
          "output " + Quoted(output.name) + " at t=" + FormatTRanges(failed) +
          " (of t=" + FormatTRanges(requested) + " requested)");
  }
  if (output_parts.empty()) return "All requested outputs are computable.";

  // Follow the blocking dependencies down to input nodes.
  std::map<int32_t, std::set<int32_t>> missing;  // input node -> t's
  size_t dump_lines = 0;
  while (!stack.empty()) {
    int32_t c = stack.back();
    stack.pop_back();
    const Cindex &cindex = graph_->cindexes[c];
    if (nnet_.GetNode(cindex.first).node_type == kInput) {
      missing[cindex.first].insert(cindex.second.t);
      continue;
    }
    std::vector<int32_t> blocking;
    GetBlockingDependencies(c, &blocking);
    if (dump != nullptr && dump_lines++ < 2000) {
      *dump << CindexToString(cindex, names) << " is not computable; all deps:";
      for (int32_t d : graph_->dependencies[c])
        *dump << ' ' << CindexToString(graph_->cindexes[d], names) << '['
              << static_cast<int>(computable_info_[d]) << ']';
      *dump << "; blocking:";
      for (int32_t d : blocking)
        *dump << ' ' << CindexToString(graph_->cindexes[d], names);
      *dump << '\n';
    }
    for (int32_t d : blocking) {
      if (!visited[d]) {
        visited[d] = true;
        stack.push_back(d);
      }
    }
  }

  std::ostringstream msg;
  msg << "Cannot compute ";
  for (size_t i = 0; i < output_parts.size(); i++)
    msg << (i == 0 ? "" : (i + 1 == output_parts.size() ? " and " : ", "))
        << output_parts[i];
  if (missing.empty()) {
    msg << ": no missing input frames explain this (the network may have a "
        << (had_cycle_ ? "circular dependency, a node needing its own value "
                         "at the same t"
                       : "dependency that can never be satisfied")
        << ").";
    return msg.str();
  }
  std::vector<std::string> need_parts, supply_parts;
  for (const auto &entry : missing) {
    const std::string &name = names[entry.first];
    need_parts.push_back("input " + Quoted(name) +
                         " at t=" + FormatTRanges(entry.second));
    std::set<int32_t> all(entry.second);
    int32_t i = request_->IndexForInput(name);
    if (i != -1)
      for (const Index &index : request_->inputs[i].indexes)
        all.insert(index.t);
    std::ostringstream range;
    range << "t=" << *all.begin();
    if (*all.rbegin() != *all.begin()) range << ".." << *all.rbegin();
    supply_parts.push_back("frames " + range.str() + " of " + Quoted(name));
  }
  auto join = [](const std::vector<std::string> &parts) {
    std::string s;
    for (size_t i = 0; i < parts.size(); i++)
      s += (i == 0 ? "" : (i + 1 == parts.size() ? " and " : ", ")) + parts[i];
    return s;
  };
  msg << ": " << (output_parts.size() > 1 ? "they need " : "it needs ")
      << join(need_parts) << ", which the request does not supply. Supply "
      << join(supply_parts) << ", or pad the utterance.";
  return msg.str();
}

}  // namespace nnet3
