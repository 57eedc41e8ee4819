// nnet3-compute-batch's loop: the utterances of a feature table through an
// NnetBatchInference, with reading, computing and writing overlapped.
//
//   NnetBatchComputerOptions opts;  opts.Register(&po);
//   IvectorTables ivectors;         ivectors.Register(&po);
//   InferenceOutputOptions out;     out.Register(&po);        // --apply-exp
//   ComputeUtterancesBatched(opts, nnet, log_priors, &ivectors, out,
//                            feature_rspecifier, matrix_wspecifier);
//
// Threads: the calling thread reads the features and i-vectors
// (InferenceReader) and hands each utterance to the inference object,
// whose own thread computes minibatches; a writer thread takes the
// finished utterances in input order and writes them (InferenceWriter).
// The reader waits when --max-utterances-in-flight utterances are read and
// not yet written, so memory stays bounded whatever the archive size.
//
// Bad utterances: a zero-length one, one that the i-vector tables lack, or
// one whose features or i-vectors do not fit the network (dimensions, an
// empty online i-vector matrix) is skipped with a WARNING naming it; the
// rest are written. Any other error (an unreadable archive, a write
// failure, a computation that cannot be compiled) stops the run and is
// rethrown. At the end: Kaldi's "Time taken ..." and "Done N utterances,
// failed for M" lines plus the frames per second, the minibatch statistics
// and the compile cache's hits and misses (when the inference object and
// its compiler go); UserError if no utterance succeeded (exit status 1).
#ifndef NNET3_COMPUTE_BATCH_INFERENCE_LOOP_H_
#define NNET3_COMPUTE_BATCH_INFERENCE_LOOP_H_

#include <cstdint>
#include <functional>
#include <string>

#include "compute/inference-loop.h"
#include "compute/ivector-tables.h"
#include "compute/nnet-batch-inference.h"
#include "compute/nnet-batch-tasks.h"
#include "matrix/matrix.h"
#include "matrix/vector.h"
#include "nnet/nnet.h"

namespace nnet3 {

// The thread plumbing, for loops of other shapes (x-vectors): runs `read`
// (which hands utterances to `inference`) on this thread, then Finished();
// meanwhile a writer thread calls `write` for every finished utterance in
// input order. An exception in either stops both (Abort) and is rethrown
// here once both have stopped.
void RunBatchPipeline(
    NnetBatchInference *inference, const std::function<void()> &read,
    const std::function<void(const std::string &key, Matrix *output,
                             int64_t num_input_frames)> &write);

// `log_priors` may be empty (see NnetBatchComputer).
void ComputeUtterancesBatched(const NnetBatchComputerOptions &opts,
                              const Nnet &nnet, const VectorView &log_priors,
                              IvectorTables *ivectors,
                              const InferenceOutputOptions &output_opts,
                              const std::string &feature_rspecifier,
                              const std::string &matrix_wspecifier);

}  // namespace nnet3

#endif  // NNET3_COMPUTE_BATCH_INFERENCE_LOOP_H_
