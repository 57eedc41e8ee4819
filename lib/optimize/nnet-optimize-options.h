// NnetOptimizeOptions: the switches of the optimizer (Kaldi's
// NnetOptimizeOptions; reference 8.1), one per pass, with Kaldi's names and
// defaults. Programs register them under an "optimization" sub-registry so
// they appear as --optimization.x:
//
//   NnetOptimizeOptions opts;
//   OptionsRegistry opt_po("optimization", &po);
//   opts.Register(&opt_po);
//   Optimize(opts, nnet, max_output_time_in_request, &computation);
//
// Read/Write (Kaldi's <OptimizationConfig> token format) and == exist so that
// a computation cache written with other options can be recognized and
// ignored. Our fuse-* options are written after Kaldi's only when one of
// them is off, so that with the defaults the block is Kaldi's; Read takes
// them as on when absent. `optimize_looped_computation` is set by the looped
// compiler, not by users; `check_after_each_pass` is a debugging aid (tests set
// it), and neither is registered, written or compared.
#ifndef NNET3_OPTIMIZE_NNET_OPTIMIZE_OPTIONS_H_
#define NNET3_OPTIMIZE_NNET_OPTIMIZE_OPTIONS_H_

#include <cstdint>
#include <istream>
#include <limits>
#include <ostream>

namespace nnet3 {

class OptionsRegistry;

struct NnetOptimizeOptions {
  bool optimize = true;  // master switch for every optional pass
  bool consolidate_model_update = true;
  bool propagate_in_place = true;
  bool backprop_in_place = true;
  bool optimize_row_ops = true;
  bool split_row_ops = true;
  bool extend_matrices = true;
  bool convert_addition = true;
  bool remove_assignments = true;
  bool allow_left_merge = true;
  bool allow_right_merge = true;
  bool initialize_undefined = true;
  bool move_sizing_commands = true;
  bool allocate_from_other = true;
  int32_t min_deriv_time = std::numeric_limits<int32_t>::min();
  int32_t max_deriv_time = std::numeric_limits<int32_t>::max();
  int32_t max_deriv_time_relative = std::numeric_limits<int32_t>::max();
  bool snip_row_ops = true;
  int32_t memory_compression_level = 1;
  // Ours (not Kaldi's): the fusions of optimize/fuse-memory-passes.h.
  bool fuse_relu_affine = true;
  bool fuse_scale_add = true;
  bool fuse_zeroing = true;
  // Hidden: set by CompileLooped.
  bool optimize_looped_computation = false;
  // Run the ComputationChecker after every pass and log every pass. Not an
  // option: tests set it; Optimize() also does this whenever the verbose
  // level is >= 3 at the time it runs (as Kaldi does).
  bool check_after_each_pass = false;

  void Register(OptionsRegistry *registry);
  void Write(std::ostream &os, bool binary) const;
  // Throws UserError on malformed input.
  void Read(std::istream &is, bool binary);
  // Compares the written (registered) options only.
  bool operator==(const NnetOptimizeOptions &other) const;
  bool operator!=(const NnetOptimizeOptions &other) const {
    return !(*this == other);
  }
};

}  // namespace nnet3

#endif  // NNET3_OPTIMIZE_NNET_OPTIMIZE_OPTIONS_H_
