#include "decoder/lattice-faster-decoder.h"

#include <fst/shortest-path.h>

#include <algorithm>
#include <string>

#include "base/error.h"
#include "base/log.h"
#include "base/options.h"
#include "decoder/decodable-am-nnet-simple.h"
#include "decoder/raw-lattice.h"

namespace nnet3 {

namespace {
constexpr float kInfinity = std::numeric_limits<float>::infinity();
}  // namespace

void LatticeFasterDecoderConfig::Register(OptionsRegistry *opts) {
  opts->Register("beam", &beam,
                 "Decoding beam.  Larger->slower, more accurate.");
  opts->Register("max-active", &max_active,
                 "Decoder max active states.  Larger->slower; more accurate");
  opts->Register("min-active", &min_active, "Decoder minimum #active states.");
  opts->Register("lattice-beam", &lattice_beam,
                 "Lattice generation beam.  Larger->slower, and deeper "
                 "lattices");
  opts->Register("prune-interval", &prune_interval,
                 "Interval (in frames) at which to prune tokens");
  opts->Register("determinize-lattice", &determinize_lattice,
                 "If true, determinize the lattice (lattice-determinization, "
                 "keeping only best pdf-sequence for each word-sequence).");
  opts->Register("beam-delta", &beam_delta,
                 "Increment used in decoding-- this parameter is obscure and "
                 "relates to a speedup in the way the max-active constraint "
                 "is applied.  Larger is more accurate.");
  opts->Register("hash-ratio", &hash_ratio,
                 "Setting used in decoder to control hash behavior");
  opts->Register("memory-pool-tokens-block-size",
                 &memory_pool_tokens_block_size,
                 "Memory pool block size suggestion for storing tokens (in "
                 "elements). Smaller uses less memory but increases cache "
                 "misses.");
  opts->Register("memory-pool-links-block-size", &memory_pool_links_block_size,
                 "Memory pool block size suggestion for storing links (in "
                 "elements). Smaller uses less memory but increases cache "
                 "misses.");
}

void LatticeFasterDecoderConfig::Check() const {
  auto bad = [](const char *what) {
    NNET3_ERR << "Invalid decoder option: " << what;
  };
  if (!(beam > 0.0f)) bad("--beam must be > 0");
  if (!(max_active > 1)) bad("--max-active must be > 1");
  if (!(lattice_beam > 0.0f)) bad("--lattice-beam must be > 0");
  if (!(min_active <= max_active)) bad("--min-active must be <= --max-active");
  if (!(prune_interval > 0)) bad("--prune-interval must be > 0");
  if (!(beam_delta > 0.0f)) bad("--beam-delta must be > 0");
  if (!(hash_ratio >= 1.0f)) bad("--hash-ratio must be >= 1");
  if (!(prune_scale > 0.0f && prune_scale < 1.0f))
    bad("prune-scale must be in (0, 1)");
  if (memory_pool_tokens_block_size <= 0 || memory_pool_links_block_size <= 0)
    bad("--memory-pool-*-block-size must be > 0");
}

LatticeFasterDecoder::LatticeFasterDecoder(
    const fst::Fst<fst::StdArc> &fst, const LatticeFasterDecoderConfig &config)
    : fst_(fst),
      const_fst_(dynamic_cast<const fst::ConstFst<fst::StdArc> *>(&fst)),
      vector_fst_(dynamic_cast<const fst::VectorFst<fst::StdArc> *>(&fst)),
      config_(config) {
  config_.Check();
  toks_.SetSize(1000);
}

LatticeFasterDecoder::~LatticeFasterDecoder() = default;

void LatticeFasterDecoder::InitDecoding() {
  toks_.Clear(&prev_);
  prev_.clear();
  cost_offsets_.clear();
  lattice_.Clear();
  decoding_finalized_ = false;
  final_costs_.clear();
  const StateId start = fst_.Start();
  if (start == fst::kNoStateId)
    NNET3_ERR << "The decoding graph has no start state (is it empty?)";
  lattice_.AddFrame();
  const int32_t e = toks_.Insert(start);
  toks_.SetToken(e, lattice_.NewToken(0, 0.0f));
  if (const_fst_ != nullptr)
    ProcessNonemitting(*const_fst_, config_.beam);
  else if (vector_fst_ != nullptr)
    ProcessNonemitting(*vector_fst_, config_.beam);
  else
    ProcessNonemitting(fst_, config_.beam);
}

bool LatticeFasterDecoder::Decode(DecodableInterface *decodable) {
  InitDecoding();
  AdvanceDecoding(decodable);
  FinalizeDecoding();
  return NumFramesDecoded() >= 0 &&
         lattice_.Tokens(lattice_.NumFrames() - 1) != kNoId;
}

void LatticeFasterDecoder::AdvanceDecoding(DecodableInterface *decodable,
                                           int32_t max_num_frames) {
  NNET3_ASSERT(lattice_.NumFrames() > 0 && !decoding_finalized_ &&
               "call InitDecoding() before AdvanceDecoding()");
  const int32_t num_frames_ready = decodable->NumFramesReady();
  NNET3_ASSERT(num_frames_ready >= NumFramesDecoded());
  int32_t target = num_frames_ready;
  if (max_num_frames >= 0)
    target = std::min(target, NumFramesDecoded() + max_num_frames);
  if (const_fst_ != nullptr)
    AdvanceDecodingOn(*const_fst_, decodable, target);
  else if (vector_fst_ != nullptr)
    AdvanceDecodingOn(*vector_fst_, decodable, target);
  else
    AdvanceDecodingOn(fst_, decodable, target);
}

template <typename FST>
void LatticeFasterDecoder::AdvanceDecodingOn(const FST &fst,
                                             DecodableInterface *decodable,
                                             int32_t target_frames) {
  if (auto *am = dynamic_cast<DecodableAmNnetSimple *>(decodable))
    AdvanceDecodingTpl(fst, am, target_frames);
  else
    AdvanceDecodingTpl(fst, decodable, target_frames);
}

template <typename FST, typename Decodable>
void LatticeFasterDecoder::AdvanceDecodingTpl(const FST &fst,
                                              Decodable *decodable,
                                              int32_t target_frames) {
  while (NumFramesDecoded() < target_frames) {
    if (NumFramesDecoded() % config_.prune_interval == 0)
      lattice_.PruneActiveTokens(config_.lattice_beam,
                                 config_.lattice_beam * config_.prune_scale);
    const float cost_cutoff = ProcessEmitting(fst, decodable);
    ProcessNonemitting(fst, cost_cutoff);
  }
}

void LatticeFasterDecoder::FinalizeDecoding() {
  ComputeFinalCosts(&final_costs_, &final_relative_cost_, &final_best_cost_);
  decoding_finalized_ = true;
  toks_.Clear(&prev_);
  prev_.clear();
  lattice_.PruneFinal(final_costs_, final_best_cost_, config_.lattice_beam);
}

bool LatticeFasterDecoder::GetRawLattice(Lattice *ofst,
                                         bool use_final_probs) const {
  NNET3_ASSERT(!(decoding_finalized_ && !use_final_probs) &&
               "GetRawLattice(use_final_probs=false) after FinalizeDecoding()");
  FinalCostMap local_final_costs;
  const FinalCostMap *final_costs = nullptr;
  if (use_final_probs && decoding_finalized_) {
    final_costs = &final_costs_;
  } else if (use_final_probs) {
    ComputeFinalCosts(&local_final_costs, nullptr, nullptr);
    final_costs = &local_final_costs;
  }
  return TokenLatticeToLattice(lattice_, cost_offsets_, final_costs, ofst);
}

bool LatticeFasterDecoder::GetBestPath(Lattice *ofst,
                                       bool use_final_probs) const {
  Lattice raw;
  GetRawLattice(&raw, use_final_probs);
  fst::ShortestPath(raw, ofst);
  return ofst->NumStates() != 0;
}

float LatticeFasterDecoder::FinalRelativeCost() const {
  if (decoding_finalized_) return final_relative_cost_;
  float relative_cost;
  ComputeFinalCosts(nullptr, &relative_cost, nullptr);
  return relative_cost;
}

int32_t LatticeFasterDecoder::FindOrAddToken(StateId state, int32_t f,
                                             float tot_cost, bool *changed) {
  const int32_t e = toks_.Insert(state);
  const TokenId id = toks_.TokenAt(e);
  if (id == kNoId) {
    // Tokens of the newest frame have extra cost 0: any may end up on the
    // best path.
    toks_.SetToken(e, lattice_.NewToken(f, tot_cost));
    *changed = true;
  } else if (lattice_.Tok(id).tot_cost > tot_cost) {
    // The links into the old cost stay; pruning removes what is left over.
    lattice_.Tok(id).tot_cost = tot_cost;
    *changed = true;
  } else {
    *changed = false;
  }
  return e;
}

float LatticeFasterDecoder::GetCutoff(float *adaptive_beam, int32_t *best) {
  float best_cost = kInfinity;
  *best = -1;
  const int32_t count = static_cast<int32_t>(prev_.size());
  if (config_.max_active == std::numeric_limits<int32_t>::max() &&
      config_.min_active == 0) {
    for (int32_t i = 0; i < count; i++) {
      const float w = lattice_.Tok(prev_[i].tok).tot_cost;
      if (w < best_cost) {
        best_cost = w;
        *best = i;
      }
    }
    *adaptive_beam = config_.beam;
    return best_cost + config_.beam;
  }
  tmp_array_.resize(count);
  for (int32_t i = 0; i < count; i++) {
    const float w = lattice_.Tok(prev_[i].tok).tot_cost;
    tmp_array_[i] = w;
    if (w < best_cost) {
      best_cost = w;
      *best = i;
    }
  }
  const float beam_cutoff = best_cost + config_.beam;
  float max_active_cutoff = kInfinity, min_active_cutoff = kInfinity;
  const size_t max_active = static_cast<size_t>(config_.max_active),
               min_active = static_cast<size_t>(config_.min_active);
  if (tmp_array_.size() > max_active) {
    std::nth_element(tmp_array_.begin(), tmp_array_.begin() + max_active,
                     tmp_array_.end());
    max_active_cutoff = tmp_array_[max_active];
  }
  if (max_active_cutoff < beam_cutoff) {  // max-active is tighter
    *adaptive_beam = max_active_cutoff - best_cost + config_.beam_delta;
    return max_active_cutoff;
  }
  if (tmp_array_.size() > min_active) {
    if (min_active == 0) {
      min_active_cutoff = best_cost;
    } else {
      std::nth_element(tmp_array_.begin(), tmp_array_.begin() + min_active,
                       tmp_array_.size() > max_active
                           ? tmp_array_.begin() + max_active
                           : tmp_array_.end());
      min_active_cutoff = tmp_array_[min_active];
    }
  }
  if (min_active_cutoff > beam_cutoff) {  // min-active is looser
    *adaptive_beam = min_active_cutoff - best_cost + config_.beam_delta;
    return min_active_cutoff;
  }
  *adaptive_beam = config_.beam;
  return beam_cutoff;
}

template <typename FST, typename Decodable>
float LatticeFasterDecoder::ProcessEmitting(const FST &fst,
                                            Decodable *decodable) {
  const int32_t frame = NumFramesDecoded();  // the decodable's, 0-based
  lattice_.AddFrame();
  const int32_t next_f = frame + 1;
  toks_.Clear(&prev_);
  float adaptive_beam;
  int32_t best;
  const float cur_cutoff = GetCutoff(&adaptive_beam, &best);
  NNET3_VLOG(6) << "Adaptive beam on frame " << frame << " is "
                << adaptive_beam;
  // Room for the new frame's tokens (Kaldi's PossiblyResizeHash).
  toks_.SetSize(static_cast<size_t>(static_cast<float>(prev_.size()) *
                                    config_.hash_ratio));

  // The best token's arcs give a first cutoff for the next frame, and its
  // cost the offset that keeps the acoustic costs small.
  float next_cutoff = kInfinity, cost_offset = 0.0f;
  if (best >= 0) {
    const float best_cost = lattice_.Tok(prev_[best].tok).tot_cost;
    cost_offset = -best_cost;
    for (fst::ArcIterator<FST> aiter(fst, prev_[best].state); !aiter.Done();
         aiter.Next()) {
      const fst::StdArc &arc = aiter.Value();
      if (arc.ilabel == 0) continue;
      const float new_weight = arc.weight.Value() + cost_offset -
                               decodable->LogLikelihood(frame, arc.ilabel) +
                               best_cost;
      if (new_weight + adaptive_beam < next_cutoff)
        next_cutoff = new_weight + adaptive_beam;
    }
  }
  cost_offsets_.resize(frame + 1, 0.0f);
  cost_offsets_[frame] = cost_offset;

  for (const ActiveTokenMap::Entry &entry : prev_) {
    const float cur_cost = lattice_.Tok(entry.tok).tot_cost;
    if (cur_cost > cur_cutoff) continue;
    for (fst::ArcIterator<FST> aiter(fst, entry.state); !aiter.Done();
         aiter.Next()) {
      const fst::StdArc &arc = aiter.Value();
      if (arc.ilabel == 0) continue;
      const float ac_cost =
                      cost_offset - decodable->LogLikelihood(frame, arc.ilabel),
                  graph_cost = arc.weight.Value(),
                  tot_cost = cur_cost + ac_cost + graph_cost;
      if (tot_cost >= next_cutoff) continue;
      if (tot_cost + adaptive_beam < next_cutoff)
        next_cutoff = tot_cost + adaptive_beam;
      bool changed;
      const int32_t e =
          FindOrAddToken(arc.nextstate, next_f, tot_cost, &changed);
      lattice_.AddLink(frame, entry.tok, toks_.TokenAt(e), arc.ilabel,
                       arc.olabel, graph_cost, ac_cost);
    }
  }
  return next_cutoff;
}

template <typename FST>
void LatticeFasterDecoder::ProcessNonemitting(const FST &fst, float cutoff) {
  const int32_t f = lattice_.NumFrames() - 1;
  NNET3_ASSERT(queue_.empty());
  if (toks_.Empty() && lattice_.FirstWarning())
    NNET3_WARN << "Error, no surviving tokens: frame is " << f - 1;
  toks_.ForEach([&](int32_t e) {
    if (fst.NumInputEpsilons(toks_.StateAt(e)) != 0) queue_.push_back(e);
  });
  while (!queue_.empty()) {
    const int32_t e = queue_.back();
    queue_.pop_back();
    const TokenId tok = toks_.TokenAt(e);
    const float cur_cost = lattice_.Tok(tok).tot_cost;
    if (cur_cost >= cutoff) continue;
    // A token seen again (its cost went down) gets its links anew.
    lattice_.DeleteLinks(f, tok);
    for (fst::ArcIterator<FST> aiter(fst, toks_.StateAt(e)); !aiter.Done();
         aiter.Next()) {
      const fst::StdArc &arc = aiter.Value();
      if (arc.ilabel != 0) continue;
      const float graph_cost = arc.weight.Value(),
                  tot_cost = cur_cost + graph_cost;
      if (tot_cost >= cutoff) continue;
      bool changed;
      const int32_t e_new =
          FindOrAddToken(arc.nextstate, f, tot_cost, &changed);
      lattice_.AddLink(f, tok, toks_.TokenAt(e_new), 0, arc.olabel, graph_cost,
                       0.0f);
      if (changed && fst.NumInputEpsilons(arc.nextstate) != 0)
        queue_.push_back(e_new);
    }
  }
}

void LatticeFasterDecoder::ComputeFinalCosts(FinalCostMap *final_costs,
                                             float *final_relative_cost,
                                             float *final_best_cost) const {
  NNET3_ASSERT(!decoding_finalized_);
  if (final_costs != nullptr) final_costs->clear();
  float best_cost = kInfinity, best_cost_with_final = kInfinity;
  toks_.ForEach([&](int32_t e) {
    const TokenId tok = toks_.TokenAt(e);
    const float final_cost = fst_.Final(toks_.StateAt(e)).Value();
    const float cost = lattice_.Tok(tok).tot_cost,
                cost_with_final = cost + final_cost;
    best_cost = std::min(cost, best_cost);
    best_cost_with_final = std::min(cost_with_final, best_cost_with_final);
    if (final_costs != nullptr && final_cost != kInfinity)
      (*final_costs)[tok] = final_cost;
  });
  if (final_relative_cost != nullptr)
    *final_relative_cost =
        best_cost == kInfinity && best_cost_with_final == kInfinity
            ? kInfinity
            : best_cost_with_final - best_cost;
  if (final_best_cost != nullptr)
    *final_best_cost =
        best_cost_with_final != kInfinity ? best_cost_with_final : best_cost;
}

}  // namespace nnet3
