// Small tools for optimization passes that rewrite an NnetComputation in
// place (the editing half of Kaldi's nnet-optimize-utils): finding every
// argument that names a submatrix, inserting and removing commands while
// keeping kGotoLabel targets right, and a conservative, Nnet-free look back
// at what a command writes.
//
//   std::vector<int32_t *> args;
//   IdentifySubmatrixArgsInComputation(&computation, &args);  // renumbering
//   std::vector<std::pair<int32_t, NnetComputation::Command>> extra;
//   extra.emplace_back(c, NnetComputation::Command(0.0f, kSetConst, s));
//   InsertCommands(&extra, &computation);          // before command c
//   RemoveNoOps(&computation);                     // drops kNoOperation
//
// Guarantees: InsertCommands and RemoveNoOps keep the relative order of the
// other commands and retarget kGotoLabel (arg1) to the same label command.
// RowsKnownToBeZero answers true only when zero is certain.
#ifndef NNET3_OPTIMIZE_COMPUTATION_EDIT_H_
#define NNET3_OPTIMIZE_COMPUTATION_EDIT_H_

#include <cstdint>
#include <utility>
#include <vector>

#include "compile/nnet-computation.h"

namespace nnet3 {

// Appends pointers to the arguments of `command` that are submatrix indexes
// (0 in an optional argument means "none" and is included; the caller skips
// it). The submatrices inside indexes_multi lists are not included.
void IdentifySubmatrixArgs(NnetComputation::Command *command,
                           std::vector<int32_t *> *submatrix_args);

// Every submatrix index in the computation: those of all commands, then the
// .first of every pair of every indexes_multi list (-1 pairs included; the
// caller skips negative values).
void IdentifySubmatrixArgsInComputation(NnetComputation *computation,
                                        std::vector<int32_t *> *submatrix_args);

// Inserts each (position, command) before the command that is at
// `position` now (num-commands appends). Commands with the same position
// keep their order in `new_commands`, which is sorted stably by position.
void InsertCommands(
    std::vector<std::pair<int32_t, NnetComputation::Command>> *new_commands,
    NnetComputation *computation);

// Removes every kNoOperation command; returns true if it removed any.
bool RemoveNoOps(NnetComputation *computation);

// True if the computation contains a kGotoLabel (a looped computation).
bool IsLoopedComputation(const NnetComputation &computation);

// The submatrices whose contents `command` may change (written or
// read-written), found from the command type alone, so without the Nnet: a
// conservative superset of what the Analyzer reports. 0 entries omitted.
void SubmatricesWrittenBy(const NnetComputation &computation,
                          const NnetComputation::Command &command,
                          std::vector<int32_t> *submatrices);

// True if `a` and `b` (submatrix descriptions) share at least one element.
bool SubmatrixInfosOverlap(const NnetComputation::SubMatrixInfo &a,
                           const NnetComputation::SubMatrixInfo &b);
// True if `inner` lies entirely inside `outer`.
bool SubmatrixInfoContains(const NnetComputation::SubMatrixInfo &outer,
                           const NnetComputation::SubMatrixInfo &inner);

// True if, just before command `command_index` runs, every element of
// `region` is certainly zero: looking back, the most recent command that
// may write any of it is a kSetConst with alpha 0 whose submatrix contains
// all of `region`. False whenever unsure (an allocation or swap of the
// matrix comes first, or the computation is looped).
bool RowsKnownToBeZero(const NnetComputation &computation,
                       int32_t command_index,
                       const NnetComputation::SubMatrixInfo &region);

}  // namespace nnet3

#endif  // NNET3_OPTIMIZE_COMPUTATION_EDIT_H_
