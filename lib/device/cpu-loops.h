// Loop templates over strided views for the CPU backend (internal to
// lib/device). Each visits rows in order and columns in order within a row,
// so the inner loop is contiguous and the lambda is inlined into it (no call
// per element). Views may be identical (in-place operations); shapes are
// checked once per call.
#ifndef NNET3_DEVICE_CPU_LOOPS_H_
#define NNET3_DEVICE_CPU_LOOPS_H_

#include <cstdint>

#include "base/error.h"
#include "device/backend.h"

namespace nnet3 {
namespace cpu {

inline bool SameShape(const ConstMatView &a, const ConstMatView &b) {
  return a.rows == b.rows && a.cols == b.cols;
}

// Views are well-formed: non-negative sizes, stride >= cols (unused, so not
// checked, when there is at most one row), data present whenever the view is
// non-empty.
inline void CheckView(const ConstMatView &m) {
  NNET3_ASSERT(m.rows >= 0 && m.cols >= 0);
  NNET3_ASSERT(m.rows <= 1 || m.stride >= m.cols);
  NNET3_ASSERT(m.data != nullptr || m.rows == 0 || m.cols == 0);
}

// (An empty matrix may have no data: no arithmetic on a null pointer.)
inline const float *RowOf(const ConstMatView &m, int32_t r) {
  return m.data == nullptr ? nullptr : m.data + static_cast<int64_t>(r) * m.stride;
}
inline float *RowOf(const MatView &m, int32_t r) {
  return m.data == nullptr ? nullptr : m.data + static_cast<int64_t>(r) * m.stride;
}

// m(r, c) = f(m(r, c)).
template <class F>
inline void MapInPlace(MatView m, F f) {
  CheckView(m);
  for (int32_t r = 0; r < m.rows; r++) {
    float *row = RowOf(m, r);
    for (int32_t c = 0; c < m.cols; c++) row[c] = f(row[c]);
  }
}

// out(r, c) = f(in(r, c)).
template <class F>
inline void Map(ConstMatView in, MatView out, F f) {
  CheckView(in);
  CheckView(out);
  NNET3_ASSERT(SameShape(in, out));
  for (int32_t r = 0; r < out.rows; r++) {
    const float *x = RowOf(in, r);
    float *y = RowOf(out, r);
    for (int32_t c = 0; c < out.cols; c++) y[c] = f(x[c]);
  }
}

// dst(r, c) = f(src(r, c), dst(r, c)).
template <class F>
inline void Zip(ConstMatView src, MatView dst, F f) {
  CheckView(src);
  CheckView(dst);
  NNET3_ASSERT(SameShape(src, dst));
  for (int32_t r = 0; r < dst.rows; r++) {
    const float *x = RowOf(src, r);
    float *y = RowOf(dst, r);
    for (int32_t c = 0; c < dst.cols; c++) y[c] = f(x[c], y[c]);
  }
}

// out(r, c) = f(a(r, c), b(r, c)); out's old contents are not read.
template <class F>
inline void Map2(ConstMatView a, ConstMatView b, MatView out, F f) {
  CheckView(a);
  CheckView(b);
  CheckView(out);
  NNET3_ASSERT(SameShape(a, out) && SameShape(b, out));
  for (int32_t r = 0; r < out.rows; r++) {
    const float *x = RowOf(a, r), *z = RowOf(b, r);
    float *y = RowOf(out, r);
    for (int32_t c = 0; c < out.cols; c++) y[c] = f(x[c], z[c]);
  }
}

// out(r, c) = f(a(r, c), b(r, c), out(r, c)).
template <class F>
inline void Zip3(ConstMatView a, ConstMatView b, MatView out, F f) {
  CheckView(a);
  CheckView(b);
  CheckView(out);
  NNET3_ASSERT(SameShape(a, out) && SameShape(b, out));
  for (int32_t r = 0; r < out.rows; r++) {
    const float *x = RowOf(a, r), *z = RowOf(b, r);
    float *y = RowOf(out, r);
    for (int32_t c = 0; c < out.cols; c++) y[c] = f(x[c], z[c], y[c]);
  }
}

}  // namespace cpu
}  // namespace nnet3

#endif  // NNET3_DEVICE_CPU_LOOPS_H_
