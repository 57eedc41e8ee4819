#include "decoder/raw-lattice.h"

#include "base/error.h"
#include "base/log.h"

namespace nnet3 {

namespace {

// States for every token, frame by frame (state_of, indexed by token id);
// false if a frame is empty.
bool AddStates(const TokenLattice &lattice, std::vector<int32_t> *state_of,
               Lattice *ofst) {
  std::vector<TokenId> topsorted;
  for (int32_t f = 0; f < lattice.NumFrames(); f++) {
    if (lattice.Tokens(f) == kNoId) {
      NNET3_WARN << "GetRawLattice: no tokens active on frame " << f
                 << ": not producing lattice.";
      return false;
    }
    lattice.TopSortTokens(f, &topsorted);
    for (TokenId tok : topsorted)
      if (tok != kNoId) (*state_of)[tok] = ofst->AddState();
  }
  return true;
}

}  // namespace

bool TokenLatticeToLattice(const TokenLattice &lattice,
                           const std::vector<float> &cost_offsets,
                           const FinalCostMap *final_costs, Lattice *ofst) {
  ofst->DeleteStates();
  const int32_t last = lattice.NumFrames() - 1;
  NNET3_ASSERT(last > 0);
  std::vector<int32_t> state_of(lattice.TokenCapacity(), -1);
  if (!AddStates(lattice, &state_of, ofst)) {
    ofst->DeleteStates();
    return false;
  }
  ofst->SetStart(0);
  const bool use_final_costs = final_costs != nullptr && !final_costs->empty();
  for (int32_t f = 0; f <= last; f++) {
    for (TokenId tok = lattice.Tokens(f); tok != kNoId;
         tok = lattice.Tok(tok).next) {
      const int32_t state = state_of[tok];
      for (LinkId l = lattice.Tok(tok).links; l != kNoId;
           l = lattice.Link(f, l).next) {
        const ForwardLink &link = lattice.Link(f, l);
        const float cost_offset = link.ilabel != 0 ? cost_offsets.at(f) : 0.0f;
        NNET3_ASSERT(state_of[link.next_tok] >= 0);
        ofst->AddArc(state,
                     LatticeArc(link.ilabel, link.olabel,
                                LatticeWeight(link.graph_cost,
                                              link.acoustic_cost - cost_offset),
                                state_of[link.next_tok]));
      }
      if (f != last) continue;
      if (!use_final_costs) {
        ofst->SetFinal(state, LatticeWeight::One());
      } else {
        auto it = final_costs->find(tok);
        if (it != final_costs->end())
          ofst->SetFinal(state, LatticeWeight(it->second, 0.0f));
      }
    }
  }
  return ofst->NumStates() > 0;
}

}  // namespace nnet3
