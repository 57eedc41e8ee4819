// Decoding one utterance into a lattice, and writing what it gives (Kaldi's
// DecodeUtteranceLatticeFaster, decoder/decoder-wrappers.cc), in two halves
// so that utterances can be decoded on several threads and written in
// input order:
//
//   DecodeUtteranceOptions opts;  opts.Register(&po);  // --allow-partial ...
//   LatticeWriters writers(opts, lattice_wspecifier, words_wspecifier,
//                          alignments_wspecifier);
//   DecodedUtterance result;
//   DecodeUtteranceLatticeFaster(opts, trans_model, utt, &decoder,
//                                &decodable, &result);   // any thread
//   writers.Write(&result);                              // in order
//   ...
//   writers.LogSummary(seconds, frame_subsampling_factor);
//
// Decoding: if no token reaches a final state, the utterance fails (a
// warning) unless --allow-partial, which keeps the best partial result
// (another warning). The best path gives the alignment (its transition-
// ids), the words and the likelihood -(graph + acoustic cost); the raw
// lattice is connected and, with --determinize-lattice, determinized
// (DeterminizeLatticePhonePrunedWrapper with the decoder's lattice beam;
// a warning if it stopped before the beam); either is written with the
// acoustic scale taken out (costs divided by --acoustic-scale).
//
// Writing logs Kaldi's lines: the words on stderr ("utt w1 w2 ") with
// --word-symbol-table (UserError for a word-id it lacks), "Log-like per
// frame for utterance U is X over N frames.", and at the end "Time taken
// Ts: real-time factor assuming 100 frames/sec is R", "Done N utterances,
// failed for M", "Overall log-likelihood per frame is L over F frames.".
#ifndef NNET3_DECODER_DECODE_UTTERANCE_H_
#define NNET3_DECODER_DECODE_UTTERANCE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "decoder/decodable-itf.h"
#include "decoder/lattice-faster-decoder.h"
#include "hmm/transition-model.h"
#include "lat/determinize-lattice-options.h"
#include "lat/kaldi-lattice.h"

namespace fst {
class SymbolTable;
}

namespace nnet3 {

class OptionsRegistry;

struct DecodeUtteranceOptions {
  LatticeFasterDecoderConfig decoder;
  DeterminizeLatticePhonePrunedOptions det_opts;
  bool allow_partial = false;
  std::string word_syms_filename;
  // Not registered here: the decodable's --acoustic-scale.
  float acoustic_scale = 0.1f;

  // The decoder's and determinization's options, --word-symbol-table and
  // --allow-partial, with Kaldi's names and help texts.
  void Register(OptionsRegistry *po);
};

// What decoding one utterance gave.
struct DecodedUtterance {
  std::string utt;
  bool success = false;  // false: nothing is written; counted as failed
  bool partial = false;  // no final state reached (--allow-partial)
  std::vector<int32_t> alignment, words;
  LatticeWeight best_weight;  // of the best path
  Lattice lat;                // with --determinize-lattice=false
  CompactLattice clat;        // with --determinize-lattice
};

// Decodes `decodable` with `decoder` into *result (see the file comment).
void DecodeUtteranceLatticeFaster(const DecodeUtteranceOptions &opts,
                                  const TransitionModel &trans_model,
                                  const std::string &utt,
                                  LatticeFasterDecoder *decoder,
                                  DecodableInterface *decodable,
                                  DecodedUtterance *result);

// The lattice, words and alignment writers, the word symbols, and the
// totals of a run.
class LatticeWriters {
 public:
  // Opens the tables (the words and alignments wspecifiers may be empty)
  // and reads the word symbols; UserError if one cannot be opened.
  LatticeWriters(const DecodeUtteranceOptions &opts,
                 const std::string &lattice_wspecifier,
                 const std::string &words_wspecifier,
                 const std::string &alignments_wspecifier);
  ~LatticeWriters();
  LatticeWriters(const LatticeWriters &) = delete;
  LatticeWriters &operator=(const LatticeWriters &) = delete;

  // Writes a successful result (and logs it), or counts a failure; frees
  // the result's lattices.
  void Write(DecodedUtterance *result);
  // An utterance that was not decoded (no features, no i-vector, ...).
  void CountFailure() { num_fail_++; }
  int64_t NumSuccess() const { return num_success_; }
  int64_t NumFailed() const { return num_fail_; }
  // The sums over the written utterances of the best path's likelihood and
  // of its (subsampled) frames.
  double TotalLikelihood() const { return tot_like_; }
  int64_t NumFrames() const { return frame_count_; }
  // Kaldi's three end-of-run lines; `seconds` is the decoding time.
  void LogSummary(double seconds, int32_t frame_subsampling_factor) const;
  // Flushes and closes the tables (UserError on a write failure).
  void Close();

 private:
  struct Tables;
  void LogWords(const DecodedUtterance &result) const;

  bool determinize_;
  std::unique_ptr<Tables> tables_;
  std::unique_ptr<fst::SymbolTable> word_syms_;
  double tot_like_ = 0.0;
  int64_t frame_count_ = 0, num_success_ = 0, num_fail_ = 0;
};

}  // namespace nnet3

#endif  // NNET3_DECODER_DECODE_UTTERANCE_H_
