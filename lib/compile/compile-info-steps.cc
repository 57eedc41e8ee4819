#include "compile/compile-info-steps.h"

#include <algorithm>
#include <limits>
#include <map>
#include <sstream>
#include <utility>

namespace nnet3 {

namespace {

std::vector<Index> StepIndexes(const CompileInfo &info, size_t step) {
  std::vector<Index> indexes;
  for (int32_t id : info.steps[step])
    indexes.push_back(info.graph.cindexes[id].second);
  return indexes;
}

// The value and derivative matrices of each step, by their rows.
void FindStepMatrices(const CompileInfo &info, StepGraph *graph) {
  const NnetComputation &compiled =
      info.stats.used_shortcut ? info.mini_computation : info.computation;
  std::map<std::pair<bool, std::vector<Cindex>>, int32_t> by_rows;
  for (size_t m = 1; m < compiled.matrix_debug_info.size(); m++) {
    const NnetComputation::MatrixDebugInfo &d = compiled.matrix_debug_info[m];
    by_rows.emplace(std::make_pair(d.is_deriv, d.cindexes),
                    static_cast<int32_t>(m));
  }
  for (size_t s = 0; s < info.steps.size(); s++) {
    std::vector<Cindex> rows;
    for (int32_t id : info.steps[s]) rows.push_back(info.graph.cindexes[id]);
    auto v = by_rows.find(std::make_pair(false, rows));
    if (v != by_rows.end()) graph->steps[s].value_matrix = v->second;
    auto d = by_rows.find(std::make_pair(true, rows));
    if (d != by_rows.end()) graph->steps[s].deriv_matrix = d->second;
  }
}

void FindStepDependencies(const Nnet &nnet, const CompileInfo &info,
                          StepGraph *graph) {
  std::vector<int32_t> step_of(info.graph.cindexes.size(), -1);
  for (size_t s = 0; s < info.steps.size(); s++)
    for (int32_t id : info.steps[s]) step_of[id] = static_cast<int32_t>(s);
  for (size_t s = 0; s < info.steps.size(); s++) {
    const std::vector<int32_t> &step = info.steps[s];
    if (step.empty() || info.graph.is_input[step[0]]) continue;
    std::vector<int32_t> &deps = graph->steps[s].deps;
    if (nnet.IsComponentNode(info.graph.cindexes[step[0]].first)) {
      deps.push_back(static_cast<int32_t>(s) - 1);
      continue;
    }
    for (int32_t id : step)
      for (int32_t dep : info.graph.dependencies[id])
        if (step_of[dep] >= 0) deps.push_back(step_of[dep]);
    std::sort(deps.begin(), deps.end());
    deps.erase(std::unique(deps.begin(), deps.end()), deps.end());
  }
}

std::string DotLabel(const std::string &s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '\n') {
      out += "\\n";  // a line break in the label
      continue;
    }
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

}  // namespace

std::string IndexRange(const std::vector<Index> &indexes) {
  if (indexes.empty()) return "no rows";
  const int32_t kMax = std::numeric_limits<int32_t>::max();
  int32_t n0 = kMax, n1 = -kMax, t0 = kMax, t1 = -kMax, x0 = kMax, x1 = -kMax;
  for (const Index &i : indexes) {
    n0 = std::min(n0, i.n);
    n1 = std::max(n1, i.n);
    x0 = std::min(x0, i.x);
    x1 = std::max(x1, i.x);
    if (i.t == kNoTime) continue;
    t0 = std::min(t0, i.t);
    t1 = std::max(t1, i.t);
  }
  std::ostringstream os;
  os << "n=" << n0 << ':' << n1;
  if (t0 <= t1) os << " t=" << t0 << ':' << t1;
  if (x0 != 0 || x1 != 0) os << " x=" << x0 << ':' << x1;
  return os.str();
}

void BuildStepGraph(const Nnet &nnet, const CompileInfo &info,
                    StepGraph *graph) {
  graph->steps.assign(info.steps.size(), StepGraph::Step());
  for (size_t s = 0; s < info.steps.size(); s++) {
    StepGraph::Step &step = graph->steps[s];
    const std::vector<int32_t> &ids = info.steps[s];
    step.num_rows = static_cast<int32_t>(ids.size());
    step.rows = IndexRange(StepIndexes(info, s));
    if (ids.empty()) {
      step.node = "(empty)";
      continue;
    }
    step.node_index = info.graph.cindexes[ids[0]].first;
    step.node = nnet.GetNodeName(step.node_index);
    step.is_input = info.graph.is_input[ids[0]];
  }
  FindStepMatrices(info, graph);
  FindStepDependencies(nnet, info, graph);
}

void PrintStepGraphDot(const Nnet &nnet, const CompileInfo &info,
                       std::ostream &os) {
  StepGraph graph;
  BuildStepGraph(nnet, info, &graph);
  const NnetComputation &c = info.computation;
  os << "digraph compilation {\n"
     << "  // Steps (boxes) write their value matrices (ellipses) and their\n"
     << "  // derivatives (dashed); edges into a step are what it reads.\n"
     << "  node [fontname=\"Helvetica\"];\n";
  if (info.stats.used_shortcut)
    os << "  // Shortcut: steps of the two-sequence request; matrices of all "
       << info.stats.num_n_values << " sequences.\n";
  std::vector<bool> matrix_shown(c.matrices.size(), false);
  auto show_matrix = [&](int32_t m, bool deriv) {
    if (m == 0 || matrix_shown[m]) return;
    matrix_shown[m] = true;
    std::ostringstream label;
    label << "m" << m << " " << c.matrices[m].num_rows << "x"
          << c.matrices[m].num_cols << (deriv ? " (deriv)" : "");
    os << "  m" << m << " [shape=ellipse" << (deriv ? ", style=dashed" : "")
       << ", label=" << DotLabel(label.str()) << "];\n";
  };
  for (size_t s = 0; s < graph.steps.size(); s++) {
    const StepGraph::Step &step = graph.steps[s];
    std::string label =
        "step " + std::to_string(s) + ": " + step.node + "\n" + step.rows;
    os << "  s" << s << " [shape=box, label=" << DotLabel(label) << "];\n";
    show_matrix(step.value_matrix, false);
    show_matrix(step.deriv_matrix, true);
    if (step.value_matrix != 0)
      os << "  s" << s << " -> m" << step.value_matrix << ";\n";
    if (step.deriv_matrix != 0)
      os << "  s" << s << " -> m" << step.deriv_matrix << " [style=dashed];\n";
    for (int32_t d : step.deps) {
      if (graph.steps[d].value_matrix != 0)
        os << "  m" << graph.steps[d].value_matrix << " -> s" << s << ";\n";
      else  // a dim-range step: a view of its source's matrix
        os << "  s" << d << " -> s" << s << ";\n";
    }
  }
  os << "}\n";
}

}  // namespace nnet3
