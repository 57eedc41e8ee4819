#include "decoder/token-lattice.h"

#include <algorithm>
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

TokenLattice::TokenLattice() = default;

TokenLattice::~TokenLattice() { Clear(); }

void TokenLattice::Clear() {
  for (TokenList &list : frames_) {
    for (TokenId tok = list.toks; tok != kNoId;) {
      const TokenId next = token_pool_[tok].next;
      token_pool_.Free(tok);
      num_toks_--;
      tok = next;
    }
  }
  frames_.clear();
  NNET3_ASSERT(num_toks_ == 0);
  token_pool_.Reset();
  warned_ = false;
}

void TokenLattice::AddFrame() {
  // Room for about as many links as the last complete frame had (before
  // pruning), so that the array rarely grows.
  const size_t n = frames_.size();
  if (n >= 2 && !frames_[n - 2].compacted)
    links_guess_ = frames_[n - 2].links.size();
  frames_.emplace_back();
  frames_.back().links.reserve(links_guess_ + links_guess_ / 8);
}

void TokenLattice::DeleteLinks(int32_t f, TokenId tok) {
  const std::vector<ForwardLink> &links = frames_[f].links;
  for (LinkId link = token_pool_[tok].links; link != kNoId;
       link = links[link - 1].next)
    frames_[f].num_dead_links++;
  token_pool_[tok].links = kNoId;
}

float TokenLattice::PruneLinksOf(int32_t f, Token *tok, float lattice_beam,
                                 float tok_extra_cost, bool *links_pruned,
                                 std::vector<ForwardLink> *moved) {
  std::vector<ForwardLink> &links = frames_[f].links;
  // The link kept last (in *moved when moving, else in links), whose next
  // is set when the following survivor is known.
  std::vector<ForwardLink> &kept = moved != nullptr ? *moved : links;
  LinkId last_kept = kNoId;
  LinkId id = tok->links;
  tok->links = kNoId;
  while (id != kNoId) {
    const ForwardLink &link = links[id - 1];
    const Token &next_tok = token_pool_[link.next_tok];
    if (link.ilabel == 0)
      epsilon_reads_.push_back(EpsilonRead{link.next_tok, next_tok.extra_cost});
    // How much worse the best path through this link is than the best path
    // through its frame (the bracket is >= 0 up to rounding).
    float link_extra_cost =
        next_tok.extra_cost +
        ((tok->tot_cost + link.acoustic_cost + link.graph_cost) -
         next_tok.tot_cost);
    NNET3_ASSERT(link_extra_cost == link_extra_cost);
    const LinkId next = link.next;
    if (link_extra_cost > lattice_beam) {
      frames_[f].num_dead_links++;
      *links_pruned = true;
      id = next;
      continue;
    }
    if (link_extra_cost < 0.0f) {
      if (link_extra_cost < -0.01f)
        NNET3_WARN << "Negative extra_cost: " << link_extra_cost;
      link_extra_cost = 0.0f;
    }
    if (link_extra_cost < tok_extra_cost) tok_extra_cost = link_extra_cost;
    LinkId kept_id = id;
    if (moved != nullptr) {
      moved->push_back(link);
      kept_id = static_cast<LinkId>(moved->size());
    }
    if (last_kept == kNoId)
      tok->links = kept_id;
    else
      kept[last_kept - 1].next = kept_id;
    last_kept = kept_id;
    id = next;
  }
  if (last_kept != kNoId) kept[last_kept - 1].next = kNoId;
  return tok_extra_cost;
}

bool TokenLattice::ShouldCompact(int32_t f) const {
  const TokenList &list = frames_[f];
  return !list.compacted || 2 * size_t{list.num_dead_links} > list.links.size();
}

void TokenLattice::TakeCompacted(int32_t f, std::vector<ForwardLink> *moved) {
  TokenList &list = frames_[f];
  list.links = std::vector<ForwardLink>(moved->begin(), moved->end());
  list.num_dead_links = 0;
  list.compacted = true;
  moved->clear();
}

void TokenLattice::PruneForwardLinks(int32_t f, float lattice_beam, float delta,
                                     bool *extra_costs_changed,
                                     bool *links_pruned) {
  *extra_costs_changed = false;
  *links_pruned = false;
  if (frames_[f].toks == kNoId && FirstWarning())
    NNET3_WARN << "No tokens alive [doing pruning].. warning first time only "
               << "for each utterance";
  // The links of a frame are not in topological order (epsilon links go
  // both ways in the list), so repeat until the extra costs settle.
  bool changed = true;
  while (changed) {
    changed = false;
    bool dead = false;
    epsilon_reads_.clear();
    std::vector<ForwardLink> *moved = ShouldCompact(f) ? &moved_ : nullptr;
    for (TokenId id = frames_[f].toks; id != kNoId;) {
      Token &tok = token_pool_[id];
      const float tok_extra_cost =
          PruneLinksOf(f, &tok, lattice_beam, kInfinity, links_pruned, moved);
      if (std::fabs(tok_extra_cost - tok.extra_cost) > delta) changed = true;
      tok.extra_cost = tok_extra_cost;  // infinite: no link survived
      dead = dead || tok_extra_cost == kInfinity;
      id = tok.next;
    }
    if (moved != nullptr) TakeCompacted(f, moved);
    frames_[f].may_have_dead_tokens = dead;
    if (changed) *extra_costs_changed = true;
    if (changed && !PassReadStaleCosts()) break;
  }
}

bool TokenLattice::PassReadStaleCosts() const {
  for (const EpsilonRead &read : epsilon_reads_)
    if (std::memcmp(&read.extra_cost, &token_pool_[read.tok].extra_cost,
                    sizeof(float)) != 0)
      return true;
  return false;
}

void TokenLattice::PruneForwardLinksFinal(const FinalCostMap &final_costs,
                                          float final_best_cost,
                                          float lattice_beam) {
  const int32_t f = NumFrames() - 1;
  if (frames_[f].toks == kNoId) NNET3_WARN << "No tokens alive at end of file";
  const float delta = 1.0e-05f;
  bool changed = true, links_pruned = false;
  while (changed) {
    changed = false;
    bool dead = false;
    epsilon_reads_.clear();
    for (TokenId id = frames_[f].toks; id != kNoId;) {
      Token &tok = token_pool_[id];
      // Being final directly competes with reaching a final token through
      // epsilon links.
      float final_cost = 0.0f;
      if (!final_costs.empty()) {
        auto it = final_costs.find(id);
        final_cost = it != final_costs.end() ? it->second : kInfinity;
      }
      float tok_extra_cost = PruneLinksOf(
          f, &tok, lattice_beam, tok.tot_cost + final_cost - final_best_cost,
          &links_pruned, nullptr);
      if (tok_extra_cost > lattice_beam) tok_extra_cost = kInfinity;
      if (!ApproxEqual(tok.extra_cost, tok_extra_cost, delta)) changed = true;
      tok.extra_cost = tok_extra_cost;
      dead = dead || tok_extra_cost == kInfinity;
      id = tok.next;
    }
    frames_[f].may_have_dead_tokens = dead;
    if (changed && !PassReadStaleCosts()) break;
  }
}

void TokenLattice::PruneTokensForFrame(int32_t f) {
  if (frames_[f].toks == kNoId) NNET3_WARN << "No tokens alive [doing pruning]";
  if (!frames_[f].may_have_dead_tokens) return;
  frames_[f].may_have_dead_tokens = false;
  TokenId *prev_next = &frames_[f].toks;
  for (TokenId id = frames_[f].toks; id != kNoId;) {
    Token &tok = token_pool_[id];
    const TokenId next = tok.next;
    if (tok.extra_cost == kInfinity) {
      *prev_next = next;
      token_pool_.Free(id);
      num_toks_--;
    } else {
      prev_next = &tok.next;
    }
    id = next;
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
                                 std::vector<TokenId> *topsorted) const {
  // Positions n-1 .. 0 in list order: the list is newest first, and a
  // token is usually created by the tokens before it, so this is nearly
  // topological already. Then every epsilon link to an earlier position
  // moves its target past all positions given so far, and the moved token
  // is visited again, until no link goes backwards (no epsilon cycles in a
  // decoding graph). Unlike Kaldi, which visits tokens in the order of a
  // hash of their addresses, the visits go in position order, so the
  // result does not depend on memory addresses.
  std::unordered_map<TokenId, int32_t> pos;
  std::vector<TokenId> visit, revisit;
  for (TokenId id = frames_[f].toks; id != kNoId; id = token_pool_[id].next)
    visit.push_back(id);
  const int32_t num_toks = static_cast<int32_t>(visit.size());
  std::reverse(visit.begin(), visit.end());  // position order
  pos.reserve(num_toks);
  for (int32_t p = 0; p < num_toks; p++) pos[visit[p]] = p;
  int32_t next_pos = num_toks;
  const size_t max_rounds = 1000000;
  for (size_t round = 0; !visit.empty(); round++) {
    if (round == max_rounds)
      NNET3_ERR << "Epsilon loops exist in your decoding graph (this is not "
                << "allowed!)";
    revisit.clear();
    for (TokenId id : visit) {
      const int32_t tok_pos = pos[id];
      for (LinkId l = token_pool_[id].links; l != kNoId; l = Link(f, l).next) {
        const ForwardLink &link = Link(f, l);
        if (link.ilabel != 0) continue;
        auto it = pos.find(link.next_tok);
        if (it == pos.end() || it->second > tok_pos) continue;
        it->second = next_pos++;
        revisit.push_back(link.next_tok);
      }
    }
    visit.swap(revisit);
  }
  topsorted->assign(next_pos, kNoId);
  for (const auto &entry : pos) (*topsorted)[entry.second] = entry.first;
}

}  // namespace nnet3
