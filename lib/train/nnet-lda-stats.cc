#include "train/nnet-lda-stats.h"

#include <cmath>
#include <vector>

#include "base/error.h"

namespace nnet3 {

float RandPrune(float weight, float rand_prune, RandomState *rng) {
  NNET3_ASSERT(rand_prune >= 0.0f);
  if (weight == 0.0f || std::abs(weight) >= rand_prune) return weight;
  const float sign = weight >= 0.0f ? 1.0f : -1.0f;
  return rng->Uniform() <= std::abs(weight) / rand_prune ? sign * rand_prune
                                                         : 0.0f;
}

NnetLdaStatsAccumulator::NnetLdaStatsAccumulator(float rand_prune,
                                                 const Nnet &nnet,
                                                 uint32_t seed)
    : rand_prune_(rand_prune), computer_(nnet), rng_(seed) {
  if (rand_prune < 0.0f)
    NNET3_ERR << "--rand-prune=" << rand_prune << " must be >= 0";
}

void NnetLdaStatsAccumulator::AccStats(const NnetExample &eg) {
  const NnetIo *supervision = nullptr;
  for (const NnetIo &io : eg.io)
    if (io.name == "output") supervision = &io;
  if (supervision == nullptr)
    NNET3_ERR << "The example has no io named 'output' (the supervision "
                 "that gives the classes)";
  Matrix output;
  computer_.Compute(eg, "output", &output);
  const int32_t num_rows = supervision->features.NumRows(),
                num_classes = supervision->features.NumCols();
  NNET3_ASSERT(output.NumRows() == num_rows);
  if (stats_.Dim() == 0) stats_.Init(num_classes, output.NumCols());
  if (stats_.NumClasses() != num_classes || stats_.Dim() != output.NumCols())
    NNET3_ERR << "The example's supervision has " << num_classes
              << " classes and the output dimension " << output.NumCols()
              << ", but earlier examples had " << stats_.NumClasses() << " and "
              << stats_.Dim();
  Matrix dense;
  supervision->features.GetMatrix(&dense);
  std::vector<float> weights = dense.ToHost();
  for (float &w : weights) w = RandPrune(w, rand_prune_, &rng_);
  Matrix weight_mat(num_rows, num_classes, ResizeType::kUndefined,
                    output.device());
  weight_mat.CopyFromHost(weights);
  stats_.AccumulateMatrix(output, weight_mat);
}

}  // namespace nnet3
