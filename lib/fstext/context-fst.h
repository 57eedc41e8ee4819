// The context transducer C of HCLG (Kaldi's fstext/context-fst): from
// phones in context to phones, composed on the left of LG without ever
// being built (fstcomposecontext). The input labels of the result index an
// "ilabel_info" list that says what each one is:
//   entry 0       {}             epsilon
//   {0}           #-1            a disambiguation symbol for the start of
//                                 a sequence (only with right context and
//                                 disambiguation symbols)
//   {-k}          #k             the disambiguation symbol k of the phones
//   {p0 .. pN-1}  a phone window  N phones, the one at P being modelled, 0
//                                 for "none" at the start or end
// numbered in the order the composition first needs them.
//
//   ILabelInfo ilabels;                         // ilabel-info.h
//   fst::StdVectorFst clg;
//   ComposeContext(disambig_phones, /*context_width=*/3,
//                  /*central_position=*/1, &lg, &clg, &ilabels);
//   ilabels.Write(os, binary);
//
// The result is the FST and list Kaldi's ComposeContext makes (same states,
// arcs, order and numbering): a breadth-first composition of LG, with a
// subsequential loop added to its final states when there is right context,
// with the inverse of C (a deterministic on-demand FST whose states are the
// last N-1 phones seen).
#ifndef NNET3_FSTEXT_CONTEXT_FST_H_
#define NNET3_FSTEXT_CONTEXT_FST_H_

#include <fst/vector-fst.h>

#include <cstdint>
#include <vector>

#include "fstext/ilabel-info.h"

namespace nnet3 {

// The inverse of C: from phones (and disambiguation symbols, and the
// subsequential symbol "$" that ends a sequence) to ilabels, deterministic,
// its states and ilabels created as they are first asked for. State 0 is
// the start (N-1 zeros: nothing seen yet).
class InverseContextFst {
 public:
  using Arc = fst::StdArc;
  using StateId = Arc::StateId;
  using Label = Arc::Label;
  using Weight = Arc::Weight;

  // `phones` and `disambig_syms` must not overlap or contain 0 or
  // `subsequential_symbol` (non-zero); 0 <= central_position <
  // context_width.
  InverseContextFst(Label subsequential_symbol,
                    const std::vector<int32_t> &phones,
                    const std::vector<int32_t> &disambig_syms,
                    int32_t context_width, int32_t central_position);

  StateId Start() const { return 0; }
  Weight Final(StateId s) const;
  // The arc out of s with input `ilabel` (non-zero); false if there is
  // none (a phone after "$", too many "$"). UserError for a label that is
  // neither a phone, a disambiguation symbol nor "$".
  bool GetArc(StateId s, Label ilabel, Arc *arc);

  const ILabelInfo &IlabelInfo() const { return ilabel_info_; }
  // Hands over the ilabels; the FST can give no more arcs after that.
  void SwapIlabelInfo(ILabelInfo *info) { ilabel_info_.Swap(info); }

 private:
  StateId FindState(const std::vector<int32_t> &seq);
  Label FindLabel(const std::vector<int32_t> &info);
  // The arc for a phone or "$" out of state s.
  void PhoneOrEndArc(StateId s, Label ilabel, Arc *arc);

  int32_t context_width_;
  int32_t central_position_;
  std::vector<bool> is_phone_;     // indexed by label
  std::vector<bool> is_disambig_;  // indexed by label
  Label subsequential_symbol_;
  // The output for a window with no phone yet at the central position:
  // epsilon, or the #-1 symbol (ilabel 1).
  Label pseudo_eps_symbol_ = 0;
  IntSequenceList state_seqs_;  // the N-1 phones seen
  SequenceTable state_table_;
  ILabelInfo ilabel_info_;
  SequenceTable label_table_;
  // Scratch space of PhoneOrEndArc.
  std::vector<int32_t> window_, next_seq_;
};

// Adds a state that is final, with a loop of `subseq_symbol`:epsilon, and
// an arc subseq_symbol:epsilon to it from every final state, weighted with
// that state's final weight (which stays).
void AddSubsequentialLoop(fst::StdArc::Label subseq_symbol,
                          fst::MutableFst<fst::StdArc> *fst);

// *ofst = C o *ifst for the given context; *ilabels_out says what the input
// labels of *ofst are. The phones are the input labels of *ifst that are not
// in `disambig_syms`; "$" is the first label above all of them. *ifst gets
// the subsequential loop when central_position < context_width - 1 (and is
// then projected on its input when project_ifst). UserError for impossible
// arguments.
void ComposeContext(const std::vector<int32_t> &disambig_syms,
                    int32_t context_width, int32_t central_position,
                    fst::StdVectorFst *ifst, fst::StdVectorFst *ofst,
                    ILabelInfo *ilabels_out, bool project_ifst = false);

}  // namespace nnet3

#endif  // NNET3_FSTEXT_CONTEXT_FST_H_
