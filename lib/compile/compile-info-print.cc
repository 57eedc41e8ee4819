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
#include "compile/compile-info-html.h"
#include "compile/compile-info-steps.h"
#include "compile/compile-info.h"
#include "compile/memory-timeline.h"

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

// "value of tdnn1.affine" / "deriv of ..." from the debug info; "" if none.
std::string MatrixHolds(const Nnet &nnet, const NnetComputation &c, int32_t m) {
  if (static_cast<size_t>(m) >= c.matrix_debug_info.size() ||
      c.matrix_debug_info[m].cindexes.empty())
    return "";
  const NnetComputation::MatrixDebugInfo &d = c.matrix_debug_info[m];
  const int32_t node = d.cindexes[0].first;
  return std::string(d.is_deriv ? "deriv of " : "value of ") +
         (node >= 0 && node < nnet.NumNodes() ? nnet.GetNodeName(node)
                                              : "node " + std::to_string(node));
}

void PrintMemoryText(const Nnet &nnet, const CompileInfo &info,
                     std::ostream &os) {
  MemoryTimeline t;
  const NnetComputation &c = ShownComputation(info);
  ComputeMemoryTimeline(c, &t);
  os << "# memory (live matrix bytes after each command)\n"
     << "peak-memory-bytes: " << t.peak_bytes << "\n"
     << "peak-command: c" << t.peak_command << "\n"
     << "bytes-after-command:";
  for (int64_t b : t.bytes_after) os << " " << b;
  os << "\n# matrices live at the peak, largest first\n";
  for (int32_t m : MatricesLiveAtPeak(t)) {
    os << "m" << m << ": " << t.held_at_peak[m] << " bytes ("
       << c.matrices[m].num_rows << "x" << c.matrices[m].num_cols << ")";
    const std::string holds = MatrixHolds(nnet, c, m);
    os << (holds.empty() ? "" : " ") << holds << "\n";
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
  if (show.memory) PrintMemoryText(nnet, info, os);
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

void PrintJsonMemory(const Nnet &nnet, const CompileInfo &info,
                     std::ostream &os) {
  MemoryTimeline t;
  const NnetComputation &c = ShownComputation(info);
  ComputeMemoryTimeline(c, &t);
  os << "  \"memory\": {\"peak_bytes\": " << t.peak_bytes
     << ", \"peak_command\": " << t.peak_command
     << ",\n    \"bytes_after_command\": [";
  for (size_t k = 0; k < t.bytes_after.size(); k++)
    os << (k == 0 ? "" : ", ") << t.bytes_after[k];
  os << "],\n    \"live_at_peak\": [";
  const std::vector<int32_t> live = MatricesLiveAtPeak(t);
  for (size_t i = 0; i < live.size(); i++) {
    const int32_t m = live[i];
    os << (i == 0 ? "" : ", ") << "{\"matrix\": " << m
       << ", \"bytes\": " << t.held_at_peak[m]
       << ", \"rows\": " << c.matrices[m].num_rows
       << ", \"cols\": " << c.matrices[m].num_cols
       << ", \"holds\": " << JsonString(MatrixHolds(nnet, c, m)) << "}";
  }
  os << "]}";
}

// `heading` (if not null) is written as the first member.
void PrintJson(const Nnet &nnet, const CompileInfo &info,
               const CompileInfoShow &show, const std::string *heading,
               std::ostream &os) {
  // Members are written with a leading separator after the first.
  const char *sep = "\n";
  os << "{";
  if (heading != nullptr) {
    os << sep << "  \"heading\": " << JsonString(*heading);
    sep = ",\n";
  }
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
  if (show.memory) {
    os << sep;
    PrintJsonMemory(nnet, info, os);
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
      PrintJson(nnet, info, show, nullptr, os);
      break;
    case CompileInfoShow::kDot:
      PrintStepGraphDot(nnet, info, os);
      break;
    case CompileInfoShow::kHtml:
    case CompileInfoShow::kSvg:
      PrintCompileInfoEntries(nnet, {CompileInfoEntry{"", info}}, show, os);
      break;
  }
}

void PrintCompileInfoEntries(const Nnet &nnet,
                             const std::vector<CompileInfoEntry> &entries,
                             const CompileInfoShow &show, std::ostream &os) {
  NNET3_ASSERT(!entries.empty());
  for (const CompileInfoEntry &e : entries)
    if (show.before_after && !e.info.optimized)
      NNET3_ERR << "--show=before-after needs the optimized computation "
                   "(--optimize=true)";
  if (show.format == CompileInfoShow::kHtml)
    return WriteCompileInfoHtml(nnet, entries, show, os);
  if (show.format == CompileInfoShow::kSvg)
    return WriteCompileInfoSvg(nnet, entries, show, os);
  const bool single = entries.size() == 1 && entries[0].heading.empty();
  if (single) return PrintCompileInfo(nnet, entries[0].info, show, os);
  if (show.format == CompileInfoShow::kJson) {
    os << "{\"requests\": [\n";
    for (size_t i = 0; i < entries.size(); i++) {
      if (i > 0) os << ",\n";
      std::ostringstream one;
      PrintJson(nnet, entries[i].info, show, &entries[i].heading, one);
      std::string text = one.str();
      os << text.substr(0, text.size() - 1);  // without its newline
    }
    os << "\n]}\n";
    return;
  }
  for (const CompileInfoEntry &e : entries) {
    if (show.format == CompileInfoShow::kText)
      os << "# ==== " << e.heading << "\n";
    PrintCompileInfo(nnet, e.info, show, os);
  }
}

}  // namespace nnet3
