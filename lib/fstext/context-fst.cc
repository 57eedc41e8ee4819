#include "fstext/context-fst.h"

#include <fst/project.h>

#include <algorithm>
#include <queue>
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

struct PairHash {
  size_t operator()(const std::pair<StateId, StateId> &p) const {
    return static_cast<size_t>(p.first) * 7853 + static_cast<size_t>(p.second);
  }
};

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

// *out = inverse(left) o right, breadth first from the start pair: states
// numbered as first reached, arcs in the order of right's arcs.
void ComposeWithInverse(const fst::StdVectorFst &right, InverseContextFst *left,
                        fst::StdVectorFst *out) {
  out->DeleteStates();
  if (right.Start() == fst::kNoStateId) return;
  using StatePair = std::pair<StateId, StateId>;
  std::unordered_map<StatePair, StateId, PairHash> state_map;
  std::queue<StatePair> queue;
  const StatePair start(left->Start(), right.Start());
  out->SetStart(out->AddState());
  state_map.emplace(start, 0);
  queue.push(start);
  while (!queue.empty()) {
    const StatePair q = queue.front();
    queue.pop();
    const StateId q_out = state_map[q];
    const Weight final_weight =
        fst::Times(left->Final(q.first), right.Final(q.second));
    if (final_weight != Weight::Zero()) out->SetFinal(q_out, final_weight);
    for (fst::ArcIterator<fst::StdVectorFst> it(right, q.second); !it.Done();
         it.Next()) {
      const StdArc &arc = it.Value();
      StdArc left_arc(0, 0, Weight::One(), q.first);
      if (arc.ilabel != 0 && !left->GetArc(q.first, arc.ilabel, &left_arc))
        continue;
      const StatePair next(left_arc.nextstate, arc.nextstate);
      auto inserted = state_map.emplace(next, out->NumStates());
      if (inserted.second) {
        out->AddState();
        queue.push(next);
      }
      // The inverse: left's output label is our input.
      out->AddArc(
          q_out,
          StdArc(arc.ilabel == 0 ? 0 : left_arc.olabel, arc.olabel,
                 arc.ilabel == 0 ? arc.weight
                                 : fst::Times(left_arc.weight, arc.weight),
                 inserted.first->second));
    }
  }
}

}  // namespace

size_t IntVectorHash::operator()(const std::vector<int32_t> &v) const {
  size_t h = 0;
  for (int32_t x : v) h = h * 7853 + static_cast<size_t>(x);
  return h;
}

void WriteILabelInfo(std::ostream &os, bool binary, const ILabelInfo &info) {
  WriteBasicType(os, binary, static_cast<int32_t>(info.size()));
  for (const auto &entry : info) WriteIntegerVector(os, binary, entry);
}

void ReadILabelInfo(std::istream &is, bool binary, ILabelInfo *info) {
  int32_t size;
  ReadBasicType(is, binary, &size);
  // An entry takes at least 4 bytes ("[ ]\n"; binary: size byte + count).
  CheckCountFits(is, size, 4, "The number of ilabels");
  info->clear();
  info->reserve(std::min<int64_t>(size, kUnknownSizeReserve));
  for (int32_t i = 0; i < size; i++) {
    info->emplace_back();
    ReadIntegerVector(is, binary, &info->back());
  }
}

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
  auto inserted = state_map_.emplace(seq, state_seqs_.size());
  if (inserted.second) state_seqs_.push_back(seq);
  return inserted.first->second;
}

InverseContextFst::Label InverseContextFst::FindLabel(
    const std::vector<int32_t> &info) {
  auto inserted = label_map_.emplace(info, ilabel_info_.size());
  if (inserted.second) ilabel_info_.push_back(info);
  return inserted.first->second;
}

InverseContextFst::Weight InverseContextFst::Final(StateId s) const {
  NNET3_ASSERT(s >= 0 && static_cast<size_t>(s) < state_seqs_.size());
  // With right context, a state is final only once the last phone has
  // been output, i.e. "$" has reached the central position.
  if (central_position_ < context_width_ - 1 &&
      state_seqs_[s][central_position_] != subsequential_symbol_)
    return Weight::Zero();
  return Weight::One();
}

std::vector<int32_t> InverseContextFst::FullWindow(
    const std::vector<int32_t> &seq, Label label) const {
  std::vector<int32_t> window;
  window.reserve(context_width_);
  window.insert(window.end(), seq.begin(), seq.end());
  window.push_back(label);
  for (int32_t i = central_position_ + 1; i < context_width_; i++)
    if (window[i] == subsequential_symbol_) window[i] = 0;
  return window;
}

void InverseContextFst::PhoneOrEndArc(const std::vector<int32_t> &seq,
                                      Label ilabel, Arc *arc) {
  std::vector<int32_t> window = FullWindow(seq, ilabel);
  std::vector<int32_t> next_seq(seq);
  if (!next_seq.empty()) {
    next_seq.erase(next_seq.begin());
    next_seq.push_back(ilabel);
  }
  arc->ilabel = ilabel;
  arc->weight = Weight::One();
  arc->nextstate = FindState(next_seq);
  // No phone at the central position yet (the start of the graph): no
  // output.
  arc->olabel =
      window[central_position_] == 0 ? pseudo_eps_symbol_ : FindLabel(window);
}

bool InverseContextFst::GetArc(StateId s, Label ilabel, Arc *arc) {
  NNET3_ASSERT(ilabel != 0 && s >= 0 &&
               static_cast<size_t>(s) < state_seqs_.size());
  if (IsIn(is_disambig_, ilabel)) {  // a self-loop
    arc->ilabel = ilabel;
    arc->olabel = FindLabel({-ilabel});
    arc->weight = Weight::One();
    arc->nextstate = s;
    return true;
  }
  // A copy: FindState may grow state_seqs_.
  const std::vector<int32_t> seq = state_seqs_[s];
  if (IsIn(is_phone_, ilabel)) {
    // No phone after "$".
    if (!seq.empty() && seq.back() == subsequential_symbol_) return false;
  } else if (ilabel == subsequential_symbol_) {
    // No "$" at the central position (nothing left to output).
    if (central_position_ + 1 == context_width_ ||
        seq[central_position_] == subsequential_symbol_)
      return false;
  } else {
    NNET3_ERR << "ContextFst: CreateArc, invalid ilabel supplied [confusion "
              << "about phone list or disambig symbols?]: " << ilabel;
  }
  PhoneOrEndArc(seq, ilabel, arc);
  return true;
}

void AddSubsequentialLoop(StdArc::Label subseq_symbol,
                          fst::MutableFst<StdArc> *fst) {
  std::vector<StateId> final_states;
  for (StateId s = 0; s < fst->NumStates(); s++)
    if (fst->Final(s) != Weight::Zero()) final_states.push_back(s);
  const StateId superfinal = fst->AddState();
  fst->AddArc(superfinal, StdArc(subseq_symbol, 0, Weight::One(), superfinal));
  fst->SetFinal(superfinal, Weight::One());
  for (StateId s : final_states)
    fst->AddArc(s, StdArc(subseq_symbol, 0, fst->Final(s), superfinal));
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
