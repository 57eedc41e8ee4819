// Kaldi's TransitionModel: the front of every Kaldi acoustic model (.mdl,
// nnet3 or GMM). It holds the HMM topology, the tuples (phone, HMM state,
// forward pdf, self-loop pdf) that define the transition states, and the
// log-probability of each transition-id. We read, check and write it (byte
// for byte, binary and text) so that .mdl files round-trip; building one
// from a decision tree is not supported.
//
//   TransitionModel trans_model;
//   trans_model.Read(is, binary);      // UserError if malformed
//   int32_t num_pdfs = trans_model.NumPdfs();
//   trans_model.Write(os, binary);
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
#include <vector>

#include "matrix/vector.h"
#include "hmm/hmm-topology.h"

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
  // The pdf of transition-id `tid` (1-based): the self-loop pdf for a
  // self-loop, else the forward pdf.
  int32_t TransitionIdToPdf(int32_t tid) const;
  float GetTransitionLogProb(int32_t tid) const;
  bool operator==(const TransitionModel &other) const;

 private:
  void ReadInternal(std::istream &is, bool binary);
  // Transition-ids, pdfs and their count from topo_ and tuples_; UserError
  // for tuples that name no phone or state.
  void ComputeDerived();
  void Check() const;

  HmmTopology topo_;
  std::vector<Tuple> tuples_;
  Vector log_probs_;  // host; indexed by transition-id, [0] unused
  // Derived.
  std::vector<int32_t> state2id_;  // first transition-id of each state
  std::vector<int32_t> id2pdf_;
  int32_t num_transition_ids_ = 0;
  int32_t num_pdfs_ = 0;
};

}  // namespace nnet3

#endif  // NNET3_HMM_TRANSITION_MODEL_H_
