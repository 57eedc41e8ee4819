#include "hmm/transition-model.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <tuple>

#include "base/error.h"
#include "base/io-funcs.h"
#include "base/log.h"
#include "device/device.h"
#include "util/kaldi-io.h"

namespace nnet3 {

bool TransitionModel::Tuple::operator<(const Tuple &o) const {
  return std::tie(phone, hmm_state, forward_pdf, self_loop_pdf) <
         std::tie(o.phone, o.hmm_state, o.forward_pdf, o.self_loop_pdf);
}

bool TransitionModel::Tuple::operator==(const Tuple &o) const {
  return phone == o.phone && hmm_state == o.hmm_state &&
         forward_pdf == o.forward_pdf && self_loop_pdf == o.self_loop_pdf;
}

TransitionModel::TransitionModel() : log_probs_(CpuDevice()) {}

TransitionModel::TransitionModel(const ContextDependency &ctx_dep,
                                 const HmmTopology &topo)
    : topo_(topo), log_probs_(CpuDevice()) {
  if (topo_.IsHmm())
    ComputeTuplesIsHmm(ctx_dep);
  else
    ComputeTuplesNotHmm(ctx_dep);
  // The sorted order defines the transition-ids.
  std::sort(tuples_.begin(), tuples_.end());
  tuples_.erase(std::unique(tuples_.begin(), tuples_.end()), tuples_.end());
  ComputeDerived();
  InitializeProbs();
  Check();
}

void TransitionModel::ComputeTuplesIsHmm(const ContextDependency &ctx_dep) {
  const std::vector<int32_t> &phones = topo_.GetPhones();
  std::vector<int32_t> num_pdf_classes(phones.back() + 1, -1);
  for (int32_t phone : phones)
    num_pdf_classes[phone] = topo_.NumPdfClasses(phone);
  // Indexed by pdf: the (phone, pdf-class) pairs that can have it.
  std::vector<std::vector<std::pair<int32_t, int32_t>>> pdf_info;
  ctx_dep.GetPdfInfo(phones, num_pdf_classes, &pdf_info);
  // (phone, pdf-class) -> the HMM states that emit that pdf-class.
  std::map<std::pair<int32_t, int32_t>, std::vector<int32_t>> states_of;
  for (int32_t phone : phones) {
    const HmmTopology::TopologyEntry &entry = topo_.TopologyForPhone(phone);
    for (int32_t j = 0; j < static_cast<int32_t>(entry.size()); j++)
      if (entry[j].forward_pdf_class != HmmTopology::kNoPdf)
        states_of[{phone, entry[j].forward_pdf_class}].push_back(j);
  }
  for (int32_t pdf = 0; pdf < static_cast<int32_t>(pdf_info.size()); pdf++)
    for (const auto &phone_and_class : pdf_info[pdf])
      for (int32_t hmm_state : states_of[phone_and_class])
        tuples_.push_back({phone_and_class.first, hmm_state, pdf, pdf});
}

void TransitionModel::ComputeTuplesNotHmm(const ContextDependency &ctx_dep) {
  const std::vector<int32_t> &phones = topo_.GetPhones();
  // Indexed by phone: (forward, self-loop) pdf-class of each emitting state.
  std::vector<std::vector<std::pair<int32_t, int32_t>>> class_pairs(
      phones.back() + 1);
  for (int32_t phone : phones)
    for (const HmmTopology::HmmState &s : topo_.TopologyForPhone(phone))
      if (s.forward_pdf_class != HmmTopology::kNoPdf)
        class_pairs[phone].emplace_back(s.forward_pdf_class,
                                        s.self_loop_pdf_class);
  // Indexed by phone, then by the entry of class_pairs[phone].
  std::vector<std::vector<std::vector<std::pair<int32_t, int32_t>>>> pdf_info;
  ctx_dep.GetPdfInfo(phones, class_pairs, &pdf_info);
  for (int32_t phone : phones) {
    const HmmTopology::TopologyEntry &entry = topo_.TopologyForPhone(phone);
    for (size_t j = 0; j < class_pairs[phone].size(); j++)
      for (int32_t hmm_state = 0;
           hmm_state < static_cast<int32_t>(entry.size()); hmm_state++) {
        const HmmTopology::HmmState &s = entry[hmm_state];
        if (s.forward_pdf_class == HmmTopology::kNoPdf ||
            std::make_pair(s.forward_pdf_class, s.self_loop_pdf_class) !=
                class_pairs[phone][j])
          continue;
        for (const auto &pdfs : pdf_info[phone][j])
          tuples_.push_back({phone, hmm_state, pdfs.first, pdfs.second});
      }
  }
}

void TransitionModel::InitializeProbs() {
  std::vector<float> log_probs(num_transition_ids_ + 1, 0.0f);
  for (int32_t tid = 1; tid <= num_transition_ids_; tid++) {
    const float prob = Transition(tid).second;
    if (prob > 1.0f)
      NNET3_WARN << "TransitionModel::InitializeProbs, prob greater than one.";
    log_probs[tid] = std::log(prob);
  }
  log_probs_ = Vector(log_probs, CpuDevice());
}

void TransitionModel::Read(std::istream &is, bool binary) {
  try {
    ReadInternal(is, binary);
  } catch (const UserError &e) {
    RethrowWithContext(e, "in the TransitionModel");
  }
}

void TransitionModel::ReadInternal(std::istream &is, bool binary) {
  ExpectToken(is, binary, "<TransitionModel>");
  topo_.Read(is, binary);
  std::string token;
  ReadToken(is, binary, &token);
  if (token != "<Triples>" && token != "<Tuples>")
    NNET3_ERR << "Reading TransitionModel: expected <Triples> or <Tuples>, "
              << "got " << token;
  const bool with_self_loop_pdf = token == "<Tuples>";
  int32_t size;
  ReadBasicType(is, binary, &size);
  if (size < 0 || size > 100000000)
    NNET3_ERR << "Reading TransitionModel: bad number of tuples " << size;
  // A tuple takes at least 6 bytes of the file (3 numbers).
  tuples_.clear();
  tuples_.reserve(CheckCountFits(is, size, 6, "The number of tuples"));
  for (int32_t i = 0; i < size; i++) {
    tuples_.emplace_back();
    Tuple &t = tuples_.back();
    ReadBasicType(is, binary, &t.phone);
    ReadBasicType(is, binary, &t.hmm_state);
    ReadBasicType(is, binary, &t.forward_pdf);
    t.self_loop_pdf = t.forward_pdf;
    if (with_self_loop_pdf) ReadBasicType(is, binary, &t.self_loop_pdf);
  }
  ExpectToken(is, binary, with_self_loop_pdf ? "</Tuples>" : "</Triples>");
  ComputeDerived();
  ExpectToken(is, binary, "<LogProbs>");
  log_probs_.Read(is, binary);
  ExpectToken(is, binary, "</LogProbs>");
  ExpectToken(is, binary, "</TransitionModel>");
  Check();
}

void TransitionModel::Write(std::ostream &os, bool binary) const {
  const bool is_hmm = topo_.IsHmm();
  WriteToken(os, binary, "<TransitionModel>");
  if (!binary) os << "\n";
  topo_.Write(os, binary);
  WriteToken(os, binary, is_hmm ? "<Triples>" : "<Tuples>");
  WriteBasicType(os, binary, static_cast<int32_t>(tuples_.size()));
  if (!binary) os << "\n";
  for (const Tuple &t : tuples_) {
    WriteBasicType(os, binary, t.phone);
    WriteBasicType(os, binary, t.hmm_state);
    WriteBasicType(os, binary, t.forward_pdf);
    if (!is_hmm) WriteBasicType(os, binary, t.self_loop_pdf);
    if (!binary) os << "\n";
  }
  WriteToken(os, binary, is_hmm ? "</Triples>" : "</Tuples>");
  if (!binary) os << "\n";
  WriteToken(os, binary, "<LogProbs>");
  if (!binary) os << "\n";
  log_probs_.Write(os, binary);
  WriteToken(os, binary, "</LogProbs>");
  if (!binary) os << "\n";
  WriteToken(os, binary, "</TransitionModel>");
  if (!binary) os << "\n";
}

void TransitionModel::ComputeDerived() {
  const int32_t num_states = static_cast<int32_t>(tuples_.size());
  state2id_.assign(num_states + 2, 0);
  id2state_.assign(1, 0);
  id2pdf_.assign(1, -1);
  num_pdfs_ = 0;
  int32_t next_id = 1;
  for (int32_t s = 1; s <= num_states; s++) {
    const Tuple &t = tuples_[s - 1];
    const HmmTopology::TopologyEntry &entry = topo_.TopologyForPhone(t.phone);
    if (t.hmm_state < 0 || t.hmm_state >= static_cast<int32_t>(entry.size()))
      NNET3_ERR << "TransitionModel: transition state " << s << " names HMM "
                << "state " << t.hmm_state << " of phone " << t.phone
                << ", which has " << entry.size() << " states";
    if (t.forward_pdf < 0 || t.self_loop_pdf < 0)
      NNET3_ERR << "TransitionModel: transition state " << s
                << " has a negative pdf";
    num_pdfs_ = std::max({num_pdfs_, t.forward_pdf + 1, t.self_loop_pdf + 1});
    state2id_[s] = next_id;
    for (const auto &transition : entry[t.hmm_state].transitions) {
      id2state_.push_back(s);
      id2pdf_.push_back(transition.first == t.hmm_state ? t.self_loop_pdf
                                                        : t.forward_pdf);
      next_id++;
    }
  }
  state2id_[num_states + 1] = next_id;
  num_transition_ids_ = next_id - 1;
}

void TransitionModel::Check() const {
  if (tuples_.empty() || num_transition_ids_ == 0)
    NNET3_ERR << "TransitionModel: no transition states";
  for (size_t i = 1; i < tuples_.size(); i++)
    if (!(tuples_[i - 1] < tuples_[i]))
      NNET3_ERR << "TransitionModel: the tuples are not sorted and unique "
                << "(at transition state " << i + 1 << ")";
  if (log_probs_.Dim() != num_transition_ids_ + 1)
    NNET3_ERR << "TransitionModel: <LogProbs> has dimension "
              << log_probs_.Dim() << "; the " << num_transition_ids_
              << " transition-ids need " << num_transition_ids_ + 1;
  const std::vector<float> log_probs = log_probs_.ToHost();
  for (int32_t tid = 1; tid <= num_transition_ids_; tid++)
    if (!(log_probs[tid] <= 0.0f) || !std::isfinite(log_probs[tid]))
      NNET3_ERR << "TransitionModel: transition-id " << tid
                << " has log-probability " << log_probs[tid]
                << " (must be finite and <= 0)";
}

int32_t TransitionModel::NumPhones() const {
  int32_t ans = 0;
  for (const Tuple &t : tuples_) ans = std::max(ans, t.phone);
  return ans;
}

void TransitionModel::CheckId(int32_t tid) const {
  NNET3_ASSERT(tid > 0 && tid <= num_transition_ids_);
}

void TransitionModel::CheckState(int32_t trans_state) const {
  NNET3_ASSERT(trans_state > 0 &&
               trans_state <= static_cast<int32_t>(tuples_.size()));
}

int32_t TransitionModel::TransitionIdToPdf(int32_t tid) const {
  CheckId(tid);
  return id2pdf_[tid];
}

float TransitionModel::GetTransitionLogProb(int32_t tid) const {
  CheckId(tid);
  return log_probs_.Get(tid);
}

int32_t TransitionModel::TransitionIdToTransitionState(int32_t tid) const {
  CheckId(tid);
  return id2state_[tid];
}

int32_t TransitionModel::TransitionIdToTransitionIndex(int32_t tid) const {
  CheckId(tid);
  return tid - state2id_[id2state_[tid]];
}

int32_t TransitionModel::PairToTransitionId(int32_t trans_state,
                                            int32_t trans_index) const {
  CheckState(trans_state);
  NNET3_ASSERT(trans_index >= 0 &&
               trans_index < NumTransitionIndices(trans_state));
  return state2id_[trans_state] + trans_index;
}

int32_t TransitionModel::NumTransitionIndices(int32_t trans_state) const {
  CheckState(trans_state);
  return state2id_[trans_state + 1] - state2id_[trans_state];
}

int32_t TransitionModel::TupleToTransitionState(int32_t phone,
                                                int32_t hmm_state,
                                                int32_t forward_pdf,
                                                int32_t self_loop_pdf) const {
  Tuple t;
  t.phone = phone;
  t.hmm_state = hmm_state;
  t.forward_pdf = forward_pdf;
  t.self_loop_pdf = self_loop_pdf;
  auto it = std::lower_bound(tuples_.begin(), tuples_.end(), t);
  if (it == tuples_.end() || !(*it == t))
    NNET3_ERR << "TransitionModel: no transition state for phone " << phone
              << ", HMM state " << hmm_state << ", pdfs " << forward_pdf << "/"
              << self_loop_pdf
              << " (do the tree and the model belong together?)";
  return static_cast<int32_t>(it - tuples_.begin()) + 1;
}

int32_t TransitionModel::TransitionStateToPhone(int32_t trans_state) const {
  CheckState(trans_state);
  return tuples_[trans_state - 1].phone;
}

int32_t TransitionModel::TransitionStateToHmmState(int32_t trans_state) const {
  CheckState(trans_state);
  return tuples_[trans_state - 1].hmm_state;
}

int32_t TransitionModel::TransitionStateToForwardPdf(
    int32_t trans_state) const {
  CheckState(trans_state);
  return tuples_[trans_state - 1].forward_pdf;
}

int32_t TransitionModel::TransitionStateToSelfLoopPdf(
    int32_t trans_state) const {
  CheckState(trans_state);
  return tuples_[trans_state - 1].self_loop_pdf;
}

int32_t TransitionModel::TransitionStateToForwardPdfClass(
    int32_t trans_state) const {
  CheckState(trans_state);
  const Tuple &t = tuples_[trans_state - 1];
  return topo_.TopologyForPhone(t.phone)[t.hmm_state].forward_pdf_class;
}

int32_t TransitionModel::TransitionStateToSelfLoopPdfClass(
    int32_t trans_state) const {
  CheckState(trans_state);
  const Tuple &t = tuples_[trans_state - 1];
  return topo_.TopologyForPhone(t.phone)[t.hmm_state].self_loop_pdf_class;
}

int32_t TransitionModel::SelfLoopOf(int32_t trans_state) const {
  CheckState(trans_state);
  const Tuple &t = tuples_[trans_state - 1];
  const auto &transitions =
      topo_.TopologyForPhone(t.phone)[t.hmm_state].transitions;
  for (size_t i = 0; i < transitions.size(); i++)
    if (transitions[i].first == t.hmm_state)
      return state2id_[trans_state] + static_cast<int32_t>(i);
  return 0;
}

const std::pair<int32_t, float> &TransitionModel::Transition(
    int32_t tid) const {
  const Tuple &t = tuples_[id2state_[tid] - 1];
  return topo_.TopologyForPhone(t.phone)[t.hmm_state]
      .transitions[tid - state2id_[id2state_[tid]]];
}

int32_t TransitionModel::TransitionIdToPhone(int32_t tid) const {
  CheckId(tid);
  return tuples_[id2state_[tid] - 1].phone;
}

int32_t TransitionModel::TransitionIdToHmmState(int32_t tid) const {
  CheckId(tid);
  return tuples_[id2state_[tid] - 1].hmm_state;
}

int32_t TransitionModel::TransitionIdToPdfClass(int32_t tid) const {
  const int32_t trans_state = TransitionIdToTransitionState(tid);
  return IsSelfLoop(tid) ? TransitionStateToSelfLoopPdfClass(trans_state)
                         : TransitionStateToForwardPdfClass(trans_state);
}

bool TransitionModel::IsSelfLoop(int32_t tid) const {
  CheckId(tid);
  return Transition(tid).first == tuples_[id2state_[tid] - 1].hmm_state;
}

bool TransitionModel::IsFinal(int32_t tid) const {
  CheckId(tid);
  const Tuple &t = tuples_[id2state_[tid] - 1];
  const size_t num_states = topo_.TopologyForPhone(t.phone).size();
  return static_cast<size_t>(Transition(tid).first) + 1 == num_states;
}

float TransitionModel::GetNonSelfLoopLogProb(int32_t trans_state) const {
  const int32_t self_loop = SelfLoopOf(trans_state);
  if (self_loop == 0) return 0.0f;
  // In float, as Kaldi computes it, so that graphs built with it match.
  const float p = std::exp(log_probs_.Get(self_loop));
  float non_self_loop = 1.0f - p;
  if (non_self_loop <= 0.0f) non_self_loop = 1.0e-10f;
  return std::log(non_self_loop);
}

float TransitionModel::GetTransitionLogProbIgnoringSelfLoops(
    int32_t tid) const {
  return GetTransitionLogProb(tid) -
         GetNonSelfLoopLogProb(TransitionIdToTransitionState(tid));
}

bool TransitionModel::operator==(const TransitionModel &other) const {
  return topo_ == other.topo_ && tuples_ == other.tuples_ &&
         log_probs_.ToHost() == other.log_probs_.ToHost();
}

}  // namespace nnet3
