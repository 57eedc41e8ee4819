// Kaldi's TransitionModel: the front of every Kaldi acoustic model (.mdl,
// nnet3 or GMM). It holds the HMM topology, the tuples (phone, HMM state,
// forward pdf, self-loop pdf) that define the transition states, and the
// log-probability of each transition-id. We read, check and write it (byte
// for byte, binary and text) so that .mdl files round-trip, and build it
// from a decision tree and a topology as Kaldi does (nnet3-am-init, gmm-init).
//
//   TransitionModel trans_model;
//   trans_model.Read(is, binary);      // UserError if malformed
//   TransitionModel built(ctx_dep, topo);   // the same bytes as Kaldi's
//   int32_t num_pdfs = trans_model.NumPdfs();
//   int32_t phone = trans_model.TransitionIdToPhone(tid);
//   trans_model.Write(os, binary);
//
// Queries take Kaldi's names and numbering: transition states count from 1
// (tuple s-1), transition-ids from 1, a transition index is the position of
// the transition among those leaving its HMM state. They throw
// InternalError for ids out of range; a caller that takes ids from a file
// (a graph, an alignment) checks them against NumTransitionIds() first.
//
// Format: <TransitionModel> [text: newline] <topology> then <Triples> n
// (phone hmm-state pdf)* </Triples> when the topology is a plain HMM, else
// <Tuples> n (phone hmm-state forward-pdf self-loop-pdf)* </Tuples> (text:
// a newline after n and after each tuple), <LogProbs> vector </LogProbs>
// </TransitionModel> (text: a newline after each of these four tokens but
// </LogProbs>'s vector). The log-probs are indexed by transition-id, which
// counts from 1 through the transitions out of each tuple's HMM state, in
// tuple order; element 0 is unused.
#ifndef NNET3_HMM_TRANSITION_MODEL_H_
#define NNET3_HMM_TRANSITION_MODEL_H_

#include <cstdint>
#include <istream>
#include <ostream>
#include <utility>
#include <vector>

#include "hmm/context-dependency.h"
#include "hmm/hmm-topology.h"
#include "matrix/vector.h"

namespace nnet3 {

class TransitionModel {
 public:
  struct Tuple {
    int32_t phone = 0;
    int32_t hmm_state = 0;
    int32_t forward_pdf = 0;
    int32_t self_loop_pdf = 0;
    bool operator<(const Tuple &o) const;
    bool operator==(const Tuple &o) const;
  };

  TransitionModel();
  // Kaldi's TransitionModel(ctx_dep, topo): a transition state for every
  // (phone, HMM state, forward pdf, self-loop pdf) the tree can give to an
  // emitting state of the phone's topology entry, sorted; each
  // transition's log-probability is the log of its topology probability.
  // UserError if the tree has no pdf for some pdf-class of some phone.
  TransitionModel(const ContextDependency &ctx_dep, const HmmTopology &topo);
  // UserError ("in the TransitionModel: ...") if the stream does not hold a
  // valid transition model (the
  // tuples must be sorted and unique and name existing phones and states,
  // the log-probs must have one entry per transition-id and be <= 0).
  void Read(std::istream &is, bool binary);
  void Write(std::ostream &os, bool binary) const;

  const HmmTopology &GetTopo() const { return topo_; }
  const std::vector<Tuple> &Tuples() const { return tuples_; }
  int32_t NumPdfs() const { return num_pdfs_; }
  int32_t NumTransitionStates() const {
    return static_cast<int32_t>(tuples_.size());
  }
  int32_t NumTransitionIds() const { return num_transition_ids_; }
  int32_t NumPhones() const;
  const std::vector<int32_t> &GetPhones() const { return topo_.GetPhones(); }

  // The pdf of transition-id `tid` (1-based): the self-loop pdf for a
  // self-loop, else the forward pdf.
  int32_t TransitionIdToPdf(int32_t tid) const;
  // The same, unchecked: for hot loops whose ids were checked before.
  int32_t TransitionIdToPdfFast(int32_t tid) const { return id2pdf_[tid]; }
  // Indexed by transition-id; element 0 is -1.
  const std::vector<int32_t> &TransitionIdToPdfArray() const { return id2pdf_; }
  float GetTransitionLogProb(int32_t tid) const;

  // Transition-id -> transition state (1-based) and index within it, and
  // back.
  int32_t TransitionIdToTransitionState(int32_t tid) const;
  int32_t TransitionIdToTransitionIndex(int32_t tid) const;
  int32_t PairToTransitionId(int32_t trans_state, int32_t trans_index) const;
  int32_t NumTransitionIndices(int32_t trans_state) const;
  // The transition state of a tuple; UserError if the model has no such
  // tuple (a tree and a model that do not belong together).
  int32_t TupleToTransitionState(int32_t phone, int32_t hmm_state,
                                 int32_t forward_pdf,
                                 int32_t self_loop_pdf) const;

  // What a transition state is.
  int32_t TransitionStateToPhone(int32_t trans_state) const;
  int32_t TransitionStateToHmmState(int32_t trans_state) const;
  int32_t TransitionStateToForwardPdf(int32_t trans_state) const;
  int32_t TransitionStateToSelfLoopPdf(int32_t trans_state) const;
  int32_t TransitionStateToForwardPdfClass(int32_t trans_state) const;
  int32_t TransitionStateToSelfLoopPdfClass(int32_t trans_state) const;
  // The self-loop's transition-id, or 0 if the state has none.
  int32_t SelfLoopOf(int32_t trans_state) const;

  // What a transition-id is.
  int32_t TransitionIdToPhone(int32_t tid) const;
  int32_t TransitionIdToHmmState(int32_t tid) const;
  // The self-loop pdf-class for a self-loop, else the forward one.
  int32_t TransitionIdToPdfClass(int32_t tid) const;
  // Whether the transition goes back to the HMM state it leaves.
  bool IsSelfLoop(int32_t tid) const;
  // Whether the transition enters the final (non-emitting) HMM state.
  bool IsFinal(int32_t tid) const;
  // Whether the transition leaves HMM state 0 (the phone's first frame if
  // it is not a self-loop).
  bool TransitionIdIsStartOfPhone(int32_t tid) const {
    return TransitionIdToHmmState(tid) == 0;
  }
  bool TransitionIdsEquivalent(int32_t tid1, int32_t tid2) const {
    return TransitionIdToTransitionState(tid1) ==
           TransitionIdToTransitionState(tid2);
  }

  // log(1 - p(self-loop)) of a transition state (0 if it has no self-loop),
  // and a transition's log-probability with that factored out, as
  // add-self-loops and lattice rescoring use them.
  float GetNonSelfLoopLogProb(int32_t trans_state) const;
  float GetTransitionLogProbIgnoringSelfLoops(int32_t tid) const;
  bool operator==(const TransitionModel &other) const;

 private:
  void ReadInternal(std::istream &is, bool binary);
  // The tuples of TransitionModel(ctx_dep, topo), for a plain HMM topology
  // and for one with separate self-loop pdf-classes.
  void ComputeTuplesIsHmm(const ContextDependency &ctx_dep);
  void ComputeTuplesNotHmm(const ContextDependency &ctx_dep);
  // The log-probabilities from the topology.
  void InitializeProbs();
  // Transition-ids, pdfs and their count from topo_ and tuples_; UserError
  // for tuples that name no phone or state.
  void ComputeDerived();
  void Check() const;
  // The HMM transition (destination state) behind a transition-id.
  const std::pair<int32_t, float> &Transition(int32_t tid) const;
  void CheckId(int32_t tid) const;
  void CheckState(int32_t trans_state) const;

  HmmTopology topo_;
  std::vector<Tuple> tuples_;
  Vector log_probs_;  // host; indexed by transition-id, [0] unused
  // Derived.
  std::vector<int32_t> state2id_;  // first transition-id of each state
  std::vector<int32_t> id2state_;  // transition state of each id, [0] = 0
  std::vector<int32_t> id2pdf_;    // [0] = -1
  int32_t num_transition_ids_ = 0;
  int32_t num_pdfs_ = 0;
};

}  // namespace nnet3

#endif  // NNET3_HMM_TRANSITION_MODEL_H_
