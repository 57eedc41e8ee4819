// Cutting down single (unmerged) egs: keeping one labeled frame and
// truncating the input context, as nnet3-copy-egs --frame / --left-context /
// --right-context / --frame-shift do (Kaldi's SelectFromExample).
//
//   NnetExample out;
//   if (SelectFromExample(eg, "random", 4, 4, 0, &rng, &out)) write(out);
//
// Only the NnetIo named "input" and "output" are filtered (by t); others
// ("ivector", ...) are copied unchanged. A compressed matrix that loses rows
// becomes a full one, as in Kaldi.
#ifndef NNET3_TRAIN_NNET_EXAMPLE_SELECT_H_
#define NNET3_TRAIN_NNET_EXAMPLE_SELECT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "base/random.h"
#include "matrix/general-matrix.h"
#include "train/nnet-example.h"

namespace nnet3 {

// The rows of `in` whose keep_rows entry is true (at least one), in order.
void FilterGeneralMatrixRows(const GeneralMatrix &in,
                             const std::vector<bool> &keep_rows,
                             GeneralMatrix *out);

// Whether eg is a single example (every n is 0) with an "input" and an
// "output"; if so, sets the t ranges of both. Otherwise warns and returns
// false.
bool ContainsSingleExample(const NnetExample &eg, int32_t *min_input_t,
                           int32_t *max_input_t, int32_t *min_output_t,
                           int32_t *max_output_t);

// Keeps the "input" rows with t in [min_input_t, max_input_t] and the
// "output" rows with t in [min_output_t, max_output_t]; UserError if either
// would be left without rows.
void FilterExample(const NnetExample &eg, int32_t min_input_t,
                   int32_t max_input_t, int32_t min_output_t,
                   int32_t max_output_t, NnetExample *eg_out);

// Adds t_offset to every t, except in the io named in exclude_names.
void ShiftExampleTimes(int32_t t_offset,
                       const std::vector<std::string> &exclude_names,
                       NnetExample *eg);

// frame: "" keeps all labeled frames, "random" one random frame, a number
// the frame with that t (returns false if the eg has no such frame).
// left_context / right_context >= 0 truncate the input to that many frames
// around the kept output frames (-1 keeps everything). frame_shift is then
// added to every t except the ivector's. UserError for merged egs or a bad
// frame string.
bool SelectFromExample(const NnetExample &eg, const std::string &frame,
                       int32_t left_context, int32_t right_context,
                       int32_t frame_shift, RandomState *rng,
                       NnetExample *eg_out);

}  // namespace nnet3

#endif  // NNET3_TRAIN_NNET_EXAMPLE_SELECT_H_
