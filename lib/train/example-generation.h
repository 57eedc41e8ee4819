// Cutting utterances into training examples, as nnet3-get-egs does
// (reference 6.4). The chunks come from UtteranceSplitter
// (train/utterance-splitter.h: Kaldi's splitting rule and random choices).
//
//   ExampleGenerationConfig eg_config;   // --left-context, --num-frames, ...
//   GetEgsOptions opts;                  // --num-pdfs, --compress, ...
//   eg_config.Register(&po); opts.Register(&po); po.Read(argc, argv);
//   eg_config.ComputeDerived();
//   UtteranceSplitter splitter(eg_config);
//   RandomState rng(srand);
//   std::vector<std::pair<std::string, NnetExample>> egs;
//   if (GetEgsForUtterance(utt, feats, ivectors, post, opts, &splitter, &rng,
//                          &egs)) ... write egs ...
//   splitter.LogStats();
//
// Each chunk becomes one eg keyed "<utt>-<first_frame>" (keys repeat when
// chunks start at the same frame, as Kaldi's do). Its input is rows
// first_frame - left_context .. first_frame + num_frames + right_context - 1,
// with the edge frames repeated beyond the utterance, at indexes t =
// -left_context upward (t = 0 is the first labeled frame). Its output rows
// have t = 0, f, 2f, ... (f = --frame-subsampling-factor) and hold the
// posteriors of output frames first_frame / f onwards (the posteriors are at
// the output frame rate; empty beyond their end) times the chunk's output
// weights. With --online-ivectors, the "ivector" input (t = 0) is the row
// of a frame drawn uniformly from [start, start + L - 1], start =
// first_frame - left_context and L the utterance's length (Kaldi's rule:
// the utterance's, not the chunk's), divided by --online-ivector-period and
// clamped to the matrix.
#ifndef NNET3_TRAIN_EXAMPLE_GENERATION_H_
#define NNET3_TRAIN_EXAMPLE_GENERATION_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "base/options.h"
#include "base/random.h"
#include "matrix/general-matrix.h"
#include "matrix/matrix.h"
#include "matrix/posterior.h"
#include "train/nnet-example.h"
#include "train/utterance-splitter.h"

namespace nnet3 {

// The options of nnet3-get-egs that are not about splitting.
struct GetEgsOptions {
  int32_t num_pdfs = -1;
  bool compress = true;
  int32_t online_ivector_period = 1;
  int32_t length_tolerance = 100;
  int32_t targets_length_tolerance = 2;

  // Registers all but --online-ivectors / --ivectors (an rspecifier the
  // program owns).
  void Register(OptionsRegistry *po);
  // UserError for a missing --num-pdfs or a bad period.
  void Check() const;
};

// The egs of one utterance, appended to *egs; the splitter draws from rng,
// then each chunk's iVector frame is drawn from it. ivectors may be null
// (no "ivector" io). Returns false, after a warning naming the utterance,
// when it is skipped: posterior or iVector length beyond the tolerance. An
// utterance too short for any chunk gives a warning and no egs, and counts
// as done (as Kaldi). A pdf index outside [0, num_pdfs) is a UserError
// naming the utterance, the index and --num-pdfs.
bool GetEgsForUtterance(const std::string &utt, const GeneralMatrix &feats,
                        const MatrixView *ivectors, const Posterior &pdf_post,
                        const GetEgsOptions &opts, UtteranceSplitter *splitter,
                        RandomState *rng,
                        std::vector<std::pair<std::string, NnetExample>> *egs);

}  // namespace nnet3

#endif  // NNET3_TRAIN_EXAMPLE_GENERATION_H_
