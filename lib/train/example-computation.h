// Running a compiled computation on one (merged) example: supplying the
// example's inputs, handing each output to the caller (who computes the
// objective and, if the computation has a backward pass, the derivative
// w.r.t. that output), and running to the end. This is Kaldi's
// AcceptInputs; Run; ProcessOutputs; Run, done so that it also works for
// computations whose I/O commands are not gathered at segment boundaries
// (unoptimized ones: they allocate and zero matrices before the first
// kAcceptInput, and with several outputs interleave them with other work).
//
//   NnetComputer computer(compute_opts, computation, &nnet, &delta_nnet);
//   RunExampleComputation(nnet, computation, eg,
//       [&](const NnetIo &io, const MatrixView &output, Matrix *deriv) {
//         // deriv is null when the computation takes no derivative here
//         ComputeObjectiveFromOutput(io.features, ..., output, &w, &f, deriv);
//       }, &computer);
//
// Guarantees: every input NnetIo is given to the computer at its
// kAcceptInput; the callback runs once per output NnetIo, when its value is
// available, in the order of the computation's kProvideOutput commands;
// what it puts in *deriv is given at that output's derivative kAcceptInput.
// Errors: UserError if an input's column count differs from the network's
// input dimension (naming the io and both dimensions), or if the callback
// left a needed derivative empty.
#ifndef NNET3_TRAIN_EXAMPLE_COMPUTATION_H_
#define NNET3_TRAIN_EXAMPLE_COMPUTATION_H_

#include <functional>

#include "compute/nnet-computer.h"
#include "matrix/matrix.h"
#include "nnet/nnet.h"
#include "train/nnet-example.h"

namespace nnet3 {

using OutputCallback = std::function<void(
    const NnetIo &io, const MatrixView &output, Matrix *deriv)>;

// `computer` must have been constructed for `computation`, compiled from
// GetComputationRequest(nnet, eg, ...), and not run yet.
void RunExampleComputation(const Nnet &nnet, const NnetComputation &computation,
                           const NnetExample &eg,
                           const OutputCallback &on_output,
                           NnetComputer *computer);

// UserError unless each NnetIo of `eg` that names an input node has the
// node's dimension as its number of columns ("The example's input 'input'
// has dimension 13 but the network's input node 'input' has dimension
// 40 ...").
void CheckExampleInputDims(const Nnet &nnet, const NnetExample &eg);

// The number of distinct sequences (n values) in a merged example: the
// largest n of the last index of each io, plus one (Kaldi's GetNumNvalues
// with exhaustive=false). UserError if the ios disagree or one is empty.
int32_t GetNumNvalues(const NnetExample &eg);

}  // namespace nnet3

#endif  // NNET3_TRAIN_EXAMPLE_COMPUTATION_H_
