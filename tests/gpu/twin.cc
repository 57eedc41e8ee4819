#include "twin.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <sstream>

namespace nnet3 {
namespace gpu_test {

Twins::~Twins() {
  for (Side s : {kRef, kTest}) backends_[s]->Synchronize();
  for (auto &a : allocations_) {
    backends_[kRef]->Free(a.first);
    backends_[kTest]->Free(a.second);
  }
}

void Twins::Run(const std::function<void(Backend &, Side)> &f) {
  for (Side s : {kRef, kTest}) {
    f(*backends_[s], s);
    backends_[s]->Synchronize();
  }
}

std::pair<void *, void *> Twins::Allocate(size_t bytes) {
  std::pair<void *, void *> p(backends_[kRef]->Allocate(bytes),
                              backends_[kTest]->Allocate(bytes));
  if (bytes > 0) allocations_.push_back(p);
  return p;
}

std::pair<void *, void *> Twins::Upload(const void *host, size_t bytes) {
  std::pair<void *, void *> p = Allocate(bytes);
  if (bytes > 0) {
    backends_[kRef]->CopyFromHost(host, p.first, bytes);
    backends_[kTest]->CopyFromHost(host, p.second, bytes);
  }
  return p;
}

TwinMat::TwinMat(Twins *env, int32_t rows, int32_t cols, Rng *rng, bool padded,
                 float lo, float hi)
    : env_(env), rows_(rows), cols_(cols) {
  int32_t extra_rows = 0;
  if (padded) {
    r0_ = RandInt(rng, 0, 2);
    c0_ = RandInt(rng, 0, 2);
    stride_ = c0_ + cols + RandInt(rng, 1, 3);
    extra_rows = RandInt(rng, 0, 2);
  } else {
    stride_ = cols;
  }
  total_rows_ = r0_ + rows + extra_rows;
  std::vector<float> host(static_cast<size_t>(total_rows_) * stride_);
  std::uniform_real_distribution<float> dist(lo, hi);
  for (float &x : host) x = dist(*rng);
  const auto p = env->Upload(host.data(), host.size() * sizeof(float));
  data_[kRef] = static_cast<float *>(p.first);
  data_[kTest] = static_cast<float *>(p.second);
}

float *TwinMat::At(Side s, int32_t r, int32_t c) const {
  if (data_[s] == nullptr) return nullptr;
  return data_[s] + static_cast<int64_t>(r0_ + r) * stride_ + c0_ + c;
}

MatView TwinMat::operator[](Side s) const {
  return MatView(rows_ > 0 && cols_ > 0 ? At(s, 0, 0) : nullptr, rows_, cols_,
                 stride_);
}

MatView TwinMat::Row(Side s, int32_t r) const {
  return MatView(At(s, r, 0), 1, cols_, stride_);
}

void TwinMat::Set(const std::vector<float> &values) {
  REQUIRE(values.size() == static_cast<size_t>(rows_) * cols_);
  for (Side s : {kRef, kTest})
    env_->On(s).CopyFromHost2D(values.data(), cols_, (*this)[s]);
}

std::vector<float> TwinMat::Buffer(Side s) const {
  std::vector<float> host(static_cast<size_t>(total_rows_) * stride_);
  if (!host.empty())
    env_->On(s).CopyToHost(data_[s], host.data(), host.size() * sizeof(float));
  return host;
}

namespace {

bool Near(double ref, double test, Tol tol) {
  if (std::isnan(ref) || std::isnan(test))
    return std::isnan(ref) && std::isnan(test);
  if (std::isinf(ref) || std::isinf(test)) return ref == test;
  return std::fabs(test - ref) <= tol.abs + tol.rel * std::fabs(ref);
}

}  // namespace

std::string TwinMat::Difference(Tol tol) const {
  const std::vector<float> ref = Buffer(kRef), test = Buffer(kTest);
  int64_t bad = 0, bad_outside = 0, first = -1;
  double worst = 0.0;
  for (size_t i = 0; i < ref.size(); i++) {
    const int32_t r = static_cast<int32_t>(i / stride_) - r0_;
    const int32_t c = static_cast<int32_t>(i % stride_) - c0_;
    const bool inside = r >= 0 && r < rows_ && c >= 0 && c < cols_;
    const bool same = inside ? Near(ref[i], test[i], tol)
                             : std::memcmp(&ref[i], &test[i], 4) == 0;
    if (!same) {
      if (first < 0) first = static_cast<int64_t>(i);
      bad++;
      if (!inside) bad_outside++;
      worst = std::max(worst, std::fabs(double(test[i]) - ref[i]));
    }
  }
  if (bad == 0) return "";
  std::ostringstream os;
  os << rows_ << "x" << cols_ << " (stride " << stride_ << "): " << bad
     << " elements differ (" << bad_outside << " outside the view), worst by "
     << worst << "; first at buffer element " << first << ": ref " << ref[first]
     << ", test " << test[first];
  return os.str();
}

void TwinMat::Expect(const std::string &what, Tol tol) const {
  const std::string difference = Difference(tol);
  INFO(what << ": " << difference);
  CHECK(difference.empty());
  // The next operation starts from identical data on both sides.
  const std::vector<float> ref = Buffer(kRef);
  if (!ref.empty())
    env_->On(kTest).CopyFromHost(ref.data(), data_[kTest],
                                 ref.size() * sizeof(float));
}

TwinIndex::TwinIndex(Twins *env, const std::vector<int32_t> &values) {
  const auto p = env->Upload(values.data(), values.size() * sizeof(int32_t));
  data_[kRef] = static_cast<const int32_t *>(p.first);
  data_[kTest] = static_cast<const int32_t *>(p.second);
}

TwinPtrs::TwinPtrs(
    Twins *env, const std::vector<std::pair<const TwinMat *, int32_t>> &rows) {
  const size_t bytes = rows.size() * sizeof(float *);
  const auto p = env->Allocate(bytes);
  for (Side s : {kRef, kTest}) {
    std::vector<float *> host(rows.size());
    for (size_t i = 0; i < rows.size(); i++)
      host[i] = rows[i].first == nullptr
                    ? nullptr
                    : rows[i].first->At(s, rows[i].second, 0);
    void *dev = s == kRef ? p.first : p.second;
    if (bytes > 0) env->On(s).CopyFromHost(host.data(), dev, bytes);
    data_[s] = static_cast<float *const *>(dev);
  }
}

void ExpectScalar(const std::string &what, double ref, double test, Tol tol) {
  INFO(what << ": ref " << ref << ", test " << test);
  CHECK(Near(ref, test, tol));
}

int32_t RandDim(Rng *rng, int32_t max) {
  const int32_t pick = RandInt(rng, 0, 7);
  if (pick == 0) return 0;
  if (pick == 1) return 1;
  return RandInt(rng, 2, max);
}

int32_t RandInt(Rng *rng, int32_t lo, int32_t hi) {
  return std::uniform_int_distribution<int32_t>(lo, hi)(*rng);
}

float RandFloat(Rng *rng, float lo, float hi) {
  return std::uniform_real_distribution<float>(lo, hi)(*rng);
}

}  // namespace gpu_test
}  // namespace nnet3
