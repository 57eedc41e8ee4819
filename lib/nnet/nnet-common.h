// Index and Cindex: the names of matrix rows in nnet3.
//
// An Index (n, t, x) names one row of a quantity: n is the sequence within
// the minibatch, t the time, x an extra index (usually 0). A Cindex is
// (node-index, Index): one row of one network node. Indexes sort by t, then
// x, then n (Kaldi's order; IndexLessNxt sorts by n, x, t).
//
//   std::vector<Index> v = ...;
//   PrintIndexes(std::cout, v);          // "[ (0, -1:1) (1, -1:1) ]"
//   WriteIndexVector(os, binary, v);     // <I1V> with compact binary codes
//   ReadIndexVector(is, binary, &v);
//
// The binary vector encoding (reference 6.2) stores most elements in one
// byte: the t offset from the previous element when n and x are unchanged.
#ifndef NNET3_NNET_NNET_COMMON_H_
#define NNET3_NNET_NNET_COMMON_H_

#include <cstdint>
#include <functional>
#include <istream>
#include <limits>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace nnet3 {

// A t value that stands for "no time": a blank row inserted by
// ReorderIndexes in non-simple components.
constexpr int32_t kNoTime = std::numeric_limits<int32_t>::min();

struct Index {
  int32_t n = 0;
  int32_t t = 0;
  int32_t x = 0;
  Index() = default;
  Index(int32_t n_in, int32_t t_in, int32_t x_in = 0)
      : n(n_in), t(t_in), x(x_in) {}
  bool operator==(const Index &o) const {
    return n == o.n && t == o.t && x == o.x;
  }
  bool operator!=(const Index &o) const { return !(*this == o); }
  // By t, then x, then n.
  bool operator<(const Index &o) const {
    if (t != o.t) return t < o.t;
    if (x != o.x) return x < o.x;
    return n < o.n;
  }
  Index operator+(const Index &o) const {
    return Index(n + o.n, t + o.t, x + o.x);
  }
  Index &operator+=(const Index &o) {
    n += o.n;
    t += o.t;
    x += o.x;
    return *this;
  }
  // "<I1> n t x " in either mode.
  void Write(std::ostream &os, bool binary) const;
  void Read(std::istream &is, bool binary);
};

// Sorts by n, then x, then t.
struct IndexLessNxt {
  bool operator()(const Index &a, const Index &b) const {
    if (a.n != b.n) return a.n < b.n;
    if (a.x != b.x) return a.x < b.x;
    return a.t < b.t;
  }
};

struct IndexHasher {
  size_t operator()(const Index &i) const noexcept {
    return static_cast<size_t>(i.n) * 1619u + static_cast<size_t>(i.t) * 15649u +
           static_cast<size_t>(i.x) * 89809u;
  }
};

using Cindex = std::pair<int32_t, Index>;

struct CindexHasher {
  size_t operator()(const Cindex &c) const noexcept {
    return IndexHasher()(c.second) + static_cast<size_t>(c.first) * 1000003u;
  }
};

struct IndexVectorHasher {
  size_t operator()(const std::vector<Index> &v) const noexcept;
};

// "[ (0, -1:1) (1, -1:1) ]": consecutive t for the same n and x collapse into
// a range; x is shown only when non-zero; kNoTime prints as "NA".
void PrintIndexes(std::ostream &os, const std::vector<Index> &indexes);
std::string IndexesToString(const std::vector<Index> &indexes);
// "node(0, 1)" style, with node names: "[ affine1(0, -1:1) input(0, 2) ]".
void PrintCindexes(std::ostream &os, const std::vector<Cindex> &cindexes,
                   const std::vector<std::string> &node_names);
std::string CindexToString(const Cindex &cindex,
                           const std::vector<std::string> &node_names);

// Kaldi's <I1V> encoding (reference 6.2).
void WriteIndexVector(std::ostream &os, bool binary,
                      const std::vector<Index> &vec);
void ReadIndexVector(std::istream &is, bool binary, std::vector<Index> *vec);

}  // namespace nnet3

#endif  // NNET3_NNET_NNET_COMMON_H_
