// RenumberComputation (Kaldi's RenumberComputation): the clean-up pass
// after passes that append submatrices and index lists (SnipRowOps,
// SplitRowOps, ReplaceRowWithMatrixOps, ExtendMatrices,
// VariableMergingOptimization). It removes what no command uses and merges
// duplicates, renumbering every reference consistently:
//  - submatrices: kept if a command argument or an indexes_multi pair (of a
//    kept list) names them; identical ones (same matrix, rows and columns)
//    become one, the lowest-numbered;
//  - matrices: kept if a kept submatrix lies in them, with their
//    matrix_debug_info entries (when there is debug info);
//  - indexes, indexes_multi, indexes_ranges: kept if a command uses them;
//    identical lists become one;
//  - component_precomputed_indexes: kept if a kPropagate / kBackprop uses
//    them; entries with the same data, input and output indexes become one;
//  - memo indexes (kPropagate arg5, kBackprop arg7): renumbered 1, 2, ... in
//    order of first appearance.
// Entry 0 of matrices, submatrices and precomputed indexes stays the
// reserved empty one; old order is kept among the survivors.
//
//   if (SnipRowOps(&computation)) RenumberComputation(&computation);
//
// Needs: valid references (ComputationChecker). Guarantees: the same
// commands, in the same order, doing the same thing; no unused or duplicate
// entries of the kinds above. Returns true if anything was renumbered or
// removed.
#ifndef NNET3_OPTIMIZE_RENUMBER_COMPUTATION_H_
#define NNET3_OPTIMIZE_RENUMBER_COMPUTATION_H_

#include "compile/nnet-computation.h"

namespace nnet3 {

bool RenumberComputation(NnetComputation *computation);

}  // namespace nnet3

#endif  // NNET3_OPTIMIZE_RENUMBER_COMPUTATION_H_
