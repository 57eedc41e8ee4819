#include "nnet/components/recurrent-stats.h"

#include "base/error.h"

namespace nnet3 {

void CombineAverage(double old_count, double new_count, double alpha,
                    const VectorView &sum, VectorView *avg) {
  NNET3_ASSERT(sum.Dim() == avg->Dim());
  double old_weight = old_count != 0.0 ? old_count : 1.0;
  double denom = new_count != 0.0 ? new_count : 1.0;
  avg->Scale(static_cast<float>(old_weight / denom));
  avg->AddVec(static_cast<float>(alpha / denom), sum);
}

void AddAverage(double count, double alpha, double other_count,
                const VectorView &other_avg, VectorView *avg) {
  double other_weight = other_count != 0.0 ? other_count : 1.0;
  CombineAverage(count, count + alpha * other_count, alpha * other_weight,
                 other_avg, avg);
}

void ScaleAverage(float scale, double count, VectorView *avg) {
  if (scale == 0.0f)
    avg->SetZero();
  else if (count == 0.0)
    avg->Scale(scale);
}

}  // namespace nnet3
