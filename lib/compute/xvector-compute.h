// X-vector extraction (Kaldi's nnet3-xvector-compute): a network whose
// output node is segment-level (one row per chunk of input, e.g. after
// statistics pooling) is run on chunks of each utterance, and the chunk
// outputs are averaged, weighted by their number of real frames.
//
//   XvectorComputeOptions xopts;  xopts.Register(&po);  // --chunk-size ...
//   ComputeXvectors(xopts, batch_opts, nnet, "scp:feats.scp",
//                   "ark:xvectors.ark", cache_in, cache_out);
//
// Chunks (Kaldi's rule): with --chunk-size=-1 (the default) the whole
// utterance is one chunk; otherwise chunks of --chunk-size frames from the
// start, the last one shorter (an utterance shorter than --chunk-size is
// one chunk, with a log line). A chunk shorter than --min-chunk-size (100)
// is padded to that size by repeating its first frame (half of the
// missing frames, rounded down) and its last frame (the rest) if
// --pad-input (the default); without --pad-input such chunks are dropped,
// and an utterance shorter than --min-chunk-size is skipped with a
// warning. Each chunk is a request for input frames t = 0 .. T−1 and the
// output at (n, t = 0); its weight is its number of real (unpadded)
// frames. An utterance whose every chunk was dropped is skipped with a
// warning (Kaldi would write NaNs).
//
// Batching: the chunks of all utterances go through an NnetBatchInference
// (nnet-batch-inference.h: reader, compute and writer threads; outputs in
// input order; --minibatch-size etc.). Chunks of --chunk-size frames and
// padded ones (--min-chunk-size frames) are regular and share minibatches;
// chunks of other lengths (whole utterances, last chunks) are computed one
// at a time, each length compiled once (--cache-capacity).
#ifndef NNET3_COMPUTE_XVECTOR_COMPUTE_H_
#define NNET3_COMPUTE_XVECTOR_COMPUTE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "compute/nnet-batch-tasks.h"
#include "matrix/matrix.h"
#include "matrix/vector.h"
#include "nnet/nnet.h"

namespace nnet3 {

class OptionsRegistry;

struct XvectorComputeOptions {
  int32_t chunk_size = -1;
  int32_t min_chunk_size = 100;
  bool pad_input = true;
  // --chunk-size, --min-chunk-size, --pad-input (Kaldi's names and texts).
  void Register(OptionsRegistry *po);
};

// Cuts `features` (non-empty) into x-vector chunk tasks (see the file
// comment) and their weights; the tasks' output rows are 0, 1, ... in
// order. Returns false, with a warning naming `utterance`, if the
// utterance yields no chunk.
bool SplitUtteranceForXvector(const XvectorComputeOptions &opts,
                              const std::string &utterance,
                              const MatrixView &features,
                              std::vector<NnetInferenceTask> *tasks,
                              std::vector<float> *weights);

// The weighted average of the rows of `chunk_xvectors` (one per weight).
void AverageXvector(const MatrixView &chunk_xvectors,
                    const std::vector<float> &weights, Vector *xvector);

// nnet3-xvector-compute's loop: every utterance of `feature_rspecifier`,
// one vector each to `vector_wspecifier`; Kaldi's end-of-run log lines,
// UserError if none succeeded. `cache_in` / `cache_out` (may be "") are
// read into / written from the compiler's cache (--cached-compiler-in/out).
void ComputeXvectors(const XvectorComputeOptions &opts,
                     const NnetBatchComputerOptions &batch_opts,
                     const Nnet &nnet, const std::string &feature_rspecifier,
                     const std::string &vector_wspecifier,
                     const std::string &cache_in, const std::string &cache_out);

}  // namespace nnet3

#endif  // NNET3_COMPUTE_XVECTOR_COMPUTE_H_
