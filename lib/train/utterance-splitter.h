// Splitting utterances into chunks for training examples: Kaldi's
// ExampleGenerationConfig and UtteranceSplitter (nnet3-get-egs), with
// Kaldi's random choices drawn from the caller's seeded RandomState. With
// RandomState::KaldiDraws the split drawn and its reversal are Kaldi's for
// the same srand (the draws of step 1 below, in Kaldi's order); the places
// of the larger gaps (step 2) come from the state's own engine, as Kaldi's
// come from std::random_device and cannot be repeated.
//
//   ExampleGenerationConfig config;      // --left-context, --num-frames, ...
//   config.Register(&po); po.Read(argc, argv);
//   config.ComputeDerived();             // UserError for bad values
//   UtteranceSplitter splitter(config);
//   RandomState rng = RandomState::KaldiDraws(srand, srand);
//   std::vector<ChunkTimeInfo> chunks;
//   splitter.GetChunksForUtterance(num_frames, &rng, &chunks);
//   ...
//   splitter.LogStats();                 // Kaldi's end-of-run lines
//
// The rule (Kaldi's). --num-frames is a principal chunk size p followed by
// alternatives (all rounded up to multiples of --frame-subsampling-factor
// f). A split is a sorted list of chunk sizes: any number of p's plus at
// most two alternatives. Its default duration is the sum of its sizes
// minus, for each adjacent pair, o / p times the smaller one (o =
// --num-frames-overlap). For each utterance length u up to 2 * max(sizes)
// + p, the candidate splits are those whose cost is within 1.9999 of the
// best, where cost = duration - u if the duration exceeds u, else
// 2 * (u - duration), and a split holding a size larger than u cannot be
// used. A longer utterance first drops (p - o) frames, one p each, until
// it is short enough; those p's are added to the split chosen.
// For an utterance:
//  1. one of the candidate splits is drawn uniformly, and its sizes are
//     reversed with probability 1/2 (they are sorted otherwise);
//  2. working in output frames (u and the sizes divided by f, u rounded
//     up), if the chunks are longer in total than u, the excess is shared
//     as overlaps between adjacent chunks in proportion to the smaller of
//     the two (whole parts first; the frames left over go one each to the
//     first pairs, as Kaldi's integer truncation of the fractional parts
//     makes them); else the gap is spread as evenly as possible over the
//     n + 1 places before, between and after the chunks, the larger
//     shares in random places;
//  3. the chunks follow one another from frame 0 with those gaps; the last
//     may end up to f - 1 frames after the utterance.
// --num-frames=-1: one chunk of the whole utterance (its num_frames is the
// utterance length, not rounded to f, as Kaldi's).
// Each output frame's weight is 1 / (the number of chunks holding it). The
// first chunk gets --left-context-initial (if >= 0) instead of
// --left-context, the last one --right-context-final (if >= 0).
#ifndef NNET3_TRAIN_UTTERANCE_SPLITTER_H_
#define NNET3_TRAIN_UTTERANCE_SPLITTER_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "base/options.h"
#include "base/random.h"

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
  int32_t num_frames = 0;   // labeled input frames
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
  // ceil(utterance_length / fss); if not, warns (Kaldi's wording) naming
  // utt.
  bool LengthsMatch(const std::string &utt, int32_t utterance_length,
                    int32_t supervision_length, int32_t length_tolerance) const;
  // The chunks of an utterance of utterance_length input frames (see the
  // file comment), drawing from rng; empty if it is shorter than every
  // chunk size. Updates the statistics.
  void GetChunksForUtterance(int32_t utterance_length, RandomState *rng,
                             std::vector<ChunkTimeInfo> *chunks);
  // Kaldi's end-of-run lines: "Split N utts, with total length F frames
  // (H hours assuming 100 frames per second) into C chunks.", the average
  // chunk length and overlap, and (with several sizes) "Output frames are
  // distributed among chunk-sizes as follows: ...".
  void LogStats() const;
  // 0 if any chunk was made, else 1 (Kaldi's ExitStatus).
  int32_t ExitStatus() const { return total_frames_in_chunks_ > 0 ? 0 : 1; }
  int64_t TotalFramesInChunks() const { return total_frames_in_chunks_; }

  // The candidate splits for utterance length u (after the principal
  // chunks of a long utterance are taken off); for tests.
  const std::vector<std::vector<int32_t>> &SplitsForLength(int32_t u) const;
  int32_t MaxTabulatedLength() const {
    return static_cast<int32_t>(splits_for_length_.size()) - 1;
  }

  // Kaldi's DistributeRandomly: sets vec (same size as magnitudes, all
  // positive) to integers summing to n (which may be negative) in
  // proportion to magnitudes; deterministic.
  static void DistributeProportionally(int32_t n,
                                       const std::vector<int32_t> &magnitudes,
                                       std::vector<int32_t> *vec);
  // Kaldi's DistributeRandomlyUniform: vec (non-empty) gets integers
  // summing to n that differ by at most one, the larger ones in random
  // places (shuffled with rng->engine()).
  static void DistributeUniformly(int32_t n, RandomState *rng,
                                  std::vector<int32_t> *vec);

 private:
  float DefaultDurationOfSplit(const std::vector<int32_t> &split) const;
  int32_t MaxUtteranceLength() const;
  void InitSplits(std::vector<std::vector<int32_t>> *splits) const;
  void InitSplitForLength();
  void GetChunkSizesForUtterance(int32_t utterance_length, RandomState *rng,
                                 std::vector<int32_t> *chunk_sizes) const;
  // Gaps before each chunk (negative: overlaps), in input frames and
  // multiples of the fss.
  void GetGapSizes(int32_t utterance_length, RandomState *rng,
                   const std::vector<int32_t> &chunk_sizes,
                   std::vector<int32_t> *gap_sizes) const;
  void SetOutputWeights(int32_t utterance_length,
                        std::vector<ChunkTimeInfo> *chunks) const;
  void AccStatsForUtterance(int32_t utterance_length,
                            const std::vector<ChunkTimeInfo> &chunks);

  ExampleGenerationConfig config_;
  // splits_for_length_[u]: the candidate splits for length u (empty: too
  // short). Empty for --num-frames=-1.
  std::vector<std::vector<std::vector<int32_t>>> splits_for_length_;
  int64_t total_num_utterances_ = 0;
  int64_t total_input_frames_ = 0;
  int64_t total_frames_overlap_ = 0;
  int64_t total_num_chunks_ = 0;
  int64_t total_frames_in_chunks_ = 0;
  std::map<int32_t, int64_t> chunk_size_to_count_;
};

}  // namespace nnet3

#endif  // NNET3_TRAIN_UTTERANCE_SPLITTER_H_
