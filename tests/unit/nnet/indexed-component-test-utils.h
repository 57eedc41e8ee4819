// Checks for non-simple components (those that map Indexes to other
// Indexes and use precomputed indexes: TdnnComponent, the convolution and
// statistics components), the counterpart of component-test-utils.h (and
// of general-component-test-utils.h, which drives a component from given
// outputs and available inputs without dropping uncomputable outputs):
//
//   GeneralCheckOptions opts;
//   opts.output_indexes = FrameIndexes(/*num_n=*/2, /*t_begin=*/0, 10);
//   CheckGeneralComponent(*c, /*seed=*/5, opts);
//
// MakeGeneralComponentIo does what the compiler does for one step: the
// inputs are every Index the outputs ask for (GetInputIndexes) that is
// available (all of them, or `available_inputs`), the outputs that are not
// computable (IsComputable) are dropped, the used inputs are collected,
// both lists are reordered (kReordersIndexes) and PrecomputeIndexes runs.
// Blank input rows (t == kNoTime) are zero, as the compiler makes them.
//
// CheckGeneralComponent then checks, on matrices with those rows: the I/O
// round trip (CheckComponentIo); that the precomputed indexes write, read
// back by their registered tag (ComponentPrecomputedIndexes::ReadNew) and
// give the same output; kPropagateAdds / kBackpropAdds semantics; Backprop
// working with the unneeded in_value / out_value empty; the data
// derivative against finite differences (columns in fixed_input_columns
// are not perturbed); and for updatable components the updatable
// interface and the model derivative.
#ifndef NNET3_TESTS_UNIT_NNET_INDEXED_COMPONENT_TEST_UTILS_H_
#define NNET3_TESTS_UNIT_NNET_INDEXED_COMPONENT_TEST_UTILS_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "matrix/matrix.h"
#include "nnet/component-itf.h"
#include "nnet/nnet-common.h"

namespace nnet3 {

struct GeneralComponentIo {
  std::vector<Index> input_indexes, output_indexes;  // the rows
  std::unique_ptr<ComponentPrecomputedIndexes> indexes;
};

// See the file comment. With available_inputs null every Index asked for
// is available.
void MakeGeneralComponentIo(const Component &c,
                            const std::vector<Index> &output_indexes,
                            const std::vector<Index> *available_inputs,
                            bool need_backprop, GeneralComponentIo *io);

// (n, t, 0) for n in [0, num_n), t = t_begin, t_begin + t_step, ... <
// t_end.
std::vector<Index> FrameIndexes(int32_t num_n, int32_t t_begin, int32_t t_end,
                                int32_t t_step = 1);

struct GeneralCheckOptions {
  std::vector<Index> output_indexes;
  const std::vector<Index> *available_inputs = nullptr;
  // Fills a valid input for the rows of `io` (default: N(0,1) values);
  // blank rows are zeroed afterwards.
  std::function<void(uint64_t seed, const GeneralComponentIo &io, Matrix *in)>
      make_input;
  std::vector<int32_t> fixed_input_columns;
  float perturb_scale = 1e-3f;
  float tolerance = 0.02f;
  bool check_model_derivative = true;
};

void CheckGeneralComponent(const Component &c, uint64_t seed,
                           const GeneralCheckOptions &opts);

// Propagates `in` through `c` for `io` into a zeroed output.
Matrix GeneralForward(const Component &c, const GeneralComponentIo &io,
                      const MatrixView &in);

}  // namespace nnet3

#endif  // NNET3_TESTS_UNIT_NNET_INDEXED_COMPONENT_TEST_UTILS_H_
