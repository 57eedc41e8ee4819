#include "decoder/decode-utterance.h"

#include <fst/connect.h>
#include <fst/symbol-table.h>

#include <iostream>
#include <sstream>

#include "base/error.h"
#include "base/log.h"
#include "base/options.h"
#include "fstext/lattice-scale.h"
#include "fstext/linear-symbol-sequence.h"
#include "lat/determinize-lattice-phone-pruned.h"
#include "lat/kaldi-lattice.h"
#include "util/table-types.h"

namespace nnet3 {

void DecodeUtteranceOptions::Register(OptionsRegistry *po) {
  det_opts.Register(po);
  decoder.Register(po);
  po->Register("word-symbol-table", &word_syms_filename,
               "Symbol table for words [for debug output]");
  po->Register("allow-partial", &allow_partial,
               "If true, produce output even if end state was not reached.");
}

namespace {

// The raw lattice, connected, determinized if asked, scaled back.
void MakeOutputLattice(const DecodeUtteranceOptions &opts,
                       const TransitionModel &trans_model,
                       const LatticeFasterDecoder &decoder,
                       DecodedUtterance *result) {
  Lattice &lat = result->lat;
  decoder.GetRawLattice(&lat);
  if (lat.NumStates() == 0)
    NNET3_ERR << "Unexpected problem getting lattice for utterance "
              << result->utt;
  fst::Connect(&lat);
  // Lattices are written without the acoustic scale.
  const double inv_scale =
      opts.acoustic_scale != 0.0f ? 1.0 / opts.acoustic_scale : 0.0;
  if (opts.decoder.determinize_lattice) {
    if (!DeterminizeLatticePhonePrunedWrapper(trans_model, &lat,
                                              opts.decoder.lattice_beam,
                                              &result->clat, opts.det_opts))
      NNET3_WARN << "Determinization finished earlier than the beam for "
                 << "utterance " << result->utt;
    lat.DeleteStates();
    if (opts.acoustic_scale != 0.0f)
      ScaleLattice(AcousticLatticeScale(inv_scale), &result->clat);
  } else if (opts.acoustic_scale != 0.0f) {
    ScaleLattice(AcousticLatticeScale(inv_scale), &lat);
  }
}

}  // namespace

void DecodeUtteranceLatticeFaster(const DecodeUtteranceOptions &opts,
                                  const TransitionModel &trans_model,
                                  const std::string &utt,
                                  LatticeFasterDecoder *decoder,
                                  DecodableInterface *decodable,
                                  DecodedUtterance *result) {
  result->utt = utt;
  result->success = false;
  result->partial = false;
  if (!decoder->Decode(decodable)) {
    NNET3_WARN << "Failed to decode utterance with id " << utt;
    return;
  }
  if (!decoder->ReachedFinal()) {
    if (!opts.allow_partial) {
      NNET3_WARN << "Not producing output for utterance " << utt
                 << " since no final-state reached and "
                 << "--allow-partial=false.";
      return;
    }
    NNET3_WARN << "Outputting partial output for utterance " << utt
               << " since no final-state reached";
    result->partial = true;
  }
  Lattice best;
  if (!decoder->GetBestPath(&best))
    NNET3_ERR << "Failed to get traceback for utterance " << utt;
  GetLinearSymbolSequence(best, &result->alignment, &result->words,
                          &result->best_weight);
  MakeOutputLattice(opts, trans_model, *decoder, result);
  result->success = true;
}

struct LatticeWriters::Tables {
  CompactLatticeWriter compact_lattice_writer;
  LatticeWriter lattice_writer;
  Int32VectorWriter words_writer, alignment_writer;
};

LatticeWriters::LatticeWriters(const DecodeUtteranceOptions &opts,
                               const std::string &lattice_wspecifier,
                               const std::string &words_wspecifier,
                               const std::string &alignments_wspecifier)
    : determinize_(opts.decoder.determinize_lattice), tables_(new Tables) {
  if (determinize_)
    tables_->compact_lattice_writer.Open(lattice_wspecifier);
  else
    tables_->lattice_writer.Open(lattice_wspecifier);
  if (!words_wspecifier.empty()) tables_->words_writer.Open(words_wspecifier);
  if (!alignments_wspecifier.empty())
    tables_->alignment_writer.Open(alignments_wspecifier);
  if (!opts.word_syms_filename.empty()) {
    word_syms_.reset(fst::SymbolTable::ReadText(opts.word_syms_filename));
    if (word_syms_ == nullptr)
      NNET3_ERR << "Could not read symbol table from file "
                << opts.word_syms_filename;
  }
}

LatticeWriters::~LatticeWriters() = default;

void LatticeWriters::LogWords(const DecodedUtterance &result) const {
  std::ostringstream line;
  line << result.utt << ' ';
  for (int32_t word : result.words) {
    const std::string s = word_syms_->Find(word);
    if (s.empty()) NNET3_ERR << "Word-id " << word << " not in symbol table.";
    line << s << ' ';
  }
  std::cerr << line.str() << '\n';
}

void LatticeWriters::Write(DecodedUtterance *result) {
  if (!result->success) {
    num_fail_++;
    return;
  }
  const std::string &utt = result->utt;
  if (tables_->words_writer.IsOpen())
    tables_->words_writer.Write(utt, result->words);
  if (tables_->alignment_writer.IsOpen())
    tables_->alignment_writer.Write(utt, result->alignment);
  if (word_syms_ != nullptr) LogWords(*result);
  const LatticeWeight &weight = result->best_weight;
  const double likelihood = -(weight.Value1() + weight.Value2());
  const int64_t num_frames = static_cast<int64_t>(result->alignment.size());
  if (determinize_) {
    tables_->compact_lattice_writer.Write(utt, result->clat);
    result->clat.DeleteStates();
  } else {
    tables_->lattice_writer.Write(utt, result->lat);
    result->lat.DeleteStates();
  }
  NNET3_LOG << "Log-like per frame for utterance " << utt << " is "
            << (likelihood / num_frames) << " over " << num_frames
            << " frames.";
  NNET3_VLOG(2) << "Cost for utterance " << utt << " is " << weight.Value1()
                << " + " << weight.Value2();
  tot_like_ += likelihood;
  frame_count_ += num_frames;
  num_success_++;
}

void LatticeWriters::LogSummary(double seconds,
                                int32_t frame_subsampling_factor) const {
  const int64_t input_frame_count = frame_count_ * frame_subsampling_factor;
  NNET3_LOG << "Time taken " << seconds
            << "s: real-time factor assuming 100 frames/sec is "
            << (seconds * 100.0 / input_frame_count);
  NNET3_LOG << "Done " << num_success_ << " utterances, failed for "
            << num_fail_;
  NNET3_LOG << "Overall log-likelihood per frame is "
            << (tot_like_ / frame_count_) << " over " << frame_count_
            << " frames.";
}

void LatticeWriters::Close() {
  if (determinize_)
    tables_->compact_lattice_writer.Close();
  else
    tables_->lattice_writer.Close();
  if (tables_->words_writer.IsOpen()) tables_->words_writer.Close();
  if (tables_->alignment_writer.IsOpen()) tables_->alignment_writer.Close();
}

}  // namespace nnet3
