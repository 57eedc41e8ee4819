// Helpers the compiler uses to turn "row r of the destination is the sum of
// these source rows" into row-operation commands (seed nnet3-compilation,
// "SplitLocations"). A location is a pair (submatrix-index, row-index);
// (-1, -1) means "nothing" (zero in a copy, skipped in an add).
//
//   std::vector<std::vector<std::pair<int32_t, int32_t>>> split;
//   SplitLocations(per_row_lists, &split);    // forward: one command each
//   SplitLocationsBackward(per_row_lists, &split);   // backward
//   int32_t sub; std::vector<int32_t> rows;
//   if (ConvertToIndexes(split[0], &sub, &rows)) ...  // one source matrix
//
// Guarantees: the union over the output vectors of the non-(-1,-1) pairs at
// position r is exactly the multiset submat_lists[r]; every output vector
// has submat_lists.size() elements and at least one real pair.
#ifndef NNET3_COMPILE_COMPILE_UTILS_H_
#define NNET3_COMPILE_COMPILE_UTILS_H_

#include <cstdint>
#include <utility>
#include <vector>

namespace nnet3 {

using SubmatLocation = std::pair<int32_t, int32_t>;

// Turns per-row lists of locations into per-term vectors (each with one
// pair per row, padded with (-1, -1)). Submatrices that occur in many rows
// get vectors of their own when that does not increase the number of
// vectors, so that most vectors read from a single submatrix (kCopyRows /
// kAddRows instead of the *Multi commands).
void SplitLocations(
    const std::vector<std::vector<SubmatLocation>> &submat_lists,
    std::vector<std::vector<SubmatLocation>> *split_lists);

// As SplitLocations, but each output vector is also safe to use as the
// destination of a backward (scatter-add) command: either its real pairs
// are all distinct, or it reads from a single submatrix and its row
// indexes have the contiguous property (HasContiguousProperty), so that
// kAddRowRanges can do it.
void SplitLocationsBackward(
    const std::vector<std::vector<SubmatLocation>> &submat_lists,
    std::vector<std::vector<SubmatLocation>> *split_lists);

// If all real pairs have the same submatrix, returns true with
// *first_value that submatrix (-1 if there are no real pairs) and
// *second_values the row of each pair (-1 for (-1, -1)).
bool ConvertToIndexes(const std::vector<SubmatLocation> &location_vector,
                      int32_t *first_value,
                      std::vector<int32_t> *second_values);

// True if each value >= 0 in `indexes` occurs in one contiguous run; then
// (*reverse_indexes)[v] = [begin, end) of v's run, (-1, -1) for values in
// 0..max that do not occur (size max + 1). -1 entries are ignored.
bool HasContiguousProperty(
    const std::vector<int32_t> &indexes,
    std::vector<std::pair<int32_t, int32_t>> *reverse_indexes);

// Splits `indexes` into vectors of the same size (the rest -1) whose sum
// is `indexes` (each position's value is in exactly one of them) and which
// each have the contiguous property. Nothing is output for all -1.
void EnsureContiguousProperty(const std::vector<int32_t> &indexes,
                              std::vector<std::vector<int32_t>> *indexes_out);

// Splits `list` into vectors in which every real pair occurs at most once
// (the k-th occurrence of a pair goes to vector k). Nothing is output for
// a list of only (-1, -1).
void SplitPairList(const std::vector<SubmatLocation> &list,
                   std::vector<std::vector<SubmatLocation>> *split_lists);

}  // namespace nnet3

#endif  // NNET3_COMPILE_COMPILE_UTILS_H_
