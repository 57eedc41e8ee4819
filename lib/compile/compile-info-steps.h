// The steps of a CompileInfo as a graph: per step its node, its rows, the
// matrices holding its value and derivative, and the steps it reads. What
// nnet3-compile-info draws (Graphviz dot, or SVG in compile-info-svg.h).
//
//   StepGraph graph;
//   BuildStepGraph(nnet, info, &graph);
//   for (const StepGraph::Step &s : graph.steps) ... s.deps ...
//
// Matrices are found through the compiler's debug info (the computation
// before optimization; with the shortcut the two-sequence computation,
// whose matrix numbers the expanded one keeps), so the numbers are those
// of info.computation. A step reads its dependencies as the compiler sees
// them: a component step its component-input step (just before it); a
// step of any other node the steps of the cindexes it depends on.
#ifndef NNET3_COMPILE_COMPILE_INFO_STEPS_H_
#define NNET3_COMPILE_COMPILE_INFO_STEPS_H_

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "compile/compile-info.h"
#include "nnet/nnet.h"

namespace nnet3 {

struct StepGraph {
  struct Step {
    std::string node;         // "(empty)" for an empty step
    int32_t node_index = -1;  // -1 for an empty step
    std::string rows;         // IndexRange of its indexes
    int32_t num_rows = 0;
    bool is_input = false;      // an input node's step
    int32_t value_matrix = 0;   // 0: none (e.g. a dim-range step, a view)
    int32_t deriv_matrix = 0;   // 0: none
    std::vector<int32_t> deps;  // earlier steps it reads, sorted
  };
  std::vector<Step> steps;
};

void BuildStepGraph(const Nnet &nnet, const CompileInfo &info,
                    StepGraph *graph);

// The graph as a Graphviz digraph "compilation": steps are boxes, their
// value matrices ellipses (derivatives dashed); edges into a step are what
// it reads (nnet3-compile-info --format=dot).
void PrintStepGraphDot(const Nnet &nnet, const CompileInfo &info,
                       std::ostream &os);

// "n=0:1 t=-6:6": the ranges of n, t (blank rows, t = kNoTime, do not
// count) and x (only when not all 0); "no rows" if empty.
std::string IndexRange(const std::vector<Index> &indexes);

}  // namespace nnet3

#endif  // NNET3_COMPILE_COMPILE_INFO_STEPS_H_
