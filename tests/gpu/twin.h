// Test harness of the device-equivalence suite: the same random data on the
// reference device (the CPU) and on the device under test (a GPU, or the
// opaque debugging device), so that a primitive can be run on both and the
// results compared.
//
//   Twins env(CpuDevice().backend(), OtherDevice().backend());
//   TwinMat in(&env, rows, cols, &rng), out(&env, rows, cols, &rng);
//   env.Run([&](Backend &b, Side s) { b.Apply(Func::kTanh, in[s], out[s]); });
//   out.Expect("Apply tanh", Tol::Ulps(4));
//
// A TwinMat is a strided view inside a larger buffer whose surroundings are
// random too; Expect compares the view within the tolerance and the
// surroundings exactly (so a kernel that writes out of bounds fails), then
// makes the two sides equal again.
// Everything is allocated through Backend::Allocate and freed when the
// Twins object goes away. The device under test is never read on the host
// except through Backend copies.
#ifndef NNET3_TESTS_EQUIVALENCE_TWIN_H_
#define NNET3_TESTS_EQUIVALENCE_TWIN_H_

#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "device/backend.h"
#include "device/device.h"

namespace nnet3 {
namespace gpu_test {

using Rng = std::mt19937;

enum Side { kRef = 0, kTest = 1 };

// |test - ref| <= abs + rel * |ref| elementwise (both 0: exact equality;
// NaN matches NaN, inf matches the same inf).
struct Tol {
  double abs = 0.0, rel = 0.0;
  static Tol Exact() { return {0.0, 0.0}; }
  static Tol Rel(double rel, double abs = 0.0) { return {abs, rel}; }
};

class Twins {
 public:
  Twins(Backend &ref, Backend &test) : backends_{&ref, &test} {}
  ~Twins();
  Twins(const Twins &) = delete;
  Twins &operator=(const Twins &) = delete;

  Backend &On(Side s) { return *backends_[s]; }
  // Runs f on both backends (reference first) and waits for the device.
  void Run(const std::function<void(Backend &, Side)> &f);
  // Device memory of `bytes` on both sides, freed with this object.
  std::pair<void *, void *> Allocate(size_t bytes);
  // The same host bytes uploaded to both sides.
  std::pair<void *, void *> Upload(const void *host, size_t bytes);

 private:
  Backend *backends_[2];
  std::vector<std::pair<void *, void *>> allocations_;
};

// A rows x cols view at (r0, c0) of a buffer with stride >= c0 + cols and
// spare rows below (padded), or a contiguous view; filled with uniform
// random numbers in [lo, hi), the same on both sides.
class TwinMat {
 public:
  TwinMat(Twins *env, int32_t rows, int32_t cols, Rng *rng, bool padded = true,
          float lo = -2.0f, float hi = 2.0f);
  MatView operator[](Side s) const;
  int32_t Rows() const { return rows_; }
  int32_t Cols() const { return cols_; }
  // A 1 x cols view of row r (for vector arguments).
  MatView Row(Side s, int32_t r) const;
  // Device address of element (r, c) on side s.
  float *At(Side s, int32_t r, int32_t c) const;
  // Overwrites the view with `values` (row-major, rows x cols) on both sides.
  void Set(const std::vector<float> &values);
  // The whole buffer of side s, downloaded.
  std::vector<float> Buffer(Side s) const;
  // Compares the two sides: the view within `tol`, the rest exactly; then
  // copies the reference side over the test side, so that the next
  // operation starts from identical data.
  void Expect(const std::string &what, Tol tol) const;
  // Expect's comparison alone: "" when the sides agree, else how many
  // elements differ (inside and outside the view) and the first of them.
  std::string Difference(Tol tol) const;

 private:
  Twins *env_;
  int32_t rows_, cols_, r0_ = 0, c0_ = 0, stride_ = 0, total_rows_ = 0;
  float *data_[2] = {nullptr, nullptr};
};

// int32 index data on both sides (index vectors, row ranges).
class TwinIndex {
 public:
  TwinIndex(Twins *env, const std::vector<int32_t> &values);
  const int32_t *operator[](Side s) const { return data_[s]; }

 private:
  const int32_t *data_[2] = {nullptr, nullptr};
};

// Device pointer lists on both sides: entry i points at row rows[i].second
// of *rows[i].first on that side, or is null when first is null.
class TwinPtrs {
 public:
  TwinPtrs(Twins *env,
           const std::vector<std::pair<const TwinMat *, int32_t>> &rows);
  float *const *operator[](Side s) const { return data_[s]; }

 private:
  float *const *data_[2] = {nullptr, nullptr};
};

// Compares two scalars with the tolerance (a Catch CHECK).
void ExpectScalar(const std::string &what, double ref, double test, Tol tol);

// 0 and 1 often (empty views, single rows), otherwise 2..max.
int32_t RandDim(Rng *rng, int32_t max);
int32_t RandInt(Rng *rng, int32_t lo, int32_t hi);
float RandFloat(Rng *rng, float lo, float hi);

// The device under test, provided by each test program's main (gpu-main.cc:
// a GPU; opaque-main.cc: the opaque debugging device).
Device &TestDevice();
inline Backend &TestBackend() { return TestDevice().backend(); }
// True for a real device under test: more iterations, large shapes and the
// longer training runs; false where the "device" is the CPU in disguise
// (the opaque run of every build), to keep the unit suite fast.
bool Thorough();

}  // namespace gpu_test
}  // namespace nnet3

#endif  // NNET3_TESTS_EQUIVALENCE_TWIN_H_
