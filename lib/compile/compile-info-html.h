// nnet3-compile-info --format=html: one self-contained page (inline CSS
// and SVG, no scripts, nothing fetched) per run, with a section per
// compiled request: the request, the statistics, the memory timeline
// before and after optimization with the peak marked (memory-chart.h), the
// matrices live at the peak (largest first, and summed by node), the steps
// graph (steps-svg.h) and the optimized command list with its matrices;
// with --show=before-after the unoptimized and optimized command lists and
// peaks side by side. Also --format=svg: the memory timeline (or the steps
// graph) alone.
//
//   std::vector<CompileInfoEntry> entries = ...;   // compile-info.h
//   WriteCompileInfoHtml(nnet, entries, show, std::cout);
//   WriteCompileInfoSvg(nnet, entries, show, std::cout);
//
// The page is polyglot XHTML: an XML parser reads it as well as an HTML
// one. Anchors: r<i>-a-c<k> / r<i>-a-m<j> for the optimized computation of
// entry i (from 1), r<i>-b-… for the unoptimized one.
#ifndef NNET3_COMPILE_COMPILE_INFO_HTML_H_
#define NNET3_COMPILE_COMPILE_INFO_HTML_H_

#include <ostream>
#include <vector>

#include "compile/compile-info.h"
#include "nnet/nnet.h"

namespace nnet3 {

void WriteCompileInfoHtml(const Nnet &nnet,
                          const std::vector<CompileInfoEntry> &entries,
                          const CompileInfoShow &show, std::ostream &os);

// show.memory: the memory charts stacked (one per entry); else show.steps:
// the steps graph of the first entry. UserError otherwise.
void WriteCompileInfoSvg(const Nnet &nnet,
                         const std::vector<CompileInfoEntry> &entries,
                         const CompileInfoShow &show, std::ostream &os);

}  // namespace nnet3

#endif  // NNET3_COMPILE_COMPILE_INFO_HTML_H_
