#include "nnet/components/weight-bias-params.h"

#include "base/error.h"
#include "nnet/init-random.h"

namespace nnet3 {

void ScaleWeightBias(float scale, Matrix *w, Vector *b) {
  if (scale == 0.0f) {
    w->SetZero();
    b->SetZero();
  } else {
    w->Scale(scale);
    b->Scale(scale);
  }
}

void PerturbWeightBias(float stddev, uint64_t seed, Matrix *w, Vector *b) {
  Matrix noise(w->NumRows(), w->NumCols(), ResizeType::kUndefined, w->device());
  noise.SetRandn(seed);
  w->AddMat(stddev, noise);
  Vector bias_noise(b->Dim(), ResizeType::kUndefined, b->device());
  bias_noise.SetRandn(BiasSeed(seed));
  b->AddVec(stddev, bias_noise);
}

void VectorizeWeightBias(const Matrix &w, const Vector &b, VectorView *params) {
  const int32_t n = w.NumRows() * w.NumCols();
  NNET3_ASSERT(params->Dim() == n + b.Dim());
  params->Range(0, n).CopyRowsFromMat(w);
  params->Range(n, b.Dim()).CopyFromVec(b);
}

void UnVectorizeWeightBias(const VectorView &params, Matrix *w, Vector *b) {
  const int32_t n = w->NumRows() * w->NumCols();
  NNET3_ASSERT(params.Dim() == n + b->Dim());
  w->CopyRowsFromVec(params.Range(0, n));
  b->CopyFromVec(params.Range(n, b->Dim()));
}

}  // namespace nnet3
