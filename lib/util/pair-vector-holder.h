// BasicPairVectorHolder: the table holder for lists of integer (or float)
// pairs, Kaldi's format (ali-to-phones --write-lengths writes phone and
// length pairs with it):
//   binary  "\0B", the int32 count, then each pair's two values
//           (WriteBasicType, each with its size byte)
//   text    the pairs separated by "; " and the line ended: "1 2 ; 4 5 \n"
//           (each value followed by a space); an empty list is "\n".
//
//   Int32PairVectorWriter writer("ark,t:-");
//   writer.Write("utt1", {{10, 7}, {12, 3}});      // utt1 10 7 ; 12 3
//   SequentialInt32PairVectorReader reader("ark:lengths.ark");
//
// Reading text takes one line; a pair with other than two values is a
// UserError.
#ifndef NNET3_UTIL_PAIR_VECTOR_HOLDER_H_
#define NNET3_UTIL_PAIR_VECTOR_HOLDER_H_

#include <cstdint>
#include <istream>
#include <ostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "base/error.h"
#include "base/io-funcs.h"
#include "util/table-holders.h"
#include "util/table-reader.h"
#include "util/table-writer.h"

namespace nnet3 {

template <class BasicType>
class BasicPairVectorHolder {
 public:
  using T = std::vector<std::pair<BasicType, BasicType>>;

  static void Write(std::ostream &os, bool binary, const T &t) {
    if (binary) {
      WriteBasicType(os, true, static_cast<int32_t>(t.size()));
      for (const auto &p : t) {
        WriteBasicType(os, true, p.first);
        WriteBasicType(os, true, p.second);
      }
      return;
    }
    for (size_t i = 0; i < t.size(); ++i) {
      if (i != 0) os << "; ";
      WriteBasicType(os, false, t[i].first);
      WriteBasicType(os, false, t[i].second);
    }
    os << '\n';
  }

  void Read(std::istream &is, bool binary) {
    t_.clear();
    if (binary) {
      int32_t size;
      ReadBasicType(is, true, &size);
      if (size < 0) NNET3_ERR << "Negative number of pairs " << size;
      for (int32_t i = 0; i < size; ++i) {
        std::pair<BasicType, BasicType> p;
        ReadBasicType(is, true, &p.first);
        ReadBasicType(is, true, &p.second);
        t_.push_back(p);
      }
      return;
    }
    std::string line;
    std::getline(is, line);
    if (is.fail()) NNET3_ERR << "Expected a line of pairs but found the end";
    // Kaldi's reading: a blank line is the empty list; otherwise every
    // ';'-separated piece, the last included, must hold two numbers.
    if (line.find_first_not_of(" \t\r") == std::string::npos) return;
    for (size_t begin = 0;;) {
      const size_t end = line.find(';', begin);
      ReadPair(line.substr(begin, end - begin), line);
      if (end == std::string::npos) break;
      begin = end + 1;
    }
  }

  T &Value() { return t_; }
  void Clear() { T().swap(t_); }
  void Swap(BasicPairVectorHolder *other) { t_.swap(other->t_); }
  void ExtractRange(const std::string &range) {
    RangeExtractor<T>::Extract(range, &t_);
  }

 private:
  // One "a b" piece of a text line.
  void ReadPair(const std::string &piece, const std::string &line) {
    std::istringstream is(piece);
    std::vector<BasicType> values;
    while (!(is >> std::ws).eof()) {
      BasicType x;
      ReadBasicType(is, false, &x);
      values.push_back(x);
    }
    if (values.size() != 2)
      NNET3_ERR << "Expected pairs of numbers separated by ';' but found '"
                << line << "'";
    t_.emplace_back(values[0], values[1]);
  }

  T t_;
};

using SequentialInt32PairVectorReader =
    SequentialTableReader<BasicPairVectorHolder<int32_t>>;
using RandomAccessInt32PairVectorReader =
    RandomAccessTableReader<BasicPairVectorHolder<int32_t>>;
using Int32PairVectorWriter = TableWriter<BasicPairVectorHolder<int32_t>>;

}  // namespace nnet3

#endif  // NNET3_UTIL_PAIR_VECTOR_HOLDER_H_
