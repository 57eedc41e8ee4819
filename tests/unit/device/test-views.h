// Test helpers for the backend tests: host buffers holding a strided view
// (a submatrix with guard elements around it), plain double-precision
// reference matrices, and a comparison that also checks that nothing outside
// the view changed. On the CPU backend device memory is host memory, so these
// buffers are passed to the primitives directly.
#ifndef NNET3_TESTS_UNIT_DEVICE_TEST_VIEWS_H_
#define NNET3_TESTS_UNIT_DEVICE_TEST_VIEWS_H_

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "device/backend.h"

namespace nnet3 {
namespace test {

using Rng = std::mt19937;

// 0 and 1 often (empty views, one-row products), otherwise up to max.
inline int32_t RandDim(Rng *rng, int32_t max) {
  const int32_t pick = std::uniform_int_distribution<int32_t>(0, 7)(*rng);
  if (pick == 0) return 0;
  if (pick == 1) return 1;
  return std::uniform_int_distribution<int32_t>(2, max)(*rng);
}

inline float RandFloat(Rng *rng, float lo, float hi) {
  return std::uniform_real_distribution<float>(lo, hi)(*rng);
}

inline int32_t RandInt(Rng *rng, int32_t lo, int32_t hi) {
  return std::uniform_int_distribution<int32_t>(lo, hi)(*rng);
}

// A rows x cols view at (r0, c0) of a host buffer with stride >= c0 + cols
// and spare rows below; with `padded` false, a contiguous view (stride ==
// cols). Every buffer element starts random in [-2, 2).
class TestMat {
 public:
  TestMat() = default;
  TestMat(int32_t rows, int32_t cols, Rng *rng, bool padded)
      : rows_(rows), cols_(cols) {
    if (padded) {
      r0_ = RandInt(rng, 0, 2);
      c0_ = RandInt(rng, 0, 2);
      stride_ = c0_ + cols + RandInt(rng, 1, 3);
    } else {
      stride_ = cols;
    }
    const int32_t extra_rows = padded ? RandInt(rng, 0, 2) : 0;
    buffer_.resize(static_cast<size_t>(r0_ + rows + extra_rows) * stride_);
    for (float &x : buffer_) x = RandFloat(rng, -2.0f, 2.0f);
  }
  // Random padding half of the time.
  TestMat(int32_t rows, int32_t cols, Rng *rng)
      : TestMat(rows, cols, rng, RandInt(rng, 0, 1) == 1) {}

  int32_t rows() const { return rows_; }
  int32_t cols() const { return cols_; }
  int32_t stride() const { return stride_; }
  float *data() {
    return buffer_.empty() ? nullptr : buffer_.data() + r0_ * stride_ + c0_;
  }
  const float *data() const {
    return buffer_.empty() ? nullptr : buffer_.data() + r0_ * stride_ + c0_;
  }
  MatView view() { return MatView(data(), rows_, cols_, stride_); }
  ConstMatView cview() const {
    return ConstMatView(data(), rows_, cols_, stride_);
  }
  float &operator()(int32_t r, int32_t c) { return data()[r * stride_ + c]; }
  float operator()(int32_t r, int32_t c) const {
    return data()[r * stride_ + c];
  }
  // Fills the view (not the guard) uniformly in [lo, hi).
  void FillView(Rng *rng, float lo, float hi) {
    for (int32_t r = 0; r < rows_; r++)
      for (int32_t c = 0; c < cols_; c++)
        (*this)(r, c) = RandFloat(rng, lo, hi);
  }
  void SetView(float value) {
    for (int32_t r = 0; r < rows_; r++)
      for (int32_t c = 0; c < cols_; c++) (*this)(r, c) = value;
  }
  bool InView(size_t i) const {
    const int32_t r = static_cast<int32_t>(i / stride_) - r0_;
    const int32_t c = static_cast<int32_t>(i % stride_) - c0_;
    return r >= 0 && r < rows_ && c >= 0 && c < cols_;
  }
  // Number of buffer elements outside the view that differ from `before`
  // (bitwise, so NaN guards compare equal to themselves).
  int32_t OutsideChanges(const TestMat &before) const {
    int32_t n = 0;
    for (size_t i = 0; i < buffer_.size(); i++) {
      if (InView(i)) continue;
      if (std::memcmp(&buffer_[i], &before.buffer_[i], sizeof(float)) != 0) n++;
    }
    return n;
  }
  std::string Describe() const {
    std::ostringstream os;
    os << rows_ << "x" << cols_ << " stride " << stride_ << " at (" << r0_
       << "," << c0_ << ")";
    return os.str();
  }

 private:
  int32_t rows_ = 0, cols_ = 0, r0_ = 0, c0_ = 0, stride_ = 0;
  std::vector<float> buffer_;
};

// A dense row-major double matrix for reference results.
struct Ref {
  int32_t rows = 0, cols = 0;
  std::vector<double> v;
  Ref(int32_t r, int32_t c, double value = 0.0)
      : rows(r), cols(c), v(static_cast<size_t>(r) * c, value) {}
  explicit Ref(const TestMat &m) : Ref(m.rows(), m.cols()) {
    for (int32_t r = 0; r < rows; r++)
      for (int32_t c = 0; c < cols; c++) (*this)(r, c) = m(r, c);
  }
  double &operator()(int32_t r, int32_t c) { return v[r * cols + c]; }
  double operator()(int32_t r, int32_t c) const { return v[r * cols + c]; }
};

// |got - want| <= tol * (1 + |want|); NaN matches NaN, inf matches itself.
inline bool Close(double got, double want, double tol) {
  if (std::isnan(want)) return std::isnan(got);
  if (std::isinf(want)) return got == want;
  return std::fabs(got - want) <= tol * (1.0 + std::fabs(want));
}

// Checks the view of `got` against `want` and that the buffer outside the
// view still equals `before`. Reports the first mismatch only.
inline void CheckMat(const TestMat &got, const TestMat &before, const Ref &want,
                     double tol) {
  REQUIRE(got.rows() == want.rows);
  REQUIRE(got.cols() == want.cols);
  int32_t bad = 0;
  std::string first;
  for (int32_t r = 0; r < want.rows; r++) {
    for (int32_t c = 0; c < want.cols; c++) {
      if (Close(got(r, c), want(r, c), tol)) continue;
      if (bad++ == 0) {
        std::ostringstream os;
        os << "(" << r << "," << c << "): got " << got(r, c) << " want "
           << want(r, c);
        first = os.str();
      }
    }
  }
  INFO("view " << got.Describe() << ", first mismatch " << first);
  CHECK(bad == 0);
  CHECK(got.OutsideChanges(before) == 0);
}

// The row pointers of a view, for the pointer-list primitives.
inline const float *RowPtr(const TestMat &m, int32_t r) {
  return m.data() + r * m.stride();
}

}  // namespace test
}  // namespace nnet3

#endif  // NNET3_TESTS_UNIT_DEVICE_TEST_VIEWS_H_
