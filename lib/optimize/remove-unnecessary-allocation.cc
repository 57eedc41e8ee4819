#include "optimize/remove-unnecessary-allocation.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

#include "base/error.h"
#include "optimize/computation-edit.h"

namespace nnet3 {

namespace {

// Bytes held after each command runs, as GetMaxMemoryUse counts them.
std::vector<int64_t> MemoryProfile(const NnetComputation &computation) {
  std::vector<int64_t> held(computation.matrices.size(), 0), profile;
  int64_t current = 0;
  for (const NnetComputation::Command &c : computation.commands) {
    bool whole = c.arg1 > 0 && computation.IsWholeMatrix(c.arg1);
    int32_t m = whole ? computation.submatrices[c.arg1].matrix_index : 0;
    const NnetComputation::MatrixInfo &info = computation.matrices[m];
    int64_t full = 4 * int64_t(info.num_rows) * info.num_cols;
    auto set_held = [&](int64_t bytes) {
      current += bytes - held[m];
      held[m] = bytes;
    };
    if (whole) {
      switch (c.command_type) {
        case kAllocMatrix:
        case kAcceptInput:
        case kDecompressMatrix:
          set_held(full);
          break;
        case kDeallocMatrix:
          set_held(0);
          break;
        case kSwapMatrix:
          if (c.arg2 > 0 && computation.IsWholeMatrix(c.arg2))
            std::swap(held[m],
                      held[computation.submatrices[c.arg2].matrix_index]);
          break;
        case kCompressMatrix:
          set_held((c.arg2 <= 2 ? 1 : 2) * int64_t(info.num_rows) *
                   info.num_cols);
          break;
        default:
          break;
      }
    }
    profile.push_back(current);
  }
  return profile;
}

// Matrices of the same rows, columns and stride type can share memory.
using SizeClass = std::tuple<int32_t, int32_t, int32_t>;

SizeClass SizeOf(const NnetComputation &computation, int32_t s) {
  const NnetComputation::MatrixInfo &info =
      computation.matrices[computation.submatrices[s].matrix_index];
  return SizeClass(info.num_rows, info.num_cols,
                   static_cast<int32_t>(info.stride_type));
}

}  // namespace

bool RemoveUnnecessaryAllocation(const Nnet &nnet,
                                 NnetComputation *computation) {
  (void)nnet;
  if (IsLoopedComputation(*computation)) return false;
  // Deallocation and allocation commands of each size class, in order.
  std::map<SizeClass, std::pair<std::vector<int32_t>, std::set<int32_t>>> lists;
  const int32_t num_commands =
      static_cast<int32_t>(computation->commands.size());
  for (int32_t c = 0; c < num_commands; c++) {
    const NnetComputation::Command &command = computation->commands[c];
    if (command.command_type == kDeallocMatrix)
      lists[SizeOf(*computation, command.arg1)].first.push_back(c);
    else if (command.command_type == kAllocMatrix)
      lists[SizeOf(*computation, command.arg1)].second.insert(c);
  }
  std::vector<int64_t> profile = MemoryProfile(*computation);
  const int64_t peak =
      profile.empty() ? 0 : *std::max_element(profile.begin(), profile.end());
  bool changed = false;
  for (auto &entry : lists) {
    const int64_t bytes =
        4 * int64_t(std::get<0>(entry.first)) * std::get<1>(entry.first);
    std::vector<int32_t> &deallocs = entry.second.first;
    std::set<int32_t> &allocs = entry.second.second;
    // From the latest deallocation back, pair each with the first free
    // allocation after it, as Kaldi does; keeping the freed memory until the
    // allocation must not raise the peak.
    for (auto d = deallocs.rbegin(); d != deallocs.rend(); ++d) {
      auto a = allocs.upper_bound(*d);
      if (a == allocs.end()) continue;
      int64_t highest =
          *std::max_element(profile.begin() + *d, profile.begin() + *a);
      if (highest + bytes > peak) continue;
      for (int32_t c = *d; c < *a; c++) profile[c] += bytes;
      NnetComputation::Command &dealloc = computation->commands[*d],
                               &alloc = computation->commands[*a];
      alloc.command_type = kSwapMatrix;
      alloc.arg2 = dealloc.arg1;
      dealloc.command_type = kNoOperation;
      allocs.erase(a);
      changed = true;
    }
  }
  if (changed) RemoveNoOps(computation);
  return changed;
}

}  // namespace nnet3
