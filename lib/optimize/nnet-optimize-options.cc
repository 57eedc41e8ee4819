#include "optimize/nnet-optimize-options.h"

#include <string>

#include "base/error.h"
#include "base/io-funcs.h"
#include "base/options.h"

namespace nnet3 {

void NnetOptimizeOptions::Register(OptionsRegistry *po) {
  po->Register("optimize", &optimize,
               "Set this to false to turn off all optimizations");
  po->Register("consolidate-model-update", &consolidate_model_update,
               "Set to false to disable consolidation of model updates "
               "(relevant to recurrent networks)");
  po->Register("propagate-in-place", &propagate_in_place,
               "Set to false to disable in-place propagation");
  po->Register("backprop-in-place", &backprop_in_place,
               "Set to false to disable in-place backprop");
  po->Register("optimize-row-ops", &optimize_row_ops,
               "Set to false to disable replacing row operations with "
               "matrix operations where possible");
  po->Register("split-row-ops", &split_row_ops,
               "Set to false to disable splitting *Multi row operations "
               "into simpler ones");
  po->Register("extend-matrices", &extend_matrices,
               "Set to false to disable extending matrices so that whole "
               "matrices can be copied");
  po->Register("convert-addition", &convert_addition,
               "Set to false to disable converting additions into "
               "assignments where possible");
  po->Register("remove-assignments", &remove_assignments,
               "Set to false to disable removing assignments by merging "
               "variables");
  po->Register("allow-left-merge", &allow_left_merge,
               "Set to false to disable left-merging of variables "
               "(obscure option)");
  po->Register("allow-right-merge", &allow_right_merge,
               "Set to false to disable right-merging of variables "
               "(obscure option)");
  po->Register("initialize-undefined", &initialize_undefined,
               "Set to false to disable removing zeroing of matrices that "
               "are fully written before being read");
  po->Register("move-sizing-commands", &move_sizing_commands,
               "Set to false to disable moving allocation later and "
               "deallocation earlier");
  po->Register("allocate-from-other", &allocate_from_other,
               "Set to false to disable reusing the memory of a freed "
               "matrix for a new one of the same size");
  po->Register("min-deriv-time", &min_deriv_time,
               "Derivatives for t less than this are assumed to be zero "
               "(truncated backprop through time)");
  po->Register("max-deriv-time", &max_deriv_time,
               "Derivatives for t greater than this are assumed to be zero");
  po->Register("max-deriv-time-relative", &max_deriv_time_relative,
               "If set, the max-deriv-time used is this value plus the "
               "largest t of any output in the request (overrides "
               "--max-deriv-time)");
  po->Register("snip-row-ops", &snip_row_ops,
               "Set to false to disable trimming -1 entries from the ends "
               "of row operations");
  po->Register("memory-compression-level", &memory_compression_level,
               "Training only: compression of values kept for backprop, "
               "to save memory. 0 = none; 1 = only what leaves the "
               "derivatives unchanged (ReLU outputs kept as 0/1); 2 (and "
               "3) = also every other such value as 16 bits in [-10, 10], "
               "which changes the derivatives slightly");
  po->Register("fuse-relu-affine", &fuse_relu_affine,
               "Set to false to disable fusing an in-place ReLU into the "
               "per-column affine propagate that alone reads its output "
               "(batch norm in test mode)");
  po->Register("fuse-scale-add", &fuse_scale_add,
               "Set to false to disable fusing an in-place scale and the "
               "add that follows it into one pass");
  po->Register("fuse-zeroing", &fuse_zeroing,
               "Set to false to disable replacing the zeroing before an "
               "adding propagate (TDNN or linear component without bias) by "
               "a first product that assigns");
}

namespace {

// Token name and value of each written option, in Kaldi's order.
template <class Fn>
void ForEachWrittenOption(NnetOptimizeOptions *o, Fn fn) {
  fn("<Optimize>", &o->optimize);
  fn("<ConsolidateModelUpdate>", &o->consolidate_model_update);
  fn("<PropagateInPlace>", &o->propagate_in_place);
  fn("<BackpropInPlace>", &o->backprop_in_place);
  fn("<OptimizeRowOps>", &o->optimize_row_ops);
  fn("<SplitRowOps>", &o->split_row_ops);
  fn("<ExtendMatrices>", &o->extend_matrices);
  fn("<ConvertAddition>", &o->convert_addition);
  fn("<RemoveAssignments>", &o->remove_assignments);
  fn("<AllowLeftMerge>", &o->allow_left_merge);
  fn("<AllowRightMerge>", &o->allow_right_merge);
  fn("<InitializeUndefined>", &o->initialize_undefined);
  fn("<MoveSizingCommands>", &o->move_sizing_commands);
  fn("<AllocateFromOther>", &o->allocate_from_other);
  fn("<MinDerivTime>", &o->min_deriv_time);
  fn("<MaxDerivTime>", &o->max_deriv_time);
  fn("<MaxDerivTimeRelative>", &o->max_deriv_time_relative);
  fn("<SnipRowOps>", &o->snip_row_ops);
  fn("<MemoryCompressionLevel>", &o->memory_compression_level);
}

// Our options, written after Kaldi's only when one differs from the default.
template <class Fn>
void ForEachFusionOption(NnetOptimizeOptions *o, Fn fn) {
  fn("<FuseReluAffine>", &o->fuse_relu_affine);
  fn("<FuseScaleAdd>", &o->fuse_scale_add);
  fn("<FuseZeroing>", &o->fuse_zeroing);
}

}  // namespace

void NnetOptimizeOptions::Write(std::ostream &os, bool binary) const {
  WriteToken(os, binary, "<OptimizationConfig>");
  // ForEachWrittenOption takes a mutable pointer; writing does not modify.
  ForEachWrittenOption(const_cast<NnetOptimizeOptions *>(this),
                       [&](const char *token, auto *value) {
                         WriteToken(os, binary, token);
                         WriteBasicType(os, binary, *value);
                       });
  if (!fuse_relu_affine || !fuse_scale_add || !fuse_zeroing)
    ForEachFusionOption(const_cast<NnetOptimizeOptions *>(this),
                        [&](const char *token, bool *value) {
                          WriteToken(os, binary, token);
                          WriteBasicType(os, binary, *value);
                        });
  WriteToken(os, binary, "</OptimizationConfig>");
  if (!binary) os << "\n";
}

void NnetOptimizeOptions::Read(std::istream &is, bool binary) {
  ExpectToken(is, binary, "<OptimizationConfig>");
  ForEachWrittenOption(this, [&](const char *token, auto *value) {
    ExpectToken(is, binary, token);
    ReadBasicType(is, binary, value);
  });
  const bool has_fusions = PeekWholeToken(is, binary) == "<FuseReluAffine>";
  ForEachFusionOption(this, [&](const char *token, bool *value) {
    *value = true;
    if (!has_fusions) return;
    ExpectToken(is, binary, token);
    ReadBasicType(is, binary, value);
  });
  ExpectToken(is, binary, "</OptimizationConfig>");
}

bool NnetOptimizeOptions::operator==(const NnetOptimizeOptions &other) const {
  return optimize == other.optimize &&
         consolidate_model_update == other.consolidate_model_update &&
         propagate_in_place == other.propagate_in_place &&
         backprop_in_place == other.backprop_in_place &&
         optimize_row_ops == other.optimize_row_ops &&
         split_row_ops == other.split_row_ops &&
         extend_matrices == other.extend_matrices &&
         convert_addition == other.convert_addition &&
         remove_assignments == other.remove_assignments &&
         allow_left_merge == other.allow_left_merge &&
         allow_right_merge == other.allow_right_merge &&
         initialize_undefined == other.initialize_undefined &&
         move_sizing_commands == other.move_sizing_commands &&
         allocate_from_other == other.allocate_from_other &&
         min_deriv_time == other.min_deriv_time &&
         max_deriv_time == other.max_deriv_time &&
         max_deriv_time_relative == other.max_deriv_time_relative &&
         snip_row_ops == other.snip_row_ops &&
         memory_compression_level == other.memory_compression_level &&
         fuse_relu_affine == other.fuse_relu_affine &&
         fuse_scale_add == other.fuse_scale_add &&
         fuse_zeroing == other.fuse_zeroing;
}

}  // namespace nnet3
