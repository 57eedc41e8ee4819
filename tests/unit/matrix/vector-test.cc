// VectorView / Vector operations against host loops.
#include "matrix/vector.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <random>

#include "matrix-test-utils.h"
#include "matrix/matrix.h"

namespace nnet3 {
namespace {

using test::HostMat;
using test::RandomHost;

void CheckVec(const VectorView &v, const std::vector<float> &want,
              float tol = 1e-4f) {
  std::vector<float> got = v.ToHost();
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < got.size(); i++) {
    INFO("element " << i << ": " << got[i] << " vs " << want[i]);
    REQUIRE(std::abs(got[i] - want[i]) <=
            tol * std::max(1.0f, std::abs(want[i])));
  }
}

TEST_CASE("Vector construction, resize, copy", "[vector]") {
  Vector v(5);
  REQUIRE(v.Dim() == 5);
  REQUIRE(v.Sum() == 0.0);
  std::vector<float> h = {1, -2, 3, 0.5f, 4};
  v.CopyFromHost(h);
  REQUIRE(v.ToHost() == h);
  REQUIRE(v.Get(2) == 3.0f);
  v.Set(2, 7.0f);
  REQUIRE(v.Get(2) == 7.0f);
  h[2] = 7.0f;
  Vector copy(v);
  REQUIRE(copy.Data() != v.Data());
  REQUIRE(copy.ToHost() == h);
  Vector moved(std::move(copy));
  REQUIRE(copy.Dim() == 0);
  REQUIRE(moved.ToHost() == h);
  Vector assigned;
  assigned = moved;
  REQUIRE(assigned.ToHost() == h);
  assigned.Resize(7, ResizeType::kCopyData);
  CheckVec(assigned, {1, -2, 7, 0.5f, 4, 0, 0}, 0.0f);
  assigned.Resize(2, ResizeType::kCopyData);
  CheckVec(assigned, {1, -2}, 0.0f);
  VectorView r = v.Range(1, 3);
  CheckVec(r, {-2, 7, 0.5f}, 0.0f);
  r.SetZero();
  CheckVec(v, {1, 0, 0, 0, 4}, 0.0f);
  REQUIRE_THROWS_AS(v.Range(3, 3), InternalError);
  Vector a(2), b(3);
  a.Swap(&b);
  REQUIRE(a.Dim() == 3);
  Vector empty;
  REQUIRE(empty.ToHost().empty());
}

TEST_CASE("Vector operations vs host loops", "[vector]") {
  std::mt19937 rng(21);
  INFO("seed 21");
  HostMat hm = RandomHost(5, 7, &rng);
  std::vector<float> ha = RandomHost(1, 7, &rng).v,
                     hb = RandomHost(1, 7, &rng).v,
                     hc = RandomHost(1, 5, &rng).v;
  Matrix m(5, 7);
  m.CopyFromHost(hm.v);
  Vector a(ha), b(hb), c(hc);

  Vector x(a);
  x.AddVec(2.0f, b);
  std::vector<float> w(7);
  for (int i = 0; i < 7; i++) w[i] = ha[i] + 2 * hb[i];
  CheckVec(x, w);
  x.Scale(0.5f);
  x.Add(1.0f);
  for (float &e : w) e = 0.5f * e + 1.0f;
  CheckVec(x, w);
  x.CopyFromVec(a);
  x.MulElements(b);
  for (int i = 0; i < 7; i++) w[i] = ha[i] * hb[i];
  CheckVec(x, w);
  x.CopyFromVec(a);
  x.ApplyFunc(Func::kExp);
  for (int i = 0; i < 7; i++) w[i] = std::exp(ha[i]);
  CheckVec(x, w);
  x.CopyFromVec(a);
  x.ApplyFloor(0.0f);
  for (int i = 0; i < 7; i++) w[i] = std::max(ha[i], 0.0f);
  CheckVec(x, w, 0.0f);

  double dot = 0, sum = 0;
  for (int i = 0; i < 7; i++) {
    dot += double(ha[i]) * hb[i];
    sum += ha[i];
  }
  REQUIRE(VecVec(a, b) == Approx(dot).margin(1e-5));
  REQUIRE(a.Sum() == Approx(sum).margin(1e-5));
  REQUIRE(a.Norm2() == Approx(std::sqrt(VecVec(a, a))));
  REQUIRE(a.Max() == *std::max_element(ha.begin(), ha.end()));
  REQUIRE(a.Min() == *std::min_element(ha.begin(), ha.end()));

  // Row and column sums.
  Vector rs(a);
  rs.AddRowSumMat(2.0f, m, 0.5f);
  for (int j = 0; j < 7; j++) {
    double s = 0;
    for (int i = 0; i < 5; i++) s += hm(i, j);
    w[j] = float(0.5 * ha[j] + 2 * s);
  }
  CheckVec(rs, w);
  Vector cs(c);
  cs.AddColSumMat(1.0f, m);
  std::vector<float> wc(5);
  for (int i = 0; i < 5; i++) {
    double s = hc[i];
    for (int j = 0; j < 7; j++) s += hm(i, j);
    wc[i] = float(s);
  }
  CheckVec(cs, wc);

  // Row-wise dot products: this(i) = 3 * (m row i . m2 row i) + 0.5 this(i).
  Matrix m2(m);
  m2.Scale(-0.5f);
  m2.Add(1.0f);
  const std::vector<float> hm2 = m2.ToHost();
  Vector dots(c);
  dots.AddDiagMatMat(3.0f, m, m2, 0.5f);
  for (int i = 0; i < 5; i++) {
    double s = 0;
    for (int j = 0; j < 7; j++) s += double(hm(i, j)) * hm2[i * 7 + j];
    wc[i] = float(0.5 * hc[i] + 3 * s);
  }
  CheckVec(dots, wc);
  REQUIRE_THROWS_AS(a.AddDiagMatMat(1.0f, m, m2, 0.0f), InternalError);

  // Matrix-vector products.
  Vector mv(5);
  mv.Set(NAN);
  mv.AddMatVec(1.0f, m, Trans::kNo, a, 0.0f);
  for (int i = 0; i < 5; i++) {
    double s = 0;
    for (int j = 0; j < 7; j++) s += double(hm(i, j)) * ha[j];
    wc[i] = float(s);
  }
  CheckVec(mv, wc);
  Vector mtv(b);
  mtv.AddMatVec(2.0f, m, Trans::kYes, c, 1.0f);
  for (int j = 0; j < 7; j++) {
    double s = 0;
    for (int i = 0; i < 5; i++) s += double(hm(i, j)) * hc[i];
    w[j] = float(hb[j] + 2 * s);
  }
  CheckVec(mtv, w);

  Vector flat(35);
  flat.CopyRowsFromMat(m);
  REQUIRE(flat.ToHost() == hm.v);
  Matrix back(5, 7);
  back.CopyFromMat(flat.AsMatrix(5, 7));
  REQUIRE(back.ToHost() == hm.v);
  Vector col(5);
  col.CopyColFromMat(m, 3);
  for (int i = 0; i < 5; i++) wc[i] = hm(i, 3);
  CheckVec(col, wc, 0.0f);
  REQUIRE(a.ApproxEqual(Vector(a)));
  REQUIRE_THROWS_AS(col.AddRowSumMat(1.0f, m), InternalError);
}

}  // namespace
}  // namespace nnet3
