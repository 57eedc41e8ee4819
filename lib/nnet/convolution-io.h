// ConvolutionComputationIo: the regular grid that the input and output
// Indexes of a convolution-like component (TimeHeightConvolutionComponent,
// TdnnComponent) are fitted into, and the reordering of the Indexes onto
// that grid (Kaldi's GetComputationIo / GetIndexesForComputation,
// convolution.h).
//
// The grid has num_images distinct (n, x) pairs and, on each side, the t
// values start, start + step, ..., start + (num - 1) * step. The Indexes are
// ordered with t varying slowest and the (n, x) pairs (sorted) within each
// t, so that the rows for one t form a contiguous block of num_images rows;
// grid points that were not in the original list become blanks (t =
// kNoTime), which the compiler fills with zero rows.
//
// With reorder_t_in = R > 1 (time subsampling by R) the input t values are
// grouped R at a time: block b holds, for each image, the R times
// start + (b R + r) step (r = 0 .. R-1) one after the other. Viewed with R
// times as many columns, such an input matrix has one row per (block,
// image): R consecutive frames side by side, at the output's time step.
//
//   ConvolutionComputationIo io;
//   GetComputationIo(input_indexes, output_indexes, &io);
//   ... adjust io (padding, reorder_t_in) ...
//   GetIndexesForComputation(io, input_indexes, output_indexes,
//                            &new_input_indexes, &new_output_indexes);
#ifndef NNET3_NNET_CONVOLUTION_IO_H_
#define NNET3_NNET_CONVOLUTION_IO_H_

#include <cstdint>
#include <istream>
#include <ostream>
#include <utility>
#include <vector>

#include "nnet/nnet-common.h"

namespace nnet3 {

struct ConvolutionComputationIo {
  int32_t num_images = 0;
  // A step is 0 when there is only one t value (it is then a don't-care).
  int32_t start_t_in = 0, t_step_in = 0, num_t_in = 0;
  int32_t start_t_out = 0, t_step_out = 0, num_t_out = 0;
  int32_t reorder_t_in = 1;

  // <ConvCompIo> followed by the eight integers above in order, then
  // </ConvCompIo>.
  void Write(std::ostream &os, bool binary) const;
  void Read(std::istream &is, bool binary);
};

// The sorted distinct (n, x) pairs of `indexes` (blanks included).
void GetNxList(const std::vector<Index> &indexes,
               std::vector<std::pair<int32_t, int32_t>> *pairs);
// The sorted distinct t values of `indexes`, blanks excluded.
void GetTList(const std::vector<Index> &indexes, std::vector<int32_t> *t);

// The smallest grid covering the (non-blank) Indexes: num_images from the
// input's (n, x) pairs, t steps the gcd of successive differences, and
// reorder_t_in = 1. The lists must not be empty.
void GetComputationIo(const std::vector<Index> &input_indexes,
                      const std::vector<Index> &output_indexes,
                      ConvolutionComputationIo *io);

// The Indexes of the grid `io` in the order described above, with the
// points that are not in the original lists made blank.
void GetIndexesForComputation(const ConvolutionComputationIo &io,
                              const std::vector<Index> &orig_input_indexes,
                              const std::vector<Index> &orig_output_indexes,
                              std::vector<Index> *input_indexes,
                              std::vector<Index> *output_indexes);

// floor(a / b) for b > 0 (C++ division rounds towards zero).
inline int32_t DivideRoundingDown(int32_t a, int32_t b) {
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}

}  // namespace nnet3

#endif  // NNET3_NNET_CONVOLUTION_IO_H_
