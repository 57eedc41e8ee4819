// Checks for non-simple components, which CheckComponent (row i in, row i
// out, no precomputed indexes) cannot exercise: the component is driven the
// way the compiler drives it, from Indexes.
//
//   std::vector<Index> outputs = ..., available = ...;
//   CheckGeneralComponent(*c, outputs, available, /*seed=*/7);
//
// CheckGeneralComponent:
//  - I/O round trips of the component (CheckComponentIo);
//  - IsComputable for every output (with and without used_inputs, which
//    must agree and lie within GetInputIndexes); the inputs are the union of
//    the used ones;
//  - ReorderIndexes (kReordersIndexes): every original Index survives, the
//    rest are blanks (t == kNoTime);
//  - PrecomputeIndexes, whose result is written and re-read (binary and
//    text, through ComponentPrecomputedIndexes::ReadNew) and the re-read
//    copy used from then on;
//  - Propagate/Backprop add-vs-overwrite semantics (kPropagateAdds,
//    kBackpropAdds), in-place propagation (kPropagateInPlace);
//  - the data derivative against finite differences (blank input rows stay
//    zero, as the compiler keeps them) and, for updatable components, the
//    model derivative; StoreStats (kStoresStats).
// Random components are reset to the same seed before every propagate.
// The Propagate output is returned (with its final Indexes) so that tests
// can compare it with a direct computation.
#ifndef NNET3_TESTS_UNIT_NNET_GENERAL_COMPONENT_TEST_UTILS_H_
#define NNET3_TESTS_UNIT_NNET_GENERAL_COMPONENT_TEST_UTILS_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "component-test-utils.h"
#include "matrix/matrix.h"
#include "nnet/component-itf.h"

namespace nnet3 {

// What CheckGeneralComponent computed on its first propagation.
struct GeneralComponentRun {
  std::vector<Index> input_indexes, output_indexes;  // after reordering
  Matrix input, output;  // blank input rows are zero
  std::unique_ptr<ComponentPrecomputedIndexes> indexes;
};

void CheckGeneralComponent(const Component &c,
                           const std::vector<Index> &output_indexes,
                           const std::vector<Index> &available_inputs,
                           uint64_t seed,
                           const ComponentCheckOptions &opts = {},
                           GeneralComponentRun *run = nullptr);

// Frames (n, t, x) for n in [0, num_n), t in [t_begin, t_end) with step
// t_step, x = 0; t slowest when t_major, else n slowest.
std::vector<Index> FrameGrid(int32_t num_n, int32_t t_begin, int32_t t_end,
                             int32_t t_step, bool t_major);

}  // namespace nnet3

#endif  // NNET3_TESTS_UNIT_NNET_GENERAL_COMPONENT_TEST_UTILS_H_
