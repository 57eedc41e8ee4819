#include "decoder/token-lattice.h"

#include <cmath>
#include <cstring>
#include <limits>

#include "base/error.h"
#include "base/log.h"

namespace nnet3 {

namespace {

constexpr float kInfinity = std::numeric_limits<float>::infinity();

// Kaldi's ApproxEqual for floats.
bool ApproxEqual(float a, float b, float relative_tolerance) {
  if (a == b) return true;
  const float diff = std::abs(a - b);
  if (diff == kInfinity || diff != diff) return false;
  return diff <= relative_tolerance * (std::abs(a) + std::abs(b));
}

}  // namespace

TokenLattice::TokenLattice(int32_t token_block_size, int32_t link_block_size)
    : token_pool_(token_block_size), link_pool_(link_block_size) {}

TokenLattice::~TokenLattice() { Clear(); }

void TokenLattice::Clear() {
  for (TokenList &list : frames_) {
    for (Token *tok = list.toks; tok != nullptr;) {
      DeleteLinks(tok);
      Token *next = tok->next;
      token_pool_.Free(tok);
      num_toks_--;
      tok = next;
    }
  }
  frames_.clear();
  NNET3_ASSERT(num_toks_ == 0);
  warned_ = false;
}

void TokenLattice::AddFrame() { frames_.emplace_back(); }

void TokenLattice::DeleteLinks(Token *tok) {
  for (ForwardLink *link = tok->links; link != nullptr;) {
    ForwardLink *next = link->next;
    link_pool_.Free(link);
    link = next;
  }
  tok->links = nullptr;
}

float TokenLattice::PruneLinksOf(Token *tok, float lattice_beam,
                                 float tok_extra_cost, bool *links_pruned) {
  ForwardLink *prev = nullptr;
  for (ForwardLink *link = tok->links; link != nullptr;) {
    const Token *next_tok = link->next_tok;
    if (link->ilabel == 0)
      epsilon_reads_.push_back(EpsilonRead{next_tok, next_tok->extra_cost});
    // How much worse the best path through this link is than the best path
    // through its frame (the bracket is >= 0 up to rounding).
    float link_extra_cost =
        next_tok->extra_cost +
        ((tok->tot_cost + link->acoustic_cost + link->graph_cost) -
         next_tok->tot_cost);
    NNET3_ASSERT(link_extra_cost == link_extra_cost);
    if (link_extra_cost > lattice_beam) {
      ForwardLink *next = link->next;
      if (prev != nullptr)
        prev->next = next;
      else
        tok->links = next;
      link_pool_.Free(link);
      link = next;
      *links_pruned = true;
      continue;
    }
    if (link_extra_cost < 0.0f) {
      if (link_extra_cost < -0.01f)
        NNET3_WARN << "Negative extra_cost: " << link_extra_cost;
      link_extra_cost = 0.0f;
    }
    if (link_extra_cost < tok_extra_cost) tok_extra_cost = link_extra_cost;
    prev = link;
    link = link->next;
  }
  return tok_extra_cost;
}

void TokenLattice::PruneForwardLinks(int32_t f, float lattice_beam, float delta,
                                     bool *extra_costs_changed,
                                     bool *links_pruned) {
  *extra_costs_changed = false;
  *links_pruned = false;
  if (frames_[f].toks == nullptr && FirstWarning())
    NNET3_WARN << "No tokens alive [doing pruning].. warning first time only "
               << "for each utterance";
  // The links of a frame are not in topological order (epsilon links go
  // both ways in the list), so repeat until the extra costs settle.
  bool changed = true;
  while (changed) {
    changed = false;
    bool dead = false;
    epsilon_reads_.clear();
    for (Token *tok = frames_[f].toks; tok != nullptr; tok = tok->next) {
      const float tok_extra_cost =
          PruneLinksOf(tok, lattice_beam, kInfinity, links_pruned);
      if (std::fabs(tok_extra_cost - tok->extra_cost) > delta) changed = true;
      tok->extra_cost = tok_extra_cost;  // infinite: no link survived
      dead = dead || tok_extra_cost == kInfinity;
    }
    frames_[f].may_have_dead_tokens = dead;
    if (changed) *extra_costs_changed = true;
    if (changed && !PassReadStaleCosts()) break;
  }
}

bool TokenLattice::PassReadStaleCosts() const {
  for (const EpsilonRead &read : epsilon_reads_)
    if (std::memcmp(&read.extra_cost, &read.tok->extra_cost, sizeof(float)) !=
        0)
      return true;
  return false;
}

void TokenLattice::PruneForwardLinksFinal(const FinalCostMap &final_costs,
                                          float final_best_cost,
                                          float lattice_beam) {
  const int32_t f = NumFrames() - 1;
  if (frames_[f].toks == nullptr)
    NNET3_WARN << "No tokens alive at end of file";
  const float delta = 1.0e-05f;
  bool changed = true, links_pruned = false;
  while (changed) {
    changed = false;
    bool dead = false;
    epsilon_reads_.clear();
    for (Token *tok = frames_[f].toks; tok != nullptr; tok = tok->next) {
      // Being final directly competes with reaching a final token through
      // epsilon links.
      float final_cost = 0.0f;
      if (!final_costs.empty()) {
        auto it = final_costs.find(tok);
        final_cost = it != final_costs.end() ? it->second : kInfinity;
      }
      float tok_extra_cost = PruneLinksOf(
          tok, lattice_beam, tok->tot_cost + final_cost - final_best_cost,
          &links_pruned);
      if (tok_extra_cost > lattice_beam) tok_extra_cost = kInfinity;
      if (!ApproxEqual(tok->extra_cost, tok_extra_cost, delta)) changed = true;
      tok->extra_cost = tok_extra_cost;
      dead = dead || tok_extra_cost == kInfinity;
    }
    frames_[f].may_have_dead_tokens = dead;
    if (changed && !PassReadStaleCosts()) break;
  }
}

void TokenLattice::PruneTokensForFrame(int32_t f) {
  Token *&toks = frames_[f].toks;
  if (toks == nullptr) NNET3_WARN << "No tokens alive [doing pruning]";
  if (!frames_[f].may_have_dead_tokens) return;
  frames_[f].may_have_dead_tokens = false;
  Token *prev = nullptr;
  for (Token *tok = toks, *next; tok != nullptr; tok = next) {
    next = tok->next;
    if (tok->extra_cost == kInfinity) {
      if (prev != nullptr)
        prev->next = next;
      else
        toks = next;
      token_pool_.Free(tok);
      num_toks_--;
    } else {
      prev = tok;
    }
  }
}

void TokenLattice::PruneActiveTokens(float lattice_beam, float delta) {
  const int32_t last = NumFrames() - 1;
  const int32_t num_toks_begin = num_toks_;
  for (int32_t f = last - 1; f >= 0; f--) {
    // A frame's links need pruning when they never were, or when tokens of
    // the frame after it changed their extra costs since.
    if (frames_[f].must_prune_forward_links) {
      bool extra_costs_changed = false, links_pruned = false;
      PruneForwardLinks(f, lattice_beam, delta, &extra_costs_changed,
                        &links_pruned);
      if (extra_costs_changed && f > 0)
        frames_[f - 1].must_prune_forward_links = true;
      if (links_pruned) frames_[f].must_prune_tokens = true;
      frames_[f].must_prune_forward_links = false;
    }
    if (f + 1 < last && frames_[f + 1].must_prune_tokens) {
      PruneTokensForFrame(f + 1);
      frames_[f + 1].must_prune_tokens = false;
    }
  }
  NNET3_VLOG(4) << "PruneActiveTokens: pruned tokens from " << num_toks_begin
                << " to " << num_toks_;
}

void TokenLattice::PruneFinal(const FinalCostMap &final_costs,
                              float final_best_cost, float lattice_beam) {
  const int32_t last = NumFrames() - 1;
  const int32_t num_toks_begin = num_toks_;
  PruneForwardLinksFinal(final_costs, final_best_cost, lattice_beam);
  for (int32_t f = last - 1; f >= 0; f--) {
    bool extra_costs_changed, links_pruned;
    // delta 0: settle the extra costs exactly.
    PruneForwardLinks(f, lattice_beam, 0.0f, &extra_costs_changed,
                      &links_pruned);
    PruneTokensForFrame(f + 1);
  }
  PruneTokensForFrame(0);
  NNET3_VLOG(4) << "pruned tokens from " << num_toks_begin << " to "
                << num_toks_;
}

void TokenLattice::TopSortTokens(int32_t f,
                                 std::vector<Token *> *topsorted) const {
  // Positions n-1 .. 0 in list order: the list is newest first, and a
  // token is usually created by the tokens before it, so this is nearly
  // topological already. Then every epsilon link to an earlier position
  // moves its target past all positions given so far, and the moved token
  // is visited again, until no link goes backwards (no epsilon cycles in a
  // decoding graph). Unlike Kaldi, which visits tokens in the order of a
  // hash of their addresses, the visits go in position order, so the
  // result does not depend on memory addresses.
  std::unordered_map<const Token *, int32_t> pos;
  std::vector<Token *> by_pos;
  int32_t num_toks = 0;
  for (Token *tok = frames_[f].toks; tok != nullptr; tok = tok->next)
    num_toks++;
  pos.reserve(num_toks);
  by_pos.resize(num_toks);
  int32_t p = num_toks;
  for (Token *tok = frames_[f].toks; tok != nullptr; tok = tok->next) {
    pos[tok] = --p;
    by_pos[p] = tok;
  }
  int32_t next_pos = num_toks;
  std::vector<Token *> visit(by_pos), revisit;
  const size_t max_rounds = 1000000;
  for (size_t round = 0; !visit.empty(); round++) {
    if (round == max_rounds)
      NNET3_ERR << "Epsilon loops exist in your decoding graph (this is not "
                << "allowed!)";
    revisit.clear();
    for (Token *tok : visit) {
      const int32_t tok_pos = pos[tok];
      for (ForwardLink *link = tok->links; link != nullptr; link = link->next) {
        if (link->ilabel != 0) continue;
        auto it = pos.find(link->next_tok);
        if (it == pos.end() || it->second > tok_pos) continue;
        it->second = next_pos++;
        revisit.push_back(link->next_tok);
      }
    }
    visit.swap(revisit);
  }
  topsorted->assign(next_pos, nullptr);
  for (const auto &entry : pos)
    (*topsorted)[entry.second] = const_cast<Token *>(entry.first);
}

}  // namespace nnet3
