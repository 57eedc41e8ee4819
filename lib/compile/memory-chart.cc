#include "compile/memory-chart.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "base/error.h"

namespace nnet3 {

const double kMemoryChartWidth = 960;

const char *const kMemoryChartCss =
    "svg.memory text { font-family: DejaVu Sans, Helvetica, Arial, "
    "sans-serif; font-size: 12px; fill: #222; }\n"
    ".mc-title { font-size: 15px; font-weight: bold; }\n"
    ".mc-frame { fill: #fcfcfc; stroke: #999; stroke-width: 1; }\n"
    ".mc-grid { stroke: #e2e2e2; stroke-width: 1; }\n"
    ".mc-axis-label { fill: #555; }\n"
    ".mc-curve-0 { fill: none; stroke: #1f5fbf; stroke-width: 2; }\n"
    ".mc-curve-1 { fill: none; stroke: #d9822b; stroke-width: 1.5; "
    "stroke-dasharray: 6 3; }\n"
    ".mc-area-0 { fill: #1f5fbf; fill-opacity: 0.13; stroke: none; }\n"
    ".mc-area-1 { fill: #d9822b; fill-opacity: 0.07; stroke: none; }\n"
    ".mc-peak-0, .mc-peak-1 { stroke: #fff; stroke-width: 1.5; }\n"
    ".mc-peak-0 { fill: #c0392b; }\n"
    ".mc-peak-1 { fill: #d9822b; }\n"
    ".mc-peak-label { font-weight: bold; }\n"
    ".mc-backward { stroke: #777; stroke-width: 1; stroke-dasharray: 3 3; }\n"
    ".mc-hover { fill: #000; fill-opacity: 0; }\n"
    ".mc-hover:hover { fill-opacity: 0.08; }\n";

namespace {

const double kLeft = 92, kRight = 24, kPlotHeight = 210, kBottom = 44;

double PlotTop(size_t num_curves) { return 34 + 18.0 * num_curves + 8; }

// A round step so that [0, max] has at most `max_ticks` steps: 1, 2 or 5
// times a power of `base` (1024-based bytes use 1, 2, 5 x 10^k of a unit).
double NiceStep(double max, int max_ticks) {
  if (max <= 0) return 1;
  const double raw = max / max_ticks;
  const double p = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * p >= raw) return m * p;
  return 10 * p;
}

// Byte ticks: round numbers of the unit that suits `max`.
double ByteStep(int64_t max) {
  double unit = 1;
  while (max / unit >= 1024 && unit < 1024.0 * 1024 * 1024) unit *= 1024;
  return unit * NiceStep(max / unit, 5);
}

struct Scale {
  double plot_top = 0, plot_width = 0;
  double num_commands = 1, max_bytes = 1;
  double X(double command) const {
    return kLeft + plot_width * command / num_commands;
  }
  double Y(double bytes) const {
    return plot_top + kPlotHeight * (1.0 - bytes / max_bytes);
  }
};

Scale MakeScale(const std::vector<MemoryCurve> &curves) {
  Scale s;
  s.plot_top = PlotTop(curves.size());
  s.plot_width = kMemoryChartWidth - kLeft - kRight;
  int64_t peak = 0;
  size_t commands = 1;
  for (const MemoryCurve &c : curves) {
    peak = std::max(peak, c.timeline->peak_bytes);
    commands = std::max(commands, c.timeline->bytes_after.size());
  }
  s.num_commands = static_cast<double>(commands);
  const double step = ByteStep(std::max<int64_t>(peak, 1));
  s.max_bytes = std::max(step, std::ceil(peak / step) * step);
  return s;
}

void DrawAxes(const Scale &s, SvgWriter *svg) {
  const double bottom = s.plot_top + kPlotHeight;
  svg->Rect(kLeft, s.plot_top, s.plot_width, kPlotHeight, "mc-frame");
  const double ystep = ByteStep(static_cast<int64_t>(s.max_bytes));
  for (double b = 0; b <= s.max_bytes + 0.5; b += ystep) {
    svg->Line(kLeft, s.Y(b), kLeft + s.plot_width, s.Y(b), "mc-grid");
    svg->Text(kLeft - 6, s.Y(b) + 4, HumanBytes(static_cast<int64_t>(b)),
              "mc-axis-label", SvgWriter::kEnd);
  }
  const double xstep = std::max(1.0, NiceStep(s.num_commands, 10));
  for (double k = 0; k <= s.num_commands; k += xstep) {
    svg->Line(s.X(k), bottom, s.X(k), bottom + 4, "mc-grid");
    svg->Text(s.X(k), bottom + 17, "c" + std::to_string(static_cast<int>(k)),
              "mc-axis-label", SvgWriter::kMiddle);
  }
  svg->Text(kLeft + s.plot_width / 2, bottom + 36,
            "command (live matrix bytes after each command)", "mc-axis-label",
            SvgWriter::kMiddle);
}

std::string DataAttributes(const MemoryTimeline &t) {
  std::ostringstream os;
  os << "data-bytes=\"";
  for (size_t k = 0; k < t.bytes_after.size(); k++)
    os << (k == 0 ? "" : " ") << t.bytes_after[k];
  os << "\" data-peak-bytes=\"" << t.peak_bytes << "\" data-peak-command=\""
     << t.peak_command << "\"";
  return os.str();
}

// The step curve: command k holds bytes_after[k] over [k, k+1].
void DrawCurve(const MemoryCurve &c, size_t index, const Scale &s,
               SvgWriter *svg) {
  const MemoryTimeline &t = *c.timeline;
  std::vector<std::pair<double, double>> points;
  points.emplace_back(s.X(0), s.Y(0));
  for (size_t k = 0; k < t.bytes_after.size(); k++) {
    points.emplace_back(s.X(k), s.Y(t.bytes_after[k]));
    points.emplace_back(s.X(k + 1), s.Y(t.bytes_after[k]));
  }
  std::ostringstream area;
  for (size_t i = 0; i < points.size(); i++)
    area << (i == 0 ? "M" : " L") << SvgNumber(points[i].first) << " "
         << SvgNumber(points[i].second);
  area << " L" << SvgNumber(points.back().first) << " " << SvgNumber(s.Y(0))
       << " Z";
  const std::string n = std::to_string(index);
  svg->Path(area.str(), "mc-area-" + n);
  svg->Polyline(points, "mc-curve-" + n, DataAttributes(t));
}

std::string CommandTitle(const MemoryCurve &c, size_t k) {
  std::string title = c.label + " c" + std::to_string(k);
  if (k < c.command_text.size()) title += ": " + c.command_text[k];
  return title + "\nlive after it: " + HumanBytes(c.timeline->bytes_after[k]);
}

// Per command, a transparent column under the curve with a tooltip and a
// link to the command's listing.
void DrawHoverAreas(const MemoryCurve &c, const Scale &s, SvgWriter *svg) {
  const MemoryTimeline &t = *c.timeline;
  const double bottom = s.plot_top + kPlotHeight;
  for (size_t k = 0; k < t.bytes_after.size(); k++) {
    const double top = std::min(s.Y(t.bytes_after[k]), bottom - 6);
    const bool link = !c.command_link_prefix.empty();
    if (link) svg->BeginLink(c.command_link_prefix + std::to_string(k));
    svg->Rect(s.X(k), top, s.X(k + 1) - s.X(k), bottom - top, "mc-hover",
              CommandTitle(c, k));
    if (link) svg->EndLink();
  }
}

void DrawPeak(const MemoryCurve &c, size_t index, const Scale &s,
              SvgWriter *svg) {
  const MemoryTimeline &t = *c.timeline;
  if (t.peak_command < 0) return;
  const double x = s.X(t.peak_command + 0.5), y = s.Y(t.peak_bytes);
  const std::string label = "peak " + HumanBytes(t.peak_bytes) + " after c" +
                            std::to_string(t.peak_command);
  const bool right_half = x > kLeft + 0.6 * (kMemoryChartWidth - kLeft);
  svg->Text(x + (right_half ? -9 : 9), y - 8 + 14.0 * index, label,
            "mc-peak-label", right_half ? SvgWriter::kEnd : SvgWriter::kStart);
  svg->Circle(x, y, 5, "mc-peak-" + std::to_string(index),
              c.label + ": " + label,
              "data-peak-bytes=\"" + std::to_string(t.peak_bytes) + "\"");
}

void DrawLegend(const std::vector<MemoryCurve> &curves, SvgWriter *svg) {
  for (size_t i = 0; i < curves.size(); i++) {
    const MemoryTimeline &t = *curves[i].timeline;
    const double y = 40 + 18.0 * i;
    svg->Line(kLeft, y - 4, kLeft + 28, y - 4, "mc-curve-" + std::to_string(i));
    svg->Text(
        kLeft + 36, y,
        curves[i].label + ": " + std::to_string(t.bytes_after.size()) +
            " commands, peak " + HumanBytes(t.peak_bytes) +
            (t.peak_command >= 0 ? " after c" + std::to_string(t.peak_command)
                                 : ""),
        "");
  }
}

void DrawBackwardMarkers(const std::vector<MemoryCurve> &curves, const Scale &s,
                         SvgWriter *svg) {
  for (size_t i = 0; i < curves.size(); i++) {
    const int32_t k = curves[i].timeline->backward_command;
    if (k < 0) continue;
    svg->Line(s.X(k), s.plot_top, s.X(k), s.plot_top + kPlotHeight,
              "mc-backward");
    svg->Text(s.X(k) + 4, s.plot_top + 13 + 14.0 * i,
              "backward" + (curves.size() > 1 ? " (" + curves[i].label + ")"
                                              : std::string()),
              "mc-axis-label");
  }
}

}  // namespace

double MemoryChartHeight(size_t num_curves) {
  return PlotTop(num_curves) + kPlotHeight + kBottom;
}

void DrawMemoryChart(const std::vector<MemoryCurve> &curves,
                     const std::string &title, SvgWriter *svg) {
  NNET3_ASSERT(!curves.empty() && curves.size() <= 2);
  for (const MemoryCurve &c : curves) NNET3_ASSERT(c.timeline != nullptr);
  const Scale s = MakeScale(curves);
  svg->Text(kLeft, 20, title, "mc-title");
  DrawLegend(curves, svg);
  DrawAxes(s, svg);
  // The second curve (e.g. "unoptimized") underneath the first.
  for (size_t i = curves.size(); i-- > 0;) DrawCurve(curves[i], i, s, svg);
  DrawBackwardMarkers(curves, s, svg);
  for (size_t i = curves.size(); i-- > 0;) DrawHoverAreas(curves[i], s, svg);
  for (size_t i = curves.size(); i-- > 0;) DrawPeak(curves[i], i, s, svg);
}

void WriteMemoryChartsSvg(
    const std::vector<std::pair<std::string, std::vector<MemoryCurve>>> &charts,
    std::ostream &os) {
  double height = 0;
  for (const auto &chart : charts)
    height += MemoryChartHeight(chart.second.size());
  os << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  SvgWriter svg(os);
  svg.Begin(kMemoryChartWidth, height, "memory", kMemoryChartCss);
  double y = 0;
  for (const auto &chart : charts) {
    svg.BeginGroup("mc-chart", 0, y);
    DrawMemoryChart(chart.second, chart.first, &svg);
    svg.EndGroup();
    y += MemoryChartHeight(chart.second.size());
  }
  svg.End();
}

}  // namespace nnet3
