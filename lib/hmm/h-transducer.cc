#include "hmm/h-transducer.h"

#include <cmath>
#include <map>
#include <sstream>
#include <string>
#include <utility>

#include "base/error.h"
#include "fstext/remove-eps-local.h"

namespace nnet3 {

namespace {

using fst::StdArc;
using fst::StdVectorFst;
using Weight = StdArc::Weight;
using StateId = StdArc::StateId;

std::string WindowToString(const std::vector<int32_t> &window) {
  std::ostringstream ss;
  for (size_t i = 0; i < window.size(); i++) ss << (i ? " " : "") << window[i];
  return ss.str();
}

// The pdf of each pdf-class of the window's central phone.
std::vector<int32_t> PdfsOfWindow(const std::vector<int32_t> &window,
                                  const ContextDependency &ctx_dep,
                                  const HmmTopology &topo) {
  if (static_cast<int32_t>(window.size()) != ctx_dep.ContextWidth())
    NNET3_ERR << "Context size mismatch, ilabel-info [from context FST is "
              << window.size() << ", context-dependency object expects "
              << ctx_dep.ContextWidth()
              << " (were the tree and the ilabels made for each other?)";
  for (int32_t phone : window)
    if (phone < 0)
      NNET3_ERR << "Bad phone window [ " << WindowToString(window)
                << " ] in the ilabel-info: negative phone";
  const int32_t phone = window[ctx_dep.CentralPosition()];
  if (phone == 0)
    NNET3_ERR << "phone == 0 at the central position of the window [ "
              << WindowToString(window) << " ]: some mismatch happened "
              << "(ilabel-info and tree)";
  std::vector<int32_t> pdfs(topo.NumPdfClasses(phone));
  for (int32_t pdf_class = 0; pdf_class < static_cast<int32_t>(pdfs.size());
       pdf_class++)
    if (!ctx_dep.Compute(window, pdf_class, &pdfs[pdf_class]))
      NNET3_ERR << "GetHmmAsFsa: context-dependency object could not produce "
                << "an answer: pdf-class = " << pdf_class
                << " ctx-window = " << WindowToString(window)
                << ".  This probably points to "
                << "either a coding error in some graph-building process, a "
                << "mismatch of topology with context-dependency object, the "
                << "wrong FST being passed on a command-line, or something "
                << "of that general nature.";
  return pdfs;
}

void ApplyProbabilityScale(float scale, fst::MutableFst<StdArc> *fst) {
  for (StateId s = 0; s < fst->NumStates(); s++) {
    for (fst::MutableArcIterator<fst::MutableFst<StdArc>> it(fst, s);
         !it.Done(); it.Next()) {
      StdArc arc = it.Value();
      arc.weight = Weight(arc.weight.Value() * scale);
      it.SetValue(arc);
    }
    if (fst->Final(s) != Weight::Zero())
      fst->SetFinal(s, Weight(fst->Final(s).Value() * scale));
  }
}

// The acceptor of the phone's HMM, given the pdf of each pdf-class.
std::unique_ptr<StdVectorFst> BuildHmmFsa(int32_t phone,
                                          const std::vector<int32_t> &pdfs,
                                          const TransitionModel &trans_model,
                                          const HTransducerConfig &config) {
  const HmmTopology::TopologyEntry &entry =
      trans_model.GetTopo().TopologyForPhone(phone);
  auto fsa = std::make_unique<StdVectorFst>();
  for (size_t i = 0; i < entry.size(); i++) fsa->AddState();
  fsa->SetStart(0);
  fsa->SetFinal(static_cast<StateId>(entry.size()) - 1, Weight::One());
  for (int32_t hmm_state = 0; hmm_state < static_cast<int32_t>(entry.size());
       hmm_state++) {
    const HmmTopology::HmmState &state = entry[hmm_state];
    const bool emitting = state.forward_pdf_class != HmmTopology::kNoPdf;
    for (size_t t = 0; t < state.transitions.size(); t++) {
      const int32_t dest = state.transitions[t].first;
      if (dest == hmm_state) continue;  // self-loops come later
      int32_t label = 0;
      float log_prob;
      if (emitting) {
        const int32_t trans_state = trans_model.TupleToTransitionState(
            phone, hmm_state, pdfs[state.forward_pdf_class],
            pdfs[state.self_loop_pdf_class]);
        label = trans_model.PairToTransitionId(trans_state,
                                               static_cast<int32_t>(t));
        log_prob = trans_model.GetTransitionLogProbIgnoringSelfLoops(label);
      } else {
        log_prob = std::log(state.transitions[t].second);
      }
      fsa->AddArc(hmm_state, StdArc(label, label, Weight(-log_prob), dest));
    }
  }
  RemoveEpsLocal(fsa.get());
  ApplyProbabilityScale(config.transition_scale, fsa.get());
  return fsa;
}

std::unique_ptr<StdVectorFst> TrivialAcceptor(int32_t label) {
  auto fsa = std::make_unique<StdVectorFst>();
  fsa->AddState();
  fsa->AddState();
  fsa->SetStart(0);
  fsa->SetFinal(1, Weight::One());
  fsa->AddArc(0, StdArc(label, label, Weight::One(), 1));
  return fsa;
}

// Adds `fsa` to the loop FST `h` (state 0) for output label `olabel`;
// returns the arc that leaves state 0 (for later windows sharing it), or
// false if the acceptor is empty.
bool AddToLoop(const StdVectorFst &fsa, int32_t olabel, StdVectorFst *h,
               StdArc *entry_arc) {
  const StateId start = fsa.Start();
  if (start == fst::kNoStateId) return false;
  NNET3_ASSERT(fsa.Properties(fst::kAcceptor, true) == fst::kAcceptor);
  const bool share_start =
      fsa.Properties(fst::kInitialAcyclic, true) == fst::kInitialAcyclic &&
      fsa.NumArcs(start) == 1 && fsa.Final(start) == Weight::Zero();
  std::vector<StateId> state_map(fsa.NumStates());
  for (StateId s = 0; s < fsa.NumStates(); s++)
    state_map[s] = (s == start && share_start) ? 0 : h->AddState();
  if (!share_start) {
    *entry_arc = StdArc(0, olabel, Weight::One(), state_map[start]);
    h->AddArc(0, *entry_arc);
  }
  for (StateId s = 0; s < fsa.NumStates(); s++) {
    const bool from_loop = s == start && share_start;
    for (fst::ArcIterator<StdVectorFst> it(fsa, s); !it.Done(); it.Next()) {
      const StdArc &arc = it.Value();
      const StdArc added(arc.ilabel, from_loop ? olabel : 0, arc.weight,
                         state_map[arc.nextstate]);
      h->AddArc(state_map[s], added);
      if (from_loop) *entry_arc = added;
    }
    if (fsa.Final(s) != Weight::Zero())
      h->AddArc(state_map[s], StdArc(0, 0, fsa.Final(s), 0));
  }
  return true;
}

}  // namespace

std::unique_ptr<StdVectorFst> GetHmmAsFsa(
    const std::vector<int32_t> &phone_window, const ContextDependency &ctx_dep,
    const TransitionModel &trans_model, const HTransducerConfig &config,
    std::vector<int32_t> *pdfs) {
  *pdfs = PdfsOfWindow(phone_window, ctx_dep, trans_model.GetTopo());
  return BuildHmmFsa(phone_window[ctx_dep.CentralPosition()], *pdfs,
                     trans_model, config);
}

std::unique_ptr<StdVectorFst> GetHTransducer(
    const ILabelInfo &ilabel_info, const ContextDependency &ctx_dep,
    const TransitionModel &trans_model, const HTransducerConfig &config,
    std::vector<int32_t> *disambig_tids) {
  if (ilabel_info.Size() == 0 || !ilabel_info[0].empty())
    NNET3_ERR << "Bad ilabel-info: entry 0 must be empty (epsilon)";
  disambig_tids->clear();
  int32_t next_disambig = trans_model.NumTransitionIds() + 1;
  auto h = std::make_unique<StdVectorFst>();
  h->AddState();
  h->SetStart(0);
  h->SetFinal(0, Weight::One());
  h->ReserveArcs(0, ilabel_info.Size());  // at most one arc per ilabel
  // Windows with the same phone and pdfs share one acceptor in H: the arc
  // from state 0 into it, by (phone, pdfs).
  std::map<std::pair<int32_t, std::vector<int32_t>>, StdArc> entry_arcs;
  for (int32_t i = 1; i < ilabel_info.Size(); i++) {
    const std::vector<int32_t> info = ilabel_info[i].ToVector();
    StdArc entry_arc;
    if (info.empty())
      NNET3_ERR << "Bad ilabel-info: entry " << i << " is empty";
    if (info[0] < 0 || (info[0] == 0 && info.size() == 1)) {
      if (info.size() != 1)
        NNET3_ERR << "ilabel-info entry " << i << " [ " << WindowToString(info)
                  << " ] seems to be for a grammar "
                  << "FST, which is not supported (or the file is corrupt)";
      disambig_tids->push_back(next_disambig);
      AddToLoop(*TrivialAcceptor(next_disambig++), i, h.get(), &entry_arc);
      continue;
    }
    std::vector<int32_t> pdfs =
        PdfsOfWindow(info, ctx_dep, trans_model.GetTopo());
    const int32_t phone = info[ctx_dep.CentralPosition()];
    auto key = std::make_pair(phone, std::move(pdfs));
    auto found = entry_arcs.find(key);
    if (found != entry_arcs.end()) {
      entry_arc = found->second;
      entry_arc.olabel = i;
      h->AddArc(0, entry_arc);
      continue;
    }
    const auto fsa = BuildHmmFsa(phone, key.second, trans_model, config);
    if (AddToLoop(*fsa, i, h.get(), &entry_arc))
      entry_arcs.emplace(std::move(key), entry_arc);
  }
  return h;
}

}  // namespace nnet3
