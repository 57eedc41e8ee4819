// Splicing: each frame with its neighbours side by side (Kaldi's
// SpliceFrames, splice-feats).
//
//   std::vector<float> out;   // rows x dim * (left + 1 + right)
//   SpliceFrames(rows, dim, in, left, right, &out);
//
// Output row t is input rows t - left .. t + right, in that order; rows
// before the first or after the last are the first or the last row.
#ifndef NNET3_FEAT_SPLICE_FRAMES_H_
#define NNET3_FEAT_SPLICE_FRAMES_H_

#include <cstdint>
#include <vector>

namespace nnet3 {

void SpliceFrames(int32_t rows, int32_t dim, const float *in, int32_t left,
                  int32_t right, std::vector<float> *out);

}  // namespace nnet3

#endif  // NNET3_FEAT_SPLICE_FRAMES_H_
