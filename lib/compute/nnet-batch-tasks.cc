#include "compute/nnet-batch-tasks.h"

#include <algorithm>
#include <numeric>

#include "base/error.h"
#include "base/options.h"

namespace nnet3 {

void NnetBatchComputerOptions::Register(OptionsRegistry *po) {
  NnetSimpleComputationOptions::Register(po);
  po->Register("minibatch-size", &minibatch_size,
               "Number of chunks per minibatch (see also "
               "edge-minibatch-size)");
  po->Register("edge-minibatch-size", &edge_minibatch_size,
               "Number of chunks per minibatch: this applies to chunks at the "
               "beginnings and ends of utterances, in cases (such as "
               "recurrent models) when the computation would be different "
               "from the usual one.");
  po->Register("ensure-exact-final-context", &ensure_exact_final_context,
               "If true, for utterances shorter than --frames-per-chunk, use "
               "exact-length, special computations.  If false, pad with "
               "repeats of the last frame.  Would only affect the output for "
               "backwards-recurrent models, but would negatively impact "
               "speed in all cases.");
  po->Register("partial-minibatch-factor", &partial_minibatch_factor,
               "Factor that controls how small partial minibatches will be "
               "when they become necessary.  We will potentially do the "
               "computation for sizes: int(partial_minibatch_factor^n * "
               "minibatch_size), for n = 0, 1, 2....  Set it to 0.0 if you "
               "want to use only the specified minibatch sizes.");
  po->Register("max-utterances-in-flight", &max_utterances_in_flight,
               "Most utterances read but not yet written at any time (bounds "
               "the memory used; not a Kaldi option). While fewer chunks than "
               "--minibatch-size wait to be computed, up to --minibatch-size "
               "more are read, so that short utterances fill minibatches");
}

void NnetBatchComputerOptions::Check() const {
  if (minibatch_size < 1 || edge_minibatch_size < 1)
    NNET3_ERR << "--minibatch-size (" << minibatch_size
              << ") and --edge-minibatch-size (" << edge_minibatch_size
              << ") must be >= 1";
  if (!(partial_minibatch_factor >= 0.0f && partial_minibatch_factor < 1.0f))
    NNET3_ERR << "--partial-minibatch-factor must be in [0, 1), got "
              << partial_minibatch_factor;
  if (max_utterances_in_flight < 1)
    NNET3_ERR << "--max-utterances-in-flight must be >= 1, got "
              << max_utterances_in_flight;
}

namespace {

void CheckUtterance(int32_t input_dim, int32_t ivector_dim,
                    const std::string &utterance, const MatrixView &features,
                    const VectorView *ivector,
                    const MatrixView *online_ivectors) {
  if (features.NumRows() == 0)
    NNET3_ERR << "Utterance '" << utterance << "' has 0 frames; at least 1 "
              << "is needed";
  if (features.NumCols() != input_dim)
    NNET3_ERR << "Utterance '" << utterance << "': the features have "
              << "dimension " << features.NumCols() << " but the network's "
              << "'input' needs dimension " << input_dim;
  if (online_ivectors != nullptr && online_ivectors->NumRows() == 0)
    NNET3_ERR << "Utterance '" << utterance << "': the online i-vector "
              << "matrix is empty";
  const int32_t given =
      ivector != nullptr
          ? ivector->Dim()
          : (online_ivectors != nullptr ? online_ivectors->NumCols() : 0);
  if (ivector_dim != 0 && given == 0)
    NNET3_ERR << "Utterance '" << utterance << "': the network has an "
              << "'ivector' input (dimension " << ivector_dim
              << ") but no i-vector was given for it";
  if (ivector_dim == 0 && given != 0)
    NNET3_ERR << "Utterance '" << utterance << "': i-vectors were given but "
              << "the network has no 'ivector' input";
  if (given != ivector_dim)
    NNET3_ERR << "Utterance '" << utterance << "': the i-vectors have "
              << "dimension " << given << " but the network's 'ivector' "
              << "needs dimension " << ivector_dim;
}

// Kaldi's GetOutputFrameInfoForTasks: the output frames of each task.
void GetOutputFrameInfo(const NnetBatchComputerOptions &opts,
                        int32_t num_subsampled_frames, int32_t per_chunk,
                        int32_t align, std::vector<NnetInferenceTask> *tasks) {
  const int32_t num_tasks = (num_subsampled_frames + per_chunk - 1) / per_chunk;
  tasks->clear();
  tasks->resize(num_tasks);
  for (int32_t i = 0; i < num_tasks; ++i) {
    NnetInferenceTask &task = (*tasks)[i];
    task.output_t_stride = opts.frame_subsampling_factor;
    task.num_output_frames = per_chunk;
    task.num_used_output_frames = per_chunk;
    task.first_used_output_frame_index = i * per_chunk;
  }
  NnetInferenceTask &last = tasks->back();
  if (num_tasks == 1) {
    last.num_used_output_frames = num_subsampled_frames;
    if (opts.ensure_exact_final_context) {
      last.num_output_frames = num_subsampled_frames;
      last.is_irregular = true;
    }
    return;
  }
  // Moved back to end on the last frame (rounded up to a multiple of
  // `align`); its first rows are unused.
  const int32_t begin =
      (num_subsampled_frames - per_chunk + align - 1) / align * align;
  last.num_used_output_frames =
      num_subsampled_frames - (num_tasks - 1) * per_chunk;
  last.num_initial_unused_output_frames = (num_tasks - 1) * per_chunk - begin;
}

// Rows [first, first + dst->NumRows()) of `src`, indexes clamped to the
// rows of `src` (edge frames repeated).
void CopyClampedRows(const MatrixView &src, int32_t first, Matrix *dst) {
  const int32_t n = dst->NumRows(), rows = src.NumRows();
  const int32_t lo = std::min(n, std::max(0, -first)),
                hi = std::max(lo, std::min(n, rows - first));
  if (hi > lo)
    dst->RowRange(lo, hi - lo).CopyFromMat(src.RowRange(first + lo, hi - lo));
  for (int32_t r = 0; r < lo; ++r)
    dst->RowRange(r, 1).CopyFromMat(src.RowRange(0, 1));
  for (int32_t r = hi; r < n; ++r)
    dst->RowRange(r, 1).CopyFromMat(src.RowRange(rows - 1, 1));
}

// Kaldi's SplitInputToTasks: context, edge flag and input of each task.
void SplitInput(const NnetBatchComputerOptions &opts, int32_t nnet_left,
                int32_t nnet_right, const MatrixView &features,
                std::vector<NnetInferenceTask> *tasks) {
  const int32_t f = opts.frame_subsampling_factor;
  const int32_t num_subsampled = (features.NumRows() + f - 1) / f;
  const int32_t extra_left_initial = opts.extra_left_context_initial >= 0
                                         ? opts.extra_left_context_initial
                                         : opts.extra_left_context;
  const int32_t extra_right_final = opts.extra_right_context_final >= 0
                                        ? opts.extra_right_context_final
                                        : opts.extra_right_context;
  for (NnetInferenceTask &task : *tasks) {
    const int32_t begin = task.first_used_output_frame_index -
                          task.num_initial_unused_output_frames,
                  end = begin + task.num_output_frames;
    const bool left_edge = begin <= 0, right_edge = end >= num_subsampled;
    const int32_t left =
        nnet_left + (left_edge ? extra_left_initial : opts.extra_left_context);
    const int32_t right = nnet_right + (right_edge ? extra_right_final
                                                   : opts.extra_right_context);
    task.is_edge = left != nnet_left + opts.extra_left_context ||
                   right != nnet_right + opts.extra_right_context;
    const int32_t first_input = begin * f - left, end_input = end * f + right;
    task.first_input_t = -left;
    task.input.Resize(end_input - first_input, features.NumCols(),
                      ResizeType::kUndefined);
    CopyClampedRows(features, first_input, &task.input);
  }
}

// Kaldi's AddOnlineIvectorsToTasks (the batch rule; see the file comment).
void AddOnlineIvectors(int32_t fss, const MatrixView &online_ivectors,
                       int32_t period, std::vector<NnetInferenceTask> *tasks) {
  const int32_t num_rows = online_ivectors.NumRows();
  for (NnetInferenceTask &task : *tasks) {
    const int32_t begin = task.first_used_output_frame_index -
                          task.num_initial_unused_output_frames;
    const int32_t mid_input_t = (begin + task.num_output_frames / 2) * fss;
    const int32_t row = std::min(num_rows - 1, mid_input_t / period);
    task.ivector = Vector(online_ivectors.Row(row));
  }
}

}  // namespace

void SplitUtteranceIntoTasks(
    const NnetBatchComputerOptions &opts, const BatchNnetInfo &nnet_info,
    const std::string &utterance, const MatrixView &features,
    const VectorView *ivector, const MatrixView *online_ivectors,
    int32_t online_ivector_period, std::vector<NnetInferenceTask> *tasks) {
  CheckUtterance(nnet_info.input_dim, nnet_info.ivector_dim, utterance,
                 features, ivector, online_ivectors);
  const int32_t f = opts.frame_subsampling_factor;
  const int32_t n = std::lcm(f, nnet_info.modulus);
  NNET3_ASSERT(f >= 1 && opts.frames_per_chunk % n == 0);
  if (online_ivectors != nullptr && online_ivector_period <= 0)
    NNET3_ERR << "Online i-vectors need --online-ivector-period > 0 (got "
              << online_ivector_period << ")";
  GetOutputFrameInfo(opts, (features.NumRows() + f - 1) / f,
                     opts.frames_per_chunk / f, n / f, tasks);
  SplitInput(opts, nnet_info.left_context, nnet_info.right_context, features,
             tasks);
  if (ivector != nullptr) {
    for (NnetInferenceTask &task : *tasks) task.ivector = Vector(*ivector);
  } else if (online_ivectors != nullptr) {
    AddOnlineIvectors(f, *online_ivectors, online_ivector_period, tasks);
  }
}

}  // namespace nnet3
