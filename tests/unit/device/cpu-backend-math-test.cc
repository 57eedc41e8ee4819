// Tests of the CPU backend's elementwise functions, their derivatives and
// row softmax against double-precision loops, edge values included (log of
// 0, softmax of large values, NaN in ignored outputs).
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "device/cpu-backend.h"
#include "test-views.h"

namespace nnet3 {
namespace {

using test::CheckMat;
using test::RandDim;
using test::RandFloat;
using test::Ref;
using test::Rng;
using test::TestMat;

const double kInf = std::numeric_limits<double>::infinity();
const float kNaN = std::numeric_limits<float>::quiet_NaN();

double RefFunc(Func f, double x) {
  switch (f) {
    case Func::kRelu:
      return x > 0 ? x : 0.0;
    case Func::kSigmoid:
      return 1.0 / (1.0 + std::exp(-x));
    case Func::kTanh:
      return std::tanh(x);
    case Func::kExp:
      return std::exp(x);
    case Func::kLog:
      return std::log(x);
    case Func::kAbs:
      return std::fabs(x);
    case Func::kSquare:
      return x * x;
    case Func::kSqrt:
      return std::sqrt(x);
    case Func::kSign:
      return x > 0 ? 1.0 : (x < 0 ? -1.0 : 0.0);
    case Func::kHeaviside:
      return x > 0 ? 1.0 : 0.0;
    case Func::kFloor:
      return std::floor(x);
  }
  return 0.0;
}

const Func kAllFuncs[] = {Func::kRelu,      Func::kSigmoid, Func::kTanh,
                          Func::kExp,       Func::kLog,     Func::kAbs,
                          Func::kSquare,    Func::kSqrt,    Func::kSign,
                          Func::kHeaviside, Func::kFloor};

Ref MapRef(const TestMat &in, double (*f)(double, double), double arg) {
  Ref want(in);
  for (double &v : want.v) v = f(v, arg);
  return want;
}

TEST_CASE("CpuBackend Apply on random inputs", "[device][cpu-backend]") {
  CpuBackend cpu;
  const uint32_t seed = 301;
  INFO("seed " << seed);
  Rng rng(seed);
  for (int trial = 0; trial < 20; trial++) {
    const int32_t rows = RandDim(&rng, 12), cols = RandDim(&rng, 12);
    for (Func f : kAllFuncs) {
      INFO("trial " << trial << " func " << static_cast<int>(f));
      TestMat in(rows, cols, &rng);
      if (f == Func::kLog || f == Func::kSqrt)
        in.FillView(&rng, 0.01f, 5.0f);
      else
        in.FillView(&rng, -4.0f, 4.0f);
      Ref want(in);
      for (double &v : want.v) v = RefFunc(f, v);
      const TestMat out(rows, cols, &rng);
      TestMat x = out;
      cpu.Apply(f, in.cview(), x.view());
      CheckMat(x, out, want, 1e-6);
      x = in;  // in place
      cpu.Apply(f, x.cview(), x.view());
      CheckMat(x, in, want, 1e-6);
    }
  }
}

TEST_CASE("CpuBackend Apply at edge values", "[device][cpu-backend]") {
  CpuBackend cpu;
  struct Case {
    Func f;
    float x;
    double want;
  };
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const Case cases[] = {
      {Func::kLog, 0.0f, -kInf},     {Func::kLog, -1.0f, nan},
      {Func::kLog, 1.0f, 0.0},       {Func::kExp, -200.0f, 0.0},
      {Func::kExp, 100.0f, kInf},    {Func::kSigmoid, -100.0f, 0.0},
      {Func::kSigmoid, 100.0f, 1.0}, {Func::kSigmoid, 0.0f, 0.5},
      {Func::kTanh, 50.0f, 1.0},     {Func::kTanh, -50.0f, -1.0},
      {Func::kSqrt, -1.0f, nan},     {Func::kSqrt, 0.0f, 0.0},
      {Func::kSign, 0.0f, 0.0},      {Func::kSign, -3.0f, -1.0},
      {Func::kHeaviside, 0.0f, 0.0}, {Func::kHeaviside, 1e-30f, 1.0},
      {Func::kRelu, -1e30f, 0.0},    {Func::kFloor, -1.5f, -2.0},
      {Func::kAbs, -INFINITY, kInf}, {Func::kSquare, 1e20f, kInf},
  };
  for (const Case &c : cases) {
    INFO("func " << static_cast<int>(c.f) << " x " << c.x);
    float in = c.x, out = 123.0f;
    cpu.Apply(c.f, ConstMatView(&in, 1, 1, 1), MatView(&out, 1, 1, 1));
    CHECK(test::Close(out, c.want, 1e-6));
  }
}

TEST_CASE("CpuBackend ApplyPow and Clamp", "[device][cpu-backend]") {
  CpuBackend cpu;
  const uint32_t seed = 302;
  INFO("seed " << seed);
  Rng rng(seed);
  auto pow = [](double x, double p) { return std::pow(x, p); };
  for (int trial = 0; trial < 20; trial++) {
    const int32_t rows = RandDim(&rng, 12), cols = RandDim(&rng, 12);
    for (float power : {2.0f, 0.5f, 1.0f, 3.0f, -1.0f, 1.7f, 0.0f}) {
      INFO("trial " << trial << " power " << power);
      TestMat in(rows, cols, &rng);
      // Negative inputs only for integer powers (NaN otherwise, below).
      if (power != std::floor(power)) in.FillView(&rng, 0.1f, 3.0f);
      const TestMat out(rows, cols, &rng);
      TestMat x = out;
      cpu.ApplyPow(power, in.cview(), x.view());
      CheckMat(x, out, MapRef(in, pow, power), 1e-5);
      x = in;
      cpu.ApplyPow(power, x.cview(), x.view());
      CheckMat(x, in, MapRef(in, pow, power), 1e-5);
    }
    const TestMat in(rows, cols, &rng), out(rows, cols, &rng);
    TestMat x = out;
    Ref want(in);
    for (double &v : want.v) v = std::min(std::max(v, -0.5), double(0.7f));
    cpu.Clamp(-0.5f, 0.7f, in.cview(), x.view());
    CheckMat(x, out, want, 0.0);
    x = in;
    cpu.Clamp(-0.5f, 0.7f, x.cview(), x.view());
    CheckMat(x, in, want, 0.0);
  }
  float neg = -2.0f, out = 0.0f;
  cpu.ApplyPow(0.5f, ConstMatView(&neg, 1, 1, 1), MatView(&out, 1, 1, 1));
  CHECK(std::isnan(out));
  cpu.ApplyPow(1.5f, ConstMatView(&neg, 1, 1, 1), MatView(&out, 1, 1, 1));
  CHECK(std::isnan(out));
}

TEST_CASE("CpuBackend two-matrix elementwise operations",
          "[device][cpu-backend]") {
  CpuBackend cpu;
  const uint32_t seed = 303;
  INFO("seed " << seed);
  Rng rng(seed);
  for (int trial = 0; trial < 30; trial++) {
    const int32_t rows = RandDim(&rng, 12), cols = RandDim(&rng, 12);
    TestMat src(rows, cols, &rng);
    const TestMat dst(rows, cols, &rng);
    // Keep divisors away from zero.
    for (int32_t r = 0; r < rows; r++)
      for (int32_t c = 0; c < cols; c++)
        if (std::fabs(src(r, c)) < 0.25f) src(r, c) += 0.5f;
    Ref mul(dst), div(dst), max(dst), min(dst);
    for (int32_t r = 0; r < rows; r++) {
      for (int32_t c = 0; c < cols; c++) {
        mul(r, c) *= src(r, c);
        div(r, c) /= src(r, c);
        max(r, c) = std::max<double>(dst(r, c), src(r, c));
        min(r, c) = std::min<double>(dst(r, c), src(r, c));
      }
    }
    TestMat x = dst;
    cpu.MulElements(src.cview(), x.view());
    CheckMat(x, dst, mul, 1e-6);
    x = dst;
    cpu.DivElements(src.cview(), x.view());
    CheckMat(x, dst, div, 1e-6);
    x = dst;
    cpu.MaxElements(src.cview(), x.view());
    CheckMat(x, dst, max, 0.0);
    x = dst;
    cpu.MinElements(src.cview(), x.view());
    CheckMat(x, dst, min, 0.0);

    const TestMat a(rows, cols, &rng), b(rows, cols, &rng);
    for (float beta : {0.0f, 1.0f, -0.5f}) {
      const float alpha = RandFloat(&rng, -2, 2);
      TestMat d = dst;
      if (beta == 0.0f) d.SetView(kNaN);  // must be ignored
      Ref want(rows, cols);
      for (int32_t r = 0; r < rows; r++)
        for (int32_t c = 0; c < cols; c++)
          want(r, c) =
              alpha * a(r, c) * b(r, c) + (beta == 0.0f ? 0.0 : beta * d(r, c));
      x = d;
      cpu.AddMatMatElements(alpha, a.cview(), b.cview(), beta, x.view());
      CheckMat(x, d, want, 1e-6);
    }
  }
}

TEST_CASE("CpuBackend nonlinearity derivatives", "[device][cpu-backend]") {
  CpuBackend cpu;
  const uint32_t seed = 304;
  INFO("seed " << seed);
  Rng rng(seed);
  for (int trial = 0; trial < 30; trial++) {
    const int32_t rows = RandDim(&rng, 12), cols = RandDim(&rng, 12);
    TestMat y(rows, cols, &rng);
    const TestMat od(rows, cols, &rng), id(rows, cols, &rng);
    for (int which = 0; which < 3; which++) {
      INFO("trial " << trial << " derivative " << which);
      if (which == 0) y.FillView(&rng, 0.0f, 1.0f);   // sigmoid outputs
      if (which == 1) y.FillView(&rng, -1.0f, 1.0f);  // tanh outputs
      if (which == 2)
        for (int32_t r = 0; r < rows; r++)  // relu outputs, zeros included
          for (int32_t c = 0; c < cols; c++)
            y(r, c) = std::max(0.0f, RandFloat(&rng, -1.0f, 1.0f));
      Ref want(rows, cols);
      for (int32_t r = 0; r < rows; r++) {
        for (int32_t c = 0; c < cols; c++) {
          const double v = y(r, c), d = od(r, c);
          want(r, c) = which == 0   ? d * v * (1 - v)
                       : which == 1 ? d * (1 - v * v)
                                    : (v > 0 ? d : 0.0);
        }
      }
      auto run = [&](ConstMatView out_deriv, MatView in_deriv) {
        if (which == 0) cpu.DiffSigmoid(y.cview(), out_deriv, in_deriv);
        if (which == 1) cpu.DiffTanh(y.cview(), out_deriv, in_deriv);
        if (which == 2) cpu.DiffRelu(y.cview(), out_deriv, in_deriv);
      };
      TestMat x = id;
      run(od.cview(), x.view());
      CheckMat(x, id, want, 1e-6);
      x = od;  // in_deriv == out_deriv
      run(x.cview(), x.view());
      CheckMat(x, od, want, 1e-6);
    }
  }
}

// Row softmax (log == false) or log-softmax in double.
Ref SoftmaxRef(const TestMat &in, bool log) {
  Ref want(in);
  for (int32_t r = 0; r < want.rows; r++) {
    double max = -kInf, sum = 0.0;
    for (int32_t c = 0; c < want.cols; c++) max = std::max(max, want(r, c));
    for (int32_t c = 0; c < want.cols; c++) sum += std::exp(want(r, c) - max);
    for (int32_t c = 0; c < want.cols; c++)
      want(r, c) = log ? want(r, c) - max - std::log(sum)
                       : std::exp(want(r, c) - max) / sum;
  }
  return want;
}

TEST_CASE("CpuBackend softmax and log-softmax", "[device][cpu-backend]") {
  CpuBackend cpu;
  const uint32_t seed = 305;
  INFO("seed " << seed);
  Rng rng(seed);
  for (int trial = 0; trial < 30; trial++) {
    const int32_t rows = RandDim(&rng, 12), cols = RandDim(&rng, 40);
    TestMat in(rows, cols, &rng);
    in.FillView(&rng, -5.0f, 5.0f);
    if (rows > 0 && cols > 1) {  // large values must not overflow
      in(0, 0) = 1000.0f;
      in(0, 1) = 999.0f;
      in(rows - 1, cols - 1) = -1000.0f;
    }
    for (bool log : {false, true}) {
      INFO("trial " << trial << " log " << log);
      const Ref want = SoftmaxRef(in, log);
      const TestMat out(rows, cols, &rng);
      TestMat x = out;
      if (log)
        cpu.LogSoftmaxRows(in.cview(), x.view());
      else
        cpu.SoftmaxRows(in.cview(), x.view());
      CheckMat(x, out, want, 1e-5);
      x = in;  // in place
      if (log)
        cpu.LogSoftmaxRows(x.cview(), x.view());
      else
        cpu.SoftmaxRows(x.cview(), x.view());
      CheckMat(x, in, want, 1e-5);
      for (int32_t r = 0; r < rows && !log && cols > 0; r++) {
        double sum = 0.0;
        for (int32_t c = 0; c < cols; c++) sum += x(r, c);
        CHECK(sum == Approx(1.0).epsilon(1e-5));
      }
    }
  }
}

TEST_CASE("CpuBackend softmax derivatives", "[device][cpu-backend]") {
  CpuBackend cpu;
  const uint32_t seed = 306;
  INFO("seed " << seed);
  Rng rng(seed);
  for (int trial = 0; trial < 30; trial++) {
    const int32_t rows = RandDim(&rng, 12), cols = RandDim(&rng, 20);
    for (bool log : {false, true}) {
      INFO("trial " << trial << " log " << log);
      TestMat y(rows, cols, &rng);
      if (log)
        cpu.LogSoftmaxRows(y.cview(), y.view());
      else
        cpu.SoftmaxRows(y.cview(), y.view());
      const TestMat od(rows, cols, &rng), id(rows, cols, &rng);
      Ref want(rows, cols);
      for (int32_t r = 0; r < rows; r++) {
        double s = 0.0;
        for (int32_t c = 0; c < cols; c++)
          s += log ? od(r, c) : od(r, c) * static_cast<double>(y(r, c));
        for (int32_t c = 0; c < cols; c++)
          want(r, c) = log ? od(r, c) - std::exp(double(y(r, c))) * s
                           : y(r, c) * (od(r, c) - s);
      }
      auto run = [&](ConstMatView out_deriv, MatView in_deriv) {
        if (log)
          cpu.DiffLogSoftmax(y.cview(), out_deriv, in_deriv);
        else
          cpu.DiffSoftmax(y.cview(), out_deriv, in_deriv);
      };
      TestMat x = id;
      run(od.cview(), x.view());
      CheckMat(x, id, want, 1e-5);
      x = od;  // in_deriv == out_deriv
      run(x.cview(), x.view());
      CheckMat(x, od, want, 1e-5);
    }
  }
}

}  // namespace
}  // namespace nnet3
