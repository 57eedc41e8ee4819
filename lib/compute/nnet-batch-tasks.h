// The tasks of batched inference (Kaldi's NnetInferenceTask and
// NnetBatchComputerOptions, nnet-batch-compute.h): a task is one chunk of
// one utterance with everything the batch computer needs to compute it
// together with chunks of the same shape from other utterances; and how an
// utterance is cut into tasks (Kaldi's SplitUtteranceIntoTasks).
//
//   NnetBatchComputerOptions opts;  opts.Register(&po);
//   std::vector<NnetInferenceTask> tasks;
//   SplitUtteranceIntoTasks(opts, nnet_info, "utt1", features,
//                           ivector_or_null, online_or_null, period,
//                           &tasks);                  // UserError if bad
//
// The cut (Kaldi's rule for nnet3-compute-batch, which differs from
// nnet3-compute's): with P = --frames-per-chunk / fss output frames per
// chunk (fpc first rounded up to a multiple of lcm(fss, modulus); the
// caller does that, see NnetBatchComputer) and N = ceil(num_frames / fss)
// output frames,
//   - N <= P: one chunk of P output frames (the input padded by repeating
//     the last frame), N of them used; with --ensure-exact-final-context,
//     instead a chunk of exactly N output frames, marked irregular
//     (computed one at a time);
//   - N > P: chunks at 0, P, 2P, ..., and a last chunk moved back to end on
//     the last frame, whose first rows (those the chunk before it computed)
//     are not used. (For a network with a modulus m > 1, e.g. with Round()
//     descriptors, the moved-back start is rounded up to a multiple of
//     lcm(fss, m) / fss output frames, so that the time shift of its
//     request keeps its meaning; that chunk then reaches past the last
//     frame, which is repeated. Kaldi does not round, and so gives such
//     networks other outputs there; with m = 1, the usual case, the chunks
//     are Kaldi's.)
// A chunk that starts at output frame 0 gets --extra-left-context-initial
// (if >= 0) instead of --extra-left-context, one that reaches the last
// frame --extra-right-context-final (if >= 0) instead of
// --extra-right-context; when that changes its context it is an "edge"
// task (its own shape; --edge-minibatch-size). Each task's input covers
// output frames begin·fss .. end·fss − 1 plus the contexts (so with fss >
// 1 it has fss − 1 more frames on the right than nnet3-compute's chunk,
// as in Kaldi), with input frames outside the utterance repeating the
// edge frames; its t values are shifted so that its first output frame is
// t = 0.
//
// I-vectors: the per-utterance vector for every task; or, with online
// i-vectors, Kaldi's batch rule: row ((begin + num_output_frames / 2) ·
// fss) / period, where begin is the task's first output frame (subsampled,
// counting the unused frames of a moved-back last chunk), clamped to the
// last row; only an empty matrix is an error (Kaldi's margin test, as
// written, always clamps).
#ifndef NNET3_COMPUTE_NNET_BATCH_TASKS_H_
#define NNET3_COMPUTE_NNET_BATCH_TASKS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "compute/nnet-simple-computation.h"
#include "matrix/matrix.h"
#include "matrix/vector.h"

namespace nnet3 {

class OptionsRegistry;

struct NnetBatchComputerOptions : public NnetSimpleComputationOptions {
  int32_t minibatch_size = 128;
  int32_t edge_minibatch_size = 32;
  bool ensure_exact_final_context = false;
  float partial_minibatch_factor = 0.5f;
  // Our addition: how many utterances NnetBatchInference holds at once
  // (accepted and not yet taken out), which bounds its memory; up to
  // minibatch_size more while too few chunks wait to fill a minibatch.
  int32_t max_utterances_in_flight = 32;

  // NnetSimpleComputationOptions::Register, then Kaldi's four batch
  // options and --max-utterances-in-flight.
  void Register(OptionsRegistry *po);
  // UserError if a value is out of range.
  void Check() const;
};

struct NnetInferenceTask {
  // The input frames, numbered t = first_input_t, first_input_t + 1, ...
  // (shifted so that the first output frame is t = 0).
  Matrix input;
  int32_t first_input_t = 0;
  // Output t values are 0, output_t_stride, 2·output_t_stride, ...
  int32_t output_t_stride = 1;
  int32_t num_output_frames = 0;
  // Rows of the task's output that are not wanted (computed by an earlier
  // task), then the wanted ones.
  int32_t num_initial_unused_output_frames = 0;
  int32_t num_used_output_frames = 0;
  // Where the wanted rows go: rows [first_used_output_frame_index,
  // + num_used_output_frames) of *output, which the computer sizes to
  // output_num_rows x (network output dim) when it is empty.
  int32_t first_used_output_frame_index = 0;
  Matrix *output = nullptr;
  int32_t output_num_rows = 0;
  // An edge chunk whose context differs from the others (own minibatch
  // size), or an exact-length short chunk (computed alone).
  bool is_edge = false;
  bool is_irregular = false;
  // Empty if the network has no "ivector" input.
  Vector ivector;
  // Higher is computed sooner.
  double priority = 0.0;
};

// What the cut needs to know of the network.
struct BatchNnetInfo {
  int32_t left_context = 0, right_context = 0, modulus = 1;
  int32_t input_dim = 0, ivector_dim = 0;  // ivector_dim 0: no "ivector"
};

// Cuts one utterance into tasks (see the file comment); the tasks' output
// destinations are left unset. opts.frames_per_chunk must be a multiple of
// lcm(fss, modulus). UserError naming `utterance` when the features or
// i-vectors do not fit the network or the online i-vector matrix is empty.
void SplitUtteranceIntoTasks(
    const NnetBatchComputerOptions &opts, const BatchNnetInfo &nnet_info,
    const std::string &utterance, const MatrixView &features,
    const VectorView *ivector, const MatrixView *online_ivectors,
    int32_t online_ivector_period, std::vector<NnetInferenceTask> *tasks);

}  // namespace nnet3

#endif  // NNET3_COMPUTE_NNET_BATCH_TASKS_H_
