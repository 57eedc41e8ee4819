// nnet3-compile-info's pictures: escaping, command linking, the HTML of a
// computation and the memory chart (well-formedness is checked by a real
// XML parser in tests/cli/nnet3-compile-info.sh).
#include <catch2/catch.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "compile/computation-html.h"
#include "compile/memory-chart.h"
#include "compile/svg-writer.h"
#include "computation-test-utils.h"

using namespace nnet3;

namespace {

int Count(const std::string &text, const std::string &what) {
  int n = 0;
  for (size_t i = text.find(what); i != std::string::npos;
       i = text.find(what, i + 1))
    n++;
  return n;
}

}  // namespace

TEST_CASE("XML escaping, byte and number formats", "[compile-info-view]") {
  CHECK(XmlEscape("a<b>&\"c'") == "a&lt;b&gt;&amp;&quot;c&#39;");
  CHECK(HumanBytes(0) == "0 B");
  CHECK(HumanBytes(1023) == "1023 B");
  CHECK(HumanBytes(1536) == "1.50 KiB");
  CHECK(HumanBytes(20 * 1024 * 1024) == "20.0 MiB");
  CHECK(SvgNumber(12.0) == "12");
  CHECK(SvgNumber(12.25) == "12.3");
  CHECK(SvgNumber(-0.01) == "0");
}

TEST_CASE("command text links matrices outside quotes", "[compile-info-view]") {
  std::vector<int32_t> used;
  const std::string html = LinkCommandText(
      "component-node 'm2' propagate: m1 -> m12(0:4, :) [memo=1]", "r1-a-",
      &used);
  CHECK(used == std::vector<int32_t>{1, 12});
  CHECK(html ==
        "component-node &#39;m2&#39; propagate: <a class=\"mref\" "
        "href=\"#r1-a-m1\">m1</a> -&gt; <a class=\"mref\" "
        "href=\"#r1-a-m12\">m12</a>(0:4, :) [memo=1]");
  used.clear();
  CHECK(LinkCommandText("goto c5", "p-", &used) ==
        "goto <a href=\"#p-c5\">c5</a>");
  CHECK(used.empty());
  // Not matrices: part of a longer name, or a number glued to letters.
  LinkCommandText("m2.Compress(uint8, range=10) xm3 m4a", "", &used);
  CHECK(used == std::vector<int32_t>{2});
}

TEST_CASE("long command text folds into details", "[compile-info-view]") {
  std::string text = "m4 = m3.CopyRows([";
  for (int i = 0; i < 200; i++) text += std::to_string(i * 2) + " ";
  text += "m7])";
  const std::string html = CommandCellHtml(text, "p-");
  CHECK(html.find("<details><summary>... ") != std::string::npos);
  CHECK(html.find("href=\"#p-m4\"") < html.find("<details>"));
  CHECK(html.find("href=\"#p-m7\"") > html.find("<details>"));
  CHECK(CommandCellHtml("m1 = 0", "") ==
        "<a class=\"mref\" href=\"#m1\">m1</a> = 0");
}

TEST_CASE("HTML of a computation: anchors, peak, live matrices",
          "[compile-info-view]") {
  const Nnet nnet = SmallNnet();
  const NnetComputation c = SmallComputation(true);
  ComputationHtml html(nnet, c, "x-");
  std::ostringstream commands, matrices, peak;
  html.WriteCommands(commands);
  html.WriteMatrices(matrices);
  html.WriteLiveAtPeak(peak);
  CHECK(Count(commands.str(), "<tr id=\"x-c") == 25);
  CHECK(Count(commands.str(), "class=\"peak\"") == 1);
  CHECK(commands.str().find("<tr id=\"x-c15\" class=\"peak\">") !=
        std::string::npos);
  CHECK(Count(matrices.str(), "<tr id=\"x-m") == 8);
  // Every matrix link has a definition.
  for (int m = 1; m <= 8; m++)
    CHECK(commands.str().find("href=\"#x-m" + std::to_string(m) + "\"") !=
          std::string::npos);
  // Live at the peak: 8 matrices, the 80-byte m1 first, named by node.
  const std::string p = peak.str();
  CHECK(p.find("8 matrices hold 520 B") != std::string::npos);
  const size_t m1 = p.find("href=\"#x-m1\""), m2 = p.find("href=\"#x-m2\"");
  CHECK(m1 != std::string::npos);
  CHECK(m1 < m2);
  CHECK(p.find("deriv of affine2") != std::string::npos);
}

TEST_CASE("memory chart: data attributes and peak marker on the curve",
          "[compile-info-view]") {
  const NnetComputation c = SmallComputation(false);
  MemoryTimeline t;
  ComputeMemoryTimeline(c, &t);
  std::ostringstream os;
  WriteMemoryChartsSvg({{"small", {MemoryCurve{"optimized", &t, {}, ""}}}}, os);
  const std::string svg = os.str();
  CHECK(svg.find("data-bytes=\"80 140 140 200") != std::string::npos);
  CHECK(Count(svg, "data-peak-bytes=\"520\"") == 2);  // curve and marker
  CHECK(svg.find("data-peak-command=\"15\"") != std::string::npos);
  CHECK(svg.find("peak 520 B after c15") != std::string::npos);
  CHECK(Count(svg, "class=\"mc-hover\"") == 25);
  CHECK(svg.find("<script") == std::string::npos);
}
