#include "compile/steps-svg.h"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <vector>

#include "base/error.h"
#include "compile/compile-info-steps.h"
#include "compile/svg-writer.h"
#include "util/subprocess.h"

namespace nnet3 {

namespace {

const double kBoxWidth = 236, kBoxHeight = 56, kGapX = 28, kGapY = 38,
             kMargin = 16, kTop = 30;

const char *const kStepsCss =
    "svg.steps text { font-family: DejaVu Sans, Helvetica, Arial, "
    "sans-serif; font-size: 11px; fill: #222; }\n"
    ".sg-title { font-size: 13px; font-weight: bold; }\n"
    ".sg-box { stroke: #555; stroke-width: 1; }\n"
    ".sg-input { fill: #e3f1dc; }\n"
    ".sg-component { fill: #dde8f7; }\n"
    ".sg-output { fill: #f9e0d0; }\n"
    ".sg-other { fill: #f2f2f2; }\n"
    ".sg-name { font-weight: bold; }\n"
    ".sg-detail { fill: #555; }\n"
    ".sg-edge { fill: none; stroke: #777; stroke-width: 1.2; }\n"
    ".sg-arrow { fill: #777; stroke: none; }\n";

struct Layout {
  std::vector<int32_t> layer;  // per step
  int32_t num_columns = 1;
  std::vector<double> x, y;  // top-left corner per step
  double width = 0, height = 0;
};

// Layers of a deep graph are wrapped into columns of at most this many, so
// that a long chain reads as a few columns instead of one tall one.
const int32_t kMaxLayersPerColumn = 10;

std::vector<int32_t> LayerOfSteps(const StepGraph &graph, int32_t *num_layers) {
  const size_t n = graph.steps.size();
  std::vector<int32_t> layer(n, 0);
  *num_layers = 0;
  for (size_t s = 0; s < n; s++) {
    for (int32_t d : graph.steps[s].deps)
      if (d >= 0 && static_cast<size_t>(d) < s)
        layer[s] = std::max(layer[s], layer[d] + 1);
    *num_layers = std::max(*num_layers, layer[s] + 1);
  }
  return layer;
}

Layout PlainLayout(const StepGraph &graph) {
  const size_t n = graph.steps.size();
  Layout l;
  int32_t num_layers = 0;
  l.layer = LayerOfSteps(graph, &num_layers);
  std::vector<std::vector<int32_t>> members(num_layers);
  for (size_t s = 0; s < n; s++)
    members[l.layer[s]].push_back(static_cast<int32_t>(s));
  size_t widest = 1;
  for (const auto &m : members) widest = std::max(widest, m.size());
  l.num_columns =
      std::max(1, (num_layers + kMaxLayersPerColumn - 1) / kMaxLayersPerColumn);
  const int32_t num_columns = l.num_columns;
  const int32_t per_column = (num_layers + num_columns - 1) / num_columns;
  const double column_width = widest * kBoxWidth + (widest + 1) * kGapX;
  l.width = 2 * kMargin + num_columns * column_width;
  l.height =
      kTop + 2 * kMargin + std::max(per_column, 1) * (kBoxHeight + kGapY);
  l.x.assign(n, 0);
  l.y.assign(n, 0);
  for (int32_t layer = 0; layer < num_layers; layer++) {
    const std::vector<int32_t> &m = members[layer];
    const int32_t column = layer / per_column, row = layer % per_column;
    const double width = m.size() * kBoxWidth + (m.size() - 1) * kGapX;
    for (size_t i = 0; i < m.size(); i++) {
      l.x[m[i]] = kMargin + column * column_width + (column_width - width) / 2 +
                  i * (kBoxWidth + kGapX);
      l.y[m[i]] = kTop + kMargin + row * (kBoxHeight + kGapY);
    }
  }
  return l;
}

std::string BoxClass(const Nnet &nnet, const StepGraph::Step &step) {
  if (step.node_index < 0) return "sg-box sg-other";
  if (nnet.IsInputNode(step.node_index)) return "sg-box sg-input";
  if (nnet.IsOutputNode(step.node_index)) return "sg-box sg-output";
  if (nnet.IsComponentNode(step.node_index)) return "sg-box sg-component";
  return "sg-box sg-other";
}

std::string Shorten(const std::string &s, size_t max) {
  return s.size() <= max ? s : s.substr(0, max - 3) + "...";
}

std::string MatrixText(const NnetComputation &c, int32_t value, int32_t deriv) {
  auto one = [&](int32_t m) {
    if (m <= 0 || m >= static_cast<int32_t>(c.matrices.size()))
      return std::string();
    return "m" + std::to_string(m) + " " +
           std::to_string(c.matrices[m].num_rows) + "x" +
           std::to_string(c.matrices[m].num_cols);
  };
  std::string ans = value > 0 ? one(value) : "(a view: no matrix)";
  if (deriv > 0) ans += ", deriv " + one(deriv);
  return ans;
}

// An edge down to a later layer: a curve from the bottom of one box to the
// top of the other. An edge to the top of a later column: down, right into
// the gap after the source's box, up above the boxes, across, and down.
std::string EdgePath(const Layout &l, int32_t from, int32_t to) {
  const double x1 = l.x[from] + kBoxWidth / 2, y1 = l.y[from] + kBoxHeight;
  const double x2 = l.x[to] + kBoxWidth / 2, y2 = l.y[to] - 7;
  std::ostringstream path;
  path << "M" << SvgNumber(x1) << " " << SvgNumber(y1);
  if (y2 > y1) {
    const double mid = (y2 - y1) / 2;
    path << " C" << SvgNumber(x1) << " " << SvgNumber(y1 + mid) << " "
         << SvgNumber(x2) << " " << SvgNumber(y2 - mid) << " " << SvgNumber(x2)
         << " " << SvgNumber(y2);
    return path.str();
  }
  const double below = y1 + kGapY / 3, gap = l.x[from] + kBoxWidth + kGapX,
               above = kTop + kMargin - 10;
  path << " L" << SvgNumber(x1) << " " << SvgNumber(below) << " L"
       << SvgNumber(gap) << " " << SvgNumber(below) << " L" << SvgNumber(gap)
       << " " << SvgNumber(above) << " L" << SvgNumber(x2) << " "
       << SvgNumber(above) << " L" << SvgNumber(x2) << " " << SvgNumber(y2);
  return path.str();
}

void DrawEdges(const StepGraph &graph, const Layout &l, SvgWriter *svg) {
  for (size_t s = 0; s < graph.steps.size(); s++)
    for (int32_t d : graph.steps[s].deps) {
      if (d < 0 || static_cast<size_t>(d) >= s) continue;
      svg->Path(EdgePath(l, d, static_cast<int32_t>(s)), "sg-edge");
      const double x2 = l.x[s] + kBoxWidth / 2, y2 = l.y[s] - 1;
      std::ostringstream arrow;
      arrow << "M" << SvgNumber(x2) << " " << SvgNumber(y2) << " l-4 -7 l8 0 Z";
      svg->Path(arrow.str(), "sg-arrow");
    }
}

void DrawBoxes(const Nnet &nnet, const CompileInfo &info,
               const StepGraph &graph, const Layout &l, SvgWriter *svg) {
  for (size_t s = 0; s < graph.steps.size(); s++) {
    const StepGraph::Step &step = graph.steps[s];
    const double x = l.x[s], y = l.y[s];
    const std::string matrices =
        MatrixText(info.computation, step.value_matrix, step.deriv_matrix);
    svg->Rect(x, y, kBoxWidth, kBoxHeight, BoxClass(nnet, step),
              "step " + std::to_string(s) + ": " + step.node + "\n" +
                  std::to_string(step.num_rows) + " rows, " + step.rows + "\n" +
                  matrices,
              6);
    svg->Text(x + 8, y + 16,
              Shorten("step " + std::to_string(s) + ": " + step.node, 36),
              "sg-name");
    svg->Text(
        x + 8, y + 32,
        Shorten(std::to_string(step.num_rows) + " rows: " + step.rows, 40),
        "sg-detail");
    svg->Text(x + 8, y + 47, Shorten(matrices, 40), "sg-detail");
  }
}

// Everything from "<svg" on (dot writes a prolog, a doctype and comments
// first).
std::string SvgElement(const std::string &text) {
  const size_t start = text.find("<svg");
  if (start == std::string::npos)
    NNET3_ERR << "Graphviz 'dot' wrote no <svg> element for the steps graph";
  return text.substr(start);
}

}  // namespace

StepsLayout ParseStepsLayout(const std::string &name) {
  if (name == "auto") return StepsLayout::kAuto;
  if (name == "dot") return StepsLayout::kDot;
  if (name != "plain")
    NNET3_ERR << "--steps-layout: unknown layout '" << name
              << "' (expected auto, dot or plain)";
  return StepsLayout::kPlain;
}

void WriteStepGraphSvgPlain(const Nnet &nnet, const CompileInfo &info,
                            std::ostream &os) {
  StepGraph graph;
  BuildStepGraph(nnet, info, &graph);
  const Layout l = PlainLayout(graph);
  SvgWriter svg(os);
  svg.Begin(std::max(l.width, 520.0), l.height, "steps", kStepsCss);
  svg.Text(
      kMargin, 20,
      "Steps (" + std::to_string(graph.steps.size()) + "), top to bottom" +
          (l.num_columns > 1 ? std::string(" in columns") : std::string()) +
          "; arrows: what each step reads" +
          (info.stats.used_shortcut ? " (two-sequence request)" : ""),
      "sg-title");
  DrawEdges(graph, l, &svg);
  DrawBoxes(nnet, info, graph, l, &svg);
  svg.End();
}

bool RunDotForStepGraph(const Nnet &nnet, const CompileInfo &info,
                        std::string *svg) {
  const char *tmpdir = std::getenv("TMPDIR");
  std::string path =
      std::string(tmpdir && *tmpdir ? tmpdir : "/tmp") + "/nnet3-steps-XXXXXX";
  std::vector<char> name(path.begin(), path.end());
  name.push_back('\0');
  const int fd = mkstemp(name.data());
  if (fd < 0) NNET3_ERR << "Cannot create a temporary file in " << path;
  std::ostringstream dot;
  PrintStepGraphDot(nnet, info, dot);
  const std::string text = dot.str();
  const bool wrote =
      write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  close(fd);
  std::string out;
  int status = 0;
  if (wrote) {
    Subprocess p;
    const int in =
        p.Start("dot -Tsvg '" + std::string(name.data()) + "' 2>/dev/null",
                SubprocessDirection::kReadFromCommand);
    char buf[65536];
    ssize_t n;
    while ((n = read(in, buf, sizeof(buf))) > 0) out.append(buf, n);
    close(in);
    status = p.Wait();
  }
  unlink(name.data());
  if (!wrote) NNET3_ERR << "Cannot write the temporary file " << name.data();
  if (WIFEXITED(status) && WEXITSTATUS(status) == 127) return false;
  if (!ExitStatusOk(status, false))
    NNET3_ERR << "Graphviz 'dot -Tsvg' failed on the steps graph ("
              << DescribeExitStatus(status)
              << "); use --steps-layout=plain to draw it without Graphviz";
  *svg = SvgElement(out);
  return true;
}

void WriteStepGraphSvg(const Nnet &nnet, const CompileInfo &info,
                       StepsLayout layout, std::ostream &os) {
  if (layout != StepsLayout::kPlain) {
    std::string svg;
    if (RunDotForStepGraph(nnet, info, &svg)) {
      os << svg;
      return;
    }
    if (layout == StepsLayout::kDot)
      NNET3_ERR << "--steps-layout=dot: Graphviz 'dot' is not installed "
                   "(apt-get install graphviz), or use --steps-layout=plain";
  }
  WriteStepGraphSvgPlain(nnet, info, os);
}

}  // namespace nnet3
