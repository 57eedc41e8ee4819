// ComputationChecker: proves that a compiled NnetComputation is sound before
// anyone runs it (Kaldi's ComputationChecker; reference 9.3). A failed check
// is a bug in the compiler or optimizer, never the user's fault, so failures
// throw InternalError with one line naming the command and its text:
//   "Computation check failed at c7 (m3 = m2.CopyRows([0:9])): row index 10
//    is out of range for m2 (10 rows)"
//
//   CheckComputationOptions opts;
//   opts.check_rewrite = true;          // unoptimized computations only
//   ComputationChecker(opts, nnet, computation).Check();
//   CheckComputation(nnet, computation, /*check_rewrite=*/false);
//
// Check() runs, in order:
//  - CheckComputationIndexes: matrices and submatrices are non-empty and
//    inside their matrices; every command's submatrix, component,
//    precomputed-indexes, index-list and node numbers are in range and of
//    the right kind (whole matrices where required); dims and row counts
//    match the component (simple components: no precomputed indexes, equal
//    input/output rows); in-place propagate/backprop only with
//    kPropagateInPlace / kBackpropInPlace; backprop gets the values the
//    component needs, and has an effect (an in-deriv, or a model update);
//    memo indexes only for kUsesMemo components, each made by one earlier
//    propagate of the same component and used by at most one backprop; no
//    copy/add from a submatrix to itself (a kMatrixCopy onto itself with
//    alpha != 1 is an in-place scale and allowed); row indexes, row ranges
//    and (submatrix, row) pairs in range; no duplicate destinations in
//    kCopyToRowsMulti / kAddToRowsMulti; valid compression arguments;
//    kGotoLabel last and pointing back at a kNoOperationLabel; matrices
//    allocated and deallocated at most once. (A memo argument or the
//    store-stats flag of 0 or -1 both mean "none".)
//  - CheckComputationDebugInfo: debug info empty or one entry per matrix,
//    one Cindex per row, valid nodes, no negative n.
//  - CheckComputationMatrixAccesses: every matrix is allocated, accessed,
//    accessed only between allocation and deallocation, and not merely set
//    to a constant (check_unused_variables); an input that is never used
//    gives only a warning.
//  - CheckComputationCompression: each kCompressMatrix is in the forward
//    commands and the next access to its matrix is a kDecompressMatrix in
//    the backward commands (nothing touches it in between); each
//    decompression follows a compression; range 0 (the sign) is used only
//    for a matrix whose last access is then a RectifiedLinearComponent's
//    backprop.
//  - CheckComputationUndefined: no variable is read before it is written
//    (kAcceptInput writes; a compression may pack a never-written part);
//    with check_unused_variables, every variable is used.
//  - CheckComputationRewrite (check_rewrite): no variable is modified after
//    it has been read (true of compiled, not of optimized, computations).
// Looped computations (ending in kGotoLabel) carry values from one
// iteration to the next, so the two variable-order checks are skipped for
// them.
#ifndef NNET3_COMPILE_COMPUTATION_CHECKER_H_
#define NNET3_COMPILE_COMPUTATION_CHECKER_H_

#include <string>
#include <vector>

#include "compile/computation-analysis.h"
#include "compile/nnet-computation.h"
#include "nnet/nnet.h"

namespace nnet3 {

struct CheckComputationOptions {
  // No variable is written after being read: true of a computation as the
  // compiler makes it, not after optimization.
  bool check_rewrite = false;
  // Every variable must be used and no matrix may only be set to a
  // constant: true of a computation as the compiler makes it; after
  // RemoveUnnecessaryZeroing a part of a matrix nothing reads may be left
  // untouched, so checks of optimized computations turn it off (as Kaldi's
  // CheckComputation does).
  bool check_unused_variables = true;
};

class ComputationChecker {
 public:
  ComputationChecker(const CheckComputationOptions &opts, const Nnet &nnet,
                     const NnetComputation &computation);
  // Throws InternalError on the first problem found.
  void Check();

 private:
  void CheckMatricesAndSubmatrices() const;
  void CheckComputationIndexes() const;
  void CheckCommandIndexes(int32_t k) const;
  void CheckPropagate(int32_t k) const;
  void CheckBackprop(int32_t k) const;
  void CheckCopyOrAdd(int32_t k) const;
  void CheckRows(int32_t k) const;
  void CheckMulti(int32_t k) const;
  void CheckRanges(int32_t k) const;
  void CheckCompress(int32_t k) const;
  void CheckIo(int32_t k) const;
  void CheckGoto(int32_t k) const;
  void CheckMemos() const;
  void CheckAllocations() const;
  void CheckComputationDebugInfo() const;
  void CheckComputationMatrixAccesses() const;
  void CheckComputationUndefined() const;
  void CheckComputationCompression() const;
  void CheckComputationRewrite() const;

  // Throws unless 0 < s < num-submatrices (and, if `whole`, s is a whole
  // matrix); `what` names the argument in the message.
  void CheckSubmatrix(int32_t k, int32_t s, const char *what, bool whole) const;
  // Checks a component index and returns the component.
  const Component *CheckComponent(int32_t k, int32_t c) const;
  const NnetComputation::SubMatrixInfo &Sub(int32_t s) const {
    return computation_.submatrices[s];
  }
  // Throws InternalError "Computation check failed at c<k> (<text>): what"
  // (k < 0: no command).
  [[noreturn]] void Fail(int32_t k, const std::string &what) const;
  bool IsLooped() const;

  CheckComputationOptions opts_;
  const Nnet &nnet_;
  const NnetComputation &computation_;
  Analyzer a_;
};

// Runs ComputationChecker as Kaldi's CheckComputation does, for optimized
// computations too: check_unused_variables off (an optimized computation
// may leave parts of a matrix that nothing reads undefined and untouched);
// on failure logs the printed computation as a warning and rethrows.
void CheckComputation(const Nnet &nnet, const NnetComputation &computation,
                      bool check_rewrite = false);

}  // namespace nnet3

#endif  // NNET3_COMPILE_COMPUTATION_CHECKER_H_
