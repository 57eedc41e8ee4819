// Ordering a pruned computation graph into "steps": batches of cindexes of
// one node that are computed together by one command (seed
// nnet3-compilation, "Organizing the computation into steps").
//
//   std::vector<std::vector<int32_t>> phases, steps;
//   ComputeComputationPhases(nnet, graph, &phases);
//   ComputeComputationSteps(nnet, request, phases, &graph, &steps);
//
// Phases refine epochs (nnet-graph.h): the cindexes of each epoch, in epoch
// order, are split by dependency depth inside the epoch (one phase per t in
// an RNN layer; a whole feed-forward layer is one phase). Supplied inputs
// form epoch 0.
//
// The steps guarantee:
//  - each step holds cindexes of one node, and everything a cindex depends
//    on is in an earlier step;
//  - (a) the inputs come first and the outputs last, each input and output
//    of the request one step, in request order, with the request's Indexes
//    in the request's order;
//  - (b) a component step that is not an input is immediately preceded by
//    its component-input (descriptor) step with the same Indexes in the same
//    order (for non-simple components, the Indexes its outputs need, sorted,
//    or as ReorderIndexes arranges them for kReordersIndexes components);
//  - (c) a dim-range step has exactly the Indexes of a step of its source
//    node, in the same order (cindexes are added to the graph as needed, with
//    the source cindex as their dependency);
//  - other steps list their Indexes sorted by Index::operator<.
// Every cindex of the graph is in a step; a component-input cindex of a
// non-simple component may be in several.
#ifndef NNET3_COMPILE_COMPUTATION_STEPS_H_
#define NNET3_COMPILE_COMPUTATION_STEPS_H_

#include <cstdint>
#include <vector>

#include "compile/computation-graph.h"
#include "compile/computation-request.h"
#include "nnet/nnet.h"

namespace nnet3 {

// Splits the cindex_ids of a pruned graph into phases (see above).
// InternalError for a cycle at the cindex level. Single-segment graphs.
void ComputeComputationPhases(const Nnet &nnet, const ComputationGraph &graph,
                              std::vector<std::vector<int32_t>> *phases);
// The same for a multi-segment graph (graph.segment_ends): the phases of
// each segment, made of that segment's cindexes only (a segment depends on
// earlier ones, which are computed before it).
void ComputeComputationPhasesPerSegment(
    const Nnet &nnet, const ComputationGraph &graph,
    std::vector<std::vector<std::vector<int32_t>>> *phases_per_segment);

// Turns phases into steps (lists of cindex_ids); may add cindexes to
// `graph` (rules (b) and (c) above).
void ComputeComputationSteps(const Nnet &nnet,
                             const ComputationRequest &request,
                             const std::vector<std::vector<int32_t>> &phases,
                             ComputationGraph *graph,
                             std::vector<std::vector<int32_t>> *steps);
// Multi-segment: the steps of segment 0, then of segment 1, ... (each with
// rules (a)-(c) for its own request); (*step_to_segment)[s] is the segment
// of step s.
void ComputeComputationSteps(
    const Nnet &nnet, const std::vector<const ComputationRequest *> &requests,
    const std::vector<std::vector<std::vector<int32_t>>> &phases_per_segment,
    ComputationGraph *graph, std::vector<std::vector<int32_t>> *steps,
    std::vector<int32_t> *step_to_segment);

}  // namespace nnet3

#endif  // NNET3_COMPILE_COMPUTATION_STEPS_H_
