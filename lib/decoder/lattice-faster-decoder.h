// LatticeFasterDecoder (Kaldi's decoder/lattice-faster-decoder.h): token
// passing over a decoding graph (HCLG: input labels transition-ids, output
// labels words, weights graph costs) with a beam, keeping a pruned lattice
// of every token and arc within --lattice-beam of the best path.
//
//   LatticeFasterDecoderConfig config;  config.Register(&po);
//   LatticeFasterDecoder decoder(hclg, config);   // one per thread; reuse it
//   decoder.Decode(&decodable);                    // one utterance
//   if (!decoder.ReachedFinal()) ...               // --allow-partial
//   Lattice raw, best;
//   decoder.GetRawLattice(&raw);     // state-level lattice
//   decoder.GetBestPath(&best);      // its best path
//
// Frame by frame (AdvanceDecoding): the cutoff of the frame's tokens is
// the best cost plus --beam, tightened by --max-active and loosened by
// --min-active (then the beam adapts: the cutoff minus the best cost plus
// --beam-delta); the best token's arcs first give a cutoff for the next
// frame, then every token within the cutoff is expanded along its emitting
// arcs, with an acoustic cost -LogLikelihood(frame, ilabel) + an offset
// (minus the best token's cost, to keep costs small; the raw lattice takes
// it out again); then epsilon arcs are followed within the new frame. Every
// --prune-interval frames the lattice is pruned (token-lattice.h) with
// delta --lattice-beam x --prune-scale; FinalizeDecoding prunes it with the
// final costs. The order of every step, and every floating-point
// expression, is Kaldi's, so that the lattices are the same as Kaldi's for
// the same scores (active-token-map.h says why the order matters).
//
// When no token reaches a final state, ReachedFinal() is false and the
// lattice treats every last-frame token as final (Kaldi's partial output).
// Graphs are fst::Fst<StdArc>; ConstFst and VectorFst graphs get a search
// specialized for their type. Epsilon cycles in the graph are a UserError
// when the lattice is made.
#ifndef NNET3_DECODER_LATTICE_FASTER_DECODER_H_
#define NNET3_DECODER_LATTICE_FASTER_DECODER_H_

#include <fst/const-fst.h>
#include <fst/fst.h>
#include <fst/vector-fst.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "decoder/active-token-map.h"
#include "decoder/decodable-itf.h"
#include "decoder/token-lattice.h"
#include "lat/kaldi-lattice.h"

namespace nnet3 {

class OptionsRegistry;

struct LatticeFasterDecoderConfig {
  float beam = 16.0f;
  int32_t max_active = std::numeric_limits<int32_t>::max();
  int32_t min_active = 200;
  float lattice_beam = 10.0f;
  int32_t prune_interval = 25;
  // Not used by the decoder: whether the programs determinize its lattice.
  bool determinize_lattice = true;
  float beam_delta = 0.5f;
  float hash_ratio = 2.0f;
  float prune_scale = 0.1f;
  // Accepted for Kaldi's command lines (a "suggestion" there too); the
  // token lattice's pools use blocks of 4096 (token-lattice.h).
  int32_t memory_pool_tokens_block_size = 1 << 8;
  int32_t memory_pool_links_block_size = 1 << 8;

  // Kaldi's option names, defaults and help texts (prune-scale is not
  // registered, as in Kaldi).
  void Register(OptionsRegistry *opts);
  // UserError naming the option when a value is out of range.
  void Check() const;
};

class LatticeFasterDecoder {
 public:
  // `fst` must outlive the decoder. UserError if the config is invalid.
  LatticeFasterDecoder(const fst::Fst<fst::StdArc> &fst,
                       const LatticeFasterDecoderConfig &config);
  LatticeFasterDecoder(const LatticeFasterDecoder &) = delete;
  LatticeFasterDecoder &operator=(const LatticeFasterDecoder &) = delete;
  ~LatticeFasterDecoder();

  const LatticeFasterDecoderConfig &GetOptions() const { return config_; }

  // Decodes all frames of `decodable` (InitDecoding, AdvanceDecoding,
  // FinalizeDecoding). Returns false if no token survived to the end (a
  // search error; rare).
  bool Decode(DecodableInterface *decodable);
  // Whether a final state was reached on the last frame.
  bool ReachedFinal() const {
    return FinalRelativeCost() != std::numeric_limits<float>::infinity();
  }
  // The best path's cost with final costs minus that without them;
  // infinite if no token is on a final state.
  float FinalRelativeCost() const;

  // The raw lattice: one state per surviving token, frame by frame in
  // topological order (state 0 is the start), arcs with weights (graph
  // cost, acoustic cost); final weights the final costs (graph part), or
  // One() on every last-frame token when no final state was reached or
  // use_final_probs is false. Returns false (with a warning) if a frame
  // has no tokens.
  bool GetRawLattice(Lattice *ofst, bool use_final_probs = true) const;
  // The best path of the raw lattice (OpenFst's ShortestPath). Returns
  // false if it is empty.
  bool GetBestPath(Lattice *ofst, bool use_final_probs = true) const;

  // The same in steps, for decodables whose frames come in bit by bit:
  // InitDecoding, AdvanceDecoding as often as frames arrive (at most
  // max_num_frames at a time if >= 0), FinalizeDecoding at the end.
  void InitDecoding();
  void AdvanceDecoding(DecodableInterface *decodable,
                       int32_t max_num_frames = -1);
  void FinalizeDecoding();
  int32_t NumFramesDecoded() const { return lattice_.NumFrames() - 1; }

 private:
  using StateId = fst::StdArc::StateId;

  // The search, compiled for the graph's type and, for the decodable the
  // programs use (DecodableAmNnetSimple, final), with its LogLikelihood
  // inlined.
  template <typename FST>
  void AdvanceDecodingOn(const FST &fst, DecodableInterface *decodable,
                         int32_t target_frames);
  template <typename FST, typename Decodable>
  void AdvanceDecodingTpl(const FST &fst, Decodable *decodable,
                          int32_t target_frames);
  // Expands the previous frame's tokens along emitting arcs into a new
  // frame; returns the cutoff for ProcessNonemitting.
  template <typename FST, typename Decodable>
  float ProcessEmitting(const FST &fst, Decodable *decodable);
  // Follows epsilon arcs within the newest frame from tokens below cutoff.
  template <typename FST>
  void ProcessNonemitting(const FST &fst, float cutoff);
  // The token of `state` on frame f (the newest), created with tot_cost if
  // there is none, else given tot_cost if that is better; *changed says
  // whether either happened. Returns the map entry.
  int32_t FindOrAddToken(StateId state, int32_t f, float tot_cost,
                         bool *changed);
  // The cutoff of the previous frame's tokens (in prev_): best cost plus
  // beam, or the max-active / min-active cutoff; sets *adaptive_beam and
  // the position of the best token in prev_ (-1 if none).
  float GetCutoff(float *adaptive_beam, int32_t *best);
  // Final cost of each token of the newest frame on a final state (if
  // final_costs), the best cost with final costs minus the best without,
  // and the best final cost (or best cost when no token is final).
  void ComputeFinalCosts(FinalCostMap *final_costs, float *final_relative_cost,
                         float *final_best_cost) const;

  const fst::Fst<fst::StdArc> &fst_;
  // The graph as the types Kaldi's graphs come in (null if it is not),
  // whose searches get their arc iterators inlined.
  const fst::ConstFst<fst::StdArc> *const_fst_;
  const fst::VectorFst<fst::StdArc> *vector_fst_;
  LatticeFasterDecoderConfig config_;
  TokenLattice lattice_;
  ActiveTokenMap toks_;  // tokens of the newest frame, by state
  std::vector<ActiveTokenMap::Entry> prev_;  // the frame being expanded
  std::vector<int32_t> queue_;               // ProcessNonemitting's stack
  std::vector<float> tmp_array_;             // GetCutoff's costs
  std::vector<float> cost_offsets_;          // per frame
  bool decoding_finalized_ = false;
  FinalCostMap final_costs_;
  float final_relative_cost_ = 0.0f, final_best_cost_ = 0.0f;
};

}  // namespace nnet3

#endif  // NNET3_DECODER_LATTICE_FASTER_DECODER_H_
