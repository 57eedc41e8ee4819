// The steps graph of a CompileInfo (compile-info-steps.h) as SVG: by our
// own plain layout (the default of nnet3-compile-info: steps in layers top
// to bottom, a step one layer below the deepest step it reads, deep graphs
// wrapped into columns; boxes coloured by node kind (input, component,
// output, other) with their rows and matrices; edges with arrowheads), or
// Graphviz `dot`'s layout of PrintStepGraphDot's graph when asked and
// installed.
//
//   WriteStepGraphSvg(nnet, info, StepsLayout::kAuto, os);  // an <svg>
//
// The output is one <svg> element without an XML prolog, to be embedded
// in HTML or written after a prolog. kDot is a UserError when `dot` cannot
// be run; kAuto falls back to the plain layout then.
#ifndef NNET3_COMPILE_STEPS_SVG_H_
#define NNET3_COMPILE_STEPS_SVG_H_

#include <ostream>
#include <string>

#include "compile/compile-info.h"
#include "nnet/nnet.h"

namespace nnet3 {

enum class StepsLayout { kAuto, kDot, kPlain };

// "auto", "dot" or "plain"; UserError (naming --steps-layout) otherwise.
StepsLayout ParseStepsLayout(const std::string &name);

void WriteStepGraphSvg(const Nnet &nnet, const CompileInfo &info,
                       StepsLayout layout, std::ostream &os);

// The plain layout, whatever is installed.
void WriteStepGraphSvgPlain(const Nnet &nnet, const CompileInfo &info,
                            std::ostream &os);

// Runs `dot -Tsvg` on the graph; false (and *svg untouched) when `dot` is
// not installed. UserError if it is installed but fails.
bool RunDotForStepGraph(const Nnet &nnet, const CompileInfo &info,
                        std::string *svg);

}  // namespace nnet3

#endif  // NNET3_COMPILE_STEPS_SVG_H_
