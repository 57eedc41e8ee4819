// The memory timeline drawn as an SVG chart: live matrix bytes (y) after
// each command (x), one step curve per computation (e.g. before and after
// optimization), the peak of each marked and labelled, the start of the
// backward commands shown, and one hover area per command whose tooltip is
// the command and whose link goes to its listing. Presentation only: the
// numbers are those of ComputeMemoryTimeline (memory-timeline.h).
//
//   MemoryCurve after{"optimized", &timeline, command_strings, "#a-c"};
//   SvgWriter svg(os);
//   svg.Begin(kMemoryChartWidth, MemoryChartHeight(1), "memory",
//             kMemoryChartCss);
//   DrawMemoryChart({after}, "Request 1", &svg);
//   svg.End();
//   // or the whole standalone document:
//   WriteMemoryChartsSvg({{"Request 1", {after}}}, os);
//
// For tests and tools, each curve's <polyline> carries data-bytes (the
// bytes after each command, space-separated), data-peak-bytes and
// data-peak-command, and the peak marker (<circle class="mc-peak-…">)
// data-peak-bytes; the marker sits on the curve's highest point.
#ifndef NNET3_COMPILE_MEMORY_CHART_H_
#define NNET3_COMPILE_MEMORY_CHART_H_

#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "compile/memory-timeline.h"
#include "compile/svg-writer.h"

namespace nnet3 {

struct MemoryCurve {
  std::string label;  // "optimized", "unoptimized"
  const MemoryTimeline *timeline = nullptr;
  std::vector<std::string> command_text;  // per command (tooltips); or empty
  std::string command_link_prefix;        // "#a-c" links c17 to #a-c17; "" none
};

extern const double kMemoryChartWidth;
extern const char *const kMemoryChartCss;

// The height of one chart with `num_curves` curves.
double MemoryChartHeight(size_t num_curves);

// Draws one chart (at most 2 curves; the first is drawn on top) with its
// top-left corner at the writer's origin.
void DrawMemoryChart(const std::vector<MemoryCurve> &curves,
                     const std::string &title, SvgWriter *svg);

// A standalone SVG document: the charts stacked top to bottom.
void WriteMemoryChartsSvg(
    const std::vector<std::pair<std::string, std::vector<MemoryCurve>>> &charts,
    std::ostream &os);

}  // namespace nnet3

#endif  // NNET3_COMPILE_MEMORY_CHART_H_
