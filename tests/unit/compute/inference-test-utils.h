// Helpers for the inference tests (NnetSimpleComputer, the batch computer,
// x-vectors): an independent reference for chunked inference, computed by
// compiling one request per chunk with the plain Compiler (no caching, no
// optimization, absolute times) on input padded by hand.
//
//   std::vector<RefChunk> chunks = KaldiSimpleChunks(num_out, per_chunk, e);
//   Matrix want = ReferenceChunkedOutput(nnet, features, fss, chunks,
//                                        ivector_rows_or_null);
#ifndef NNET3_TESTS_UNIT_COMPUTE_INFERENCE_TEST_UTILS_H_
#define NNET3_TESTS_UNIT_COMPUTE_INFERENCE_TEST_UTILS_H_

#include <cstdint>
#include <vector>

#include "matrix/matrix.h"
#include "nnet/nnet.h"

namespace nnet3 {

// The largest |a - b| over all elements (REQUIREs equal shapes).
float MaxAbsDiff(const MatrixView &a, const MatrixView &b);

// Rows [-left, num_rows + right) of `features`, the edge rows repeated.
Matrix PadEdges(const MatrixView &features, int32_t left, int32_t right);

// Compiles (plain Compiler, unoptimized) and runs one request: "input" at
// t in [first_t, first_t + input.NumRows()), "output" at `output_ts`,
// "ivector" (if given, one row) at (n=0, t=0).
Matrix DirectCompute(const Nnet &nnet, const MatrixView &input, int32_t first_t,
                     const std::vector<int32_t> &output_ts,
                     const MatrixView *ivector = nullptr);

// A chunk of output frames [begin, end) (subsampled numbering) with the
// extra left and right context it is computed with; only its rows from
// `used_begin` (if >= 0; else from `begin`) are kept.
struct RefChunk {
  int32_t begin, end, extra_left, extra_right;
  int32_t used_begin = -1;
};

struct RefContextOptions {
  int32_t extra_left = 0, extra_right = 0;
  int32_t extra_left_initial = -1, extra_right_final = -1;
};

// Kaldi's DecodableNnetSimple chunks, written out here independently of
// the library: starts 0, P, 2P, ..., the last chunk shorter; the initial
// override for the chunk starting at 0, the final one for the chunk that
// holds the last frame.
std::vector<RefChunk> KaldiSimpleChunks(int32_t num_output_frames,
                                        int32_t frames_per_chunk_subsampled,
                                        const RefContextOptions &opts);

// The output rows of every chunk, each computed by DirectCompute on its own
// input frames [begin·fss − left − extra_left, (end−1)·fss + right +
// extra_right] (edge frames repeated) at absolute times. `ivector_rows`, if
// given, has one row per chunk. The output has ceil(num_frames / fss) rows;
// a chunk's rows past that (padding) are dropped.
Matrix ReferenceChunkedOutput(const Nnet &nnet, const MatrixView &features,
                              int32_t fss, const std::vector<RefChunk> &chunks,
                              const MatrixView *ivector_rows = nullptr);

}  // namespace nnet3

#endif  // NNET3_TESTS_UNIT_COMPUTE_INFERENCE_TEST_UTILS_H_
