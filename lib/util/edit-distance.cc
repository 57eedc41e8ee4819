#include "util/edit-distance.h"

#include <algorithm>

#include "base/error.h"

namespace nnet3 {
namespace {

// The best way found so far to align the hypothesis prefix with one
// reference prefix.
struct Cell {
  EditCounts counts;
  int32_t cost = 0;
};

}  // namespace

int32_t LevenshteinEditDistance(const std::vector<std::string> &ref,
                                const std::vector<std::string> &hyp,
                                EditCounts *counts) {
  // prev[r]: hypothesis prefix so far against ref[0, r).
  std::vector<Cell> prev(ref.size() + 1), cur(ref.size() + 1);
  for (size_t r = 0; r <= ref.size(); ++r) {
    prev[r].counts.del = static_cast<int32_t>(r);
    prev[r].cost = static_cast<int32_t>(r);
  }
  for (size_t h = 1; h <= hyp.size(); ++h) {
    cur[0] = prev[0];
    ++cur[0].counts.ins;
    ++cur[0].cost;
    for (size_t r = 1; r <= ref.size(); ++r) {
      const bool same = hyp[h - 1] == ref[r - 1];
      const int32_t ins = prev[r].cost + 1, del = cur[r - 1].cost + 1,
                    sub = prev[r - 1].cost + (same ? 0 : 1);
      if (sub < ins && sub < del) {
        cur[r] = prev[r - 1];
        if (!same) ++cur[r].counts.sub;
        cur[r].cost = sub;
      } else if (del < ins) {
        cur[r] = cur[r - 1];
        ++cur[r].counts.del;
        cur[r].cost = del;
      } else {
        cur[r] = prev[r];
        ++cur[r].counts.ins;
        cur[r].cost = ins;
      }
    }
    std::swap(prev, cur);
  }
  *counts = prev.back().counts;
  return prev.back().cost;
}

int32_t LevenshteinAlignment(
    const std::vector<std::string> &ref, const std::vector<std::string> &hyp,
    const std::string &eps,
    std::vector<std::pair<std::string, std::string>> *alignment) {
  for (const std::vector<std::string> *words : {&ref, &hyp})
    if (std::find(words->begin(), words->end(), eps) != words->end())
      NNET3_ERR << "A sentence to align contains the symbol '" << eps
                << "' that stands for a missing word";
  const size_t m_size = ref.size(), n_size = hyp.size();
  // e[m][n]: distance between ref[0, m) and hyp[0, n).
  std::vector<std::vector<int32_t>> e(m_size + 1,
                                      std::vector<int32_t>(n_size + 1));
  for (size_t n = 0; n <= n_size; ++n) e[0][n] = static_cast<int32_t>(n);
  auto costs = [&](size_t m, size_t n, int32_t *sub, int32_t *del,
                   int32_t *ins) {
    *sub = e[m - 1][n - 1] + (ref[m - 1] == hyp[n - 1] ? 0 : 1);
    *del = e[m - 1][n] + 1;
    *ins = e[m][n - 1] + 1;
  };
  for (size_t m = 1; m <= m_size; ++m) {
    e[m][0] = e[m - 1][0] + 1;
    for (size_t n = 1; n <= n_size; ++n) {
      int32_t sub, del, ins;
      costs(m, n, &sub, &del, &ins);
      e[m][n] = std::min(sub, std::min(del, ins));
    }
  }
  alignment->clear();
  size_t m = m_size, n = n_size;
  while (m != 0 || n != 0) {
    bool take_ref = m != 0, take_hyp = n != 0;
    if (m != 0 && n != 0) {
      int32_t sub, del, ins;
      costs(m, n, &sub, &del, &ins);
      take_ref = sub <= std::min(del, ins) || del <= ins;
      take_hyp = sub <= std::min(del, ins) || del > ins;
    }
    alignment->emplace_back(take_ref ? ref[m - 1] : eps,
                            take_hyp ? hyp[n - 1] : eps);
    if (take_ref) --m;
    if (take_hyp) --n;
  }
  std::reverse(alignment->begin(), alignment->end());
  return e[m_size][n_size];
}

}  // namespace nnet3
