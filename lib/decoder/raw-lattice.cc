#include "decoder/raw-lattice.h"

#include <unordered_map>

#include "base/error.h"
#include "base/log.h"

namespace nnet3 {

namespace {

// States for every token, frame by frame; false if a frame is empty.
bool AddStates(const TokenLattice &lattice,
               std::unordered_map<const Token *, int32_t> *state_of,
               Lattice *ofst) {
  std::vector<Token *> topsorted;
  for (int32_t f = 0; f < lattice.NumFrames(); f++) {
    if (lattice.Tokens(f) == nullptr) {
      NNET3_WARN << "GetRawLattice: no tokens active on frame " << f
                 << ": not producing lattice.";
      return false;
    }
    lattice.TopSortTokens(f, &topsorted);
    for (const Token *tok : topsorted)
      if (tok != nullptr) (*state_of)[tok] = ofst->AddState();
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
  std::unordered_map<const Token *, int32_t> state_of(lattice.NumTokens() / 2 +
                                                      3);
  if (!AddStates(lattice, &state_of, ofst)) {
    ofst->DeleteStates();
    return false;
  }
  ofst->SetStart(0);
  const bool use_final_costs = final_costs != nullptr && !final_costs->empty();
  for (int32_t f = 0; f <= last; f++) {
    for (const Token *tok = lattice.Tokens(f); tok != nullptr;
         tok = tok->next) {
      const int32_t state = state_of.at(tok);
      for (const ForwardLink *l = tok->links; l != nullptr; l = l->next) {
        const float cost_offset = l->ilabel != 0 ? cost_offsets.at(f) : 0.0f;
        ofst->AddArc(state,
                     LatticeArc(l->ilabel, l->olabel,
                                LatticeWeight(l->graph_cost,
                                              l->acoustic_cost - cost_offset),
                                state_of.at(l->next_tok)));
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
