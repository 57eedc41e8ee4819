#include "compile/compile-utils.h"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "base/error.h"

namespace nnet3 {

namespace {

const SubmatLocation kNoLocation(-1, -1);

struct PairHasher {
  size_t operator()(const SubmatLocation &p) const noexcept {
    return static_cast<size_t>(p.first) * 7853u + static_cast<size_t>(p.second);
  }
};

// For each submatrix: the rows it occurs in, with how many times.
using RowCounts = std::vector<std::pair<int32_t, int32_t>>;

void CountSubmatrices(const std::vector<std::vector<SubmatLocation>> &lists,
                      std::map<int32_t, RowCounts> *counts) {
  std::vector<int32_t> subs;
  for (size_t r = 0; r < lists.size(); r++) {
    subs.clear();
    for (const SubmatLocation &loc : lists[r])
      if (loc.first != -1) subs.push_back(loc.first);
    std::sort(subs.begin(), subs.end());
    for (size_t i = 0, j; i < subs.size(); i = j) {
      for (j = i + 1; j < subs.size() && subs[j] == subs[i]; j++) {
      }
      (*counts)[subs[i]].emplace_back(static_cast<int32_t>(r),
                                      static_cast<int32_t>(j - i));
    }
  }
}

// Chooses the submatrices that get vectors of their own: greedily, those
// in the most rows first, as long as the total number of vectors (their
// own plus the shared ones needed for the rest) does not grow.
void ChooseDedicated(const std::vector<std::vector<SubmatLocation>> &lists,
                     const std::map<int32_t, RowCounts> &counts,
                     std::vector<std::pair<int32_t, int32_t>> *dedicated) {
  std::vector<std::pair<int32_t, int32_t>> order;  // (-rows, submatrix)
  for (const auto &entry : counts)
    order.emplace_back(-static_cast<int32_t>(entry.second.size()), entry.first);
  std::sort(order.begin(), order.end());
  size_t max_len = 0;
  std::vector<int32_t> remaining(lists.size());
  for (size_t r = 0; r < lists.size(); r++) {
    remaining[r] = static_cast<int32_t>(lists[r].size());
    max_len = std::max(max_len, lists[r].size());
  }
  // histogram[k]: how many rows have k locations not yet dedicated.
  std::vector<int32_t> histogram(max_len + 1, 0);
  for (int32_t n : remaining) histogram[n]++;
  auto max_remaining = [&histogram]() {
    int32_t k = static_cast<int32_t>(histogram.size()) - 1;
    while (k > 0 && histogram[k] == 0) k--;
    return k;
  };
  int32_t num_dedicated = 0;
  int32_t total = static_cast<int32_t>(max_len);
  for (const auto &o : order) {
    const RowCounts &rows = counts.at(o.second);
    int32_t multiplicity = 0;
    for (const auto &rc : rows) {
      multiplicity = std::max(multiplicity, rc.second);
      histogram[remaining[rc.first]]--;
      remaining[rc.first] -= rc.second;
      histogram[remaining[rc.first]]++;
    }
    int32_t new_total = num_dedicated + multiplicity + max_remaining();
    if (new_total <= total) {
      total = new_total;
      num_dedicated += multiplicity;
      dedicated->emplace_back(o.second, multiplicity);
    } else {  // undo
      for (const auto &rc : rows) {
        histogram[remaining[rc.first]]--;
        remaining[rc.first] += rc.second;
        histogram[remaining[rc.first]]++;
      }
    }
  }
}

}  // namespace

void SplitLocations(
    const std::vector<std::vector<SubmatLocation>> &submat_lists,
    std::vector<std::vector<SubmatLocation>> *split_lists) {
  split_lists->clear();
  const size_t num_rows = submat_lists.size();
  std::map<int32_t, RowCounts> counts;
  CountSubmatrices(submat_lists, &counts);
  if (counts.empty()) return;
  std::vector<std::pair<int32_t, int32_t>> dedicated;  // (submatrix, count)
  ChooseDedicated(submat_lists, counts, &dedicated);
  // (submatrix, its first vector), sorted by submatrix: a few entries, so
  // a sorted vector rather than a map.
  std::vector<std::pair<int32_t, int32_t>> first_vector;
  for (const auto &d : dedicated) {
    first_vector.emplace_back(d.first,
                              static_cast<int32_t>(split_lists->size()));
    split_lists->resize(split_lists->size() + d.second,
                        std::vector<SubmatLocation>(num_rows, kNoLocation));
  }
  std::sort(first_vector.begin(), first_vector.end());
  const size_t num_dedicated_vectors = split_lists->size();
  // Per row: how many vectors of each dedicated submatrix (by its position
  // in first_vector) the row has used; reset through `touched`.
  std::vector<int32_t> used(first_vector.size(), 0);
  std::vector<size_t> touched;
  for (size_t r = 0; r < num_rows; r++) {
    for (size_t i : touched) used[i] = 0;
    touched.clear();
    size_t shared = num_dedicated_vectors;
    for (const SubmatLocation &loc : submat_lists[r]) {
      if (loc.first == -1) continue;
      auto it = std::lower_bound(
          first_vector.begin(), first_vector.end(), loc.first,
          [](const std::pair<int32_t, int32_t> &e, int32_t submatrix) {
            return e.first < submatrix;
          });
      size_t v;
      if (it != first_vector.end() && it->first == loc.first) {
        const size_t i = static_cast<size_t>(it - first_vector.begin());
        if (used[i] == 0) touched.push_back(i);
        v = it->second + used[i]++;
      } else {
        v = shared++;
        if (v >= split_lists->size())
          split_lists->emplace_back(num_rows, kNoLocation);
      }
      (*split_lists)[v][r] = loc;
    }
  }
}

bool ConvertToIndexes(const std::vector<SubmatLocation> &location_vector,
                      int32_t *first_value,
                      std::vector<int32_t> *second_values) {
  *first_value = -1;
  second_values->clear();
  second_values->reserve(location_vector.size());
  for (const SubmatLocation &loc : location_vector) {
    if (loc.first == -1) {
      second_values->push_back(-1);
      continue;
    }
    if (*first_value == -1) *first_value = loc.first;
    if (loc.first != *first_value) return false;
    second_values->push_back(loc.second);
  }
  return true;
}

bool HasContiguousProperty(
    const std::vector<int32_t> &indexes,
    std::vector<std::pair<int32_t, int32_t>> *reverse_indexes) {
  reverse_indexes->clear();
  int32_t max_value = -1;
  for (int32_t i : indexes) max_value = std::max(max_value, i);
  if (max_value < 0) return true;
  reverse_indexes->assign(max_value + 1, std::pair<int32_t, int32_t>(-1, -1));
  const int32_t size = static_cast<int32_t>(indexes.size());
  for (int32_t i = 0; i < size; i++) {
    int32_t v = indexes[i];
    if (v < 0) continue;
    auto &range = (*reverse_indexes)[v];
    if (range.first == -1) {
      range = {i, i + 1};
    } else {
      if (range.second != i) return false;  // a gap: not one run
      range.second = i + 1;
    }
  }
  return true;
}

void EnsureContiguousProperty(const std::vector<int32_t> &indexes,
                              std::vector<std::vector<int32_t>> *indexes_out) {
  indexes_out->clear();
  int32_t max_value = -1;
  for (int32_t i : indexes) max_value = std::max(max_value, i);
  if (max_value < 0) return;
  // The k-th run of a value goes to output vector k.
  std::vector<int32_t> runs_seen(max_value + 1, 0);
  const size_t size = indexes.size();
  for (size_t i = 0; i < size;) {
    int32_t value = indexes[i];
    if (value < 0) {
      i++;
      continue;
    }
    size_t start = i;
    while (i < size && indexes[i] == value) i++;
    size_t k = static_cast<size_t>(runs_seen[value]++);
    if (k >= indexes_out->size()) indexes_out->emplace_back(size, -1);
    std::fill((*indexes_out)[k].begin() + start, (*indexes_out)[k].begin() + i,
              value);
  }
}

void SplitPairList(const std::vector<SubmatLocation> &list,
                   std::vector<std::vector<SubmatLocation>> *split_lists) {
  split_lists->clear();
  std::unordered_map<SubmatLocation, int32_t, PairHasher> seen;
  for (size_t i = 0; i < list.size(); i++) {
    if (list[i].first == -1) continue;
    size_t k = static_cast<size_t>(seen[list[i]]++);
    if (k >= split_lists->size())
      split_lists->emplace_back(list.size(), kNoLocation);
    (*split_lists)[k][i] = list[i];
  }
}

void SplitLocationsBackward(
    const std::vector<std::vector<SubmatLocation>> &submat_lists,
    std::vector<std::vector<SubmatLocation>> *split_lists) {
  split_lists->clear();
  std::vector<std::vector<SubmatLocation>> intermediate;
  SplitLocations(submat_lists, &intermediate);
  for (const std::vector<SubmatLocation> &list : intermediate) {
    int32_t submatrix;
    std::vector<int32_t> rows;
    if (ConvertToIndexes(list, &submatrix, &rows)) {
      if (submatrix == -1) continue;
      std::vector<std::vector<int32_t>> pieces;
      EnsureContiguousProperty(rows, &pieces);
      if (pieces.size() == 1) {
        split_lists->push_back(list);
        continue;
      }
      for (const std::vector<int32_t> &piece : pieces) {
        split_lists->emplace_back(piece.size(), kNoLocation);
        for (size_t k = 0; k < piece.size(); k++)
          if (piece[k] != -1) split_lists->back()[k] = {submatrix, piece[k]};
      }
    } else {
      std::vector<std::vector<SubmatLocation>> pieces;
      SplitPairList(list, &pieces);
      split_lists->insert(split_lists->end(), pieces.begin(), pieces.end());
    }
  }
}

}  // namespace nnet3
