// Every primitive of the Backend table on the device under test against the
// CPU backend, on random shapes: empty and single rows and columns, strided
// submatrix views (whose surroundings must stay untouched), in-place
// variants where the table allows them, and a few large shapes that need
// more than one grid pass. Tolerances are per primitive: exact where the
// device only moves numbers, a few float ulps where it computes with other
// rounding (fused multiply-add, CUDA's math functions), and scaled by the
// inner dimension for products.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "device/backend.h"
#include "device/device.h"
#include "twin.h"

namespace nnet3 {
namespace gpu_test {
namespace {

// Iterations per test case.
int Iters() { return Thorough() ? 24 : 5; }
const Tol kExact = Tol::Exact();
const Tol kArith = Tol::Rel(2e-6, 1e-6);  // a few operations, other rounding
const Tol kMath = Tol::Rel(2e-5, 2e-6);   // exp, tanh, log, pow, ...
const Tol kSum = Tol::Rel(1e-5, 1e-5);    // sums of up to thousands of terms

Backend &Ref() { return CpuDevice().backend(); }

// Shapes: mostly small and odd, sometimes big.
void RandShape(Rng *rng, int32_t *rows, int32_t *cols) {
  if (RandInt(rng, 0, 9) == 0 && Thorough()) {
    *rows = RandInt(rng, 500, 3000);
    *cols = RandInt(rng, 300, 2100);
  } else {
    *rows = RandDim(rng, 70);
    *cols = RandDim(rng, 90);
  }
}

TEST_CASE("equivalence: copies", "[gpu]") {
  Rng rng(1701);  // seed printed by the case name
  for (int it = 0; it < Iters(); it++) {
    Twins env(Ref(), TestBackend());
    int32_t rows, cols;
    RandShape(&rng, &rows, &cols);
    TwinMat a(&env, rows, cols, &rng), b(&env, rows, cols, &rng);
    std::vector<float> host(static_cast<size_t>(rows) * cols);
    for (float &x : host) x = RandFloat(&rng, -5, 5);
    a.Set(host);  // CopyFromHost2D on both sides
    a.Expect("CopyFromHost2D", kExact);
    std::vector<float> back[2];
    for (Side s : {kRef, kTest}) {
      back[s].assign(host.size() + 3, 7.0f);
      env.On(s).CopyToHost2D(a[s], back[s].data(), cols);
    }
    CHECK(back[kRef] == back[kTest]);
    env.Run([&](Backend &be, Side s) {
      be.CopyDeviceToDevice(a.At(s, 0, 0), b.At(s, 0, 0),
                            rows > 0 ? sizeof(float) * cols : 0);
    });
    b.Expect("CopyDeviceToDevice", kExact);
  }
}

TEST_CASE("equivalence: whole-matrix operations", "[gpu]") {
  Rng rng(1702);
  for (int it = 0; it < Iters(); it++) {
    Twins env(Ref(), TestBackend());
    int32_t rows, cols;
    RandShape(&rng, &rows, &cols);
    const float alpha = RandFloat(&rng, -2, 2);
    TwinMat a(&env, rows, cols, &rng), b(&env, rows, cols, &rng),
        t(&env, cols, rows, &rng);
    env.Run([&](Backend &be, Side s) { be.SetConst(b[s], alpha); });
    b.Expect("SetConst", kExact);
    env.Run([&](Backend &be, Side s) { be.AddConst(alpha, b[s]); });
    b.Expect("AddConst", kExact);
    env.Run([&](Backend &be, Side s) {
      be.CopyMat(alpha, a[s], Trans::kNo, b[s]);
    });
    b.Expect("CopyMat", kExact);
    env.Run([&](Backend &be, Side s) {
      be.CopyMat(alpha, a[s], Trans::kYes, t[s]);
    });
    t.Expect("CopyMat transposed", kExact);
    env.Run(
        [&](Backend &be, Side s) { be.AddMat(alpha, a[s], Trans::kNo, b[s]); });
    b.Expect("AddMat", kArith);
    env.Run([&](Backend &be, Side s) {
      be.AddMat(alpha, a[s], Trans::kYes, t[s]);
    });
    t.Expect("AddMat transposed", kArith);
    for (float scale : {alpha, 0.0f, 1.0f}) {
      env.Run([&](Backend &be, Side s) { be.Scale(scale, b[s]); });
      b.Expect("Scale", kExact);
    }
    for (float scale : {alpha, 0.0f, 1.0f}) {
      env.Run([&](Backend &be, Side s) {
        be.AddMatAndScaleSrc(alpha, a[s], scale, b[s]);
      });
      b.Expect("AddMatAndScaleSrc (dst)", kArith);
      a.Expect("AddMatAndScaleSrc (src)", kExact);
    }
    for (float beta : {alpha, 0.0f, 1.0f}) {
      env.Run([&](Backend &be, Side s) {
        be.ScaleAndAddMat(beta, alpha, a[s], b[s]);
      });
      b.Expect("ScaleAndAddMat", kArith);
    }
  }
}

TEST_CASE("equivalence: GEMM", "[gpu]") {
  Rng rng(1703);
  for (int it = 0; it < 3 * Iters(); it++) {
    Twins env(Ref(), TestBackend());
    const bool big = RandInt(&rng, 0, 7) == 0 && Thorough();
    const int32_t m = big ? RandInt(&rng, 100, 1500) : RandDim(&rng, 60);
    const int32_t n = big ? RandInt(&rng, 100, 2100) : RandDim(&rng, 60);
    const int32_t k = big ? RandInt(&rng, 100, 1600) : RandDim(&rng, 60);
    const bool ta = RandInt(&rng, 0, 1), tb = RandInt(&rng, 0, 1);
    TwinMat a(&env, ta ? k : m, ta ? m : k, &rng),
        b(&env, tb ? n : k, tb ? k : n, &rng), c(&env, m, n, &rng);
    const float alpha = RandFloat(&rng, -2, 2);
    const float beta = RandInt(&rng, 0, 2) == 0 ? 0.0f : RandFloat(&rng, -2, 2);
    env.Run([&](Backend &be, Side s) {
      be.Gemm(alpha, a[s], ta ? Trans::kYes : Trans::kNo, b[s],
              tb ? Trans::kYes : Trans::kNo, beta, c[s]);
    });
    // |A|, |B| < 2: each element is a sum of k products below 4|alpha|.
    c.Expect("Gemm m=" + std::to_string(m) + " n=" + std::to_string(n) +
                 " k=" + std::to_string(k),
             Tol::Rel(1e-5, 4e-7 * (k + 4) * 4 * (std::fabs(alpha) + 1)));
  }
}

// Index vectors with -1 entries; `distinct` for the scatters.
std::vector<int32_t> RandIndexes(Rng *rng, int32_t n, int32_t range,
                                 bool distinct) {
  std::vector<int32_t> idx(n);
  std::vector<int32_t> perm(range);
  for (int32_t i = 0; i < range; i++) perm[i] = i;
  std::shuffle(perm.begin(), perm.end(), *rng);
  for (int32_t i = 0; i < n; i++) {
    if (range == 0 || RandInt(rng, 0, 5) == 0 || (distinct && i >= range))
      idx[i] = -1;
    else
      idx[i] = distinct ? perm[i] : RandInt(rng, 0, range - 1);
  }
  return idx;
}

TEST_CASE("equivalence: rows through indexes, pointers and ranges", "[gpu]") {
  Rng rng(1704);
  for (int it = 0; it < Iters(); it++) {
    Twins env(Ref(), TestBackend());
    int32_t rows, cols;
    RandShape(&rng, &rows, &cols);
    const int32_t src_rows = RandDim(&rng, 80);
    const float alpha = RandFloat(&rng, -2, 2);
    TwinMat src(&env, src_rows, cols, &rng), dst(&env, rows, cols, &rng);
    TwinIndex gather(&env, RandIndexes(&rng, rows, src_rows, false));
    env.Run([&](Backend &be, Side s) {
      be.CopyRows(alpha, src[s], gather[s], dst[s]);
    });
    dst.Expect("CopyRows", kExact);
    env.Run([&](Backend &be, Side s) {
      be.AddRows(alpha, src[s], gather[s], dst[s]);
    });
    dst.Expect("AddRows", kArith);
    TwinIndex scatter(&env, RandIndexes(&rng, src_rows, rows, true));
    env.Run([&](Backend &be, Side s) {
      be.CopyToRows(src[s], scatter[s], dst[s]);
    });
    dst.Expect("CopyToRows", kExact);
    env.Run([&](Backend &be, Side s) {
      be.AddToRows(alpha, src[s], scatter[s], dst[s]);
    });
    dst.Expect("AddToRows", kArith);
    // Pointer lists into src (gathers) and into dst (scatters, distinct).
    std::vector<std::pair<const TwinMat *, int32_t>> from(rows), to(src_rows);
    const std::vector<int32_t> g = RandIndexes(&rng, rows, src_rows, false);
    const std::vector<int32_t> sc = RandIndexes(&rng, src_rows, rows, true);
    for (int32_t r = 0; r < rows; r++)
      from[r] = {g[r] < 0 ? nullptr : &src, g[r]};
    for (int32_t r = 0; r < src_rows; r++)
      to[r] = {sc[r] < 0 ? nullptr : &dst, sc[r]};
    TwinPtrs from_ptrs(&env, from), to_ptrs(&env, to);
    env.Run([&](Backend &be, Side s) {
      be.CopyRowsFromPtrs(alpha, from_ptrs[s], dst[s]);
    });
    dst.Expect("CopyRowsFromPtrs", kExact);
    env.Run([&](Backend &be, Side s) {
      be.AddRowsFromPtrs(alpha, from_ptrs[s], dst[s]);
    });
    dst.Expect("AddRowsFromPtrs", kArith);
    env.Run([&](Backend &be, Side s) { be.CopyToRowPtrs(src[s], to_ptrs[s]); });
    dst.Expect("CopyToRowPtrs", kExact);
    env.Run([&](Backend &be, Side s) {
      be.AddToRowPtrs(alpha, src[s], to_ptrs[s]);
    });
    dst.Expect("AddToRowPtrs", kArith);
    // Ranges, empty ones included.
    std::vector<int32_t> ranges(2 * rows);
    for (int32_t r = 0; r < rows; r++) {
      const int32_t b = RandInt(&rng, 0, src_rows);
      ranges[2 * r] = b;
      ranges[2 * r + 1] =
          RandInt(&rng, 0, 3) == 0 ? b : RandInt(&rng, b, src_rows);
    }
    TwinIndex range_idx(&env, ranges);
    env.Run([&](Backend &be, Side s) {
      be.AddRowRanges(alpha, src[s], range_idx[s], dst[s]);
    });
    dst.Expect("AddRowRanges", kSum);
    // Columns through index vectors (-1: a zero column, or nothing added),
    // and the element-equality mask (dst against itself and against src's
    // columns copied into it: ones and zeros both occur).
    const int32_t src_cols = RandDim(&rng, 40);
    TwinMat csrc(&env, rows, src_cols, &rng), mask(&env, rows, cols, &rng);
    TwinIndex col_idx(&env, RandIndexes(&rng, cols, src_cols, false));
    env.Run(
        [&](Backend &be, Side s) { be.CopyCols(csrc[s], col_idx[s], dst[s]); });
    dst.Expect("CopyCols", kExact);
    env.Run([&](Backend &be, Side s) {
      be.EqualElementMask(dst[s], dst[s], mask[s]);
    });
    mask.Expect("EqualElementMask (same)", kExact);
    env.Run(
        [&](Backend &be, Side s) { be.AddCols(csrc[s], col_idx[s], dst[s]); });
    dst.Expect("AddCols", kArith);
    env.Run([&](Backend &be, Side s) {
      be.CopyCols(csrc[s], col_idx[s], mask[s]);
      be.EqualElementMask(dst[s], mask[s], mask[s]);
    });
    mask.Expect("EqualElementMask", kExact);
  }
}

const Func kFuncs[] = {Func::kRelu,      Func::kSigmoid, Func::kTanh,
                       Func::kExp,       Func::kLog,     Func::kAbs,
                       Func::kSquare,    Func::kSqrt,    Func::kSign,
                       Func::kHeaviside, Func::kFloor};

TEST_CASE("equivalence: elementwise functions", "[gpu]") {
  Rng rng(1705);
  for (int it = 0; it < Iters(); it++) {
    Twins env(Ref(), TestBackend());
    int32_t rows, cols;
    RandShape(&rng, &rows, &cols);
    TwinMat x(&env, rows, cols, &rng, true, -4.0f, 4.0f),
        pos(&env, rows, cols, &rng, true, 0.01f, 4.0f),
        y(&env, rows, cols, &rng);
    for (Func f : kFuncs) {
      const bool positive = f == Func::kLog || f == Func::kSqrt;
      const TwinMat &in = positive ? pos : x;
      env.Run([&](Backend &be, Side s) { be.Apply(f, in[s], y[s]); });
      y.Expect("Apply " + std::to_string(static_cast<int>(f)), kMath);
    }
    env.Run([&](Backend &be, Side s) { be.Apply(Func::kTanh, x[s], x[s]); });
    x.Expect("Apply tanh in place", kMath);
    for (float power : {1.0f, 2.0f, 0.5f, 3.0f, 1.7f}) {
      env.Run([&](Backend &be, Side s) { be.ApplyPow(power, pos[s], y[s]); });
      y.Expect("ApplyPow " + std::to_string(power), kMath);
    }
    env.Run([&](Backend &be, Side s) { be.ApplyPow(2.0f, x[s], y[s]); });
    y.Expect("ApplyPow 2 of negatives", kMath);
    env.Run([&](Backend &be, Side s) { be.Clamp(-0.5f, 0.7f, x[s], y[s]); });
    y.Expect("Clamp", kExact);
    env.Run([&](Backend &be, Side s) { be.MulElements(x[s], y[s]); });
    y.Expect("MulElements", kExact);
    env.Run([&](Backend &be, Side s) { be.DivElements(pos[s], y[s]); });
    y.Expect("DivElements", kArith);
    env.Run([&](Backend &be, Side s) { be.MaxElements(x[s], y[s]); });
    y.Expect("MaxElements", kExact);
    env.Run([&](Backend &be, Side s) { be.MinElements(pos[s], y[s]); });
    y.Expect("MinElements", kExact);
    for (float beta : {0.0f, 0.5f}) {
      env.Run([&](Backend &be, Side s) {
        be.AddMatMatElements(-1.5f, x[s], pos[s], beta, y[s]);
      });
      y.Expect("AddMatMatElements", kArith);
    }
  }
}

TEST_CASE("equivalence: nonlinearity derivatives and softmax", "[gpu]") {
  Rng rng(1706);
  for (int it = 0; it < Iters(); it++) {
    Twins env(Ref(), TestBackend());
    int32_t rows, cols;
    RandShape(&rng, &rows, &cols);
    TwinMat x(&env, rows, cols, &rng, true, -8.0f, 8.0f),
        y(&env, rows, cols, &rng, true, 0.0f, 1.0f), d(&env, rows, cols, &rng),
        g(&env, rows, cols, &rng);
    env.Run([&](Backend &be, Side s) { be.DiffSigmoid(y[s], d[s], g[s]); });
    g.Expect("DiffSigmoid", kArith);
    env.Run([&](Backend &be, Side s) { be.DiffTanh(y[s], d[s], g[s]); });
    g.Expect("DiffTanh", kArith);
    env.Run([&](Backend &be, Side s) { be.DiffRelu(x[s], d[s], g[s]); });
    g.Expect("DiffRelu", kExact);
    env.Run([&](Backend &be, Side s) { be.SoftmaxRows(x[s], y[s]); });
    y.Expect("SoftmaxRows", kMath);
    env.Run([&](Backend &be, Side s) { be.DiffSoftmax(y[s], d[s], g[s]); });
    g.Expect("DiffSoftmax", kSum);
    env.Run([&](Backend &be, Side s) { be.DiffSoftmax(y[s], g[s], g[s]); });
    g.Expect("DiffSoftmax in place", kSum);
    env.Run([&](Backend &be, Side s) { be.LogSoftmaxRows(x[s], y[s]); });
    y.Expect("LogSoftmaxRows", kMath);
    env.Run([&](Backend &be, Side s) { be.DiffLogSoftmax(y[s], d[s], g[s]); });
    g.Expect("DiffLogSoftmax", kSum);
    env.Run([&](Backend &be, Side s) { be.SoftmaxRows(x[s], x[s]); });
    x.Expect("SoftmaxRows in place", kMath);
  }
}

// The packed codes of both sides, downloaded.
std::vector<uint8_t> PackedBytes(Twins *env, std::pair<void *, void *> packed,
                                 size_t bytes, Side s) {
  std::vector<uint8_t> host(bytes);
  if (bytes > 0)
    env->On(s).CopyToHost(s == kRef ? packed.first : packed.second, host.data(),
                          bytes);
  return host;
}

TEST_CASE("equivalence: compression", "[gpu]") {
  Rng rng(1712);
  struct Form {
    CompressedType type;
    float range;
  };
  // The sign form (ReLU outputs), and each type with a range.
  const Form forms[] = {{CompressedType::kUint8, 0.0f},
                        {CompressedType::kInt8, 1.0f},
                        {CompressedType::kUint8, 2.0f},
                        {CompressedType::kInt16, 10.0f},
                        {CompressedType::kUint16, 10.0f}};
  for (int it = 0; it < Iters(); it++) {
    for (const Form &form : forms) {
      Twins env(Ref(), TestBackend());
      int32_t rows, cols;
      RandShape(&rng, &rows, &cols);
      INFO("type " << static_cast<int>(form.type) << ", range " << form.range
                   << ", " << rows << "x" << cols);
      // Beyond the range too (clamping), with NaN, infinities, signed
      // zeros and exact half steps (ties to even) here and there.
      const float r = form.range > 0.0f ? form.range : 1.0f;
      const float step = GetCompressionScales(form.type, r).scale;
      std::vector<float> values(static_cast<size_t>(rows) * cols);
      for (float &v : values) {
        const int pick = RandInt(&rng, 0, 19);
        if (pick == 0)
          v = std::numeric_limits<float>::quiet_NaN();
        else if (pick == 1)
          v = (RandInt(&rng, 0, 1) ? 1 : -1) *
              std::numeric_limits<float>::infinity();
        else if (pick == 2)
          v = RandInt(&rng, 0, 1) ? 0.0f : -0.0f;
        else if (pick == 3)
          v = (RandInt(&rng, -300, 300) + 0.5f) * step;
        else
          v = RandFloat(&rng, -1.3f * r, 1.3f * r);
      }
      TwinMat x(&env, rows, cols, &rng), y(&env, rows, cols, &rng);
      x.Set(values);
      const size_t bytes =
          static_cast<size_t>(rows) * cols * CompressedTypeBytes(form.type);
      const std::pair<void *, void *> packed = env.Allocate(bytes);
      env.Run([&](Backend &be, Side s) {
        be.CompressMat(x[s], form.type, form.range,
                       s == kRef ? packed.first : packed.second);
      });
      CHECK(PackedBytes(&env, packed, bytes, kRef) ==
            PackedBytes(&env, packed, bytes, kTest));
      env.Run([&](Backend &be, Side s) {
        be.DecompressMat(s == kRef ? packed.first : packed.second, form.type,
                         form.range, y[s]);
      });
      y.Expect("DecompressMat", kExact);
    }
  }
}

TEST_CASE("equivalence: vectors against matrices and reductions", "[gpu]") {
  Rng rng(1707);
  for (int it = 0; it < Iters(); it++) {
    Twins env(Ref(), TestBackend());
    int32_t rows, cols;
    RandShape(&rng, &rows, &cols);
    if (RandInt(&rng, 0, 9) == 0 && Thorough())
      rows = RandInt(&rng, 20000, 70000);
    const float alpha = RandFloat(&rng, -2, 2);
    TwinMat m(&env, rows, cols, &rng), m2(&env, rows, cols, &rng),
        vr(&env, 1, cols, &rng), vc(&env, 1, rows, &rng),
        vr2(&env, 1, cols, &rng);
    env.Run([&](Backend &be, Side s) { be.AddVecToRows(alpha, vr[s], m[s]); });
    m.Expect("AddVecToRows", kArith);
    env.Run([&](Backend &be, Side s) { be.AddVecToCols(alpha, vc[s], m[s]); });
    m.Expect("AddVecToCols", kArith);
    env.Run([&](Backend &be, Side s) { be.MulColsVec(vr[s], m[s]); });
    m.Expect("MulColsVec", kExact);
    env.Run([&](Backend &be, Side s) { be.MulRowsVec(vc[s], m[s]); });
    m.Expect("MulRowsVec", kExact);
    for (bool rectify : {false, true}) {
      env.Run([&](Backend &be, Side s) {
        be.ScaleOffsetCols(rectify, vr[s], vr2[s], m2[s], m[s]);
      });
      m.Expect("ScaleOffsetCols", kArith);
      env.Run([&](Backend &be, Side s) {  // in place
        be.ScaleOffsetCols(rectify, vr[s], vr2[s], m[s], m[s]);
      });
      m.Expect("ScaleOffsetCols in place", kArith);
    }
    for (float beta : {0.0f, 0.7f}) {
      env.Run([&](Backend &be, Side s) {
        be.AddRowSumToVec(alpha, m[s], beta, vr[s]);
      });
      vr.Expect("AddRowSumToVec", kSum);
      env.Run([&](Backend &be, Side s) {
        be.AddColSumToVec(alpha, m[s], beta, vc[s]);
      });
      vc.Expect("AddColSumToVec", kSum);
      env.Run([&](Backend &be, Side s) {
        be.AddRowDotProducts(alpha, m[s], m2[s], beta, vc[s]);
      });
      vc.Expect("AddRowDotProducts", kSum);
      env.Run([&](Backend &be, Side s) {
        be.AddDiagVecMat(alpha, vc[s], m2[s], beta, m[s]);
      });
      m.Expect("AddDiagVecMat", kArith);
    }
    const double n = static_cast<double>(rows) * cols;
    ExpectScalar("Sum", Ref().Sum(m[kRef]), TestBackend().Sum(m[kTest]),
                 Tol::Rel(1e-9, 1e-9 * n));
    ExpectScalar("DotProduct", Ref().DotProduct(m[kRef], m2[kRef]),
                 TestBackend().DotProduct(m[kTest], m2[kTest]),
                 Tol::Rel(1e-9, 1e-9 * n));
    ExpectScalar("Max", Ref().Max(m[kRef]), TestBackend().Max(m[kTest]),
                 kExact);
    ExpectScalar("Min", Ref().Min(m[kRef]), TestBackend().Min(m[kTest]),
                 kExact);
  }
}

TEST_CASE("equivalence: random fills", "[gpu]") {
  Rng rng(1708);
  for (int it = 0; it < Iters(); it++) {
    Twins env(Ref(), TestBackend());
    int32_t rows, cols;
    RandShape(&rng, &rows, &cols);
    TwinMat m(&env, rows, cols, &rng);
    const uint64_t seed = rng();
    env.Run([&](Backend &be, Side s) { be.RandUniform(seed, m[s]); });
    m.Expect("RandUniform (dropout masks: bit for bit)", kExact);
    env.Run([&](Backend &be, Side s) { be.RandGaussian(seed, m[s]); });
    m.Expect("RandGaussian", Tol::Rel(3e-7, 1e-7));
  }
}

TEST_CASE("equivalence: the LSTM cell", "[gpu]") {
  Rng rng(1709);
  for (int it = 0; it < Iters(); it++) {
    Twins env(Ref(), TestBackend());
    const bool big = RandInt(&rng, 0, 5) == 0 && Thorough();
    const int32_t c = RandInt(&rng, 1, big ? 300 : 20);
    const int32_t rows = RandDim(&rng, big ? 2000 : 40);
    const bool masks = RandInt(&rng, 0, 1);
    const int32_t in_cols = 5 * c + (masks ? 3 : 0);
    TwinMat in(&env, rows, in_cols, &rng), params(&env, 3, c, &rng),
        out(&env, rows, 2 * c, &rng), od(&env, rows, 2 * c, &rng),
        dsum_in(&env, 5, c, &rng, true, 0.0f, 2.0f),
        sr(&env, 1, 10, &rng, true, 0.05f, 0.5f),
        in_deriv(&env, rows, in_cols, &rng), pd(&env, 3, c, &rng),
        vsum(&env, 5, c, &rng), dsum(&env, 5, c, &rng), srsum(&env, 5, c, &rng);
    env.Run([&](Backend &be, Side s) {
      be.LstmNonlinearity(in[s], params[s], out[s]);
    });
    out.Expect("LstmNonlinearity", kMath);
    const double count = RandFloat(&rng, 0, 10);
    const bool alias = RandInt(&rng, 0, 1);  // deriv_sum_in == deriv_sum_out
    env.Run([&](Backend &be, Side s) {
      be.DiffLstmNonlinearity(in[s], params[s], od[s],
                              alias ? dsum[s] : dsum_in[s], sr[s], count,
                              in_deriv[s], pd[s], vsum[s], dsum[s], srsum[s]);
    });
    in_deriv.Expect("DiffLstmNonlinearity in_deriv", kMath);
    pd.Expect("DiffLstmNonlinearity params_deriv", Tol::Rel(1e-4, 1e-4));
    vsum.Expect("DiffLstmNonlinearity value sums", kSum);
    dsum.Expect("DiffLstmNonlinearity deriv sums", kSum);
    srsum.Expect("DiffLstmNonlinearity self-repair", kExact);
  }
}

TEST_CASE("equivalence: grid-stride loops on very tall and very wide views",
          "[gpu]") {
  if (!Thorough()) return;  // 2 x 67 MB on the CPU: GPU runs only
  Rng rng(1710);
  Twins env(Ref(), TestBackend());
  // More rows than one grid covers (65535 blocks of 256 one-column rows),
  // and a row wider than 1024 blocks of 256 columns.
  TwinMat tall(&env, 65535 * 256 + 77, 1, &rng, false),
      wide(&env, 1, 1024 * 256 + 33, &rng, false);
  for (TwinMat *m : {&tall, &wide}) {
    env.Run(
        [&](Backend &be, Side s) { be.Apply(Func::kTanh, (*m)[s], (*m)[s]); });
    m->Expect("Apply tanh", kMath);
    env.Run([&](Backend &be, Side s) { be.RandUniform(99, (*m)[s]); });
    m->Expect("RandUniform", kExact);
    ExpectScalar("Sum", Ref().Sum((*m)[kRef]), TestBackend().Sum((*m)[kTest]),
                 Tol::Rel(1e-9, 1e-3));
  }
}

}  // namespace
}  // namespace gpu_test
}  // namespace nnet3
