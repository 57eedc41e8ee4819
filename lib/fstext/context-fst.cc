#include "fstext/context-fst.h"

#include <fst/project.h>

#include <algorithm>
#include <string>
#include <utility>

#include "base/error.h"
#include "base/io-funcs.h"
#include "base/log.h"

namespace nnet3 {

namespace {

using fst::StdArc;
using Weight = StdArc::Weight;
using StateId = StdArc::StateId;
using Label = StdArc::Label;

// Labels index the membership tables; a larger one is not a phone list.
constexpr int32_t kMaxLabel = 100000000;

std::vector<bool> MembershipTable(const std::vector<int32_t> &labels) {
  std::vector<bool> table;
  for (int32_t label : labels) {
    if (label <= 0 || label > kMaxLabel)
      NNET3_ERR << "Context FST: symbol " << label
                << " cannot be a phone or disambiguation symbol (must be "
                << "in 1.." << kMaxLabel << ")";
    if (table.size() <= static_cast<size_t>(label)) table.resize(label + 1);
    table[label] = true;
  }
  return table;
}

bool IsIn(const std::vector<bool> &table, Label label) {
  return label >= 0 && static_cast<size_t>(label) < table.size() &&
         table[label];
}

// The sorted non-epsilon input labels of `fst`.
std::vector<int32_t> InputSymbols(const fst::StdVectorFst &fst) {
  std::vector<int32_t> symbols;
  for (StateId s = 0; s < fst.NumStates(); s++)
    for (fst::ArcIterator<fst::StdVectorFst> it(fst, s); !it.Done(); it.Next())
      if (it.Value().ilabel != 0) symbols.push_back(it.Value().ilabel);
  std::sort(symbols.begin(), symbols.end());
  symbols.erase(std::unique(symbols.begin(), symbols.end()), symbols.end());
  return symbols;
}

// The states of a composition, numbered as they are first reached: the
// (left, right) pair of each, and for each right state the list of those
// that have it (few: one per left context that reaches it).
class ComposedStates {
 public:
  explicit ComposedStates(StateId num_right_states)
      : first_with_right_(num_right_states, fst::kNoStateId) {}
  // The state of (left, right), added to `out` if new.
  StateId FindOrAdd(StateId left, StateId right, fst::StdVectorFst *out) {
    for (StateId id = first_with_right_[right]; id != fst::kNoStateId;
         id = next_with_same_right_[id])
      if (pairs_[id].first == left) return id;
    const StateId id = out->AddState();
    NNET3_ASSERT(id == static_cast<StateId>(pairs_.size()));
    pairs_.emplace_back(left, right);
    next_with_same_right_.push_back(first_with_right_[right]);
    first_with_right_[right] = id;
    return id;
  }
  StateId NumStates() const { return static_cast<StateId>(pairs_.size()); }
  const std::pair<StateId, StateId> &Pair(StateId id) const {
    return pairs_[id];
  }

 private:
  std::vector<std::pair<StateId, StateId>> pairs_;
  std::vector<StateId> first_with_right_;
  std::vector<StateId> next_with_same_right_;
};

// *out = inverse(left) o right, breadth first from the start pair: states
// numbered as first reached (so visiting them in order is the breadth-first
// queue), arcs in the order of right's arcs.
void ComposeWithInverse(const fst::StdVectorFst &right, InverseContextFst *left,
                        fst::StdVectorFst *out) {
  out->DeleteStates();
  if (right.Start() == fst::kNoStateId) return;
  ComposedStates states(right.NumStates());
  out->SetStart(states.FindOrAdd(left->Start(), right.Start(), out));
  for (StateId q = 0; q < states.NumStates(); q++) {
    const StateId q_left = states.Pair(q).first,
                  q_right = states.Pair(q).second;
    const Weight final_weight =
        fst::Times(left->Final(q_left), right.Final(q_right));
    if (final_weight != Weight::Zero()) out->SetFinal(q, final_weight);
    out->ReserveArcs(q, right.NumArcs(q_right));
    for (fst::ArcIterator<fst::StdVectorFst> it(right, q_right); !it.Done();
         it.Next()) {
      const StdArc &arc = it.Value();
      if (arc.ilabel == 0) {
        out->AddArc(q, StdArc(0, arc.olabel, arc.weight,
                              states.FindOrAdd(q_left, arc.nextstate, out)));
        continue;
      }
      StdArc left_arc;
      if (!left->GetArc(q_left, arc.ilabel, &left_arc)) continue;
      // The inverse: left's output label is our input.
      const StateId next =
          states.FindOrAdd(left_arc.nextstate, arc.nextstate, out);
      out->AddArc(q, StdArc(left_arc.olabel, arc.olabel,
                            fst::Times(left_arc.weight, arc.weight), next));
    }
  }
}

}  // namespace

InverseContextFst::InverseContextFst(Label subsequential_symbol,
                                     const std::vector<int32_t> &phones,
                                     const std::vector<int32_t> &disambig_syms,
                                     int32_t context_width,
                                     int32_t central_position)
    : context_width_(context_width),
      central_position_(central_position),
      is_phone_(MembershipTable(phones)),
      is_disambig_(MembershipTable(disambig_syms)),
      subsequential_symbol_(subsequential_symbol) {
  NNET3_ASSERT(subsequential_symbol != 0 &&
               !IsIn(is_phone_, subsequential_symbol) &&
               !IsIn(is_disambig_, subsequential_symbol));
  NNET3_ASSERT(central_position >= 0 && central_position < context_width);
  for (int32_t phone : phones)
    if (IsIn(is_disambig_, phone))
      NNET3_ERR << "Context FST: symbol " << phone
                << " is both a phone and a disambiguation symbol";
  if (phones.empty())
    NNET3_WARN << "Context FST created but there are no phone symbols: "
               << "probably input FST was empty.";
  const Label epsilon = FindLabel({});
  const StateId start = FindState(std::vector<int32_t>(context_width - 1, 0));
  NNET3_ASSERT(epsilon == 0 && start == 0);
  if (context_width > central_position + 1 && !disambig_syms.empty()) {
    // #-1: needed when a disambiguation symbol can come before the first
    // phone is output, so that any determinizable LG gives a
    // determinizable CLG.
    pseudo_eps_symbol_ = FindLabel({0});
    NNET3_ASSERT(pseudo_eps_symbol_ == 1);
  }
}

InverseContextFst::StateId InverseContextFst::FindState(
    const std::vector<int32_t> &seq) {
  return state_table_.FindOrAdd(seq, &state_seqs_);
}

InverseContextFst::Label InverseContextFst::FindLabel(
    const std::vector<int32_t> &info) {
  return label_table_.FindOrAdd(info, &ilabel_info_);
}

InverseContextFst::Weight InverseContextFst::Final(StateId s) const {
  NNET3_ASSERT(s >= 0 && s < state_seqs_.Size());
  // With right context, a state is final only once the last phone has
  // been output, i.e. "$" has reached the central position.
  if (central_position_ < context_width_ - 1 &&
      state_seqs_[s][central_position_] != subsequential_symbol_)
    return Weight::Zero();
  return Weight::One();
}

void InverseContextFst::PhoneOrEndArc(StateId s, Label ilabel, Arc *arc) {
  // seq is not used after FindState (which may grow state_seqs_).
  const IntSequenceList::Entry seq = state_seqs_[s];
  window_.assign(seq.begin(), seq.end());
  window_.push_back(ilabel);
  for (int32_t i = central_position_ + 1; i < context_width_; i++)
    if (window_[i] == subsequential_symbol_) window_[i] = 0;
  // The next state: seq shifted left, ilabel appended ("$" stays "$").
  next_seq_.clear();
  if (!seq.empty()) {
    next_seq_.assign(seq.begin() + 1, seq.end());
    next_seq_.push_back(ilabel);
  }
  arc->ilabel = ilabel;
  arc->weight = Weight::One();
  arc->nextstate = FindState(next_seq_);
  // No phone at the central position yet (the start of the graph): no
  // output.
  arc->olabel =
      window_[central_position_] == 0 ? pseudo_eps_symbol_ : FindLabel(window_);
}

bool InverseContextFst::GetArc(StateId s, Label ilabel, Arc *arc) {
  NNET3_ASSERT(ilabel != 0 && s >= 0 && s < state_seqs_.Size());
  if (IsIn(is_disambig_, ilabel)) {  // a self-loop
    arc->ilabel = ilabel;
    arc->olabel = FindLabel({-ilabel});
    arc->weight = Weight::One();
    arc->nextstate = s;
    return true;
  }
  const IntSequenceList::Entry seq = state_seqs_[s];
  if (IsIn(is_phone_, ilabel)) {
    // No phone after "$".
    if (!seq.empty() && seq[seq.size() - 1] == subsequential_symbol_)
      return false;
  } else if (ilabel == subsequential_symbol_) {
    // No "$" at the central position (nothing left to output).
    if (central_position_ + 1 == context_width_ ||
        seq[central_position_] == subsequential_symbol_)
      return false;
  } else {
    NNET3_ERR << "ContextFst: CreateArc, invalid ilabel supplied [confusion "
              << "about phone list or disambig symbols?]: " << ilabel;
  }
  PhoneOrEndArc(s, ilabel, arc);
  return true;
}

void AddSubsequentialLoop(StdArc::Label subseq_symbol,
                          fst::MutableFst<StdArc> *fst) {
  std::vector<StateId> final_states;
  for (StateId s = 0; s < fst->NumStates(); s++)
    if (fst->Final(s) != Weight::Zero()) final_states.push_back(s);
  // Exact reservations: LG is large, and growing by doubling would not be.
  fst->ReserveStates(fst->NumStates() + 1);
  const StateId superfinal = fst->AddState();
  fst->AddArc(superfinal, StdArc(subseq_symbol, 0, Weight::One(), superfinal));
  fst->SetFinal(superfinal, Weight::One());
  for (StateId s : final_states) {
    fst->ReserveArcs(s, fst->NumArcs(s) + 1);
    fst->AddArc(s, StdArc(subseq_symbol, 0, fst->Final(s), superfinal));
  }
}

void ComposeContext(const std::vector<int32_t> &disambig_syms_in,
                    int32_t context_width, int32_t central_position,
                    fst::StdVectorFst *ifst, fst::StdVectorFst *ofst,
                    ILabelInfo *ilabels_out, bool project_ifst) {
  if (context_width <= 0 || central_position < 0 ||
      central_position >= context_width)
    NNET3_ERR << "Bad context: --context-size=" << context_width
              << " --central-position=" << central_position
              << " (need 0 <= central-position < context-size)";
  std::vector<int32_t> disambig_syms(disambig_syms_in);
  std::sort(disambig_syms.begin(), disambig_syms.end());
  const std::vector<int32_t> all_syms = InputSymbols(*ifst);
  std::vector<int32_t> phones;
  for (int32_t sym : all_syms)
    if (!std::binary_search(disambig_syms.begin(), disambig_syms.end(), sym))
      phones.push_back(sym);
  Label subseq_sym = 1;
  if (!all_syms.empty()) subseq_sym = std::max(subseq_sym, all_syms.back() + 1);
  if (!disambig_syms.empty())
    subseq_sym = std::max(subseq_sym, disambig_syms.back() + 1);
  // With no right context ("$" never needed) the input stays as it is.
  if (central_position != context_width - 1) {
    AddSubsequentialLoop(subseq_sym, ifst);
    if (project_ifst) fst::Project(ifst, fst::ProjectType::INPUT);
  }
  InverseContextFst inv_c(subseq_sym, phones, disambig_syms, context_width,
                          central_position);
  ComposeWithInverse(*ifst, &inv_c, ofst);
  inv_c.SwapIlabelInfo(ilabels_out);
}

}  // namespace nnet3
