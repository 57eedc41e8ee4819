#include "nnet/nnet-common.h"

#include <cstdint>
#include <cstdlib>
#include <sstream>

#include "base/error.h"
#include "base/io-funcs.h"

namespace nnet3 {

void Index::Write(std::ostream &os, bool binary) const {
  WriteToken(os, binary, "<I1>");
  WriteBasicType(os, binary, n);
  WriteBasicType(os, binary, t);
  WriteBasicType(os, binary, x);
}

void Index::Read(std::istream &is, bool binary) {
  ExpectToken(is, binary, "<I1>");
  ReadBasicType(is, binary, &n);
  ReadBasicType(is, binary, &t);
  ReadBasicType(is, binary, &x);
}

size_t IndexVectorHasher::operator()(
    const std::vector<Index> &v) const noexcept {
  size_t h = v.size();
  IndexHasher ih;
  // Hashing every element of long vectors is wasteful; a stride keeps the
  // cost bounded while still separating typical requests.
  size_t step = v.size() > 64 ? v.size() / 32 : 1;
  for (size_t i = 0; i < v.size(); i += step) h = h * 31 + ih(v[i]);
  return h;
}

namespace {

// Prints one run of consecutive t values with the same n and x.
void PrintRange(std::ostream &os, const Index &first, int32_t last_t) {
  os << "(" << first.n << ", ";
  if (first.t == kNoTime)
    os << "NA";
  else if (last_t == first.t)
    os << first.t;
  else
    os << first.t << ":" << last_t;
  if (first.x != 0) os << ", " << first.x;
  os << ")";
}

// Calls fn(begin, end) for maximal runs [begin, end) of `indexes` in which n
// and x are constant and t increases by one.
template <class F>
void ForEachRun(const std::vector<Index> &indexes, F fn) {
  size_t i = 0;
  while (i < indexes.size()) {
    size_t j = i + 1;
    while (j < indexes.size() && indexes[j].n == indexes[i].n &&
           indexes[j].x == indexes[i].x && indexes[i].t != kNoTime &&
           indexes[j].t == indexes[j - 1].t + 1)
      j++;
    fn(i, j);
    i = j;
  }
}

}  // namespace

void PrintIndexes(std::ostream &os, const std::vector<Index> &indexes) {
  os << "[";
  ForEachRun(indexes, [&](size_t b, size_t e) {
    os << " ";
    PrintRange(os, indexes[b], indexes[e - 1].t);
  });
  os << " ]";
}

std::string IndexesToString(const std::vector<Index> &indexes) {
  std::ostringstream os;
  PrintIndexes(os, indexes);
  return os.str();
}

namespace {

std::string NodeName(int32_t node, const std::vector<std::string> &names) {
  if (node >= 0 && node < static_cast<int32_t>(names.size()))
    return names[node];
  return "node" + std::to_string(node);
}

}  // namespace

std::string CindexToString(const Cindex &cindex,
                           const std::vector<std::string> &node_names) {
  std::ostringstream os;
  os << NodeName(cindex.first, node_names);
  PrintRange(os, cindex.second, cindex.second.t);
  return os.str();
}

void PrintCindexes(std::ostream &os, const std::vector<Cindex> &cindexes,
                   const std::vector<std::string> &node_names) {
  os << "[";
  size_t i = 0;
  while (i < cindexes.size()) {
    int32_t node = cindexes[i].first;
    std::vector<Index> run;
    for (; i < cindexes.size() && cindexes[i].first == node; i++)
      run.push_back(cindexes[i].second);
    ForEachRun(run, [&](size_t b, size_t e) {
      os << " " << NodeName(node, node_names);
      PrintRange(os, run[b], run[e - 1].t);
    });
  }
  os << " ]";
}

namespace {

void WriteIndexFull(std::ostream &os, const Index &index) {
  os.put(127);
  WriteBasicType(os, true, index.n);
  WriteBasicType(os, true, index.t);
  WriteBasicType(os, true, index.x);
}

}  // namespace

void WriteIndexVector(std::ostream &os, bool binary,
                      const std::vector<Index> &vec) {
  WriteToken(os, binary, "<I1V>");
  int32_t size = static_cast<int32_t>(vec.size());
  WriteBasicType(os, binary, size);
  if (!binary) {
    for (const Index &index : vec) index.Write(os, binary);
    return;
  }
  for (int32_t i = 0; i < size; i++) {
    const Index &index = vec[i];
    // The first element is coded against (0, 0, 0).
    Index prev = i == 0 ? Index(0, 0, 0) : vec[i - 1];
    int64_t dt = static_cast<int64_t>(index.t) - prev.t;
    if (index.n == prev.n && index.x == prev.x && std::llabs(dt) < 125)
      os.put(static_cast<char>(static_cast<signed char>(dt)));
    else
      WriteIndexFull(os, index);
  }
}

void ReadIndexVector(std::istream &is, bool binary, std::vector<Index> *vec) {
  ExpectToken(is, binary, "<I1V>");
  int32_t size;
  ReadBasicType(is, binary, &size);
  if (size < 0 || size > (1 << 28))
    NNET3_ERR << "Bad size " << size << " of an index vector (<I1V>)";
  // Each element takes at least a byte: grow only as elements arrive.
  vec->clear();
  vec->reserve(CheckCountFits(is, size, 1, "The size of an index vector"));
  if (!binary) {
    for (int32_t i = 0; i < size; i++) {
      vec->emplace_back();
      vec->back().Read(is, binary);
    }
    return;
  }
  for (int32_t i = 0; i < size; i++) {
    int c = is.get();
    if (c == EOF)
      NNET3_ERR << "Truncated index vector (<I1V>) at element " << i;
    signed char code = static_cast<signed char>(c);
    vec->emplace_back();
    Index &index = vec->back();
    if (code == 127) {
      ReadBasicType(is, true, &index.n);
      ReadBasicType(is, true, &index.t);
      ReadBasicType(is, true, &index.x);
    } else if (std::abs(code) < 125) {
      Index prev = i == 0 ? Index(0, 0, 0) : (*vec)[i - 1];
      const int64_t t = int64_t(prev.t) + code;
      if (t < INT32_MIN || t > INT32_MAX)
        NNET3_ERR << "Bad index vector (<I1V>): element " << i << " steps t "
                  << "from " << prev.t << " by " << int(code)
                  << ", beyond a 32-bit integer (corrupted data?)";
      index = Index(prev.n, static_cast<int32_t>(t), prev.x);
    } else {
      NNET3_ERR << "Bad code " << int(code) << " in index vector (<I1V>) at "
                << "element " << i << " (corrupted data?)";
    }
  }
}

}  // namespace nnet3
