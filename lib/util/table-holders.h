// Holders: the adapters that let the table code (util/table-reader.h,
// util/table-writer.h) store one object of each archived type.
//
// A Holder is a class with
//   using T = ...;                                      // the object type
//   static void Write(std::ostream &os, bool binary, const T &t);
//   void Read(std::istream &is, bool binary);           // throws UserError
//   T &Value();                                         // the object read
//   void Clear();                                       // frees memory
//   void Swap(Holder *other);
//   void ExtractRange(const std::string &range);        // scp "[range]"
//   static constexpr bool kBinaryHeader = false;        // optional
// Write and Read handle the object only: the table code writes and reads
// the "\0B" header that precedes a binary entry (reference 5.4), so one
// holder serves archives, scp entries and single files alike -- except
// for holders that declare kBinaryHeader false (the FST and lattice
// holders of lib/fstext and lib/lat, as in Kaldi): their entries have no
// header and their Read tells binary from text itself.
//
// The holders here:
//   KaldiObjectHolder<T>   any T with Read(is, binary) / Write(os, binary)
//                          (Matrix, Vector, CompressedMatrix, GeneralMatrix,
//                          models, egs); ranges only where a RangeExtractor
//                          specialization exists (Matrix).
//   BasicVectorHolder<B>   std::vector<B> of integers or floats, in Kaldi's
//                          format: binary is an int32 count then each value,
//                          every number with its size byte (WriteBasicType);
//                          text is each value followed by a space, then
//                          '\n' ("1 2 3 \n"), and a text read takes one line.
//   BasicHolder<B>         one integer, float or bool: binary as
//                          WriteBasicType, text as the value and '\n'.
//   PosteriorHolder        Posterior (matrix/posterior.h), Kaldi's format.
#ifndef NNET3_UTIL_TABLE_HOLDERS_H_
#define NNET3_UTIL_TABLE_HOLDERS_H_

#include <istream>
#include <ostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "base/error.h"
#include "base/io-funcs.h"
#include "matrix/posterior.h"

namespace nnet3 {

class Matrix;
// In util/matrix-range.h.
void ExtractMatrixRange(const std::string &range, Matrix *mat);

// Applies a "[range]" from an scp line to an object: only matrices have
// ranges. (Specialized here, not elsewhere, so that every use of a holder
// sees the same definition.)
template <class T>
struct RangeExtractor {
  static void Extract(const std::string &range, T *obj) {
    (void)obj;
    NNET3_ERR << "A range [" << range
              << "] was given, but ranges are supported only for matrices";
  }
};
template <>
struct RangeExtractor<Matrix> {
  static void Extract(const std::string &range, Matrix *mat) {
    ExtractMatrixRange(range, mat);
  }
};

template <class KaldiType>
class KaldiObjectHolder {
 public:
  using T = KaldiType;
  static void Write(std::ostream &os, bool binary, const T &t) {
    t.Write(os, binary);
  }
  void Read(std::istream &is, bool binary) { t_.Read(is, binary); }
  T &Value() { return t_; }
  void Clear() { t_ = T(); }
  void Swap(KaldiObjectHolder *other) { std::swap(t_, other->t_); }
  void ExtractRange(const std::string &range) {
    RangeExtractor<T>::Extract(range, &t_);
  }

 private:
  T t_;
};

template <class BasicType>
class BasicVectorHolder {
 public:
  using T = std::vector<BasicType>;

  static void Write(std::ostream &os, bool binary, const T &t) {
    if (binary) {
      WriteBasicType(os, true, static_cast<int32_t>(t.size()));
      for (const BasicType &x : t) WriteBasicType(os, true, x);
    } else {
      for (const BasicType &x : t) WriteBasicType(os, false, x);
      os << '\n';
    }
  }

  void Read(std::istream &is, bool binary) {
    t_.clear();
    if (binary) {
      int32_t size;
      ReadBasicType(is, true, &size);
      if (size < 0) NNET3_ERR << "Negative vector length " << size;
      // Each element takes a size byte and its value: memory grows only as
      // elements arrive, so a few corrupt bytes cannot ask for gigabytes.
      t_.reserve(CheckCountFits(is, size, 1 + sizeof(BasicType),
                                "The length of a vector in an archive"));
      for (int32_t i = 0; i < size; i++) {
        BasicType x;
        ReadBasicType(is, true, &x);
        t_.push_back(x);
      }
      return;
    }
    std::string line;
    std::getline(is, line);  // consumes the '\n'
    if (is.fail())
      NNET3_ERR << "Expected a line of numbers but found end of file";
    std::istringstream line_is(line);
    while (!(line_is >> std::ws).eof()) {
      BasicType x;
      ReadBasicType(line_is, false, &x);
      t_.push_back(x);
    }
  }

  T &Value() { return t_; }
  void Clear() { T().swap(t_); }
  void Swap(BasicVectorHolder *other) { t_.swap(other->t_); }
  void ExtractRange(const std::string &range) {
    RangeExtractor<T>::Extract(range, &t_);
  }

 private:
  T t_;
};

template <class BasicType>
class BasicHolder {
 public:
  using T = BasicType;

  static void Write(std::ostream &os, bool binary, const T &t) {
    WriteBasicType(os, binary, t);
    if (!binary) os << '\n';
  }
  void Read(std::istream &is, bool binary) {
    ReadBasicType(is, binary, &t_);
    if (binary) return;
    // The value ends its line (WriteBasicType's space, maybe a '\r').
    while (is.peek() == ' ' || is.peek() == '\t' || is.peek() == '\r') is.get();
    int c = is.peek();
    if (c != '\n' && c != EOF)
      NNET3_ERR << "Expected the end of the line after the value but found '"
                << static_cast<char>(c) << "'";
    if (c == '\n') is.get();
  }
  T &Value() { return t_; }
  void Clear() {}
  void Swap(BasicHolder *other) { std::swap(t_, other->t_); }
  void ExtractRange(const std::string &range) {
    RangeExtractor<T>::Extract(range, &t_);
  }

 private:
  T t_ = T();
};

class PosteriorHolder {
 public:
  using T = Posterior;
  static void Write(std::ostream &os, bool binary, const T &t) {
    WritePosterior(os, binary, t);
  }
  void Read(std::istream &is, bool binary) { ReadPosterior(is, binary, &t_); }
  T &Value() { return t_; }
  void Clear() { T().swap(t_); }
  void Swap(PosteriorHolder *other) { t_.swap(other->t_); }
  void ExtractRange(const std::string &range) {
    RangeExtractor<T>::Extract(range, &t_);
  }

 private:
  T t_;
};

}  // namespace nnet3

#endif  // NNET3_UTIL_TABLE_HOLDERS_H_
