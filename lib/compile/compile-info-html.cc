#include "compile/compile-info-html.h"

#include <memory>
#include <sstream>
#include <string>
#include <utility>

#include "base/error.h"
#include "compile/compile-info-steps.h"
#include "compile/computation-html.h"
#include "compile/memory-chart.h"
#include "compile/steps-svg.h"
#include "compile/svg-writer.h"

namespace nnet3 {

namespace {

const char *const kPageCss =
    "body { font-family: DejaVu Sans, Helvetica, Arial, sans-serif; "
    "font-size: 14px; color: #222; margin: 0 24px 40px; background: #fff; }\n"
    "h1 { font-size: 22px; margin: 18px 0 4px; }\n"
    "h2 { font-size: 19px; margin: 28px 0 8px; padding-top: 8px; "
    "border-top: 3px solid #1f5fbf; }\n"
    "h3 { font-size: 16px; margin: 22px 0 6px; }\n"
    "h4 { font-size: 14px; margin: 10px 0 4px; }\n"
    "p.sub { color: #555; margin: 0 0 10px; }\n"
    ".cards { display: flex; flex-wrap: wrap; gap: 10px; margin: 8px 0; }\n"
    ".card { border: 1px solid #ccd; border-radius: 6px; padding: 6px 12px; "
    "background: #f6f8fc; min-width: 110px; }\n"
    ".card .v { font-size: 18px; font-weight: bold; }\n"
    ".card .k { font-size: 12px; color: #555; }\n"
    ".card.hot { background: #fdecea; border-color: #e5a49c; }\n"
    "table { border-collapse: collapse; margin: 6px 0 12px; }\n"
    "th, td { border: 1px solid #ddd; padding: 2px 8px; text-align: left; "
    "vertical-align: top; }\n"
    "th { background: #eef1f6; font-weight: 600; }\n"
    "tbody tr:nth-child(even) { background: #fafafa; }\n"
    "td.num { text-align: right; white-space: nowrap; "
    "font-variant-numeric: tabular-nums; }\n"
    "td.code { font-family: DejaVu Sans Mono, monospace; font-size: 12px; "
    "white-space: pre-wrap; word-break: break-all; }\n"
    "td.bar { position: relative; min-width: 90px; white-space: nowrap; "
    "font-size: 12px; }\n"
    "td.bar span { position: absolute; left: 0; top: 2px; bottom: 2px; "
    "background: #1f5fbf; opacity: 0.18; }\n"
    "tr.peak { background: #fdecea !important; }\n"
    ".tag { background: #c0392b; color: #fff; border-radius: 3px; "
    "padding: 0 4px; font-size: 11px; font-family: sans-serif; }\n"
    "tr:target { background: #fff3b0 !important; outline: 2px solid #e0b800; "
    "}\n"
    "a { color: #1f5fbf; text-decoration: none; }\n"
    "a:hover { text-decoration: underline; }\n"
    "a.mref { font-weight: 600; }\n"
    ".scroll { overflow-x: auto; max-width: 100%; }\n"
    ".listing { max-height: 720px; overflow: auto; border: 1px solid #ddd; }\n"
    ".side { display: grid; grid-template-columns: 1fr 1fr; gap: 18px; }\n"
    ".side > div { min-width: 0; }\n"
    "pre { background: #f6f6f6; padding: 8px; font-size: 12px; "
    "white-space: pre-wrap; word-break: break-all; }\n"
    "nav li { margin: 2px 0; }\n";

std::string Card(const std::string &key, const std::string &value,
                 bool hot = false) {
  return std::string("<div class=\"card") + (hot ? " hot" : "") +
         "\"><div class=\"v\">" + XmlEscape(value) + "</div><div class=\"k\">" +
         XmlEscape(key) + "</div></div>";
}

std::string Seconds(double s) {
  std::ostringstream os;
  os.precision(3);
  os << s << " s";
  return os.str();
}

void WriteCards(const CompileInfo &info, std::ostream &os) {
  const CompileInfoStats &s =
      info.optimized ? info.optimized_stats : info.stats;
  os << "<div class=\"cards\">"
     << Card("peak memory" + std::string(info.optimized ? " (optimized)" : ""),
             HumanBytes(s.peak_memory_bytes), true);
  if (info.optimized)
    os << Card("peak memory (unoptimized)",
               HumanBytes(info.stats.peak_memory_bytes));
  os << Card("all matrices", HumanBytes(s.total_memory_bytes))
     << Card("commands", std::to_string(s.num_commands))
     << Card("matrices", std::to_string(s.num_matrices))
     << Card("steps", std::to_string(s.num_steps))
     << Card("cindexes", std::to_string(s.num_cindexes))
     << Card("compile time", Seconds(s.SecondsTotal()))
     << Card("shortcut",
             s.used_shortcut
                 ? "2 of " + std::to_string(s.num_n_values) + " sequences"
                 : "no")
     << "</div>\n";
}

void WriteIoRows(const std::vector<IoSpecification> &list, const char *kind,
                 std::ostream &os) {
  for (const IoSpecification &io : list)
    os << "<tr><td>" << kind << "</td><td>" << XmlEscape(io.name)
       << "</td><td class=\"num\">" << io.indexes.size() << "</td><td>"
       << XmlEscape(IndexRange(io.indexes)) << "</td><td>"
       << (io.has_deriv ? "yes" : "no") << "</td></tr>\n";
}

void WriteRequest(const CompileInfo &info, std::ostream &os) {
  const ComputationRequest &r = info.request;
  os << "<h3>Request</h3>\n<table class=\"request\">\n<thead><tr><th></th>"
        "<th>node</th><th>rows</th><th>indexes</th><th>derivative</th></tr>"
        "</thead>\n<tbody>\n";
  WriteIoRows(r.inputs, "input", os);
  WriteIoRows(r.outputs, "output", os);
  os << "</tbody></table>\n<p>need-model-derivative: "
     << (r.need_model_derivative ? "yes" : "no")
     << "; store-component-stats: " << (r.store_component_stats ? "yes" : "no")
     << "</p>\n<details><summary>the request in full</summary><pre>";
  std::ostringstream text;
  r.Print(text);
  os << XmlEscape(text.str()) << "</pre></details>\n";
}

// The unoptimized curve links to its listing only when that is shown
// (--show=before-after).
void WriteMemory(const CompileInfo &info, const ComputationHtml *before,
                 const ComputationHtml &after, const std::string &prefix,
                 bool before_listed, std::ostream &os) {
  std::vector<MemoryCurve> curves;
  curves.push_back({info.optimized ? "optimized" : "not optimized",
                    &after.Timeline(), after.CommandStrings(),
                    "#" + prefix + "a-c"});
  if (before != nullptr)
    curves.push_back({"unoptimized", &before->Timeline(),
                      before->CommandStrings(),
                      before_listed ? "#" + prefix + "b-c" : ""});
  os << "<h3>Memory</h3>\n<div class=\"scroll\">\n";
  SvgWriter svg(os);
  svg.Begin(kMemoryChartWidth, MemoryChartHeight(curves.size()), "memory",
            kMemoryChartCss);
  DrawMemoryChart(curves, "Live matrix memory after each command", &svg);
  svg.End();
  os << "</div>\n";
}

void WritePeaks(const ComputationHtml *before, const ComputationHtml &after,
                std::ostream &os) {
  os << "<h3>Where the memory goes: matrices live at the peak</h3>\n";
  if (before == nullptr) {
    after.WriteLiveAtPeak(os);
    return;
  }
  os << "<div class=\"side\"><div><h4>unoptimized</h4>\n";
  before->WriteLiveAtPeak(os);
  os << "</div><div><h4>optimized</h4>\n";
  after.WriteLiveAtPeak(os);
  os << "</div></div>\n";
}

void WriteListing(const ComputationHtml &html, const std::string &what,
                  std::ostream &os) {
  os << "<h4>" << XmlEscape(what)
     << ": commands</h4>\n<div class=\"listing\">\n";
  html.WriteCommands(os);
  os << "</div>\n<h4>" << XmlEscape(what) << ": matrices</h4>\n"
     << "<div class=\"listing\">\n";
  html.WriteMatrices(os);
  os << "</div>\n";
}

void WriteCommandsByType(const CompileInfo &info, std::ostream &os) {
  os << "<h3>Commands by type</h3>\n<table class=\"by-type\">\n<thead><tr>"
        "<th>command</th>"
     << (info.optimized ? "<th>unoptimized</th><th>optimized</th>"
                        : "<th>count</th>")
     << "</tr></thead>\n<tbody>\n";
  const CompileInfoStats &b = info.stats, &a = info.optimized_stats;
  for (int32_t t = 0; t < kNumCommandTypes; t++) {
    const int64_t nb = b.commands_by_type[t],
                  na = info.optimized ? a.commands_by_type[t] : 0;
    if (nb == 0 && na == 0) continue;
    os << "<tr><td>" << CommandTypeName(static_cast<CommandType>(t))
       << "</td><td class=\"num\">" << nb << "</td>";
    if (info.optimized) os << "<td class=\"num\">" << na << "</td>";
    os << "</tr>\n";
  }
  os << "</tbody></table>\n";
}

void WriteSteps(const Nnet &nnet, const CompileInfo &info,
                const CompileInfoShow &show, std::ostream &os) {
  os << "<h3>Steps</h3>\n<p class=\"sub\">What the compiler computes, step "
        "by step (the matrix numbers are those of the unoptimized "
        "computation).</p>\n<div class=\"scroll\">\n";
  WriteStepGraphSvg(nnet, info, ParseStepsLayout(show.steps_layout), os);
  os << "\n</div>\n";
}

void WriteEntry(const Nnet &nnet, const CompileInfoEntry &entry, size_t index,
                const CompileInfoShow &show, std::ostream &os) {
  const CompileInfo &info = entry.info;
  const std::string prefix = "r" + std::to_string(index + 1) + "-";
  const NnetComputation &shown =
      info.optimized ? info.optimized_computation : info.computation;
  ComputationHtml after(nnet, shown, prefix + "a-");
  std::unique_ptr<ComputationHtml> before;
  if (info.optimized)
    before.reset(new ComputationHtml(nnet, info.computation, prefix + "b-"));
  os << "<section id=\"r" << index + 1 << "\">\n<h2>"
     << XmlEscape(entry.heading.empty() ? "Computation" : entry.heading)
     << "</h2>\n";
  WriteCards(info, os);
  WriteRequest(info, os);
  WriteMemory(info, before.get(), after, prefix, show.before_after, os);
  WritePeaks(show.before_after ? before.get() : nullptr, after, os);
  WriteSteps(nnet, info, show, os);
  os << "<h3>Computation</h3>\n";
  if (show.before_after && before != nullptr) {
    os << "<div class=\"side\"><div>\n";
    WriteListing(*before, "unoptimized", os);
    os << "</div><div>\n";
    WriteListing(after, "optimized", os);
    os << "</div></div>\n";
  } else {
    WriteListing(after, info.optimized ? "optimized" : "not optimized", os);
  }
  WriteCommandsByType(info, os);
  os << "</section>\n";
}

}  // namespace

void WriteCompileInfoHtml(const Nnet &nnet,
                          const std::vector<CompileInfoEntry> &entries,
                          const CompileInfoShow &show, std::ostream &os) {
  const std::string title =
      "nnet3-compile-info" + (show.title.empty() ? "" : ": " + show.title);
  os << "<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" "
        "lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n<title>"
     << XmlEscape(title) << "</title>\n<style>\n"
     << kPageCss << "</style>\n</head>\n<body>\n<h1>" << XmlEscape(title)
     << "</h1>\n<p class=\"sub\">" << entries.size()
     << (entries.size() == 1 ? " compiled request" : " compiled requests")
     << ". Hover over the memory curve for the command at each point; "
        "click it, or a matrix, to go to its listing.</p>\n";
  if (entries.size() > 1) {
    os << "<nav><ul>\n";
    for (size_t i = 0; i < entries.size(); i++)
      os << "<li><a href=\"#r" << i + 1 << "\">"
         << XmlEscape(entries[i].heading) << "</a></li>\n";
    os << "</ul></nav>\n";
  }
  for (size_t i = 0; i < entries.size(); i++)
    WriteEntry(nnet, entries[i], i, show, os);
  os << "</body>\n</html>\n";
}

void WriteCompileInfoSvg(const Nnet &nnet,
                         const std::vector<CompileInfoEntry> &entries,
                         const CompileInfoShow &show, std::ostream &os) {
  NNET3_ASSERT(!entries.empty());
  if (show.memory) {
    std::vector<ComputationHtml> after, before;
    after.reserve(entries.size());
    before.reserve(entries.size());
    std::vector<std::pair<std::string, std::vector<MemoryCurve>>> charts;
    for (size_t i = 0; i < entries.size(); i++) {
      const CompileInfo &info = entries[i].info;
      after.emplace_back(
          nnet, info.optimized ? info.optimized_computation : info.computation,
          "");
      std::vector<MemoryCurve> curves{
          {info.optimized ? "optimized" : "not optimized",
           &after.back().Timeline(), after.back().CommandStrings(), ""}};
      if (info.optimized) {
        before.emplace_back(nnet, info.computation, "");
        curves.push_back({"unoptimized", &before.back().Timeline(),
                          before.back().CommandStrings(), ""});
      }
      charts.emplace_back(entries[i].heading.empty()
                              ? "Live matrix memory after each command"
                              : entries[i].heading,
                          curves);
    }
    WriteMemoryChartsSvg(charts, os);
    return;
  }
  NNET3_ASSERT(show.steps);
  if (entries.size() > 1)
    NNET3_ERR << "--format=svg --show=steps draws one request, but the egs "
                 "have "
              << entries.size()
              << " distinct requests; add --max-requests=1 (or use "
                 "--format=html)";
  os << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  WriteStepGraphSvg(nnet, entries[0].info, ParseStepsLayout(show.steps_layout),
                    os);
}

}  // namespace nnet3
