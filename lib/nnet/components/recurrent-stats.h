// Activation statistics of the recurrent cells (LstmNonlinearityComponent,
// GruNonlinearityComponent, OutputGruNonlinearityComponent), kept as
// per-dimension averages plus a count, as the nonlinear components keep
// theirs: Kaldi keeps sums in memory and writes averages, so keeping the
// averages makes a model read and re-written give the same bytes. When the
// count is zero the vector holds the raw sum (zeros, normally), which is
// what Kaldi writes then.
//
//   CombineAverage(count_, count_ + n, 1.0, batch_sum, &value_avg_);
//   count_ += n;                        // the caller keeps the count
//   AddAverage(count_, alpha, other.count_, other.value_avg_, &value_avg_);
//   ScaleAverage(scale, count_, &value_avg_);  // then count_ *= scale
#ifndef NNET3_NNET_COMPONENTS_RECURRENT_STATS_H_
#define NNET3_NNET_COMPONENTS_RECURRENT_STATS_H_

#include "matrix/vector.h"

namespace nnet3 {

// `avg` is an average over old_count samples (the raw sum if old_count is
// 0); makes it the average over new_count samples of those plus `alpha *
// sum` (the raw sum if new_count is 0).
void CombineAverage(double old_count, double new_count, double alpha,
                    const VectorView &sum, VectorView *avg);
// Adds alpha times the stats (other_avg over other_count samples) to `avg`
// (over `count` samples); the caller updates the count afterwards.
void AddAverage(double count, double alpha, double other_count,
                const VectorView &other_avg, VectorView *avg);
// Scales the sums behind `avg` (over `count` samples) by `scale`; the
// caller scales the count.
void ScaleAverage(float scale, double count, VectorView *avg);

}  // namespace nnet3

#endif  // NNET3_NNET_COMPONENTS_RECURRENT_STATS_H_
