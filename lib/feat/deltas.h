// Delta features: each frame followed by its first, second, ... time
// derivatives (Kaldi's DeltaFeatures / ComputeDeltas, add-deltas).
//
//   DeltaFeaturesOptions opts;  opts.Register(&po);   // order 2, window 2
//   std::vector<float> out;     // rows x dim * (order + 1), row-major
//   ComputeDeltas(opts, rows, dim, in, &out);
//
// The order-0 filter is [1]; the order-i filter is the order-(i-1) filter
// convolved with j / sum_{j=-N..N} j^2 for j = -N..N (N = --delta-window),
// so with N = 2 the first derivative is (-2, -1, 0, 1, 2) / 10. Frames
// before the first or after the last are the first or the last frame.
// Sums are in float, in Kaldi's order, so the results are Kaldi's.
#ifndef NNET3_FEAT_DELTAS_H_
#define NNET3_FEAT_DELTAS_H_

#include <cstdint>
#include <vector>

namespace nnet3 {

class OptionsRegistry;

struct DeltaFeaturesOptions {
  int32_t order = 2;
  int32_t window = 2;
  void Register(OptionsRegistry *po);
};

// The filters of orders 0 .. opts.order (filter i has 2 i window + 1 taps).
std::vector<std::vector<float>> DeltaFilters(const DeltaFeaturesOptions &opts);

void ComputeDeltas(const DeltaFeaturesOptions &opts, int32_t rows, int32_t dim,
                   const float *in, std::vector<float> *out);

}  // namespace nnet3

#endif  // NNET3_FEAT_DELTAS_H_
