#include "lat/word-align-lattice.h"

#include <fst/arc-map.h>
#include <fst/project.h>
#include <fst/randequivalent.h>
#include <fst/rmepsilon.h>

#include <algorithm>
#include <cstddef>
#include <functional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "base/error.h"
#include "base/log.h"
#include "fstext/create-super-final.h"

namespace nnet3 {
namespace {

using StateId = CompactLatticeArc::StateId;

// What a path has read but not yet written out: the transition-ids from the
// start of the current word (or silence) on, and the words read meanwhile.
// Weights are never pending: each input arc's weight goes on the epsilon
// arc that reads it, and RmEpsilon moves it onto the word arcs.
struct PendingAlignment {
  std::vector<int32_t> tids;
  std::vector<int32_t> words;

  bool Empty() const { return tids.empty() && words.empty(); }
  void Read(const CompactLatticeArc &arc) {
    const std::vector<int32_t> &s = arc.weight.String();
    tids.insert(tids.end(), s.begin(), s.end());
    if (arc.ilabel != 0) words.push_back(arc.ilabel);
  }
  bool operator==(const PendingAlignment &other) const {
    return tids == other.tids && words == other.words;
  }
};

// An output state: an input state and what is pending there.
struct AlignerKey {
  StateId input_state;
  PendingAlignment pending;
  bool operator==(const AlignerKey &other) const {
    return input_state == other.input_state && pending == other.pending;
  }
};

struct AlignerKeyHash {
  size_t operator()(const AlignerKey &key) const {
    size_t h = static_cast<size_t>(key.input_state);
    for (int32_t t : key.pending.tids) h = h * 7853 + static_cast<size_t>(t);
    for (int32_t w : key.pending.words) h = h * 104729 + static_cast<size_t>(w);
    return h;
  }
};

// Relabels the given input labels as epsilon (ArcMap mapper).
class InputLabelEraser {
 public:
  explicit InputLabelEraser(const std::vector<int32_t> &labels)
      : labels_(labels) {}
  CompactLatticeArc operator()(const CompactLatticeArc &arc) const {
    CompactLatticeArc out = arc;
    if (std::find(labels_.begin(), labels_.end(), out.ilabel) != labels_.end())
      out.ilabel = 0;
    return out;
  }
  fst::MapFinalAction FinalAction() const { return fst::MAP_NO_SUPERFINAL; }
  fst::MapSymbolsAction InputSymbolsAction() const {
    return fst::MAP_CLEAR_SYMBOLS;
  }
  fst::MapSymbolsAction OutputSymbolsAction() const {
    return fst::MAP_COPY_SYMBOLS;
  }
  uint64_t Properties(uint64_t props) const {
    return props &
           ~(fst::kAcceptor | fst::kNotAcceptor | fst::kIDeterministic |
             fst::kNonIDeterministic | fst::kNoEpsilons | fst::kNoIEpsilons |
             fst::kILabelSorted | fst::kNotILabelSorted);
  }

 private:
  std::vector<int32_t> labels_;
};

// UserError unless every transition-id of the lattice is in the model.
void CheckTransitionIds(const CompactLattice &clat,
                        const TransitionModel &trans_model) {
  const int32_t num_tids = trans_model.NumTransitionIds();
  auto check = [&](const std::vector<int32_t> &tids) {
    for (int32_t tid : tids)
      if (tid < 1 || tid > num_tids)
        NNET3_ERR << "The lattice has transition-id " << tid
                  << " but the model has transition-ids 1.." << num_tids
                  << " (do the model and the lattices match?)";
  };
  for (StateId s = 0; s < clat.NumStates(); ++s) {
    for (fst::ArcIterator<CompactLattice> aiter(clat, s); !aiter.Done();
         aiter.Next())
      check(aiter.Value().weight.String());
    check(clat.Final(s).String());
  }
}

int32_t HighestOutputLabel(const CompactLattice &clat) {
  int32_t highest = 0;
  for (StateId s = 0; s < clat.NumStates(); ++s)
    for (fst::ArcIterator<CompactLattice> aiter(clat, s); !aiter.Done();
         aiter.Next())
      highest = std::max(highest, aiter.Value().olabel);
  return highest;
}

class LatticeWordAligner {
 public:
  LatticeWordAligner(const CompactLattice &lat, const TransitionModel &tmodel,
                     const WordBoundaryInfo &info, int32_t max_states,
                     CompactLattice *lat_out);
  bool Align();

 private:
  using PhoneType = WordBoundaryInfo::PhoneType;

  int32_t Phone(int32_t tid) const { return tmodel_.TransitionIdToPhone(tid); }
  PhoneType TypeOfTid(int32_t tid) const {
    return info_.TypeOfPhone(Phone(tid));
  }
  // Marks the lattice as badly aligned; warns the first time only.
  void Flag(const char *message) {
    if (!error_) NNET3_WARN << message;
    error_ = true;
  }
  // Index just past the transition-id at `final_index` and, when the
  // graph's self-loops were reordered, the self-loops that follow it.
  size_t PastFinal(const std::vector<int32_t> &tids, size_t final_index) const;
  // The arc for the first `n` pending transition-ids, labelled `label`
  // (the first pending word is consumed if `takes_word`).
  CompactLatticeArc TakeArc(PendingAlignment *pending, size_t n, int32_t label,
                            bool takes_word);

  // Each writes an arc and returns true when the pending transition-ids
  // start with a whole word or silence that is known to have ended.
  bool OutputArc(PendingAlignment *pending, CompactLatticeArc *arc) {
    return OutputNormalWordArc(pending, arc) ||
           OutputSilenceArc(pending, arc) ||
           OutputOnePhoneWordArc(pending, arc);
  }
  bool OutputNormalWordArc(PendingAlignment *pending, CompactLatticeArc *arc);
  bool OutputSilenceArc(PendingAlignment *pending, CompactLatticeArc *arc);
  bool OutputOnePhoneWordArc(PendingAlignment *pending, CompactLatticeArc *arc);
  // At a final state: writes out what is pending even though no following
  // word showed where it ends.
  void OutputArcForce(PendingAlignment *pending, CompactLatticeArc *arc);
  bool IsPlausibleWord(const std::vector<int32_t> &tids) const;

  StateId GetState(const AlignerKey &key);
  void ProcessFinal(AlignerKey key, StateId output_state);
  void ProcessQueueElement();
  void RemoveEpsilons();

  CompactLattice lat_;
  const TransitionModel &tmodel_;
  const WordBoundaryInfo &info_;
  // The labels used inside: never 0, so that RmEpsilon keeps silence and
  // partial-word arcs; those the user wanted as 0 are erased at the end.
  int32_t silence_label_;
  int32_t partial_word_label_;
  int32_t max_states_;
  CompactLattice *lat_out_;
  std::vector<std::pair<AlignerKey, StateId>> queue_;  // used as a stack
  std::unordered_map<AlignerKey, StateId, AlignerKeyHash> map_;
  bool error_ = false;
};

LatticeWordAligner::LatticeWordAligner(const CompactLattice &lat,
                                       const TransitionModel &tmodel,
                                       const WordBoundaryInfo &info,
                                       int32_t max_states,
                                       CompactLattice *lat_out)
    : lat_(lat),
      tmodel_(tmodel),
      info_(info),
      silence_label_(info.silence_label),
      partial_word_label_(info.partial_word_label),
      max_states_(max_states),
      lat_out_(lat_out) {
  CheckTransitionIds(lat, tmodel);
  if (lat_.Properties(fst::kIDeterministic | fst::kIEpsilons, true) !=
      fst::kIDeterministic)
    NNET3_WARN << "[Lattice has input epsilons and/or is not "
               << "input-deterministic (in Mohri sense)]-- i.e. lattice is "
               << "not deterministic.  Word-alignment may be slow and-or "
               << "blow up in memory.";
  CreateSuperFinal(&lat_);
  if (partial_word_label_ == 0 || silence_label_ == 0) {
    int32_t unused = 1 + HighestOutputLabel(lat);
    unused = std::max(unused, partial_word_label_ + 1);
    unused = std::max(unused, silence_label_ + 1);
    if (partial_word_label_ == 0) partial_word_label_ = unused++;
    if (silence_label_ == 0) silence_label_ = unused;
  }
}

size_t LatticeWordAligner::PastFinal(const std::vector<int32_t> &tids,
                                     size_t final_index) const {
  size_t i = final_index + 1;
  if (info_.reorder)
    while (i < tids.size() && tmodel_.IsSelfLoop(tids[i])) ++i;
  return i;
}

CompactLatticeArc LatticeWordAligner::TakeArc(PendingAlignment *pending,
                                              size_t n, int32_t label,
                                              bool takes_word) {
  std::vector<int32_t> &tids = pending->tids;
  CompactLatticeWeight weight(
      LatticeWeight::One(),
      std::vector<int32_t>(tids.begin(), tids.begin() + n));
  tids.erase(tids.begin(), tids.begin() + n);
  if (takes_word) pending->words.erase(pending->words.begin());
  return CompactLatticeArc(label, label, weight, fst::kNoStateId);
}

bool LatticeWordAligner::OutputSilenceArc(PendingAlignment *pending,
                                          CompactLatticeArc *arc) {
  const std::vector<int32_t> &tids = pending->tids;
  if (tids.empty()) return false;
  const int32_t phone = Phone(tids[0]);
  if (info_.TypeOfPhone(phone) != WordBoundaryInfo::kNonWordPhone) return false;
  size_t i = 0;
  for (; i < tids.size(); ++i) {
    if (Phone(tids[i]) != phone)
      Flag(
          "Phone changed before final transition-id found [broken lattice "
          "or mismatched model or wrong --reorder option?]");
    if (tmodel_.IsFinal(tids[i])) break;
  }
  if (i == tids.size()) return false;
  const size_t end = PastFinal(tids, i);
  if (end == tids.size()) return false;  // it may go on
  if (Phone(tids[end - 1]) != phone && !error_)
    NNET3_WARN << "Phone changed unexpectedly in lattice [broken lattice or "
               << "mismatched model?]";
  *arc = TakeArc(pending, end, silence_label_, false);
  return true;
}

bool LatticeWordAligner::OutputOnePhoneWordArc(PendingAlignment *pending,
                                               CompactLatticeArc *arc) {
  const std::vector<int32_t> &tids = pending->tids;
  if (tids.empty() || pending->words.empty()) return false;
  const int32_t phone = Phone(tids[0]);
  if (info_.TypeOfPhone(phone) != WordBoundaryInfo::kWordBeginAndEndPhone)
    return false;
  size_t i = 0;
  for (; i < tids.size(); ++i) {
    if (Phone(tids[i]) != phone && !error_)
      NNET3_WARN << "Phone changed before final transition-id found [broken "
                 << "lattice or mismatched model or wrong --reorder option?]";
    if (tmodel_.IsFinal(tids[i])) break;
  }
  if (i == tids.size()) return false;
  const size_t end = PastFinal(tids, i);
  if (end == tids.size()) return false;
  if (Phone(tids[end - 1]) != phone)
    Flag(
        "Phone changed unexpectedly in lattice [broken lattice or "
        "mismatched model?]");
  *arc = TakeArc(pending, end, pending->words[0], true);
  return true;
}

bool LatticeWordAligner::OutputNormalWordArc(PendingAlignment *pending,
                                             CompactLatticeArc *arc) {
  const std::vector<int32_t> &tids = pending->tids;
  const size_t len = tids.size();
  if (tids.empty() || pending->words.empty()) return false;
  const int32_t begin_phone = Phone(tids[0]);
  if (info_.TypeOfPhone(begin_phone) != WordBoundaryInfo::kWordBeginPhone)
    return false;
  size_t i = 0;
  while (i < len && !tmodel_.IsFinal(tids[i])) ++i;
  if (i == len) return false;
  i = PastFinal(tids, i);
  if (i == len) return false;
  if (Phone(tids[i - 1]) != begin_phone)
    Flag(
        "Phone changed unexpectedly in lattice [broken lattice or "
        "mismatched model?]");
  for (; i < len; ++i) {  // word-internal phones, up to the word-end phone
    const PhoneType type = TypeOfTid(tids[i]);
    if (type == WordBoundaryInfo::kWordEndPhone) break;
    if (type != WordBoundaryInfo::kWordInternalPhone && !error_) {
      NNET3_WARN << "Unexpected phone " << Phone(tids[i])
                 << " found inside a word.";
      error_ = true;
    }
  }
  if (i == len) return false;
  const int32_t end_phone = Phone(tids[i]);
  for (; i < len; ++i) {
    if (Phone(tids[i]) != end_phone)
      Flag(
          "Phone changed before final transition-id found [broken lattice "
          "or mismatched model or wrong --reorder option?]");
    if (tmodel_.IsFinal(tids[i])) break;
  }
  if (i == len) return false;
  i = PastFinal(tids, i);
  if (i == len) return false;
  if (Phone(tids[i - 1]) != end_phone)
    Flag(
        "Phone changed while following final self-loop [broken lattice or "
        "mismatched model or wrong --reorder option?]");
  *arc = TakeArc(pending, i, pending->words[0], true);
  return true;
}

bool LatticeWordAligner::IsPlausibleWord(
    const std::vector<int32_t> &tids) const {
  if (tids.empty()) return false;
  const int32_t first = Phone(tids.front()), last = Phone(tids.back());
  const PhoneType first_type = info_.TypeOfPhone(first);
  const bool one_phone =
      first_type == WordBoundaryInfo::kWordBeginAndEndPhone && first == last;
  const bool begin_end =
      first_type == WordBoundaryInfo::kWordBeginPhone &&
      info_.TypeOfPhone(last) == WordBoundaryInfo::kWordEndPhone;
  if (!one_phone && !begin_end) return false;
  if (!info_.reorder) return tmodel_.IsFinal(tids.back());
  size_t i = tids.size() - 1;
  while (i > 0 && tmodel_.IsSelfLoop(tids[i])) --i;
  return tmodel_.IsFinal(tids[i]);
}

void LatticeWordAligner::OutputArcForce(PendingAlignment *pending,
                                        CompactLatticeArc *arc) {
  NNET3_ASSERT(!pending->Empty());
  std::vector<int32_t> &tids = pending->tids;
  if (!pending->words.empty() && !tids.empty()) {
    if (!error_ && !IsPlausibleWord(tids))
      Flag("Invalid word at end of lattice [partial lattice, forced out?]");
    *arc = TakeArc(pending, tids.size(), pending->words[0], true);
  } else if (!pending->words.empty()) {
    Flag(
        "Discarding word-ids at the end of a sentence, that don't have "
        "alignments.");
    *arc =
        CompactLatticeArc(0, 0, CompactLatticeWeight::One(), fst::kNoStateId);
    pending->words.clear();
  } else if (info_.TypeOfPhone(Phone(tids[0])) ==
             WordBoundaryInfo::kNonWordPhone) {
    // OutputSilenceArc flagged a phone change already.
    NNET3_ASSERT(Phone(tids[0]) == Phone(tids.back()) || error_);
    if (!error_) {
      size_t i = tids.size() - 1;
      if (info_.reorder)
        while (i > 0 && tmodel_.IsSelfLoop(tids[i])) --i;
      if (!tmodel_.IsFinal(tids[i]))
        Flag(
            "Broken silence arc at end of utterance (does not reach end of "
            "silence)");
    }
    *arc = TakeArc(pending, tids.size(), silence_label_, false);
  } else {
    Flag("Partial word detected at end of utterance");
    *arc = TakeArc(pending, tids.size(), partial_word_label_, false);
  }
}

StateId LatticeWordAligner::GetState(const AlignerKey &key) {
  auto it = map_.find(key);
  if (it != map_.end()) return it->second;
  const StateId state = lat_out_->AddState();
  map_.emplace(key, state);
  queue_.emplace_back(key, state);
  return state;
}

void LatticeWordAligner::ProcessFinal(AlignerKey key, StateId output_state) {
  if (key.pending.Empty()) {
    lat_out_->SetFinal(output_state, Plus(lat_out_->Final(output_state),
                                          CompactLatticeWeight::One()));
    return;
  }
  CompactLatticeArc arc;
  OutputArcForce(&key.pending, &arc);
  arc.nextstate = GetState(key);
  NNET3_ASSERT(arc.nextstate != output_state);
  lat_out_->AddArc(output_state, arc);
}

void LatticeWordAligner::ProcessQueueElement() {
  AlignerKey key = queue_.back().first;
  const StateId output_state = queue_.back().second;
  queue_.pop_back();
  CompactLatticeArc word_arc;
  if (OutputArc(&key.pending, &word_arc)) {
    // Something pending is written out first; the input arcs wait for the
    // state that follows, so that each path is cut in one way only.
    word_arc.nextstate = GetState(key);
    NNET3_ASSERT(word_arc.nextstate != output_state);
    lat_out_->AddArc(output_state, word_arc);
    return;
  }
  if (lat_.Final(key.input_state) != CompactLatticeWeight::Zero())
    ProcessFinal(key, output_state);  // One, after CreateSuperFinal
  for (fst::ArcIterator<CompactLattice> aiter(lat_, key.input_state);
       !aiter.Done(); aiter.Next()) {
    const CompactLatticeArc &arc = aiter.Value();
    AlignerKey next = key;
    next.pending.Read(arc);
    next.input_state = arc.nextstate;
    const StateId next_state = GetState(next);
    NNET3_ASSERT(next_state != output_state);
    const LatticeWeight weight =
        Times(LatticeWeight::One(), arc.weight.Weight());
    lat_out_->AddArc(
        output_state,
        CompactLatticeArc(0, 0, CompactLatticeWeight(weight, {}), next_state));
  }
}

void LatticeWordAligner::RemoveEpsilons() {
  fst::RmEpsilon(lat_out_, true);
  std::vector<int32_t> to_erase;
  if (info_.partial_word_label == 0) to_erase.push_back(partial_word_label_);
  if (info_.silence_label == 0) to_erase.push_back(silence_label_);
  if (to_erase.empty()) return;
  fst::ArcMap(lat_out_, InputLabelEraser(to_erase));
  fst::Project(lat_out_, fst::ProjectType::INPUT);
}

bool LatticeWordAligner::Align() {
  lat_out_->DeleteStates();
  if (lat_.Start() == fst::kNoStateId) {
    NNET3_WARN << "Trying to word-align empty lattice.";
    return false;
  }
  lat_out_->SetStart(GetState(AlignerKey{lat_.Start(), PendingAlignment()}));
  while (!queue_.empty()) {
    if (max_states_ > 0 && lat_out_->NumStates() > max_states_) {
      NNET3_WARN << "Number of states in lattice exceeded max-states of "
                 << max_states_ << ", original lattice had " << lat_.NumStates()
                 << " states.  Returning what we have.";
      RemoveEpsilons();
      return false;
    }
    ProcessQueueElement();
  }
  RemoveEpsilons();
  return !error_;
}

// The checks of TestWordAlignedLattice, arc by arc.
class WordAlignedLatticeChecker {
 public:
  WordAlignedLatticeChecker(const TransitionModel &tmodel,
                            const WordBoundaryInfo &info)
      : tmodel_(tmodel), info_(info) {}

  bool IsValidArc(const CompactLatticeArc &arc) const {
    const std::vector<int32_t> &tids = arc.weight.String();
    if (tids.empty()) return arc.ilabel == 0;
    const int32_t phone = Phone(tids[0]);
    const WordBoundaryInfo::PhoneType type = info_.TypeOfPhone(phone);
    if (arc.ilabel == info_.silence_label &&
        type == WordBoundaryInfo::kNonWordPhone)
      return IsOnePhone(tids);
    if (arc.ilabel == 0) return false;
    if (type == WordBoundaryInfo::kWordBeginAndEndPhone)
      return IsOnePhone(tids);
    return type == WordBoundaryInfo::kWordBeginPhone && IsNormalWord(tids);
  }

 private:
  int32_t Phone(int32_t tid) const { return tmodel_.TransitionIdToPhone(tid); }

  // All of one phone, ending at its final transition (then, with reorder,
  // only that transition state's self-loops).
  bool IsOnePhone(const std::vector<int32_t> &tids) const {
    for (int32_t tid : tids)
      if (Phone(tid) != Phone(tids[0])) return false;
    if (!info_.reorder) return tmodel_.IsFinal(tids.back());
    for (size_t i = 0; i < tids.size(); ++i) {
      if (!tmodel_.IsFinal(tids[i])) continue;
      for (size_t j = i + 1; j < tids.size(); ++j)
        if (!tmodel_.TransitionIdsEquivalent(tids[j], tids[i])) return false;
      return true;
    }
    return false;
  }

  // A begin phone with one final transition, internal phones, then an end
  // phone up to its final transition (and its reordered self-loops).
  bool IsNormalWord(const std::vector<int32_t> &tids) const {
    size_t i = 0;
    int num_final = 0;
    for (; i < tids.size() && Phone(tids[i]) == Phone(tids[0]); ++i)
      if (tmodel_.IsFinal(tids[i])) ++num_final;
    if (num_final != 1) return false;
    while (i < tids.size() && info_.TypeOfPhone(Phone(tids[i])) ==
                                  WordBoundaryInfo::kWordInternalPhone)
      ++i;
    if (i == tids.size()) return false;
    const int32_t end_phone = Phone(tids[i]);
    if (info_.TypeOfPhone(end_phone) != WordBoundaryInfo::kWordEndPhone)
      return false;
    for (size_t j = i; j < tids.size(); ++j)
      if (Phone(tids[j]) != end_phone) return false;
    for (size_t j = i; j < tids.size(); ++j) {
      if (!tmodel_.IsFinal(tids[j])) continue;
      if (!info_.reorder) return j + 1 == tids.size();
      for (size_t k = j + 1; k < tids.size(); ++k)
        if (!tmodel_.TransitionIdsEquivalent(tids[k], tids[j]) ||
            !tmodel_.IsSelfLoop(tids[k]))
          return false;
      return true;
    }
    return false;
  }

  const TransitionModel &tmodel_;
  const WordBoundaryInfo &info_;
};

}  // namespace

bool WordAlignLattice(const CompactLattice &lat,
                      const TransitionModel &trans_model,
                      const WordBoundaryInfo &info, int32_t max_states,
                      CompactLattice *lat_out) {
  LatticeWordAligner aligner(lat, trans_model, info, max_states, lat_out);
  return aligner.Align();
}

void TestWordAlignedLattice(const CompactLattice &lat,
                            const TransitionModel &trans_model,
                            const WordBoundaryInfo &info,
                            const CompactLattice &aligned_lat) {
  const WordAlignedLatticeChecker checker(trans_model, info);
  for (StateId s = 0; s < aligned_lat.NumStates(); ++s) {
    for (fst::ArcIterator<CompactLattice> aiter(aligned_lat, s); !aiter.Done();
         aiter.Next()) {
      const CompactLatticeArc &arc = aiter.Value();
      if (!checker.IsValidArc(arc))
        NNET3_ERR << "Invalid arc in aligned CompactLattice: " << arc.ilabel
                  << " " << arc.olabel << " " << arc.nextstate << " "
                  << arc.weight;
    }
    if (!aligned_lat.Final(s).String().empty())
      NNET3_ERR << "Expect to have no strings on final-weights of lattices.";
  }
  CompactLattice without_silence(aligned_lat);
  if (info.silence_label != 0) {
    fst::ArcMap(&without_silence, InputLabelEraser({info.silence_label}));
    fst::Project(&without_silence, fst::ProjectType::INPUT);
  }
  const uint64_t seed = 0;  // fixed, so that a failure can be reproduced
  if (!fst::RandEquivalent(lat, without_silence, 5, 1.0e+10, seed, 200))
    NNET3_ERR << "Equivalence test failed (testing word-alignment of "
              << "lattices.) Make sure your model and lattices match!";
}

}  // namespace nnet3
