// Cutting utterances into training examples, as nnet3-get-egs does
// (reference 6.4; Kaldi's ExampleGenerationConfig and UtteranceSplitter).
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
// The splitting rule (our own, deterministic; Kaldi's picks among splits at
// random). Work in output frames: f = --frame-subsampling-factor, an
// utterance of L input frames has N = ceil(L / f) output frames, and each
// --num-frames value (rounded up to a multiple of f) is a chunk size c / f.
//  1. Whole-utterance mode (--num-frames=-1): one chunk of all N frames.
//  2. Sizes larger than N are not used; if none is left the utterance is
//     too short and gives no egs.
//  3. The main size p is the principal size if usable, else the largest
//     usable alternative. Main chunks start at 0, s, 2s, ... with
//     s = p - min(o, p - 1), o = --num-frames-overlap / f, while they fit
//     inside [0, N).
//  4. If frames are left after the last main chunk (r of them), one final
//     chunk of the smallest usable size >= r is placed to end exactly at N,
//     overlapping the chunk before it.
// Each output frame's weight is 1 / (the number of chunks holding it), so
// overlapped frames count once in total. A chunk starting at frame 0 gets
// --left-context-initial (if >= 0) instead of --left-context, and one
// ending at N gets --right-context-final (if >= 0). The input of a chunk is
// rows first_frame - left_context .. first_frame + num_frames +
// right_context - 1, with the edge frames repeated beyond the utterance; its
// indexes are t = -left_context upward (t = 0 is the first labeled frame).
// Output rows have t = 0, f, 2f, ... and are the chunk's posteriors times
// their weights (empty beyond the end of the posterior).
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

namespace nnet3 {

struct ExampleGenerationConfig {
  int32_t left_context = 0;
  int32_t right_context = 0;
  int32_t left_context_initial = -1;
  int32_t right_context_final = -1;
  int32_t num_frames_overlap = 0;
  int32_t frame_subsampling_factor = 1;
  std::string num_frames_str = "1";
  // Derived by ComputeDerived: the principal size then the alternatives,
  // rounded up to multiples of frame_subsampling_factor; empty for "-1"
  // (whole utterances).
  std::vector<int32_t> num_frames;

  void Register(OptionsRegistry *po);
  // Checks the options (UserError naming the bad one) and fills num_frames.
  void ComputeDerived();
};

struct ChunkTimeInfo {
  int32_t first_frame = 0;  // input frame; a multiple of the fss
  int32_t num_frames = 0;   // labeled input frames; a multiple of the fss
  int32_t left_context = 0;
  int32_t right_context = 0;
  // One per output frame (num_frames / fss): 1 / the number of chunks
  // holding that frame.
  std::vector<float> output_weights;
};

class UtteranceSplitter {
 public:
  // config must have had ComputeDerived() called.
  explicit UtteranceSplitter(const ExampleGenerationConfig &config);
  const ExampleGenerationConfig &Config() const { return config_; }

  // Whether supervision_length is within length_tolerance of
  // ceil(utterance_length / fss); if not, warns naming utt.
  bool LengthsMatch(const std::string &utt, int32_t utterance_length,
                    int32_t supervision_length, int32_t length_tolerance) const;
  // The chunks of an utterance of utterance_length input frames (see the
  // file comment); empty if it is too short. Updates the statistics.
  void GetChunksForUtterance(int32_t utterance_length,
                             std::vector<ChunkTimeInfo> *chunks);
  // "Split N utts, with total length F frames ...", as Kaldi.
  void LogStats() const;
  int64_t TotalFramesInChunks() const { return total_frames_in_chunks_; }

 private:
  // Chunk starts and sizes in output frames.
  void SplitOutputFrames(
      int32_t num_output_frames,
      std::vector<std::pair<int32_t, int32_t>> *chunks) const;

  ExampleGenerationConfig config_;
  int64_t total_num_utterances_ = 0;
  int64_t total_input_frames_ = 0;
  int64_t total_frames_overlap_ = 0;
  int64_t total_num_chunks_ = 0;
  int64_t total_frames_in_chunks_ = 0;
};

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

// The egs of one utterance, keyed "<utt>-<first_frame>", appended to *egs.
// ivectors may be null (no "ivector" io). Returns false, after a warning
// naming the utterance, when it is skipped: posterior or iVector length
// beyond the tolerance, or too short for any chunk. A pdf index outside
// [0, num_pdfs) is a UserError naming the utterance, the index and
// --num-pdfs.
bool GetEgsForUtterance(const std::string &utt, const GeneralMatrix &feats,
                        const MatrixView *ivectors, const Posterior &pdf_post,
                        const GetEgsOptions &opts, UtteranceSplitter *splitter,
                        RandomState *rng,
                        std::vector<std::pair<std::string, NnetExample>> *egs);

}  // namespace nnet3

#endif  // NNET3_TRAIN_EXAMPLE_GENERATION_H_
