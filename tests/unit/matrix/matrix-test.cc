// MatrixView / Matrix operations against simple host loops, on several
// shapes, each operand a view inside a larger matrix (stride != cols) whose
// padding must stay untouched.
#include "matrix/matrix.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <random>

#include "matrix-test-utils.h"

namespace nnet3 {
namespace {

using test::CheckNear;
using test::HostMat;
using test::RandomHost;
using test::ToHostMat;

constexpr float kPad = 777.0f;

// A rows x cols view at offset (1, 2) of a larger matrix filled with kPad.
class Padded {
 public:
  Padded(int32_t rows, int32_t cols)
      : parent_(rows + 2, cols + 5), view_(parent_.Range(1, rows, 2, cols)) {
    parent_.Set(kPad);
  }
  explicit Padded(const HostMat &h) : Padded(h.rows, h.cols) {
    view_.CopyFromHost(h.v);
  }
  Padded(const Padded &) = delete;
  MatrixView &view() { return view_; }
  HostMat host() const { return ToHostMat(view_); }
  // Everything outside the view still holds kPad.
  void CheckPadding() const {
    HostMat p = ToHostMat(parent_);
    for (int32_t r = 0; r < p.rows; r++)
      for (int32_t c = 0; c < p.cols; c++) {
        bool inside = r >= 1 && r < 1 + view_.NumRows() && c >= 2 &&
                      c < 2 + view_.NumCols();
        if (!inside) REQUIRE(p(r, c) == kPad);
      }
  }

 private:
  Matrix parent_;
  MatrixView view_;
};

struct Shape {
  int32_t rows, cols;
};
const Shape kShapes[] = {{1, 1}, {3, 5}, {17, 33}, {64, 7}};

HostMat Transpose(const HostMat &a) {
  HostMat t(a.cols, a.rows);
  for (int32_t r = 0; r < a.rows; r++)
    for (int32_t c = 0; c < a.cols; c++) t(c, r) = a(r, c);
  return t;
}

HostMat HostMatMul(const HostMat &a, const HostMat &b) {
  HostMat c(a.rows, b.cols);
  for (int32_t i = 0; i < a.rows; i++)
    for (int32_t j = 0; j < b.cols; j++) {
      double s = 0;
      for (int32_t k = 0; k < a.cols; k++) s += double(a(i, k)) * b(k, j);
      c(i, j) = float(s);
    }
  return c;
}

template <class F>
HostMat Map(const HostMat &a, F f) {
  HostMat out = a;
  for (float &x : out.v) x = f(x);
  return out;
}

template <class F>
HostMat Zip(const HostMat &a, const HostMat &b, F f) {
  HostMat out = a;
  for (size_t i = 0; i < out.v.size(); i++) out.v[i] = f(a.v[i], b.v[i]);
  return out;
}

TEST_CASE("Matrix construction, resize, copy and move", "[matrix]") {
  Matrix m(3, 5);
  REQUIRE(m.NumRows() == 3);
  REQUIRE(m.NumCols() == 5);
  REQUIRE(m.Stride() == 8);
  REQUIRE(&m.device() == &ActiveDevice());
  REQUIRE(m.Sum() == 0.0);
  Matrix packed(3, 5, ResizeType::kSetZero,
                MatrixStrideType::kStrideEqualNumCols);
  REQUIRE(packed.Stride() == 5);

  std::mt19937 rng(11);
  INFO("seed 11");
  HostMat h = RandomHost(3, 5, &rng);
  m.CopyFromHost(h.v);
  CheckNear(m, h, 0.0f);
  REQUIRE(m.Get(2, 4) == h(2, 4));
  m.Set(1, 1, 42.0f);
  REQUIRE(m.Get(1, 1) == 42.0f);
  h(1, 1) = 42.0f;

  Matrix copy(m);
  REQUIRE(copy.Data() != m.Data());
  CheckNear(copy, h, 0.0f);
  copy.Set(0, 0, -1.0f);
  REQUIRE(m.Get(0, 0) == h(0, 0));

  Matrix assigned;
  assigned = m;
  CheckNear(assigned, h, 0.0f);

  Matrix moved(std::move(copy));
  REQUIRE(copy.NumRows() == 0);
  REQUIRE(copy.Data() == nullptr);
  REQUIRE(moved.Get(0, 0) == -1.0f);

  // kCopyData keeps the overlap and zeroes new elements.
  Matrix grown(m);
  grown.Resize(4, 6, ResizeType::kCopyData);
  HostMat g = ToHostMat(grown);
  for (int32_t r = 0; r < 4; r++)
    for (int32_t c = 0; c < 6; c++)
      REQUIRE(g(r, c) == (r < 3 && c < 5 ? h(r, c) : 0.0f));
  Matrix shrunk(m);
  shrunk.Resize(2, 2, ResizeType::kCopyData);
  REQUIRE(shrunk.Get(1, 1) == h(1, 1));
  // Same shape with kSetZero: zeroed in place.
  float *before = shrunk.Data();
  shrunk.Resize(2, 2);
  REQUIRE(shrunk.Data() == before);
  REQUIRE(shrunk.Sum() == 0.0);

  Matrix a(2, 2), b(3, 3);
  a.Set(1.0f);
  a.Swap(&b);
  REQUIRE(a.NumRows() == 3);
  REQUIRE(b.Sum() == 4.0);

  Matrix t(m, Trans::kYes);
  CheckNear(t, Transpose(h), 0.0f);

  Matrix empty;
  REQUIRE(empty.IsEmpty());
  REQUIRE(empty.ToHost().empty());
  Matrix zero_rows(0, 7);
  REQUIRE(zero_rows.NumCols() == 7);
  zero_rows.SetZero();
}

TEST_CASE("Matrix sub-views", "[matrix]") {
  std::mt19937 rng(12);
  INFO("seed 12");
  HostMat h = RandomHost(6, 7, &rng);
  Matrix m(6, 7);
  m.CopyFromHost(h.v);
  MatrixView sub = m.Range(1, 3, 2, 4);
  REQUIRE(sub.Stride() == m.Stride());
  for (int32_t r = 0; r < 3; r++)
    for (int32_t c = 0; c < 4; c++) REQUIRE(sub.Get(r, c) == h(r + 1, c + 2));
  REQUIRE(m.RowRange(5, 1).Get(0, 6) == h(5, 6));
  REQUIRE(m.ColRange(6, 1).Get(5, 0) == h(5, 6));
  VectorView row = m.Row(4);
  REQUIRE(row.Dim() == 7);
  REQUIRE(row.Get(3) == h(4, 3));
  sub.SetZero();
  REQUIRE(m.Get(1, 2) == 0.0f);
  REQUIRE(m.Get(0, 2) == h(0, 2));
  REQUIRE_THROWS_AS(m.Range(4, 3, 0, 1), InternalError);
  REQUIRE_THROWS_AS(m.Row(6), InternalError);
  REQUIRE_THROWS_AS(m.Get(0, 7), InternalError);
}

TEST_CASE("Matrix linear algebra vs host loops", "[matrix]") {
  std::mt19937 rng(13);
  INFO("seed 13");
  for (const Shape &s : kShapes) {
    INFO("shape " << s.rows << " x " << s.cols);
    HostMat ha = RandomHost(s.rows, s.cols, &rng);
    HostMat hb = RandomHost(s.rows, s.cols, &rng);
    HostMat hbt = Transpose(hb);
    Padded a(ha), b(hb), bt(hbt);

    Padded c(s.rows, s.cols);
    c.view().CopyFromMat(a.view());
    CheckNear(c.view(), ha, 0.0f);
    c.view().CopyFromMat(bt.view(), Trans::kYes);
    CheckNear(c.view(), hb, 0.0f);
    c.view().AddMat(0.5f, a.view());
    CheckNear(c.view(),
              Zip(hb, ha, [](float x, float y) { return x + 0.5f * y; }));
    c.view().AddMat(-2.0f, bt.view(), Trans::kYes);
    CheckNear(c.view(), Zip(hb, ha, [](float x, float y) {
                return x + 0.5f * y - 2.0f * x;
              }));
    c.view().CopyFromMat(a.view());
    c.view().Scale(3.0f);
    c.view().Add(1.0f);
    CheckNear(c.view(), Map(ha, [](float x) { return 3.0f * x + 1.0f; }));

    // Gemm with every transpose combination: c (rows x rows) = a b^T etc.
    HostMat want = HostMatMul(ha, hbt);
    Padded g(s.rows, s.rows);
    g.view().Set(NAN);  // beta == 0 must ignore old contents
    g.view().AddMatMat(1.0f, a.view(), Trans::kNo, bt.view(), Trans::kNo, 0.0f);
    CheckNear(g.view(), want);
    g.view().AddMatMat(1.0f, a.view(), Trans::kNo, b.view(), Trans::kYes,
                       -1.0f);
    CheckNear(g.view(), Map(want, [](float) { return 0.0f; }));
    HostMat hat = Transpose(ha);
    Padded at(hat);
    g.view().AddMatMat(2.0f, at.view(), Trans::kYes, b.view(), Trans::kYes,
                       0.0f);
    CheckNear(g.view(), Map(want, [](float x) { return 2.0f * x; }));
    g.view().AddMatMat(1.0f, at.view(), Trans::kYes, bt.view(), Trans::kNo,
                       0.5f);
    CheckNear(g.view(), Map(want, [](float x) { return 2.0f * x; }));

    double dot = 0, sum = 0, sq = 0;
    for (size_t i = 0; i < ha.v.size(); i++) {
      dot += double(ha.v[i]) * hb.v[i];
      sum += ha.v[i];
      sq += double(ha.v[i]) * ha.v[i];
    }
    REQUIRE(DotProduct(a.view(), b.view()) == Approx(dot).margin(1e-4));
    REQUIRE(TraceMatMat(a.view(), b.view(), Trans::kYes) ==
            Approx(dot).margin(1e-4));
    REQUIRE(TraceMatMat(a.view(), bt.view()) == Approx(dot).margin(1e-4));
    REQUIRE(a.view().Sum() == Approx(sum).margin(1e-4));
    REQUIRE(a.view().FrobeniusNorm() == Approx(std::sqrt(sq)));
    REQUIRE(a.view().Max() == *std::max_element(ha.v.begin(), ha.v.end()));
    REQUIRE(a.view().Min() == *std::min_element(ha.v.begin(), ha.v.end()));
    REQUIRE(a.view().IsFinite());
    for (Padded *p : {&a, &b, &bt, &c, &g, &at}) p->CheckPadding();
  }
}

TEST_CASE("Matrix elementwise operations vs host loops", "[matrix]") {
  std::mt19937 rng(14);
  INFO("seed 14");
  for (const Shape &s : kShapes) {
    INFO("shape " << s.rows << " x " << s.cols);
    HostMat ha = RandomHost(s.rows, s.cols, &rng);
    HostMat hb = Map(RandomHost(s.rows, s.cols, &rng),
                     [](float x) { return x >= 0 ? x + 0.5f : x - 0.5f; });
    Padded a(ha), b(hb), c(s.rows, s.cols);
    auto reset = [&]() { c.view().CopyFromMat(a.view()); };

    reset();
    c.view().MulElements(b.view());
    CheckNear(c.view(), Zip(ha, hb, [](float x, float y) { return x * y; }));
    reset();
    c.view().DivElements(b.view());
    CheckNear(c.view(), Zip(ha, hb, [](float x, float y) { return x / y; }));
    reset();
    c.view().MaxElements(b.view());
    CheckNear(c.view(),
              Zip(ha, hb, [](float x, float y) { return std::max(x, y); }));
    reset();
    c.view().MinElements(b.view());
    CheckNear(c.view(),
              Zip(ha, hb, [](float x, float y) { return std::min(x, y); }));
    c.view().Set(NAN);
    c.view().AddMatMatElements(2.0f, a.view(), b.view(), 0.0f);
    CheckNear(c.view(),
              Zip(ha, hb, [](float x, float y) { return 2 * x * y; }));

    c.view().ApplyFunc(Func::kExp, a.view());
    CheckNear(c.view(), Map(ha, [](float x) { return std::exp(x); }));
    reset();
    c.view().ApplyFunc(Func::kTanh);
    CheckNear(c.view(), Map(ha, [](float x) { return std::tanh(x); }));
    c.view().ApplyFunc(Func::kSigmoid, a.view());
    CheckNear(c.view(),
              Map(ha, [](float x) { return 1 / (1 + std::exp(-x)); }));
    c.view().ApplyFunc(Func::kRelu, a.view());
    CheckNear(c.view(), Map(ha, [](float x) { return std::max(x, 0.0f); }));
    reset();
    c.view().ApplyPow(2.0f);
    CheckNear(c.view(), Map(ha, [](float x) { return x * x; }));
    reset();
    c.view().Clamp(-0.5f, 0.5f);
    CheckNear(c.view(), Map(ha, [](float x) {
                return std::min(std::max(x, -0.5f), 0.5f);
              }));
    reset();
    c.view().ApplyFloor(0.25f);
    CheckNear(c.view(), Map(ha, [](float x) { return std::max(x, 0.25f); }));
    reset();
    c.view().ApplyCeiling(0.25f);
    CheckNear(c.view(), Map(ha, [](float x) { return std::min(x, 0.25f); }));

    // Row-wise softmax and log-softmax.
    HostMat sm = ha, lsm = ha;
    for (int32_t r = 0; r < s.rows; r++) {
      float mx = -INFINITY;
      for (int32_t k = 0; k < s.cols; k++) mx = std::max(mx, ha(r, k));
      double z = 0;
      for (int32_t k = 0; k < s.cols; k++) z += std::exp(ha(r, k) - mx);
      for (int32_t k = 0; k < s.cols; k++) {
        sm(r, k) = float(std::exp(ha(r, k) - mx) / z);
        lsm(r, k) = float(ha(r, k) - mx - std::log(z));
      }
    }
    c.view().SoftmaxRows(a.view());
    CheckNear(c.view(), sm);
    reset();
    c.view().LogSoftmaxRows(c.view());
    CheckNear(c.view(), lsm);

    // Derivatives: c = in_deriv from y = a and out_deriv = b.
    c.view().DiffSigmoid(a.view(), b.view());
    CheckNear(c.view(),
              Zip(ha, hb, [](float y, float d) { return d * y * (1 - y); }));
    c.view().DiffTanh(a.view(), b.view());
    CheckNear(c.view(),
              Zip(ha, hb, [](float y, float d) { return d * (1 - y * y); }));
    c.view().DiffRelu(a.view(), b.view());
    CheckNear(c.view(),
              Zip(ha, hb, [](float y, float d) { return y > 0 ? d : 0.0f; }));
    Padded y(sm);
    HostMat want = sm;
    for (int32_t r = 0; r < s.rows; r++) {
      double dot = 0;
      for (int32_t k = 0; k < s.cols; k++) dot += double(hb(r, k)) * sm(r, k);
      for (int32_t k = 0; k < s.cols; k++)
        want(r, k) = float(sm(r, k) * (hb(r, k) - dot));
    }
    c.view().DiffSoftmax(y.view(), b.view());
    CheckNear(c.view(), want);
    for (Padded *p : {&a, &b, &c, &y}) p->CheckPadding();
  }
}

TEST_CASE("Matrix row gathers and scatters vs host loops", "[matrix]") {
  std::mt19937 rng(15);
  INFO("seed 15");
  HostMat hs = RandomHost(6, 5, &rng);
  Padded src(hs);
  std::vector<int32_t> idx = {5, -1, 0, 0, 3};
  IndexVector dev_idx(idx);
  REQUIRE(dev_idx.Dim() == 5);
  REQUIRE(dev_idx.MinIndex() == -1);
  REQUIRE(dev_idx.MaxIndex() == 5);
  REQUIRE(dev_idx.ToHost() == idx);

  Padded dst(5, 5);
  dst.view().Set(9.0f);
  dst.view().CopyRows(src.view(), dev_idx);
  HostMat want(5, 5);
  for (int32_t r = 0; r < 5; r++)
    for (int32_t c = 0; c < 5; c++)
      want(r, c) = idx[r] < 0 ? 0.0f : hs(idx[r], c);
  CheckNear(dst.view(), want, 0.0f);

  dst.view().AddRows(2.0f, src.view(), dev_idx);
  for (int32_t r = 0; r < 5; r++)
    for (int32_t c = 0; c < 5; c++)
      if (idx[r] >= 0) want(r, c) += 2.0f * hs(idx[r], c);
  CheckNear(dst.view(), want);

  // Scatter: rows of a 3 x 5 matrix into rows {4, -1, 1} of a 6 x 5 one.
  HostMat hsmall = RandomHost(3, 5, &rng);
  Padded small(hsmall);
  IndexVector to({4, -1, 1});
  Padded big(hs);
  small.view().CopyToRows(to, &big.view());
  HostMat wbig = hs;
  for (int32_t c = 0; c < 5; c++) {
    wbig(4, c) = hsmall(0, c);
    wbig(1, c) = hsmall(2, c);
  }
  CheckNear(big.view(), wbig, 0.0f);
  small.view().AddToRows(-1.0f, to, &big.view());
  for (int32_t c = 0; c < 5; c++) {
    wbig(4, c) -= hsmall(0, c);
    wbig(1, c) -= hsmall(2, c);
  }
  CheckNear(big.view(), wbig);

  // Row ranges: dst row r += sum of src rows [b, e).
  IndexVector ranges = IndexVector::FromRanges({{0, 2}, {3, 3}, {1, 6}});
  Padded acc(3, 5);
  acc.view().SetZero();
  acc.view().AddRowRanges(1.0f, src.view(), ranges);
  HostMat wacc(3, 5);
  int32_t lo[] = {0, 3, 1}, hi[] = {2, 3, 6};
  for (int32_t r = 0; r < 3; r++)
    for (int32_t k = lo[r]; k < hi[r]; k++)
      for (int32_t c = 0; c < 5; c++) wacc(r, c) += hs(k, c);
  CheckNear(acc.view(), wacc);

  // Pointer lists.
  RowPointers ptrs(std::vector<float *>{src.view().RowData(2), nullptr,
                                        src.view().RowData(0)});
  Padded p(3, 5);
  p.view().CopyRows(ptrs);
  HostMat wp(3, 5);
  for (int32_t c = 0; c < 5; c++) {
    wp(0, c) = hs(2, c);
    wp(2, c) = hs(0, c);
  }
  CheckNear(p.view(), wp, 0.0f);
  p.view().AddRows(1.0f, ptrs);
  CheckNear(p.view(), Map(wp, [](float x) { return 2 * x; }));
  Padded target(6, 5);
  target.view().SetZero();
  RowPointers tptrs(std::vector<float *>{target.view().RowData(5), nullptr,
                                         target.view().RowData(1)});
  p.view().CopyToRows(tptrs);
  p.view().AddToRows(1.0f, tptrs);
  HostMat wt(6, 5);
  for (int32_t c = 0; c < 5; c++) {
    wt(5, c) = 4 * hs(2, c);
    wt(1, c) = 4 * hs(0, c);
  }
  CheckNear(target.view(), wt);
  for (Padded *q : {&src, &dst, &small, &big, &acc, &p, &target})
    q->CheckPadding();

  // Out-of-range indexes are refused before the backend runs.
  IndexVector bad({0, 6, 1, 1, 1});
  REQUIRE_THROWS_AS(dst.view().CopyRows(src.view(), bad), InternalError);
  IndexVector short_idx({0});
  REQUIRE_THROWS_AS(dst.view().CopyRows(src.view(), short_idx), InternalError);
}

TEST_CASE("Matrix operations with vectors vs host loops", "[matrix]") {
  std::mt19937 rng(16);
  INFO("seed 16");
  HostMat hm = RandomHost(4, 6, &rng);
  HostMat hr = RandomHost(1, 6, &rng), hc = RandomHost(1, 4, &rng);
  Vector vr(hr.v), vc(hc.v);
  Padded m(hm);
  auto reset = [&]() { m.view().CopyFromHost(hm.v); };

  m.view().AddVecToRows(2.0f, vr);
  HostMat w = hm;
  for (int32_t r = 0; r < 4; r++)
    for (int32_t c = 0; c < 6; c++) w(r, c) += 2 * hr.v[c];
  CheckNear(m.view(), w);
  reset();
  m.view().AddVecToCols(-1.0f, vc);
  w = hm;
  for (int32_t r = 0; r < 4; r++)
    for (int32_t c = 0; c < 6; c++) w(r, c) -= hc.v[r];
  CheckNear(m.view(), w);
  reset();
  m.view().MulColsVec(vr);
  w = hm;
  for (int32_t r = 0; r < 4; r++)
    for (int32_t c = 0; c < 6; c++) w(r, c) *= hr.v[c];
  CheckNear(m.view(), w);
  reset();
  m.view().MulRowsVec(vc);
  w = hm;
  for (int32_t r = 0; r < 4; r++)
    for (int32_t c = 0; c < 6; c++) w(r, c) *= hc.v[r];
  CheckNear(m.view(), w);
  reset();
  m.view().AddVecVec(0.5f, vc, vr);
  w = hm;
  for (int32_t r = 0; r < 4; r++)
    for (int32_t c = 0; c < 6; c++) w(r, c) += 0.5f * hc.v[r] * hr.v[c];
  CheckNear(m.view(), w);

  m.view().CopyRowsFromVec(vr);
  for (int32_t r = 0; r < 4; r++)
    for (int32_t c = 0; c < 6; c++) w(r, c) = hr.v[c];
  CheckNear(m.view(), w, 0.0f);
  Vector all(hm.v);
  m.view().CopyRowsFromVec(all);
  CheckNear(m.view(), hm, 0.0f);
  m.view().CopyColFromVec(vc, 5);
  w = hm;
  for (int32_t r = 0; r < 4; r++) w(r, 5) = hc.v[r];
  CheckNear(m.view(), w, 0.0f);

  reset();
  Matrix src(4, 6);
  src.CopyFromHost(hm.v);
  m.view().AddDiagVecMat(2.0f, vc, src, Trans::kNo, 1.0f);
  w = hm;
  for (int32_t r = 0; r < 4; r++)
    for (int32_t c = 0; c < 6; c++) w(r, c) += 2 * hc.v[r] * hm(r, c);
  CheckNear(m.view(), w);
  m.view().AddMatDiagVec(1.0f, src, Trans::kNo, vr, 0.0f);
  for (int32_t r = 0; r < 4; r++)
    for (int32_t c = 0; c < 6; c++) w(r, c) = hm(r, c) * hr.v[c];
  CheckNear(m.view(), w);
  m.CheckPadding();
  REQUIRE_THROWS_AS(m.view().AddVecToRows(1.0f, vc), InternalError);
}

TEST_CASE("Matrix random fill, ApproxEqual, errors", "[matrix]") {
  Matrix a(50, 40), b(50, 40);
  a.SetRandUniform(7);
  b.SetRandUniform(7);
  REQUIRE(a.ToHost() == b.ToHost());
  REQUIRE(a.Min() >= 0.0f);
  REQUIRE(a.Max() < 1.0f);
  REQUIRE(a.Sum() / 2000 == Approx(0.5).margin(0.05));
  b.SetRandn(8);
  double mean = b.Sum() / 2000, var = DotProduct(b, b) / 2000;
  REQUIRE(mean == Approx(0.0).margin(0.1));
  REQUIRE(var == Approx(1.0).margin(0.15));

  Matrix c(a);
  REQUIRE(a.ApproxEqual(c));
  c.Set(3, 3, c.Get(3, 3) + 1e-4f);
  REQUIRE(a.ApproxEqual(c, 0.001f));
  c.Set(3, 3, c.Get(3, 3) + 10.0f);
  REQUIRE_FALSE(a.ApproxEqual(c, 0.01f));
  c.Set(0, 0, INFINITY);
  REQUIRE_FALSE(c.IsFinite());

  Matrix wrong(3, 3);
  REQUIRE_THROWS_AS(a.CopyFromMat(wrong), InternalError);
  REQUIRE_THROWS_AS(a.AddMatMat(1.0f, a, Trans::kNo, a, Trans::kNo, 0.0f),
                    InternalError);
  REQUIRE_THROWS_AS(a.ApproxEqual(wrong), InternalError);
}

}  // namespace
}  // namespace nnet3
