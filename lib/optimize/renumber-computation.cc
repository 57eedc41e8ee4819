#include "optimize/renumber-computation.h"

#include <cstdint>
#include <map>
#include <tuple>
#include <vector>

#include "base/error.h"
#include "optimize/computation-edit.h"

namespace nnet3 {

namespace {

using Command = NnetComputation::Command;
using SubMatrixInfo = NnetComputation::SubMatrixInfo;
using PrecomputedInfo = NnetComputation::PrecomputedIndexesInfo;

struct SubMatrixLess {
  bool operator()(const SubMatrixInfo &a, const SubMatrixInfo &b) const {
    return std::tie(a.matrix_index, a.row_offset, a.num_rows, a.col_offset,
                    a.num_cols) < std::tie(b.matrix_index, b.row_offset,
                                           b.num_rows, b.col_offset,
                                           b.num_cols);
  }
};

struct PrecomputedLess {
  bool operator()(const PrecomputedInfo &a, const PrecomputedInfo &b) const {
    return std::tie(a.data, a.input_indexes, a.output_indexes) <
           std::tie(b.data, b.input_indexes, b.output_indexes);
  }
};

template <class T>
struct DefaultLess {
  bool operator()(const T &a, const T &b) const { return a < b; }
};

// Compares the elements that two pointers point to.
template <class T, class Less>
struct PointeeLess {
  bool operator()(const T *a, const T *b) const { return Less()(*a, *b); }
};

// Keeps the entries of *list that some *arg names (entries below
// num_reserved always, in place; args below num_reserved mean "none"),
// merges equal ones (by Less) into the first, and renumbers the args.
// Returns true if any number changed.
template <class T, class Less>
bool RenumberList(int32_t num_reserved, const std::vector<int32_t *> &args,
                  std::vector<T> *list) {
  const int32_t old_size = static_cast<int32_t>(list->size());
  NNET3_ASSERT(old_size >= num_reserved);
  std::vector<bool> used(old_size, false);
  for (int32_t *a : args)
    if (*a >= num_reserved) {
      NNET3_ASSERT(*a < old_size);
      used[*a] = true;
    }
  std::vector<int32_t> old_to_new(old_size, -1);
  std::vector<T> kept(list->begin(), list->begin() + num_reserved);
  // Keys point into *list, which stays unchanged until the swap below.
  std::map<const T *, int32_t, PointeeLess<T, Less>> seen;
  bool changed = false;
  for (int32_t i = 0; i < old_size; i++) {
    if (i < num_reserved) {
      old_to_new[i] = i;
      continue;
    }
    if (!used[i]) {
      changed = true;
      continue;
    }
    auto ins = seen.emplace(&(*list)[i], static_cast<int32_t>(kept.size()));
    if (ins.second) kept.push_back((*list)[i]);
    old_to_new[i] = ins.first->second;
    if (old_to_new[i] != i) changed = true;
  }
  for (int32_t *a : args)
    if (*a >= num_reserved) *a = old_to_new[*a];
  list->swap(kept);
  return changed;
}

// Args of the commands of the given types: arg number `which` (1-7).
void CollectArgs(NnetComputation *computation,
                 std::initializer_list<CommandType> types, int32_t which,
                 std::vector<int32_t *> *args) {
  for (Command &c : computation->commands) {
    bool match = false;
    for (CommandType t : types)
      if (c.command_type == t) match = true;
    if (!match) continue;
    int32_t *all[] = {&c.arg1, &c.arg2, &c.arg3, &c.arg4,
                      &c.arg5, &c.arg6, &c.arg7};
    args->push_back(all[which - 1]);
  }
}

bool RenumberIndexLists(NnetComputation *computation) {
  std::vector<int32_t *> args;
  CollectArgs(computation, {kCopyRows, kAddRows}, 3, &args);
  bool changed =
      RenumberList<std::vector<int32_t>, DefaultLess<std::vector<int32_t>>>(
          0, args, &computation->indexes);
  using PairList = std::vector<std::pair<int32_t, int32_t>>;
  args.clear();
  CollectArgs(
      computation,
      {kCopyRowsMulti, kCopyToRowsMulti, kAddRowsMulti, kAddToRowsMulti}, 2,
      &args);
  if (RenumberList<PairList, DefaultLess<PairList>>(
          0, args, &computation->indexes_multi))
    changed = true;
  args.clear();
  CollectArgs(computation, {kAddRowRanges}, 3, &args);
  if (RenumberList<PairList, DefaultLess<PairList>>(
          0, args, &computation->indexes_ranges))
    changed = true;
  args.clear();
  CollectArgs(computation, {kPropagate, kBackprop, kBackpropNoModelUpdate}, 2,
              &args);
  if (RenumberList<PrecomputedInfo, PrecomputedLess>(
          1, args, &computation->component_precomputed_indexes))
    changed = true;
  return changed;
}

// Removes matrices that no submatrix (beyond the reserved 0) lies in.
bool RenumberMatrices(NnetComputation *computation) {
  const int32_t num_matrices =
      static_cast<int32_t>(computation->matrices.size());
  const bool has_debug_info = !computation->matrix_debug_info.empty();
  if (has_debug_info)
    NNET3_ASSERT(static_cast<int32_t>(computation->matrix_debug_info.size()) ==
                 num_matrices);
  std::vector<int32_t> old_to_new(num_matrices, -1);
  old_to_new[0] = 0;
  for (size_t s = 1; s < computation->submatrices.size(); s++)
    old_to_new[computation->submatrices[s].matrix_index] = 1;
  int32_t num_new = 1;
  for (int32_t m = 1; m < num_matrices; m++)
    if (old_to_new[m] != -1) {
      old_to_new[m] = num_new;
      if (num_new != m) {
        computation->matrices[num_new] = computation->matrices[m];
        if (has_debug_info)
          computation->matrix_debug_info[num_new] =
              std::move(computation->matrix_debug_info[m]);
      }
      num_new++;
    }
  if (num_new == num_matrices) return false;
  computation->matrices.resize(num_new);
  if (has_debug_info) computation->matrix_debug_info.resize(num_new);
  for (size_t s = 1; s < computation->submatrices.size(); s++) {
    int32_t &m = computation->submatrices[s].matrix_index;
    m = old_to_new[m];
  }
  return true;
}

// Memo indexes 1, 2, ... in order of first appearance.
bool RenumberMemos(NnetComputation *computation) {
  std::vector<int32_t *> in_order;
  for (Command &c : computation->commands) {
    if (c.command_type == kPropagate && c.arg5 > 0) in_order.push_back(&c.arg5);
    if ((c.command_type == kBackprop ||
         c.command_type == kBackpropNoModelUpdate) &&
        c.arg7 > 0)
      in_order.push_back(&c.arg7);
  }
  std::map<int32_t, int32_t> old_to_new;
  bool changed = false;
  for (int32_t *a : in_order) {
    auto ins =
        old_to_new.emplace(*a, static_cast<int32_t>(old_to_new.size()) + 1);
    if (ins.first->second != *a) changed = true;
    *a = ins.first->second;
  }
  return changed;
}

}  // namespace

bool RenumberComputation(NnetComputation *computation) {
  // Index lists first: an unused indexes_multi list must not keep its
  // submatrices alive.
  bool changed = RenumberIndexLists(computation);
  std::vector<int32_t *> args;
  IdentifySubmatrixArgsInComputation(computation, &args);
  if (RenumberList<SubMatrixInfo, SubMatrixLess>(1, args,
                                                 &computation->submatrices))
    changed = true;
  if (RenumberMatrices(computation)) changed = true;
  if (RenumberMemos(computation)) changed = true;
  return changed;
}

}  // namespace nnet3
