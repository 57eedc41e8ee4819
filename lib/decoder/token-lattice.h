// The lattice of tokens that LatticeFasterDecoder grows, and its pruning.
//
// A Token is one graph state alive on one frame: its best cost so far
// (tot_cost, from the start of the utterance) and extra_cost, how much
// worse than the best path through the frame the best path through this
// token is (kept up to date only by pruning; 0 until then). A ForwardLink
// is one arc taken from a token: an emitting arc (ilabel > 0) to a token of
// the next frame, or an epsilon arc (ilabel 0) to a token of the same
// frame. Frames are numbered as in Kaldi's decoder, "frame plus one": list
// 0 holds the tokens before the first frame (the start state and what its
// epsilons reach), list f the tokens after decoding frame f-1.
//
//   TokenLattice lattice;               // one per decoder; pools persist
//   lattice.Clear();  lattice.AddFrame();
//   Token *tok = lattice.NewToken(0, 0.0f);
//   lattice.AddLink(tok, next, ilabel, olabel, graph_cost, acoustic_cost);
//   lattice.PruneActiveTokens(lattice_beam, delta);     // every N frames
//   lattice.PruneFinal(final_costs, best, lattice_beam); // at the end
//
// Pruning is Kaldi's: a link whose best path is worse than the best path
// through its frame by more than the lattice beam is removed; a token left
// without links (extra_cost infinite) is removed from its frame. Tokens and
// links live in pools that keep their memory from utterance to utterance,
// so a decoder in steady state allocates nothing per frame. New tokens go
// to the front of their frame's list, new links to the front of their
// token's list; both orders are Kaldi's, and the raw lattice's state and
// arc order follow from them.
#ifndef NNET3_DECODER_TOKEN_LATTICE_H_
#define NNET3_DECODER_TOKEN_LATTICE_H_

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

namespace nnet3 {

struct Token;

struct ForwardLink {
  Token *next_tok;
  int32_t ilabel;  // transition-id; 0 for an epsilon arc
  int32_t olabel;  // word
  float graph_cost;
  float acoustic_cost;  // -log-likelihood + the frame's cost offset
  ForwardLink *next;    // the next link of the same token
};

struct Token {
  float tot_cost;
  float extra_cost;
  ForwardLink *links;
  Token *next;  // the next token of the same frame
};

// A free-list allocator of T (trivially destructible), in blocks.
template <typename T>
class ObjectPool {
 public:
  explicit ObjectPool(int32_t block_size) : block_size_(block_size) {}
  ObjectPool(const ObjectPool &) = delete;
  ObjectPool &operator=(const ObjectPool &) = delete;

  T *Allocate() {
    if (free_ == nullptr) AddBlock();
    Slot *slot = free_;
    free_ = slot->next;
    return &slot->object;
  }
  void Free(T *object) {
    Slot *slot = reinterpret_cast<Slot *>(object);
    slot->next = free_;
    free_ = slot;
  }

 private:
  union Slot {
    T object;
    Slot *next;
  };
  void AddBlock() {
    blocks_.push_back(std::make_unique<Slot[]>(block_size_));
    Slot *block = blocks_.back().get();
    for (int32_t i = block_size_ - 1; i >= 0; i--) {
      block[i].next = free_;
      free_ = &block[i];
    }
  }

  int32_t block_size_;
  Slot *free_ = nullptr;
  std::vector<std::unique_ptr<Slot[]>> blocks_;
};

// Final costs of the last frame's tokens (only those on a final state).
using FinalCostMap = std::unordered_map<const Token *, float>;

class TokenLattice {
 public:
  TokenLattice(int32_t token_block_size, int32_t link_block_size);
  ~TokenLattice();
  TokenLattice(const TokenLattice &) = delete;
  TokenLattice &operator=(const TokenLattice &) = delete;

  // Frees every token and link (into the pools) and removes all frames.
  void Clear();
  // Appends an empty token list; NumFrames() grows by one.
  void AddFrame();
  // Number of token lists (frames decoded + 1).
  int32_t NumFrames() const { return static_cast<int32_t>(frames_.size()); }
  Token *Tokens(int32_t f) const { return frames_[f].toks; }
  int32_t NumTokens() const { return num_toks_; }

  // A token with no links and extra_cost 0, at the front of frame f.
  Token *NewToken(int32_t f, float tot_cost) {
    Token *tok = token_pool_.Allocate();
    *tok = Token{tot_cost, 0.0f, nullptr, frames_[f].toks};
    frames_[f].toks = tok;
    num_toks_++;
    return tok;
  }
  // A link at the front of from->links.
  void AddLink(Token *from, Token *to, int32_t ilabel, int32_t olabel,
               float graph_cost, float acoustic_cost) {
    ForwardLink *link = link_pool_.Allocate();
    *link =
        ForwardLink{to, ilabel, olabel, graph_cost, acoustic_cost, from->links};
    from->links = link;
  }
  void DeleteLinks(Token *tok);

  // Kaldi's PruneActiveTokens: from the frame before the last back to 0,
  // prunes the links of frames whose successors' extra costs changed (by
  // more than delta) and the tokens of frames that lost links; stops early
  // once nothing changes. The last frame is left alone.
  void PruneActiveTokens(float lattice_beam, float delta);
  // Kaldi's FinalizeDecoding pruning: the last frame's extra costs from the
  // final costs (all 0 if `final_costs` is empty: no token is final) and
  // `final_best_cost`, then every frame's links and tokens.
  void PruneFinal(const FinalCostMap &final_costs, float final_best_cost,
                  float lattice_beam);

  // The tokens of frame f in an order where every epsilon link goes
  // forward; entries may be null (unused positions), as Kaldi's.
  void TopSortTokens(int32_t f, std::vector<Token *> *topsorted) const;

  // True the first time it is called after Clear(): "warn once per
  // utterance".
  bool FirstWarning() {
    const bool first = !warned_;
    warned_ = true;
    return first;
  }

 private:
  struct TokenList {
    Token *toks = nullptr;
    bool must_prune_forward_links = true;
    bool must_prune_tokens = true;
    // Whether a token may have an infinite extra cost (false: pruning the
    // tokens would remove none).
    bool may_have_dead_tokens = false;
  };
  // An epsilon link's target and the extra cost a pruning pass read from it.
  struct EpsilonRead {
    const Token *tok;
    float extra_cost;
  };
  // Recomputes the extra costs of frame f from its links, removing links
  // beyond the beam; repeats until no extra cost moves by more than delta.
  void PruneForwardLinks(int32_t f, float lattice_beam, float delta,
                         bool *extra_costs_changed, bool *links_pruned);
  void PruneForwardLinksFinal(const FinalCostMap &final_costs,
                              float final_best_cost, float lattice_beam);
  // Removes the links of `tok` beyond the beam; returns the best remaining
  // link extra cost, starting from `tok_extra_cost`. Records the extra
  // costs read through epsilon links in epsilon_reads_.
  float PruneLinksOf(Token *tok, float lattice_beam, float tok_extra_cost,
                     bool *links_pruned);
  // After a pass that changed extra costs: whether another pass could
  // change anything, i.e. whether an epsilon link's target changed its
  // extra cost after the pass read it. Otherwise the next pass would read
  // the same numbers, compute the same costs and stop, so it is skipped:
  // the results are those of Kaldi's loop, without its idle last pass.
  bool PassReadStaleCosts() const;
  // Frees the tokens of frame f whose extra cost is infinite.
  void PruneTokensForFrame(int32_t f);

  std::vector<TokenList> frames_;
  int32_t num_toks_ = 0;
  bool warned_ = false;
  std::vector<EpsilonRead> epsilon_reads_;  // scratch of a pruning pass
  ObjectPool<Token> token_pool_;
  ObjectPool<ForwardLink> link_pool_;
};

}  // namespace nnet3

#endif  // NNET3_DECODER_TOKEN_LATTICE_H_
