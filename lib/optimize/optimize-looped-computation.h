// OptimizeLoopedComputation (Kaldi's ComputationLoopedOptimizer) and
// FixGotoLabel: the pass that turns a multi-segment computation (one
// segment per chunk of an utterance, compile/compiler.h) into an endless
// loop, so that NnetComputer::Run() processes one chunk per call and the
// recurrent state stays in the computation's matrices from chunk to chunk.
//
//   Compiler(requests, nnet).CreateComputation(CompilerOptions(), &c);
//   opts.optimize_looped_computation = true;
//   Optimize(opts, nnet, MaxOutputTimeInRequest(request3), &c);  // runs it
//   bool looped = !c.commands.empty() &&
//                 c.commands.back().command_type == kGotoLabel;
//
// How: each segment has a splice point (the kNoOperationPermanent after its
// inputs). For each splice point, the matrices live across it (first
// non-zeroing access before, last access after) are listed, each described
// as (the cindexes of its rows with t shifted to start at 0 plus is_deriv,
// the t shift). The first two splice points i < j whose lists agree, except
// that some matrices are shifted by exactly (j - i) times the time shift
// between successive segments (found from the first outputs of segments 2
// and 3), are where the loop closes: the commands after splice point j are
// dropped, splice point j becomes kGotoLabel back to a kNoOperationLabel
// inserted before splice point i, and kSwapMatrix commands just before the
// goto move each shifted matrix of j into its counterpart of i (in an order
// that is safe when the two lists overlap). RenumberComputation then drops
// what is no longer used.
//
// Needs: the computation from the Compiler with matrix debug info, at
// least three segments (kNoOperationMarker-separated), run through the
// earlier optimizer passes (not ExtendMatrices). Guarantees: either the
// computation is unchanged and false is returned (no repeat found: compile
// more segments), or it ends in kGotoLabel and returns true.
#ifndef NNET3_OPTIMIZE_OPTIMIZE_LOOPED_COMPUTATION_H_
#define NNET3_OPTIMIZE_OPTIMIZE_LOOPED_COMPUTATION_H_

#include "compile/nnet-computation.h"
#include "nnet/nnet.h"

namespace nnet3 {

bool OptimizeLoopedComputation(const Nnet &nnet, NnetComputation *computation);

// Makes the kGotoLabel at the end of a looped computation (possibly
// followed by kProvideOutput commands) point at the kNoOperationLabel again
// after passes that moved commands; does nothing for other computations.
// Returns true if it changed the target. InternalError if there is no
// label.
bool FixGotoLabel(NnetComputation *computation);

}  // namespace nnet3

#endif  // NNET3_OPTIMIZE_OPTIMIZE_LOOPED_COMPUTATION_H_
