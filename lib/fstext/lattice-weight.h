// Kaldi's lattice semirings, as OpenFst weight types.
//
// LatticeWeightTpl<F> is a pair of costs (negated log-probabilities): Value1,
// the graph cost (language model, pronunciation, transition probabilities),
// and Value2, the acoustic cost. It behaves as the tropical semiring on the
// sum of the two while keeping them apart:
//   Times(a, b) = (a1 + b1, a2 + b2)          One()  = (0, 0)
//   Plus(a, b)  = the one with the smaller a1 + a2; on a tie, the one with
//                 the smaller a1                Zero() = (inf, inf)
// so it is a commutative, idempotent path semiring ("lattice4" for float,
// "lattice8" for double).
//
// CompactLatticeWeightTpl<W, I> is a W plus a string of I (the
// transition-ids of the frames an arc of a compact lattice covers):
//   Times = Times of the weights, strings concatenated (Zero if the weight
//           is zero, so that Zero is unique)
//   Plus  = the larger by Compare: the better weight; on equal weights the
//           shorter string, then the lexicographically larger string
// Type "compactlattice44" for <LatticeWeightTpl<float>, int32_t>. Left and
// right division remove a prefix or suffix of the string.
//
//   LatticeWeightTpl<float> w(1.5, 2.0);  // graph cost 1.5, acoustic 2.0
//   os << w;                              // "1.5,2"
//   CompactLatticeWeightTpl<LatticeWeightTpl<float>, int32_t> cw(w, {3, 4});
//   os << cw;                             // "1.5,2,3_4"
//
// Text form (Kaldi's, used in lattice archives): costs printed with the
// stream's precision as "Infinity", "-Infinity", "BadNumber" (NaN) or the
// number; weight and string separated by ',', string elements by '_'.
// Binary form (inside OpenFst's VectorFst files): the two costs as raw T,
// then (compact) an int32 length and the raw elements.
//
// The types live in namespace nnet3, where argument-dependent lookup finds
// Plus, Times, Divide, Compare and the stream operators from OpenFst's
// templates; only the NaturalLess specialisations are in namespace fst.
#ifndef NNET3_FSTEXT_LATTICE_WEIGHT_H_
#define NNET3_FSTEXT_LATTICE_WEIGHT_H_

#include <fst/float-weight.h>
#include <fst/util.h>
#include <fst/weight.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <istream>
#include <limits>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "base/error.h"
#include "base/log.h"

namespace nnet3 {

// Writes a cost as Kaldi's weights print it: "Infinity", "-Infinity",
// "BadNumber" for NaN, else the number at the stream's precision.
void WriteLatticeCost(std::ostream &os, double cost);

// Parses one cost written by WriteLatticeCost (or any number strtod takes).
// Returns false if the token has characters after the number. An empty
// token reads as 0, as in Kaldi.
bool ParseLatticeCost(const std::string &token, double *cost);

template <class FloatType>
class LatticeWeightTpl {
 public:
  using T = FloatType;
  using ReverseWeight = LatticeWeightTpl;

  LatticeWeightTpl() : value1_(0), value2_(0) {}
  LatticeWeightTpl(T graph_cost, T acoustic_cost)
      : value1_(graph_cost), value2_(acoustic_cost) {}

  T Value1() const { return value1_; }
  T Value2() const { return value2_; }
  void SetValue1(T f) { value1_ = f; }
  void SetValue2(T f) { value2_ = f; }

  static const LatticeWeightTpl Zero() { return LatticeWeightTpl(kInf, kInf); }
  static const LatticeWeightTpl One() { return LatticeWeightTpl(0, 0); }
  static const LatticeWeightTpl NoWeight() {
    const T nan = std::numeric_limits<T>::quiet_NaN();
    return LatticeWeightTpl(nan, nan);
  }
  static const std::string &Type() {
    static const std::string type = sizeof(T) == 4 ? "lattice4" : "lattice8";
    return type;
  }
  static constexpr uint64_t Properties() {
    return fst::kLeftSemiring | fst::kRightSemiring | fst::kCommutative |
           fst::kPath | fst::kIdempotent;
  }

  // No NaN, no -inf, and +inf only as Zero (both costs), so that the
  // semiring has one zero.
  bool Member() const {
    if (value1_ != value1_ || value2_ != value2_) return false;
    if (value1_ == -kInf || value2_ == -kInf) return false;
    if (value1_ == kInf || value2_ == kInf)
      return value1_ == kInf && value2_ == kInf;
    return true;
  }

  // Rounds each cost to a multiple of delta; an infinite or NaN sum gives
  // that sum in both costs.
  LatticeWeightTpl Quantize(float delta = fst::kDelta) const {
    const T sum = value1_ + value2_;
    if (sum == kInf || sum == -kInf || sum != sum)
      return LatticeWeightTpl(sum, sum);
    return LatticeWeightTpl(std::floor(value1_ / delta + 0.5F) * delta,
                            std::floor(value2_ / delta + 0.5F) * delta);
  }

  LatticeWeightTpl Reverse() const { return *this; }

  // OpenFst's binary form: the two costs as raw T.
  std::istream &Read(std::istream &is) {
    fst::ReadType(is, &value1_);
    fst::ReadType(is, &value2_);
    return is;
  }
  std::ostream &Write(std::ostream &os) const {
    fst::WriteType(os, value1_);
    fst::WriteType(os, value2_);
    return os;
  }

  size_t Hash() const {
    std::hash<T> hash;
    return hash(value1_) * 7853 + hash(value2_);
  }

 private:
  static constexpr T kInf = std::numeric_limits<T>::infinity();
  T value1_;
  T value2_;
};

template <class F>
inline bool operator==(const LatticeWeightTpl<F> &a,
                       const LatticeWeightTpl<F> &b) {
  // volatile keeps x87-style excess precision out of the comparison.
  volatile F a1 = a.Value1(), a2 = a.Value2(), b1 = b.Value1(), b2 = b.Value2();
  return a1 == b1 && a2 == b2;
}

template <class F>
inline bool operator!=(const LatticeWeightTpl<F> &a,
                       const LatticeWeightTpl<F> &b) {
  return !(a == b);
}

// +1 if a is better (smaller total cost, or equal total and smaller graph
// cost), -1 if worse, 0 if equal. Plus picks the better.
template <class F>
inline int Compare(const LatticeWeightTpl<F> &a, const LatticeWeightTpl<F> &b) {
  const F sum_a = a.Value1() + a.Value2(), sum_b = b.Value1() + b.Value2();
  if (sum_a < sum_b) return 1;
  if (sum_a > sum_b) return -1;
  if (a.Value1() < b.Value1()) return 1;
  if (a.Value1() > b.Value1()) return -1;
  return 0;
}

// The same order for the tropical semiring, so that code written over
// Compare works with TropicalWeight too.
inline int Compare(const fst::TropicalWeight &a, const fst::TropicalWeight &b) {
  if (a.Value() == b.Value()) return 0;
  return a.Value() < b.Value() ? 1 : -1;
}

template <class F>
inline LatticeWeightTpl<F> Plus(const LatticeWeightTpl<F> &a,
                                const LatticeWeightTpl<F> &b) {
  return Compare(a, b) >= 0 ? a : b;
}

template <class F>
inline LatticeWeightTpl<F> Times(const LatticeWeightTpl<F> &a,
                                 const LatticeWeightTpl<F> &b) {
  return LatticeWeightTpl<F>(a.Value1() + b.Value1(), a.Value2() + b.Value2());
}

// a / b (the semiring is commutative, so the side does not matter). A
// result that is not a member (NaN, -inf: dividing by zero) is Zero with a
// warning; one infinite cost makes Zero.
template <class F>
inline LatticeWeightTpl<F> Divide(const LatticeWeightTpl<F> &a,
                                  const LatticeWeightTpl<F> &b,
                                  fst::DivideType = fst::DIVIDE_ANY) {
  const F inf = std::numeric_limits<F>::infinity();
  const F v1 = a.Value1() - b.Value1(), v2 = a.Value2() - b.Value2();
  if (v1 != v1 || v2 != v2 || v1 == -inf || v2 == -inf) {
    NNET3_WARN << "LatticeWeight division gave NaN or -inf (dividing by "
                  "zero?); returning zero";
    return LatticeWeightTpl<F>::Zero();
  }
  if (v1 == inf || v2 == inf) return LatticeWeightTpl<F>::Zero();
  return LatticeWeightTpl<F>(v1, v2);
}

// Equal, or total costs within delta.
template <class F>
inline bool ApproxEqual(const LatticeWeightTpl<F> &a,
                        const LatticeWeightTpl<F> &b,
                        float delta = fst::kDelta) {
  if (a.Value1() == b.Value1() && a.Value2() == b.Value2()) return true;
  return std::fabs((a.Value1() + a.Value2()) - (b.Value1() + b.Value2())) <=
         delta;
}

template <class F>
inline std::ostream &operator<<(std::ostream &os,
                                const LatticeWeightTpl<F> &w) {
  WriteLatticeCost(os, w.Value1());
  os << ',';
  WriteLatticeCost(os, w.Value2());
  return os;
}

// Reads "graph,acoustic": skips white space, takes everything up to ',' as
// the first cost and the next white-space-delimited token as the second.
// Sets failbit on a malformed cost or a missing ','.
template <class F>
inline std::istream &operator>>(std::istream &is, LatticeWeightTpl<F> &w) {
  int c;
  do {
    c = is.get();
  } while (c != EOF && std::isspace(c));
  std::string first;
  while (c != ',') {
    if (c == EOF) {
      is.setstate(std::ios::failbit);
      return is;
    }
    first += static_cast<char>(c);
    c = is.get();
  }
  // The first cost is the first token of what came before the ','.
  std::string first_token, second_token;
  size_t begin = first.find_first_not_of(" \t\n\r\f\v");
  if (begin != std::string::npos)
    first_token =
        first.substr(begin, first.find_first_of(" \t\n\r\f\v", begin) - begin);
  is >> second_token;
  double v1 = 0, v2 = 0;
  if (!ParseLatticeCost(first_token, &v1) ||
      !ParseLatticeCost(second_token, &v2)) {
    is.setstate(std::ios::failbit);
  }
  w = LatticeWeightTpl<F>(static_cast<F>(v1), static_cast<F>(v2));
  return is;
}

// Multiplies the cost pair (graph, acoustic), as a column vector, by the
// 2x2 matrix scale (Kaldi's lattice scaling). Zero stays Zero.
template <class F, class ScaleF>
inline LatticeWeightTpl<F> ScaleTupleWeight(
    const LatticeWeightTpl<F> &w,
    const std::vector<std::vector<ScaleF>> &scale) {
  if (w.Value1() == std::numeric_limits<F>::infinity())
    return LatticeWeightTpl<F>::Zero();
  return LatticeWeightTpl<F>(
      scale[0][0] * w.Value1() + scale[0][1] * w.Value2(),
      scale[1][0] * w.Value1() + scale[1][1] * w.Value2());
}

template <class WeightType, class IntType>
class CompactLatticeWeightTpl {
 public:
  using W = WeightType;
  using ReverseWeight = CompactLatticeWeightTpl;

  CompactLatticeWeightTpl() = default;
  CompactLatticeWeightTpl(const W &w, const std::vector<IntType> &s)
      : weight_(w), string_(s) {}

  const W &Weight() const { return weight_; }
  const std::vector<IntType> &String() const { return string_; }
  void SetWeight(const W &w) { weight_ = w; }
  void SetString(const std::vector<IntType> &s) { string_ = s; }

  static const CompactLatticeWeightTpl Zero() {
    return CompactLatticeWeightTpl(W::Zero(), {});
  }
  static const CompactLatticeWeightTpl One() {
    return CompactLatticeWeightTpl(W::One(), {});
  }
  static const CompactLatticeWeightTpl NoWeight() {
    return CompactLatticeWeightTpl(W::NoWeight(), {});
  }
  // "compact" + the weight's type + the size of IntType in bytes.
  static const std::string &Type() {
    static const std::string type =
        "compact" + W::Type() + std::to_string(sizeof(IntType));
    return type;
  }
  static constexpr uint64_t Properties() {
    return fst::kLeftSemiring | fst::kRightSemiring | fst::kPath |
           fst::kIdempotent;
  }

  // A zero weight must carry an empty string (one zero in the semiring).
  bool Member() const {
    if (!weight_.Member()) return false;
    return weight_ != W::Zero() || string_.empty();
  }
  CompactLatticeWeightTpl Quantize(float delta = fst::kDelta) const {
    return CompactLatticeWeightTpl(weight_.Quantize(delta), string_);
  }
  CompactLatticeWeightTpl Reverse() const {
    return CompactLatticeWeightTpl(
        weight_, std::vector<IntType>(string_.rbegin(), string_.rend()));
  }

  // OpenFst's binary form: the weight, an int32 length, the raw elements.
  // A negative length sets failbit.
  std::istream &Read(std::istream &is) {
    weight_.Read(is);
    int32_t size = 0;
    fst::ReadType(is, &size);
    if (!is) return is;
    if (size < 0) {
      is.setstate(std::ios::failbit);
      return is;
    }
    string_.clear();
    for (int32_t i = 0; i < size && is; ++i) {
      IntType value;
      fst::ReadType(is, &value);
      string_.push_back(value);
    }
    return is;
  }
  std::ostream &Write(std::ostream &os) const {
    weight_.Write(os);
    fst::WriteType(os, static_cast<int32_t>(string_.size()));
    for (const IntType &value : string_) fst::WriteType(os, value);
    return os;
  }

  size_t Hash() const {
    size_t ans = weight_.Hash(), mult = 6967;
    for (const IntType &value : string_) {
      ans += static_cast<size_t>(value) * mult;
      mult *= 7499;
    }
    return ans;
  }

 private:
  W weight_;
  std::vector<IntType> string_;
};

template <class W, class I>
inline bool operator==(const CompactLatticeWeightTpl<W, I> &a,
                       const CompactLatticeWeightTpl<W, I> &b) {
  return a.Weight() == b.Weight() && a.String() == b.String();
}

template <class W, class I>
inline bool operator!=(const CompactLatticeWeightTpl<W, I> &a,
                       const CompactLatticeWeightTpl<W, I> &b) {
  return !(a == b);
}

template <class W, class I>
inline bool ApproxEqual(const CompactLatticeWeightTpl<W, I> &a,
                        const CompactLatticeWeightTpl<W, I> &b,
                        float delta = fst::kDelta) {
  return ApproxEqual(a.Weight(), b.Weight(), delta) && a.String() == b.String();
}

// +1 if a is better, -1 if worse, 0 if equal: the weights first; then the
// shorter string is better (ordering by length first keeps Times
// distributive over Plus); then, element by element, the larger one.
template <class W, class I>
inline int Compare(const CompactLatticeWeightTpl<W, I> &a,
                   const CompactLatticeWeightTpl<W, I> &b) {
  const int by_weight = Compare(a.Weight(), b.Weight());
  if (by_weight != 0) return by_weight;
  const size_t len_a = a.String().size(), len_b = b.String().size();
  if (len_a != len_b) return len_a < len_b ? 1 : -1;
  for (size_t i = 0; i < len_a; ++i) {
    if (a.String()[i] != b.String()[i])
      return a.String()[i] < b.String()[i] ? -1 : 1;
  }
  return 0;
}

template <class W, class I>
inline CompactLatticeWeightTpl<W, I> Plus(
    const CompactLatticeWeightTpl<W, I> &a,
    const CompactLatticeWeightTpl<W, I> &b) {
  return Compare(a, b) >= 0 ? a : b;
}

template <class W, class I>
inline CompactLatticeWeightTpl<W, I> Times(
    const CompactLatticeWeightTpl<W, I> &a,
    const CompactLatticeWeightTpl<W, I> &b) {
  const W w = Times(a.Weight(), b.Weight());
  if (w == W::Zero()) return CompactLatticeWeightTpl<W, I>::Zero();
  std::vector<I> s(a.String());
  s.insert(s.end(), b.String().begin(), b.String().end());
  return CompactLatticeWeightTpl<W, I>(w, s);
}

// Left division removes b's string from the front of a's, right division
// from the back; DIVIDE_ANY is not defined for strings. Zero / non-zero is
// Zero. Dividing by zero or by a string that is not a prefix (suffix)
// throws InternalError.
template <class W, class I>
inline CompactLatticeWeightTpl<W, I> Divide(
    const CompactLatticeWeightTpl<W, I> &a,
    const CompactLatticeWeightTpl<W, I> &b,
    fst::DivideType type = fst::DIVIDE_ANY) {
  if (b.Weight() == W::Zero())
    NNET3_INTERNAL_ERR << "CompactLatticeWeight: division by zero";
  if (a.Weight() == W::Zero()) return CompactLatticeWeightTpl<W, I>::Zero();
  const W w = Divide(a.Weight(), b.Weight());
  const std::vector<I> &sa = a.String(), &sb = b.String();
  if (sb.size() > sa.size())
    NNET3_INTERNAL_ERR << "CompactLatticeWeight: cannot divide, the divisor's "
                          "string is longer";
  const size_t n = sb.size();
  if (type == fst::DIVIDE_LEFT) {
    if (!std::equal(sb.begin(), sb.end(), sa.begin()))
      NNET3_INTERNAL_ERR << "CompactLatticeWeight: left division by a string "
                            "that is not a prefix";
    return CompactLatticeWeightTpl<W, I>(
        w, std::vector<I>(sa.begin() + n, sa.end()));
  }
  if (type == fst::DIVIDE_RIGHT) {
    if (!std::equal(sb.begin(), sb.end(), sa.end() - n))
      NNET3_INTERNAL_ERR << "CompactLatticeWeight: right division by a string "
                            "that is not a suffix";
    return CompactLatticeWeightTpl<W, I>(
        w, std::vector<I>(sa.begin(), sa.end() - n));
  }
  NNET3_INTERNAL_ERR << "CompactLatticeWeight: DIVIDE_ANY is not defined";
  return CompactLatticeWeightTpl<W, I>::Zero();
}

template <class W, class I>
inline std::ostream &operator<<(std::ostream &os,
                                const CompactLatticeWeightTpl<W, I> &w) {
  os << w.Weight() << ',';
  for (size_t i = 0; i < w.String().size(); ++i) {
    if (i > 0) os << '_';
    os << w.String()[i];
  }
  return os;
}

// Parses the integers of "3_4_5" (a leading '_' and an empty string are
// accepted, as in Kaldi). Returns false on anything else.
template <class I>
bool ParseCompactLatticeString(const std::string &text, std::vector<I> *out) {
  out->clear();
  const char *c = text.c_str();
  while (*c != '\0') {
    if (*c == '_') ++c;
    char *end = nullptr;
    const long value = std::strtol(c, &end, 10);
    if (end == c || static_cast<long>(static_cast<I>(value)) != value)
      return false;
    out->push_back(static_cast<I>(value));
    c = end;
  }
  return true;
}

// Reads one white-space-delimited token "graph,acoustic,s1_s2_..." (the
// string after the last ','). Sets failbit if malformed.
template <class W, class I>
inline std::istream &operator>>(std::istream &is,
                                CompactLatticeWeightTpl<W, I> &w) {
  std::string token;
  if (!(is >> token)) return is;
  const size_t comma = token.find_last_of(',');
  if (comma == std::string::npos) {
    is.setstate(std::ios::failbit);
    return is;
  }
  std::istringstream weight_stream(token.substr(0, comma));
  W weight;
  weight_stream >> weight;
  std::vector<I> s;
  if (weight_stream.fail() || !weight_stream.eof() ||
      !ParseCompactLatticeString(token.substr(comma + 1), &s)) {
    is.setstate(std::ios::failbit);
    return is;
  }
  w = CompactLatticeWeightTpl<W, I>(weight, s);
  return is;
}

// The common divisor OpenFst's weight-pushing and determinization ask for:
// the Plus of the weights with the longest common prefix of the strings.
template <class W, class I>
class CompactLatticeWeightCommonDivisorTpl {
 public:
  using Weight = CompactLatticeWeightTpl<W, I>;
  Weight operator()(const Weight &a, const Weight &b) const {
    const std::vector<I> &sa = a.String(), &sb = b.String();
    size_t n = 0;
    while (n < sa.size() && n < sb.size() && sa[n] == sb[n]) ++n;
    return Weight(Plus(a.Weight(), b.Weight()),
                  std::vector<I>(sa.begin(), sa.begin() + n));
  }
};

// Scales the cost pair of the weight (see the LatticeWeight form above);
// the string is kept.
template <class W, class I, class ScaleF>
inline CompactLatticeWeightTpl<W, I> ScaleTupleWeight(
    const CompactLatticeWeightTpl<W, I> &w,
    const std::vector<std::vector<ScaleF>> &scale) {
  return CompactLatticeWeightTpl<W, I>(ScaleTupleWeight(w.Weight(), scale),
                                       w.String());
}

// Conversions between precisions, and from a lattice weight to the tropical
// weight of its total cost.
template <class F1, class F2>
inline void ConvertLatticeWeight(const LatticeWeightTpl<F1> &in,
                                 LatticeWeightTpl<F2> *out) {
  out->SetValue1(in.Value1());
  out->SetValue2(in.Value2());
}

template <class F1, class F2, class I>
inline void ConvertLatticeWeight(
    const CompactLatticeWeightTpl<LatticeWeightTpl<F1>, I> &in,
    CompactLatticeWeightTpl<LatticeWeightTpl<F2>, I> *out) {
  LatticeWeightTpl<F2> w;
  ConvertLatticeWeight(in.Weight(), &w);
  *out = CompactLatticeWeightTpl<LatticeWeightTpl<F2>, I>(w, in.String());
}

template <class F1, class F2>
inline void ConvertLatticeWeight(const LatticeWeightTpl<F1> &in,
                                 fst::TropicalWeightTpl<F2> *out) {
  *out = fst::Times(fst::TropicalWeightTpl<F2>(in.Value1()),
                    fst::TropicalWeightTpl<F2>(in.Value2()));
}

// The total cost (graph + acoustic), in double.
template <class F>
inline double ConvertToCost(const LatticeWeightTpl<F> &w) {
  return static_cast<double>(w.Value1()) + static_cast<double>(w.Value2());
}

template <class F, class I>
inline double ConvertToCost(
    const CompactLatticeWeightTpl<LatticeWeightTpl<F>, I> &w) {
  return ConvertToCost(w.Weight());
}

template <class F>
inline double ConvertToCost(const fst::TropicalWeightTpl<F> &w) {
  return w.Value();
}

}  // namespace nnet3

namespace fst {

// OpenFst's NaturalLess ("a is strictly better than b") for the lattice
// weights, through Compare instead of Plus and ==. Full specialisations:
// a partial one would be ambiguous with OpenFst's idempotent variant.
template <class W>
class CompareNaturalLess {
 public:
  using Weight = W;
  bool operator()(const W &a, const W &b) const {
    return nnet3::Compare(a, b) == 1;
  }
};

template <>
class NaturalLess<nnet3::LatticeWeightTpl<float>>
    : public CompareNaturalLess<nnet3::LatticeWeightTpl<float>> {};
template <>
class NaturalLess<nnet3::LatticeWeightTpl<double>>
    : public CompareNaturalLess<nnet3::LatticeWeightTpl<double>> {};
template <>
class NaturalLess<
    nnet3::CompactLatticeWeightTpl<nnet3::LatticeWeightTpl<float>, int32_t>>
    : public CompareNaturalLess<nnet3::CompactLatticeWeightTpl<
          nnet3::LatticeWeightTpl<float>, int32_t>> {};
template <>
class NaturalLess<
    nnet3::CompactLatticeWeightTpl<nnet3::LatticeWeightTpl<double>, int32_t>>
    : public CompareNaturalLess<nnet3::CompactLatticeWeightTpl<
          nnet3::LatticeWeightTpl<double>, int32_t>> {};

}  // namespace fst

#endif  // NNET3_FSTEXT_LATTICE_WEIGHT_H_
