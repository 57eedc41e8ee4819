// nnet3-compile-info's renderers: text, JSON and the Graphviz digraph of
// the steps and the matrices they read and write.
#include <algorithm>
#include <cstdio>
#include <limits>
#include <map>
#include <sstream>
#include <utility>

#include "base/error.h"
#include "base/text-utils.h"
#include "compile/compile-info.h"

namespace nnet3 {

namespace {

const char *const kStageNames[] = {"graph", "steps",    "commands", "expand",
                                   "check", "optimize", "total"};

std::vector<double> StageSeconds(const CompileInfoStats &s) {
  return {s.seconds_graph,  s.seconds_steps, s.seconds_commands,
          s.seconds_expand, s.seconds_check, s.seconds_optimize,
          s.SecondsTotal()};
}

// What the printers show: the optimized computation when there is one.
const NnetComputation &ShownComputation(const CompileInfo &info) {
  return info.optimized ? info.optimized_computation : info.computation;
}
const CompileInfoStats &ShownStats(const CompileInfo &info) {
  return info.optimized ? info.optimized_stats : info.stats;
}

std::vector<Index> StepIndexes(const CompileInfo &info, size_t step) {
  std::vector<Index> indexes;
  for (int32_t id : info.steps[step])
    indexes.push_back(info.graph.cindexes[id].second);
  return indexes;
}

std::string StepNodeName(const Nnet &nnet, const CompileInfo &info,
                         size_t step) {
  if (info.steps[step].empty()) return "(empty)";
  return nnet.GetNodeName(info.graph.cindexes[info.steps[step][0]].first);
}

// "n=0:1 t=-6:6" (x only when not all 0; blank rows do not count for t).
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

// ---- text ----

void PrintStatsText(const CompileInfoStats &s, bool optimized,
                    std::ostream &os) {
  os << "# stats\n";
  if (s.used_shortcut)
    os << "shortcut: yes (compiled 2 of " << s.num_n_values
       << " sequences, then expanded)\n";
  else
    os << "shortcut: no\n";
  os << "optimized: " << (optimized ? "yes" : "no") << "\n";
  os << "cindexes: " << s.num_cindexes << "\n"
     << "steps: " << s.num_steps << "\n"
     << "commands: " << s.num_commands << "\n";
  for (int32_t t = 0; t < kNumCommandTypes; t++)
    if (s.commands_by_type[t] > 0)
      os << "  " << CommandTypeName(static_cast<CommandType>(t)) << ": "
         << s.commands_by_type[t] << "\n";
  os << "matrices: " << s.num_matrices << "\n"
     << "submatrices: " << s.num_submatrices << "\n"
     << "total-memory-bytes: " << s.total_memory_bytes << "\n"
     << "peak-memory-bytes: " << s.peak_memory_bytes << "\n";
  std::vector<double> seconds = StageSeconds(s);
  for (size_t i = 0; i < seconds.size(); i++)
    os << "seconds-" << kStageNames[i] << ": " << seconds[i] << "\n";
}

// Unoptimized and optimized side by side, then the optimized listing
// (unless --show has computation, which is that listing).
void PrintBeforeAfterText(const Nnet &nnet, const CompileInfo &info,
                          const CompileInfoShow &show, std::ostream &os) {
  const CompileInfoStats &b = info.stats, &a = info.optimized_stats;
  char line[160];
  auto row = [&](const std::string &name, int64_t before, int64_t after) {
    std::snprintf(line, sizeof(line), "%-26s %14lld %14lld\n",
                  (name + ":").c_str(), static_cast<long long>(before),
                  static_cast<long long>(after));
    os << line;
  };
  os << "# before-after (unoptimized, optimized)\n";
  row("commands", b.num_commands, a.num_commands);
  for (int32_t t = 0; t < kNumCommandTypes; t++)
    if (b.commands_by_type[t] > 0 || a.commands_by_type[t] > 0)
      row(std::string("  ") + CommandTypeName(static_cast<CommandType>(t)),
          b.commands_by_type[t], a.commands_by_type[t]);
  row("matrices", b.num_matrices, a.num_matrices);
  row("submatrices", b.num_submatrices, a.num_submatrices);
  row("total-memory-bytes", b.total_memory_bytes, a.total_memory_bytes);
  row("peak-memory-bytes", b.peak_memory_bytes, a.peak_memory_bytes);
  std::snprintf(line, sizeof(line), "%-26s %14.6f %14.6f\n",
                "seconds:", b.SecondsTotal(), a.SecondsTotal());
  os << line;
  if (!show.computation) {
    os << "# optimized computation\n";
    info.optimized_computation.Print(os, nnet);
  }
}

void PrintRepeatText(const CompileInfo &info, std::ostream &os) {
  if (info.repeat_seconds.empty()) return;
  os << "# repeat\nrepeat-seconds:";
  for (double s : info.repeat_seconds) os << " " << s;
  os << "\nrepeat-hits: " << info.repeat_hits
     << "\nrepeat-misses: " << info.repeat_misses << "\n";
}

void PrintText(const Nnet &nnet, const CompileInfo &info,
               const CompileInfoShow &show, std::ostream &os) {
  const bool shortcut = info.stats.used_shortcut;
  const char *of_mini = shortcut ? " (of the two-sequence request)" : "";
  if (show.request) {
    os << "# request\n";
    info.request.Print(os);
    if (shortcut) {
      os << "# the two-sequence request compiled (shortcut)\n";
      info.compiled_request.Print(os);
    }
  }
  if (show.graph) {
    os << "# graph" << of_mini << ": " << info.graph.cindexes.size()
       << " cindexes\n";
    info.graph.Print(os, nnet.GetNodeNames());
  }
  if (show.steps) {
    os << "# steps" << of_mini << "\n";
    for (size_t s = 0; s < info.steps.size(); s++)
      os << "step " << s << ": " << StepNodeName(nnet, info, s) << " "
         << IndexesToString(StepIndexes(info, s)) << "\n";
  }
  if (show.computation) {
    os << "# computation\n";  // optimized unless --optimize=false
    ShownComputation(info).Print(os, nnet);
  }
  if (show.stats) PrintStatsText(ShownStats(info), info.optimized, os);
  if (show.before_after) PrintBeforeAfterText(nnet, info, show, os);
  PrintRepeatText(info, os);
}

// ---- JSON ----

std::string JsonString(const std::string &s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof(buf), "\\u%04x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

const char *JsonBool(bool b) { return b ? "true" : "false"; }

void PrintJsonStrings(const std::vector<std::string> &strings,
                      std::ostream &os) {
  os << "[";
  for (size_t i = 0; i < strings.size(); i++)
    os << (i == 0 ? "\n    " : ",\n    ") << JsonString(strings[i]);
  os << "\n  ]";
}

void PrintJsonIoList(const std::vector<IoSpecification> &list,
                     std::ostream &os) {
  os << "[";
  for (size_t i = 0; i < list.size(); i++) {
    const IoSpecification &io = list[i];
    os << (i == 0 ? "" : ", ") << "{\"name\": " << JsonString(io.name)
       << ", \"num_indexes\": " << io.indexes.size()
       << ", \"indexes\": " << JsonString(IndexesToString(io.indexes))
       << ", \"has_deriv\": " << JsonBool(io.has_deriv) << "}";
  }
  os << "]";
}

void PrintJsonRequest(const ComputationRequest &r, std::ostream &os) {
  os << "{\n    \"inputs\": ";
  PrintJsonIoList(r.inputs, os);
  os << ",\n    \"outputs\": ";
  PrintJsonIoList(r.outputs, os);
  os << ",\n    \"need_model_derivative\": "
     << JsonBool(r.need_model_derivative)
     << ",\n    \"store_component_stats\": "
     << JsonBool(r.store_component_stats) << "\n  }";
}

void PrintJsonCommandsByType(const CompileInfoStats &s, std::ostream &os) {
  const char *sep = "";
  os << "{";
  for (int32_t t = 0; t < kNumCommandTypes; t++)
    if (s.commands_by_type[t] > 0) {
      os << sep << JsonString(CommandTypeName(static_cast<CommandType>(t)))
         << ": " << s.commands_by_type[t];
      sep = ", ";
    }
  os << "}";
}

// One side of before-after: counts are plain numbers here.
void PrintJsonSide(const CompileInfoStats &s, std::ostream &os) {
  os << "{\"commands\": " << s.num_commands << ", \"commands_by_type\": ";
  PrintJsonCommandsByType(s, os);
  os << ",\n    \"matrices\": " << s.num_matrices
     << ", \"submatrices\": " << s.num_submatrices
     << ", \"total_memory_bytes\": " << s.total_memory_bytes
     << ", \"peak_memory_bytes\": " << s.peak_memory_bytes
     << ",\n    \"seconds\": " << s.SecondsTotal()
     << ", \"seconds_by_stage\": {\"compile\": " << s.seconds_compile
     << ", \"expand\": " << s.seconds_expand
     << ", \"check\": " << s.seconds_check
     << ", \"optimize\": " << s.seconds_optimize << "}}";
}

void PrintJsonStats(const CompileInfoStats &s, bool optimized,
                    std::ostream &os) {
  os << "  \"shortcut\": {\"used\": " << JsonBool(s.used_shortcut)
     << ", \"num_n_values\": " << s.num_n_values << "},\n"
     << "  \"optimized\": " << JsonBool(optimized) << ",\n"
     << "  \"cindexes\": " << s.num_cindexes << ",\n"
     << "  \"steps\": " << s.num_steps << ",\n  \"commands\": {";
  for (int32_t t = 0; t < kNumCommandTypes; t++)
    if (s.commands_by_type[t] > 0)
      os << JsonString(CommandTypeName(static_cast<CommandType>(t))) << ": "
         << s.commands_by_type[t] << ", ";
  os << "\"total\": " << s.num_commands << "},\n"
     << "  \"matrices\": " << s.num_matrices << ",\n"
     << "  \"submatrices\": " << s.num_submatrices << ",\n"
     << "  \"total_memory_bytes\": " << s.total_memory_bytes << ",\n"
     << "  \"peak_memory_bytes\": " << s.peak_memory_bytes << ",\n"
     << "  \"seconds\": {";
  std::vector<double> seconds = StageSeconds(s);
  for (size_t i = 0; i < seconds.size(); i++)
    os << (i == 0 ? "" : ", ") << JsonString(kStageNames[i]) << ": "
       << seconds[i];
  os << "}";
}

void PrintJson(const Nnet &nnet, const CompileInfo &info,
               const CompileInfoShow &show, std::ostream &os) {
  // Members are written with a leading separator after the first.
  const char *sep = "\n";
  os << "{";
  if (show.request) {
    os << sep << "  \"request\": ";
    PrintJsonRequest(info.request, os);
    sep = ",\n";
    if (info.stats.used_shortcut) {
      os << sep << "  \"compiled_request\": ";
      PrintJsonRequest(info.compiled_request, os);
    }
  }
  if (show.graph) {
    std::ostringstream graph_text;
    info.graph.Print(graph_text, nnet.GetNodeNames());
    os << sep << "  \"graph\": ";
    PrintJsonStrings(SplitString(graph_text.str(), "\n", true), os);
    sep = ",\n";
  }
  if (show.steps) {
    os << sep << "  \"step_list\": [";
    for (size_t s = 0; s < info.steps.size(); s++)
      os << (s == 0 ? "\n    " : ",\n    ")
         << "{\"node\": " << JsonString(StepNodeName(nnet, info, s))
         << ", \"rows\": " << info.steps[s].size() << ", \"indexes\": "
         << JsonString(IndexesToString(StepIndexes(info, s))) << "}";
    os << "\n  ]";
    sep = ",\n";
  }
  if (show.computation) {
    std::vector<std::string> commands;
    ShownComputation(info).GetCommandStrings(nnet, &commands);
    os << sep << "  \"computation\": ";
    PrintJsonStrings(commands, os);
    sep = ",\n";
  }
  if (show.stats) {
    os << sep;
    PrintJsonStats(ShownStats(info), info.optimized, os);
    sep = ",\n";
  }
  if (show.before_after) {
    os << sep << "  \"before\": ";
    PrintJsonSide(info.stats, os);
    os << ",\n  \"after\": ";
    PrintJsonSide(info.optimized_stats, os);
    sep = ",\n";
  }
  if (!info.repeat_seconds.empty()) {
    os << sep << "  \"repeat\": {\"seconds\": [";
    for (size_t i = 0; i < info.repeat_seconds.size(); i++)
      os << (i == 0 ? "" : ", ") << info.repeat_seconds[i];
    os << "], \"hits\": " << info.repeat_hits
       << ", \"misses\": " << info.repeat_misses << "}";
  }
  os << "\n}\n";
}

// ---- dot ----

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

// The matrices of the steps, found through the compiler's debug info
// (matrices keep their numbers through the shortcut's expansion).
struct StepMatrices {
  std::vector<int32_t> value, deriv;       // per step; 0 if none
  std::vector<std::vector<int32_t>> deps;  // steps each step reads
};

StepMatrices FindStepMatrices(const CompileInfo &info) {
  const NnetComputation &compiled =
      info.stats.used_shortcut ? info.mini_computation : info.computation;
  std::map<std::pair<bool, std::vector<Cindex>>, int32_t> by_rows;
  for (size_t m = 1; m < compiled.matrix_debug_info.size(); m++) {
    const NnetComputation::MatrixDebugInfo &d = compiled.matrix_debug_info[m];
    by_rows.emplace(std::make_pair(d.is_deriv, d.cindexes),
                    static_cast<int32_t>(m));
  }
  const size_t num_steps = info.steps.size();
  StepMatrices ans;
  ans.value.assign(num_steps, 0);
  ans.deriv.assign(num_steps, 0);
  ans.deps.resize(num_steps);
  for (size_t s = 0; s < num_steps; s++) {
    std::vector<Cindex> rows;
    for (int32_t id : info.steps[s]) rows.push_back(info.graph.cindexes[id]);
    auto v = by_rows.find(std::make_pair(false, rows));
    if (v != by_rows.end()) ans.value[s] = v->second;
    auto d = by_rows.find(std::make_pair(true, rows));
    if (d != by_rows.end()) ans.deriv[s] = d->second;
  }
  return ans;
}

// Steps that step s reads (as the compiler sees it: a component step reads
// its component-input step, just before it).
void FindStepDependencies(const Nnet &nnet, const CompileInfo &info,
                          StepMatrices *sm) {
  std::vector<int32_t> step_of(info.graph.cindexes.size(), -1);
  for (size_t s = 0; s < info.steps.size(); s++)
    for (int32_t id : info.steps[s]) step_of[id] = static_cast<int32_t>(s);
  for (size_t s = 0; s < info.steps.size(); s++) {
    const std::vector<int32_t> &step = info.steps[s];
    if (step.empty() || info.graph.is_input[step[0]]) continue;
    std::vector<int32_t> &deps = sm->deps[s];
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

void PrintDot(const Nnet &nnet, const CompileInfo &info, std::ostream &os) {
  StepMatrices sm = FindStepMatrices(info);
  FindStepDependencies(nnet, info, &sm);
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
  for (size_t s = 0; s < info.steps.size(); s++) {
    std::string label = "step " + std::to_string(s) + ": " +
                        StepNodeName(nnet, info, s) + "\n" +
                        IndexRange(StepIndexes(info, s));
    os << "  s" << s << " [shape=box, label=" << DotLabel(label) << "];\n";
    show_matrix(sm.value[s], false);
    show_matrix(sm.deriv[s], true);
    if (sm.value[s] != 0) os << "  s" << s << " -> m" << sm.value[s] << ";\n";
    if (sm.deriv[s] != 0)
      os << "  s" << s << " -> m" << sm.deriv[s] << " [style=dashed];\n";
    for (int32_t d : sm.deps[s]) {
      if (sm.value[d] != 0)
        os << "  m" << sm.value[d] << " -> s" << s << ";\n";
      else  // a dim-range step: a view of its source's matrix
        os << "  s" << d << " -> s" << s << ";\n";
    }
  }
  os << "}\n";
}

}  // namespace

void PrintCompileInfo(const Nnet &nnet, const CompileInfo &info,
                      const CompileInfoShow &show, std::ostream &os) {
  if (show.before_after && !info.optimized)
    NNET3_ERR << "--show=before-after needs the optimized computation "
                 "(--optimize=true)";
  switch (show.format) {
    case CompileInfoShow::kText:
      PrintText(nnet, info, show, os);
      break;
    case CompileInfoShow::kJson:
      PrintJson(nnet, info, show, os);
      break;
    case CompileInfoShow::kDot:
      PrintDot(nnet, info, os);
      break;
  }
}

}  // namespace nnet3
