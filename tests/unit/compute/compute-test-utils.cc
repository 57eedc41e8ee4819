#include "compute-test-utils.h"

#include <catch2/catch.hpp>
#include <sstream>

namespace nnet3 {

Nnet TinyNnet() {
  return NnetFromConfigText(
      "input-node name=input dim=3\n"
      "component name=affine type=AffineComponent input-dim=3 output-dim=4 "
      "learning-rate=0.1 param-stddev=0.5 bias-stddev=0.5\n"
      "component-node name=affine component=affine input=input\n"
      "component name=relu type=RectifiedLinearComponent dim=4\n"
      "component-node name=relu component=relu input=affine\n"
      "output-node name=output input=relu\n",
      "tiny.config");
}

Nnet NnetFromConfigText(const std::string &config, const std::string &name) {
  std::istringstream is(config);
  Nnet nnet;
  nnet.ReadConfig(is, name);
  return nnet;
}

Matrix RandomMatrix(int32_t rows, int32_t cols, uint64_t seed) {
  Matrix m(rows, cols);
  m.SetRandn(seed);
  return m;
}

void CheckNear(const std::vector<float> &got, const std::vector<float> &want,
               float tol) {
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    INFO("element " << i);
    CHECK(got[i] == Approx(want[i]).margin(tol));
  }
}

void CheckNear(const MatrixView &got, const MatrixView &want, float tol) {
  REQUIRE(got.NumRows() == want.NumRows());
  REQUIRE(got.NumCols() == want.NumCols());
  CheckNear(got.ToHost(), want.ToHost(), tol);
}

const AffineComponent &GetAffine(const Nnet &nnet) {
  const auto *a = dynamic_cast<const AffineComponent *>(
      nnet.GetComponent(nnet.GetComponentIndex("affine")));
  REQUIRE(a != nullptr);
  return *a;
}

const NonlinearComponent &GetRelu(const Nnet &nnet) {
  const auto *r = dynamic_cast<const NonlinearComponent *>(
      nnet.GetComponent(nnet.GetComponentIndex("relu")));
  REQUIRE(r != nullptr);
  return *r;
}

Reference DirectAffineRelu(const AffineComponent &a, const Matrix &x,
                           const Matrix &dy) {
  const Matrix &w = a.LinearParams();
  Reference r;
  Matrix y1(x.NumRows(), w.NumRows());
  y1.CopyRowsFromVec(a.BiasParams());
  y1.AddMatMat(1.0f, x, Trans::kNo, w, Trans::kYes, 1.0f);
  r.y = Matrix(y1);
  r.y.ApplyFloor(0.0f);
  Matrix d1(dy);
  std::vector<float> yh = r.y.ToHost(), dh = d1.ToHost();
  for (size_t i = 0; i < yh.size(); ++i)
    if (!(yh[i] > 0.0f)) dh[i] = 0.0f;
  d1.CopyFromHost(dh);
  r.dx = Matrix(x.NumRows(), w.NumCols());
  r.dx.AddMatMat(1.0f, d1, Trans::kNo, w, Trans::kNo, 0.0f);
  r.new_w = Matrix(w);
  r.new_w.AddMatMat(a.LearningRate(), d1, Trans::kYes, x, Trans::kNo, 1.0f);
  r.new_b = Vector(a.BiasParams());
  r.new_b.AddRowSumMat(a.LearningRate(), d1, 1.0f);
  return r;
}

Reference Direct(const Nnet &nnet, const Matrix &x, const Matrix &dy) {
  return DirectAffineRelu(GetAffine(nnet), x, dy);
}

}  // namespace nnet3
