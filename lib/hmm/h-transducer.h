// The H transducer of HCLG (Kaldi's GetHTransducer): from transition-ids
// to the context-dependent phones (and disambiguation symbols) that
// fstcomposecontext numbered in its ilabel_info, without self-loops
// (add-self-loops adds those, self-loops.h).
//
//   ILabelInfo ilabel_info;       // fstext/ilabel-info.h; ilabel_info.Read()
//   HTransducerConfig config;                         // --transition-scale
//   std::vector<int32_t> disambig_tids;
//   std::unique_ptr<fst::StdVectorFst> H = GetHTransducer(
//       ilabel_info, ctx_dep, trans_model, config, &disambig_tids);
//
// What it builds, as Kaldi does (the same FST, state for state and arc for
// arc): one loop state (0, start and final) and, for each ilabel i > 0 in
// order:
//  - a disambiguation symbol (ilabel_info[i] is {-k} or {0}): an arc from
//    state 0 with input the next free id above the transition-ids (listed
//    in order in disambig_tids) and output i to a new state, and an epsilon
//    arc back to state 0;
//  - a phone in context: the phone's HMM as an acceptor of transition-ids
//    (one state per HMM state, the forward transitions only, each weighted
//    -log of its probability with the self-loop factored out; epsilon for a
//    non-emitting state's transitions), with local epsilon removal, times
//    the transition scale; its states are added after state 0, an epsilon
//    arc with output i leads from state 0 into its start (or, when its
//    start has a single arc and no arc back into it, that arc leaves state
//    0 itself with output i), and its final states get epsilon arcs back to
//    state 0 carrying their final weights. Windows whose phone and pdfs are
//    the same share the states of the first: later ones only add the arc
//    from state 0, with their own output label.
// UserError for an ilabel_info the tree cannot interpret (a window of the
// wrong width, the central phone 0, a window the tree has no pdf for, a
// grammar symbol) and for a tree and model that do not belong together.
#ifndef NNET3_HMM_H_TRANSDUCER_H_
#define NNET3_HMM_H_TRANSDUCER_H_

#include <fst/vector-fst.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "fstext/ilabel-info.h"
#include "hmm/context-dependency.h"
#include "hmm/transition-model.h"

namespace nnet3 {

struct HTransducerConfig {
  // Scale on the transition log-probabilities (relative to the LM).
  float transition_scale = 1.0f;
};

// The acceptor for one phone in context (the second case above), with
// every pdf the tree gives it (indexed by pdf-class) in *pdfs.
std::unique_ptr<fst::StdVectorFst> GetHmmAsFsa(
    const std::vector<int32_t> &phone_window, const ContextDependency &ctx_dep,
    const TransitionModel &trans_model, const HTransducerConfig &config,
    std::vector<int32_t> *pdfs);

std::unique_ptr<fst::StdVectorFst> GetHTransducer(
    const ILabelInfo &ilabel_info, const ContextDependency &ctx_dep,
    const TransitionModel &trans_model, const HTransducerConfig &config,
    std::vector<int32_t> *disambig_tids);

}  // namespace nnet3

#endif  // NNET3_HMM_H_TRANSDUCER_H_
