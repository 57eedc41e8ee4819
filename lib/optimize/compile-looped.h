// Looped compilation (Kaldi's nnet-compile-looped): one computation that
// processes an utterance chunk by chunk, forever, keeping the network's
// activations (the recurrent state, the frames of context already seen)
// between chunks. For inference only (no backprop).
//
//   ComputationRequest r1, r2, r3;
//   CreateLoopedComputationRequest(nnet, chunk_size, fss, ivector_period,
//                                  left_context + extra_left_context_initial,
//                                  right_context, 1, &r1, &r2, &r3);
//   NnetComputation computation;
//   CompileLooped(nnet, optimize_opts, r1, r2, r3, &computation);
//   NnetComputer computer(compute_opts, computation, nnet, nullptr);
//   for each chunk: computer.AcceptInput("input", &chunk_features);
//                   [computer.AcceptInput("ivector", &ivectors);]
//                   computer.Run();
//                   computer.GetOutputDestructive("output", &chunk_output);
//
// request1 is the first chunk with its left context; request2 and request3
// the next two chunks, identical up to a time shift (and not overlapping in
// their inputs: each chunk supplies only the frames that are new). The
// requests are extrapolated to 5 chunks (then 10, 20, 40, 80 if needed),
// compiled as one multi-segment computation (compile/compiler.h) and
// optimized with optimize_looped_computation, which closes the loop
// (optimize-looped-computation.h). UserError for requests that are not
// time-shifted copies; InternalError if no loop is found with 100 chunks.
#ifndef NNET3_OPTIMIZE_COMPILE_LOOPED_H_
#define NNET3_OPTIMIZE_COMPILE_LOOPED_H_

#include <cstdint>

#include "compile/computation-request.h"
#include "compile/nnet-computation.h"
#include "nnet/nnet.h"
#include "optimize/nnet-optimize-options.h"

namespace nnet3 {

void CompileLooped(const Nnet &nnet, const NnetOptimizeOptions &optimize_opts,
                   const ComputationRequest &request1,
                   const ComputationRequest &request2,
                   const ComputationRequest &request3,
                   NnetComputation *computation);

// The smallest chunk size >= advised_chunk_size that is a multiple of
// nnet.Modulus() and of frame_subsampling_factor.
int32_t GetChunkSize(const Nnet &nnet, int32_t frame_subsampling_factor,
                     int32_t advised_chunk_size);

// Rewrites every `ReplaceIndex(X, t, 0)` in the component-node descriptors
// as `Round(X, ivector_period)`, so that a network trained to read one
// i-vector per chunk (at t = 0) reads one every ivector_period frames.
// UserError if such an expression cannot be rewritten.
void ModifyNnetIvectorPeriod(int32_t ivector_period, Nnet *nnet);

// The three requests for a simple network ("input", optional "ivector",
// "output"): chunk 1 has input frames [-left_context_begin, chunk_size +
// right_context) and outputs [0, chunk_size) every
// frame_subsampling_factor frames; chunk k > 1 has the next chunk_size
// input frames and outputs shifted by chunk_size. I-vectors are requested
// at the multiples of ivector_period that the chunk's input frames round
// down to and no earlier chunk asked for. n runs over num_sequences, with
// n the slower index. chunk_size must be a multiple of
// frame_subsampling_factor, nnet.Modulus() and ivector_period.
void CreateLoopedComputationRequest(
    const Nnet &nnet, int32_t chunk_size, int32_t frame_subsampling_factor,
    int32_t ivector_period, int32_t left_context_begin, int32_t right_context,
    int32_t num_sequences, ComputationRequest *request1,
    ComputationRequest *request2, ComputationRequest *request3);

// The same with the network's own context (ComputeSimpleNnetContext) plus
// the extra context given.
void CreateLoopedComputationRequestSimple(
    const Nnet &nnet, int32_t chunk_size, int32_t frame_subsampling_factor,
    int32_t ivector_period, int32_t extra_left_context_begin,
    int32_t extra_right_context, int32_t num_sequences,
    ComputationRequest *request1, ComputationRequest *request2,
    ComputationRequest *request3);

}  // namespace nnet3

#endif  // NNET3_OPTIMIZE_COMPILE_LOOPED_H_
