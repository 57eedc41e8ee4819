#include "hmm/self-loops.h"

#include <algorithm>

#include "base/error.h"
#include "fstext/input-symbol-classes.h"

namespace nnet3 {

namespace {

using fst::StdArc;
using fst::StdVectorFst;
using Weight = StdArc::Weight;
using StateId = StdArc::StateId;

// Labels at or above this are grammar-FST symbols, passed through like
// disambiguation symbols.
constexpr int32_t kNontermBigNumber = 10000000;

// The class of an input label: its transition state for a transition-id,
// -1 for fst::kNoLabel, 0 for anything else (epsilon, disambiguation and
// grammar symbols).
class TransitionStateOf {
 public:
  using Result = int32_t;
  TransitionStateOf(const TransitionModel &trans_model,
                    const std::vector<int32_t> &disambig_tids,
                    bool check_no_self_loops)
      : trans_model_(trans_model),
        disambig_tids_(disambig_tids),
        check_no_self_loops_(check_no_self_loops) {}

  int32_t operator()(int32_t label) const {
    if (label == fst::kNoLabel) return -1;
    if (label >= 1 && label <= trans_model_.NumTransitionIds()) {
      if (check_no_self_loops_ && trans_model_.IsSelfLoop(label))
        NNET3_ERR << "AddSelfLoops: graph already has self-loops "
                  << "(transition-id " << label << " is a self-loop)";
      return trans_model_.TransitionIdToTransitionState(label);
    }
    if (label != 0 && label < kNontermBigNumber &&
        !std::binary_search(disambig_tids_.begin(), disambig_tids_.end(),
                            label))
      NNET3_ERR << "AddSelfLoops: input label " << label
                << " is neither a transition-id (1.."
                << trans_model_.NumTransitionIds()
                << ") nor a disambiguation symbol (list those with "
                << "--disambig-syms); wrong model for this graph?";
    return 0;
  }

 private:
  const TransitionModel &trans_model_;
  const std::vector<int32_t> &disambig_tids_;
  bool check_no_self_loops_;
};

// Multiplies the weights of all arcs out of s by `factor`.
void ScaleArcs(const Weight &factor, StateId s, StdVectorFst *fst) {
  for (fst::MutableArcIterator<StdVectorFst> it(fst, s); !it.Done();
       it.Next()) {
    StdArc arc = it.Value();
    arc.weight = fst::Times(arc.weight, factor);
    it.SetValue(arc);
  }
}

void AddSelfLoopArc(const TransitionModel &trans_model, int32_t trans_state,
                    float self_loop_scale, StateId s, StdVectorFst *fst) {
  const int32_t tid = trans_model.SelfLoopOf(trans_state);
  if (tid == 0) return;
  const float log_prob = trans_model.GetTransitionLogProb(tid);
  // One more arc: grow the state's arcs by one, not by doubling (graphs are
  // large).
  fst->ReserveArcs(s, fst->NumArcs(s) + 1);
  fst->AddArc(s, StdArc(tid, 0, Weight(-log_prob * self_loop_scale), s));
}

// The self-loop after the forward transition: states are split by the
// transition state of their arcs in.
void AddSelfLoopsReorder(const TransitionModel &trans_model,
                         const TransitionStateOf &f, float self_loop_scale,
                         StdVectorFst *fst) {
  MakePrecedingInputSymbolsSameClass(true, fst, f);
  std::vector<int32_t> state_in(fst->NumStates(), -1);
  for (StateId s = 0; s < fst->NumStates(); s++)
    for (fst::ArcIterator<StdVectorFst> it(*fst, s); !it.Done(); it.Next()) {
      const StdArc &arc = it.Value();
      const int32_t trans_state = f(arc.ilabel);
      NNET3_ASSERT(state_in[arc.nextstate] == -1 ||
                   state_in[arc.nextstate] == trans_state);
      state_in[arc.nextstate] = trans_state;
    }
  NNET3_ASSERT(state_in[fst->Start()] <= 0);
  for (StateId s = 0; s < static_cast<StateId>(state_in.size()); s++) {
    if (state_in[s] <= 0) continue;  // epsilon, disambiguation or none
    const float log_prob = trans_model.GetNonSelfLoopLogProb(state_in[s]);
    const Weight factor(-log_prob * self_loop_scale);
    fst->SetFinal(s, fst::Times(fst->Final(s), factor));
    ScaleArcs(factor, s, fst);
    AddSelfLoopArc(trans_model, state_in[s], self_loop_scale, s, fst);
  }
}

// The self-loop before the forward transition: states are split by the
// transition state of their arcs out.
void AddSelfLoopsNoReorder(const TransitionModel &trans_model,
                           const TransitionStateOf &f, float self_loop_scale,
                           StdVectorFst *fst) {
  MakeFollowingInputSymbolsSameClass(true, fst, f);
  const StateId num_states = fst->NumStates();
  for (StateId s = 0; s < num_states; s++) {
    int32_t trans_state = -1;
    for (fst::MutableArcIterator<StdVectorFst> it(fst, s); !it.Done();
         it.Next()) {
      StdArc arc = it.Value();
      const int32_t this_state = f(arc.ilabel);
      NNET3_ASSERT(trans_state == -1 || trans_state == this_state);
      trans_state = this_state;
      if (trans_state > 0) {
        const float log_prob = trans_model.GetNonSelfLoopLogProb(trans_state);
        arc.weight =
            fst::Times(arc.weight, Weight(-log_prob * self_loop_scale));
        it.SetValue(arc);
      }
    }
    NNET3_ASSERT(fst->Final(s) == Weight::Zero() || trans_state <= 0);
    if (trans_state > 0)
      AddSelfLoopArc(trans_model, trans_state, self_loop_scale, s, fst);
  }
}

}  // namespace

void AddSelfLoops(const TransitionModel &trans_model,
                  const std::vector<int32_t> &disambig_tids,
                  float self_loop_scale, bool reorder, bool check_no_self_loops,
                  StdVectorFst *fst) {
  if (fst->Start() == fst::kNoStateId)
    NNET3_ERR << "AddSelfLoops: the graph is empty (it has no start state)";
  std::vector<int32_t> sorted(disambig_tids);
  std::sort(sorted.begin(), sorted.end());
  const TransitionStateOf f(trans_model, sorted, check_no_self_loops);
  if (reorder)
    AddSelfLoopsReorder(trans_model, f, self_loop_scale, fst);
  else
    AddSelfLoopsNoReorder(trans_model, f, self_loop_scale, fst);
}

}  // namespace nnet3
