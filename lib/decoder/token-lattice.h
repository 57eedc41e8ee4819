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
//   TokenId tok = lattice.NewToken(0, 0.0f);
//   lattice.AddLink(0, tok, next, ilabel, olabel, graph_cost, acoustic_cost);
//   lattice.PruneActiveTokens(lattice_beam, delta);     // every N frames
//   lattice.PruneFinal(final_costs, best, lattice_beam); // at the end
//
// Pruning is Kaldi's: a link whose best path is worse than the best path
// through its frame by more than the lattice beam is removed; a token left
// without links (extra_cost infinite) is removed from its frame. Tokens
// live in a pool that keeps its memory from utterance to utterance. Links
// live in one array per frame (the frame of the token they leave), appended
// as they are made, so the links of a token, made together, sit together;
// a frame's first pruning pass moves its surviving links into a new array
// of just their number, token by token in list order, so that the passes
// after it read memory in order (most of the decoder's time is spent
// walking links), and the memory of pruned links goes back. Link ids are
// local to their frame. New tokens go to the front of their frame's list,
// new links to the front of their token's list; both orders are Kaldi's,
// and the raw lattice's state and arc order follow from them.
#ifndef NNET3_DECODER_TOKEN_LATTICE_H_
#define NNET3_DECODER_TOKEN_LATTICE_H_

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

namespace nnet3 {

// Tokens are named by 32-bit ids into their pool, links by 32-bit ids into
// their frame's array (one more than the index; 0: none), which keeps them
// small (16 and 24 bytes; pointers would make them 24 and 32): the pruning
// passes, which walk every link of every frame they visit, read less
// memory.
using TokenId = uint32_t;
using LinkId = uint32_t;
constexpr uint32_t kNoId = 0;

struct ForwardLink {
  TokenId next_tok;
  int32_t ilabel;  // transition-id; 0 for an epsilon arc
  int32_t olabel;  // word
  float graph_cost;
  float acoustic_cost;  // -log-likelihood + the frame's cost offset
  LinkId next;          // the next link of the same token
};

struct Token {
  float tot_cost;
  float extra_cost;
  LinkId links;
  TokenId next;  // the next token of the same frame
};

// A free-list allocator of T (trivially copyable) in blocks of 4096,
// addressed by id; id 0 is never handed out. Blocks never move, so a
// reference to an object stays valid while others are allocated. Reset()
// (when nothing is in use) hands the ids out in increasing order again: a
// free list left in the order of the last utterance's frees scattered the
// next utterance's tokens and links over the blocks, and a decoder kept
// across utterances searched at half the speed of a new one.
template <typename T>
class IdPool {
 public:
  static constexpr int kBlockBits = 12;
  static constexpr uint32_t kBlockMask = (1u << kBlockBits) - 1;

  IdPool() = default;
  IdPool(const IdPool &) = delete;
  IdPool &operator=(const IdPool &) = delete;

  T &operator[](uint32_t id) {
    return blocks_[id >> kBlockBits][id & kBlockMask].object;
  }
  const T &operator[](uint32_t id) const {
    return blocks_[id >> kBlockBits][id & kBlockMask].object;
  }
  uint32_t Allocate() {
    if (free_ == kNoId) AddBlock();
    const uint32_t id = free_;
    free_ = Slot(id).next_free;
    return id;
  }
  void Free(uint32_t id) {
    Slot(id).next_free = free_;
    free_ = id;
  }
  // Every id free again, handed out in increasing order (only when none is
  // in use).
  void Reset() {
    free_ = kNoId;
    for (uint32_t id = Capacity(); id-- > 1;) {
      Slot(id).next_free = free_;
      free_ = id;
    }
  }
  // One more than the largest id handed out so far.
  uint32_t Capacity() const {
    return static_cast<uint32_t>(blocks_.size()) << kBlockBits;
  }

 private:
  union SlotType {
    T object;
    uint32_t next_free;
  };
  SlotType &Slot(uint32_t id) {
    return blocks_[id >> kBlockBits][id & kBlockMask];
  }
  void AddBlock() {
    const uint32_t first = Capacity();
    blocks_.push_back(std::make_unique<SlotType[]>(size_t{1} << kBlockBits));
    // Handed out in increasing order; id 0 stays unused.
    for (uint32_t id = Capacity() - 1; id >= first && id > 0; id--) {
      Slot(id).next_free = free_;
      free_ = id;
    }
  }

  uint32_t free_ = kNoId;
  std::vector<std::unique_ptr<SlotType[]>> blocks_;
};

// Final costs of the last frame's tokens (only those on a final state).
using FinalCostMap = std::unordered_map<TokenId, float>;

class TokenLattice {
 public:
  TokenLattice();
  ~TokenLattice();
  TokenLattice(const TokenLattice &) = delete;
  TokenLattice &operator=(const TokenLattice &) = delete;

  // Frees every token and removes all frames with their link arrays; the
  // token pool then hands out ids in increasing order again (IdPool::Reset).
  void Clear();
  // Appends an empty token list; NumFrames() grows by one.
  void AddFrame();
  // Number of token lists (frames decoded + 1).
  int32_t NumFrames() const { return static_cast<int32_t>(frames_.size()); }
  // The first token of frame f (kNoId if it has none).
  TokenId Tokens(int32_t f) const { return frames_[f].toks; }
  int32_t NumTokens() const { return num_toks_; }
  Token &Tok(TokenId id) { return token_pool_[id]; }
  const Token &Tok(TokenId id) const { return token_pool_[id]; }
  // Link `id` of frame f (leaving a token of frame f).
  const ForwardLink &Link(int32_t f, LinkId id) const {
    return frames_[f].links[id - 1];
  }
  // One more than the largest token id in use.
  uint32_t TokenCapacity() const { return token_pool_.Capacity(); }

  // A token with no links and extra_cost 0, at the front of frame f.
  TokenId NewToken(int32_t f, float tot_cost) {
    const TokenId id = token_pool_.Allocate();
    token_pool_[id] = Token{tot_cost, 0.0f, kNoId, frames_[f].toks};
    frames_[f].toks = id;
    num_toks_++;
    return id;
  }
  // A link at the front of the links of `from`, a token of frame f.
  void AddLink(int32_t f, TokenId from, TokenId to, int32_t ilabel,
               int32_t olabel, float graph_cost, float acoustic_cost) {
    std::vector<ForwardLink> &links = frames_[f].links;
    Token &tok = token_pool_[from];
    links.push_back(
        ForwardLink{to, ilabel, olabel, graph_cost, acoustic_cost, tok.links});
    tok.links = static_cast<LinkId>(links.size());
  }
  // Removes the links of `tok`, a token of frame f (their room comes back
  // when the frame is compacted).
  void DeleteLinks(int32_t f, TokenId tok);

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
  // forward; entries may be kNoId (unused positions), as Kaldi's.
  void TopSortTokens(int32_t f, std::vector<TokenId> *topsorted) const;

  // True the first time it is called after Clear(): "warn once per
  // utterance".
  bool FirstWarning() {
    const bool first = !warned_;
    warned_ = true;
    return first;
  }

 private:
  struct TokenList {
    TokenId toks = kNoId;
    std::vector<ForwardLink> links;  // of the tokens of this frame
    uint32_t num_dead_links = 0;     // entries of `links` no list reaches
    bool compacted = false;          // whether `links` was ever compacted
    bool must_prune_forward_links = true;
    bool must_prune_tokens = true;
    // Whether a token may have an infinite extra cost (false: pruning the
    // tokens would remove none).
    bool may_have_dead_tokens = false;
  };
  // An epsilon link's target and the extra cost a pruning pass read from it.
  struct EpsilonRead {
    TokenId tok;
    float extra_cost;
  };
  // Recomputes the extra costs of frame f from its links, removing links
  // beyond the beam; repeats until no extra cost moves by more than delta.
  void PruneForwardLinks(int32_t f, float lattice_beam, float delta,
                         bool *extra_costs_changed, bool *links_pruned);
  void PruneForwardLinksFinal(const FinalCostMap &final_costs,
                              float final_best_cost, float lattice_beam);
  // Removes the links of `tok` (of frame f) beyond the beam; returns the
  // best remaining link extra cost, starting from `tok_extra_cost`.
  // Records the extra costs read through epsilon links in epsilon_reads_.
  // With `moved`, the surviving links are appended to it instead (ids
  // relative to it) and the frame's array is left to be replaced.
  float PruneLinksOf(int32_t f, Token *tok, float lattice_beam,
                     float tok_extra_cost, bool *links_pruned,
                     std::vector<ForwardLink> *moved);
  // Whether frame f's next pass should compact its links: on its first
  // pruning, and when more than half of its array is dead.
  bool ShouldCompact(int32_t f) const;
  // Makes `moved` frame f's array, of exactly its size.
  void TakeCompacted(int32_t f, std::vector<ForwardLink> *moved);
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
  std::vector<ForwardLink> moved_;          // scratch of a compaction
  size_t links_guess_ = 0;                  // links of the last complete frame
  IdPool<Token> token_pool_;
};

}  // namespace nnet3

#endif  // NNET3_DECODER_TOKEN_LATTICE_H_
