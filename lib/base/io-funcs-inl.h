// Template definitions for io-funcs.h; include io-funcs.h, not this file.
#ifndef NNET3_BASE_IO_FUNCS_INL_H_
#define NNET3_BASE_IO_FUNCS_INL_H_

#include <algorithm>
#include <cstring>
#include <limits>

#include "base/error.h"

namespace nnet3 {

namespace io_internal {
[[noreturn]] void ReadFailure(std::istream &is, const std::string &what);
std::string DescribeNext(std::istream &is);
}  // namespace io_internal

template <class T>
void WriteBasicType(std::ostream &os, bool binary, T t) {
  if constexpr (std::is_same<T, bool>::value) {
    os << (t ? "T" : "F");
    if (!binary) os << " ";
  } else if constexpr (std::is_floating_point<T>::value) {
    if (binary) {
      char size = sizeof(T);
      os.put(size);
      os.write(reinterpret_cast<const char *>(&t), sizeof(t));
    } else {
      os << t << " ";
    }
  } else {
    static_assert(std::is_integral<T>::value, "WriteBasicType: integer type");
    if (binary) {
      char size = static_cast<char>(std::numeric_limits<T>::is_signed
                                        ? static_cast<int>(sizeof(T))
                                        : -static_cast<int>(sizeof(T)));
      os.put(size);
      os.write(reinterpret_cast<const char *>(&t), sizeof(t));
    } else if (sizeof(T) == 1) {
      os << static_cast<int16_t>(t) << " ";
    } else {
      os << t << " ";
    }
  }
  if (os.fail()) NNET3_ERR << "Write failure in WriteBasicType.";
}

template <class T>
void ReadBasicType(std::istream &is, bool binary, T *t) {
  if constexpr (std::is_same<T, bool>::value) {
    is >> std::ws;
    int c = is.peek();
    if (c == 'T') {
      *t = true;
    } else if (c == 'F') {
      *t = false;
    } else {
      io_internal::ReadFailure(is, "a bool ('T' or 'F')");
    }
    is.get();
  } else if constexpr (std::is_floating_point<T>::value) {
    if (binary) {
      int size = is.get();
      if (size == sizeof(float)) {
        float f;
        is.read(reinterpret_cast<char *>(&f), sizeof(f));
        *t = f;
      } else if (size == sizeof(double)) {
        double d;
        is.read(reinterpret_cast<char *>(&d), sizeof(d));
        *t = static_cast<T>(d);
      } else {
        io_internal::ReadFailure(is, "a binary float (size byte 4 or 8)");
      }
      if (is.fail()) io_internal::ReadFailure(is, "float data");
    } else {
      double d;
      if (!ReadTextFloat(is, &d)) io_internal::ReadFailure(is, "a number");
      *t = static_cast<T>(d);
    }
  } else {
    static_assert(std::is_integral<T>::value, "ReadBasicType: integer type");
    if (binary) {
      int size = is.get();
      int expected = std::numeric_limits<T>::is_signed
                         ? static_cast<int>(sizeof(T))
                         : -static_cast<int>(sizeof(T));
      if (size != static_cast<char>(expected) && size != (expected & 0xff)) {
        io_internal::ReadFailure(
            is, "a binary integer of size byte " + std::to_string(expected));
      }
      is.read(reinterpret_cast<char *>(t), sizeof(*t));
      if (is.fail()) io_internal::ReadFailure(is, "integer data");
    } else {
      is >> std::ws;
      long long v;
      if (sizeof(T) == 1) {
        int16_t i;
        is >> i;
        v = i;
      } else {
        is >> v;
      }
      if (is.fail() || v < static_cast<long long>(std::numeric_limits<T>::min()) ||
          v > static_cast<long long>(std::numeric_limits<T>::max()))
        io_internal::ReadFailure(is, "an integer");
      *t = static_cast<T>(v);
    }
  }
}

template <class T>
void WriteIntegerVector(std::ostream &os, bool binary,
                        const std::vector<T> &v) {
  static_assert(std::is_integral<T>::value, "integer vector");
  if (binary) {
    char size = sizeof(T);
    os.put(size);
    int32_t n = static_cast<int32_t>(v.size());
    os.write(reinterpret_cast<const char *>(&n), sizeof(n));
    if (n > 0)
      os.write(reinterpret_cast<const char *>(v.data()), sizeof(T) * n);
  } else {
    os << "[ ";
    for (const T &x : v) {
      if (sizeof(T) == 1)
        os << static_cast<int16_t>(x) << " ";
      else
        os << x << " ";
    }
    os << "]\n";
  }
  if (os.fail()) NNET3_ERR << "Write failure in WriteIntegerVector.";
}

template <class T>
void ReadIntegerVector(std::istream &is, bool binary, std::vector<T> *v) {
  static_assert(std::is_integral<T>::value, "integer vector");
  if (binary) {
    int size = is.get();
    if (size != sizeof(T))
      io_internal::ReadFailure(is, "an integer vector with element size " +
                                       std::to_string(sizeof(T)));
    int32_t n;
    is.read(reinterpret_cast<char *>(&n), sizeof(n));
    if (is.fail() || n < 0) io_internal::ReadFailure(is, "a vector length");
    v->clear();
    v->reserve(
        CheckCountFits(is, n, sizeof(T), "The length of an integer vector"));
    // In chunks, so that memory grows only as the data arrives.
    for (int64_t done = 0; done < n;) {
      int64_t m = std::min<int64_t>(n - done, int64_t(1) << 16);
      v->resize(done + m);
      is.read(reinterpret_cast<char *>(v->data() + done), sizeof(T) * m);
      if (is.fail()) io_internal::ReadFailure(is, "integer vector data");
      done += m;
    }
  } else {
    is >> std::ws;
    if (is.peek() != '[') io_internal::ReadFailure(is, "'[' (integer vector)");
    is.get();
    v->clear();
    while (true) {
      is >> std::ws;
      if (is.peek() == ']') {
        is.get();
        break;
      }
      long long x;
      is >> x;
      if (is.fail()) io_internal::ReadFailure(is, "an integer or ']'");
      v->push_back(static_cast<T>(x));
    }
  }
}

template <class T>
void WriteIntegerPairVector(std::ostream &os, bool binary,
                            const std::vector<std::pair<T, T>> &v) {
  static_assert(std::is_integral<T>::value, "integer pair vector");
  if (binary) {
    char size = sizeof(T);
    os.put(size);
    int32_t n = static_cast<int32_t>(v.size());
    os.write(reinterpret_cast<const char *>(&n), sizeof(n));
    for (const auto &p : v) {
      os.write(reinterpret_cast<const char *>(&p.first), sizeof(T));
      os.write(reinterpret_cast<const char *>(&p.second), sizeof(T));
    }
  } else {
    os << "[ ";
    for (const auto &p : v) os << p.first << "," << p.second << " ";
    os << "]\n";
  }
  if (os.fail()) NNET3_ERR << "Write failure in WriteIntegerPairVector.";
}

template <class T>
void ReadIntegerPairVector(std::istream &is, bool binary,
                           std::vector<std::pair<T, T>> *v) {
  static_assert(std::is_integral<T>::value, "integer pair vector");
  if (binary) {
    int size = is.get();
    if (size != sizeof(T))
      io_internal::ReadFailure(is, "a pair vector with element size " +
                                       std::to_string(sizeof(T)));
    int32_t n;
    is.read(reinterpret_cast<char *>(&n), sizeof(n));
    if (is.fail() || n < 0) io_internal::ReadFailure(is, "a vector length");
    v->clear();
    v->reserve(
        CheckCountFits(is, n, 2 * sizeof(T), "The length of a pair vector"));
    for (int32_t i = 0; i < n; i++) {
      std::pair<T, T> p;
      is.read(reinterpret_cast<char *>(&p.first), sizeof(T));
      is.read(reinterpret_cast<char *>(&p.second), sizeof(T));
      if (is.fail()) io_internal::ReadFailure(is, "pair vector data");
      v->push_back(p);
    }
  } else {
    is >> std::ws;
    if (is.peek() != '[') io_internal::ReadFailure(is, "'[' (pair vector)");
    is.get();
    v->clear();
    while (true) {
      is >> std::ws;
      if (is.peek() == ']') {
        is.get();
        break;
      }
      long long a, b;
      char comma;
      is >> a >> comma >> b;
      if (is.fail() || comma != ',')
        io_internal::ReadFailure(is, "a pair 'a,b' or ']'");
      v->emplace_back(static_cast<T>(a), static_cast<T>(b));
    }
  }
}

}  // namespace nnet3

#endif  // NNET3_BASE_IO_FUNCS_INL_H_
