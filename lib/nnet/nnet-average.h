// Averaging raw networks of the same structure, as Kaldi's nnet3-average
// does: the weighted sum of every component (ScaleNnet / AddNnet, so the
// stats of nonlinear and batch-norm components are averaged too), with the
// models read by several threads.
//
//   std::vector<float> w = ParseAverageWeights("", 3);    // 1/3 each
//   Nnet avg;
//   AverageNnetFiles({"1.raw", "2.raw", "3.raw"}, w,
//                    NumAverageThreads(-1, 3), &avg);
//
// Thread t of T reads models t, t + T, t + 2T, ... and sums them weighted;
// the threads' sums are then added in thread order. This is Kaldi's
// partition, so for the same thread count the result is the same to the
// last bit; different thread counts differ only by float rounding.
#ifndef NNET3_NNET_NNET_AVERAGE_H_
#define NNET3_NNET_NNET_AVERAGE_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "nnet/nnet.h"

namespace nnet3 {

// The --weights option: a colon-separated list of `num_models` positive
// numbers, or "" for 1/num_models each; normalized to sum to one (with a
// warning if the sum was more than 0.01 away from one). UserError for a
// list of the wrong length or a field that is not a positive number.
std::vector<float> ParseAverageWeights(const std::string &weights_str,
                                       int32_t num_models);

// Kaldi's choice of reading threads: `num_threads` if > 0, else 3 for more
// than 10 models, 2 for more than 5, otherwise 1; then more than one thread
// is cut to num_models / 2 (at least 1) so that each reads two or more
// models.
int32_t NumAverageThreads(int32_t num_threads, int32_t num_models);

// How a model file is read: ReadKaldiObject by default; programs pass a
// reader that also takes a .mdl's network (compute/am-nnet-simple.h).
using NnetFileReader = std::function<void(const std::string &, Nnet *)>;

// Reads the models in `rxfilenames` with `num_threads` threads (see the
// file comment) through `reader` and sets *average to the sum of
// weights[i] * model i. UserError (the first failing model's) if a model
// cannot be read or does not match the others' components.
void AverageNnetFiles(const std::vector<std::string> &rxfilenames,
                      const std::vector<float> &weights, int32_t num_threads,
                      Nnet *average, const NnetFileReader &reader = nullptr);

}  // namespace nnet3

#endif  // NNET3_NNET_NNET_AVERAGE_H_
