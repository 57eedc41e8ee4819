// Adding the HMM self-loops to a graph built without them (Kaldi's
// AddSelfLoops, the add-self-loops program): HCLGa.fst -> HCLG.fst.
//
//   std::vector<int32_t> disambig_tids;   // sorted; may be empty
//   AddSelfLoops(trans_model, disambig_tids, /*self_loop_scale=*/0.1,
//                /*reorder=*/true, /*check_no_self_loops=*/true, &fst);
//
// The graph's input labels are transition-ids (forward transitions only),
// epsilon or disambiguation symbols. Each state is first split, as Kaldi
// does (input-symbol-classes.h), so that it needs at most one self-loop:
//  - reorder (the default): the arcs into a state all belong to one
//    transition state (the self-loop follows the forward transition, which
//    makes decoding faster); that state gets the self-loop, and its arcs
//    out and final weight are multiplied by the probability of leaving it;
//  - no reorder: the arcs out of a state all belong to one transition
//    state (the self-loop comes before the forward transition); those arcs
//    are multiplied by the probability of leaving it and the state gets the
//    self-loop.
// Self-loop arcs have the self-loop's transition-id as input, epsilon
// output and weight -self_loop_scale * log p(self-loop); the forward factor
// is p(leave)^self_loop_scale. The result is the FST Kaldi writes, state
// for state and arc for arc.
// UserError for an input label that is neither a transition-id, epsilon,
// one of `disambig_tids` nor a grammar symbol (>= 10000000), for a graph
// that already has self-loops when check_no_self_loops, and for a graph
// without a start state.
#ifndef NNET3_HMM_SELF_LOOPS_H_
#define NNET3_HMM_SELF_LOOPS_H_

#include <fst/vector-fst.h>

#include <cstdint>
#include <vector>

#include "hmm/transition-model.h"

namespace nnet3 {

void AddSelfLoops(const TransitionModel &trans_model,
                  const std::vector<int32_t> &disambig_tids,
                  float self_loop_scale, bool reorder, bool check_no_self_loops,
                  fst::StdVectorFst *fst);

}  // namespace nnet3

#endif  // NNET3_HMM_SELF_LOOPS_H_
