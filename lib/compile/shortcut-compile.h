// Shortcut compilation (reference 8.3; seed nnet3-compilation, "Shortcut
// compilation"): a request whose N > 2 sequences (n = 0..N-1) all ask for
// the same frames in a regular order is compiled for just n = 0 and n = 1,
// and the small computation is then stretched to N sequences. Compiling
// two sequences instead of, say, 64 is what makes training start quickly.
//
//   NnetComputation computation;
//   CompileWithShortcut(nnet, request, CompilerOptions(),
//                       /*use_shortcut=*/true, &computation);
//
// or, step by step:
//   ComputationRequest mini;  int32_t num_n;
//   if (RequestIsDecomposable(request, &mini, &num_n)) {
//     NnetComputation mini_computation;            // needs debug info
//     Compiler(mini, nnet).CreateComputation(CompilerOptions(),
//                                            &mini_computation);
//     ExpandComputation(nnet, request.misc_info, mini_computation,
//                       /*need_debug_info=*/true, num_n, &computation);
//   }
//
// The regular order ("n-stride" s): a vector of Indexes is a sequence of
// blocks of s * N entries; within a block, entries [k*s, (k+1)*s) are
// entries [0, s) with n = k. n-major vectors (for n, for t) have one block
// and s = the number of frames; t-major ones (for t, for n) have s = 1.
// Every matrix of a computation compiled from such a request has this
// structure (the compiler never mixes n values), which is what lets the
// expansion map each row of the small computation to N rows of the big
// one. The expanded computation does exactly what compiling the whole
// request would do (same outputs, derivatives and model updates), though
// its commands may differ in detail.
#ifndef NNET3_COMPILE_SHORTCUT_COMPILE_H_
#define NNET3_COMPILE_SHORTCUT_COMPILE_H_

#include <cstdint>
#include <vector>

#include "compile/compiler.h"
#include "compile/computation-request.h"
#include "compile/nnet-computation.h"
#include "nnet/nnet.h"

namespace nnet3 {

// The n-stride s of `indexes` with N = indexes.back().n + 1 (see the file
// comment), checked on every entry; 0 if N < 2 or the structure is not
// there (which includes n values outside 0..N-1).
int32_t FindNStride(const std::vector<Index> &indexes);
// The same for Cindexes (the node index must match too).
int32_t FindNStride(const std::vector<Cindex> &cindexes);

// Re-makes a vector with n-stride `n_stride` and `num_n_in` n values
// (FindNStride must have accepted it) with `num_n_out` n values instead:
// each block keeps its n = 0 entries, repeated for n = 0..num_n_out-1.
void ConvertNumNValues(int32_t n_stride, int32_t num_n_in, int32_t num_n_out,
                       const std::vector<Index> &in, std::vector<Index> *out);
void ConvertNumNValues(int32_t n_stride, int32_t num_n_in, int32_t num_n_out,
                       const std::vector<Cindex> &in, std::vector<Cindex> *out);

// True if every input and output of `request` has n values exactly
// 0..N-1 with N > 2, the same N everywhere, and a regular n-stride; then
// *mini_request is `request` with only n = 0 and n = 1 (same flags and
// misc_info) and *num_n_values = N. False otherwise (the outputs are then
// unspecified). A request with no inputs or outputs is not decomposable.
bool RequestIsDecomposable(const ComputationRequest &request,
                           ComputationRequest *mini_request,
                           int32_t *num_n_values);

// Stretches `mini_computation`, compiled (with debug info) from a mini
// request of RequestIsDecomposable, to `num_n_values` sequences: matrix
// and submatrix sizes, the index lists of the row commands, the
// precomputed indexes (recomputed with the component's PrecomputeIndexes
// from the expanded Indexes) and, if `need_debug_info`, the debug info.
// Matrices, submatrices, precomputed indexes and commands keep their
// numbers. UserError (naming --compiler.use-shortcut=false) if the mini
// computation lacks debug info or does not have the regular structure.
void ExpandComputation(const Nnet &nnet, const MiscComputationInfo &misc_info,
                       const NnetComputation &mini_computation,
                       bool need_debug_info, int32_t num_n_values,
                       NnetComputation *expanded);

// Compiles `request` via the mini request and ExpandComputation when
// `use_shortcut` and the request is decomposable, else with the Compiler
// directly. opts.output_debug_info decides whether *computation has debug
// info either way. The same UserErrors as Compiler::CreateComputation.
void CompileWithShortcut(const Nnet &nnet, const ComputationRequest &request,
                         const CompilerOptions &opts, bool use_shortcut,
                         NnetComputation *computation);

}  // namespace nnet3

#endif  // NNET3_COMPILE_SHORTCUT_COMPILE_H_
