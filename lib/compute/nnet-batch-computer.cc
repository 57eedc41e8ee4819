#include "compute/nnet-batch-computer.h"

#include <algorithm>
#include <iomanip>
#include <limits>
#include <numeric>
#include <sstream>

#include "base/error.h"
#include "base/log.h"
#include "base/timer.h"
#include "compile/nnet-context.h"
#include "compute/nnet-computer.h"

namespace nnet3 {

NnetBatchComputer::NnetBatchComputer(const NnetBatchComputerOptions &opts,
                                     const Nnet &nnet,
                                     const VectorView &log_priors)
    : opts_(opts),
      nnet_(nnet),
      compiler_(nnet, opts.optimize_config, opts.compiler_config),
      log_priors_(log_priors) {
  opts_.Check();
  if (opts_.frame_subsampling_factor < 1 || opts_.frames_per_chunk < 1)
    NNET3_ERR << "--frame-subsampling-factor ("
              << opts_.frame_subsampling_factor << ") and --frames-per-chunk ("
              << opts_.frames_per_chunk << ") must be > 0";
  if (opts_.extra_left_context < 0 || opts_.extra_right_context < 0)
    NNET3_ERR << "--extra-left-context (" << opts_.extra_left_context
              << ") and --extra-right-context (" << opts_.extra_right_context
              << ") must be >= 0";
  if (!IsSimpleNnet(nnet))
    NNET3_ERR << "This network is not a simple network (it needs an input "
                 "node 'input', an output node 'output', and at most one "
                 "more input, 'ivector'), so it cannot be used here";
  if (opts_.debug_computation) opts_.compute_config.debug = true;
  const int32_t n = std::lcm(opts_.frame_subsampling_factor, nnet.Modulus());
  if (opts_.frames_per_chunk % n != 0) {
    const int32_t rounded = n * ((opts_.frames_per_chunk + n - 1) / n);
    NNET3_LOG << "Increasing --frames-per-chunk from " << opts_.frames_per_chunk
              << " to " << rounded
              << " to make it a multiple of lcm(--frame-subsampling-factor="
              << opts_.frame_subsampling_factor
              << ", nnet modulus=" << nnet.Modulus() << ")";
    opts_.frames_per_chunk = rounded;
  }
  ComputeSimpleNnetContext(nnet, &info_.left_context, &info_.right_context);
  info_.modulus = nnet.Modulus();
  info_.input_dim = nnet.InputDim("input");
  info_.ivector_dim = std::max<int32_t>(0, nnet.InputDim("ivector"));
  output_dim_ = nnet.OutputDim("output");
  if (log_priors_.Dim() != 0 && log_priors_.Dim() != output_dim_)
    NNET3_ERR << "The priors have dimension " << log_priors_.Dim()
              << " but the network's output has dimension " << output_dim_;
}

NnetBatchComputer::~NnetBatchComputer() { PrintMinibatchStats(); }

void NnetBatchComputer::SplitUtteranceIntoTasks(
    const std::string &utterance, const MatrixView &features,
    const VectorView *ivector, const MatrixView *online_ivectors,
    int32_t online_ivector_period,
    std::vector<NnetInferenceTask> *tasks) const {
  nnet3::SplitUtteranceIntoTasks(opts_, info_, utterance, features, ivector,
                                 online_ivectors, online_ivector_period, tasks);
}

int32_t NnetBatchComputer::FullSize(const GroupKey &key) const {
  if (key.is_irregular) return 1;
  return key.is_edge ? opts_.edge_minibatch_size : opts_.minibatch_size;
}

void NnetBatchComputer::AcceptTask(NnetInferenceTask *task) {
  NNET3_ASSERT(task->output != nullptr && task->num_used_output_frames > 0);
  const GroupKey key{task->input.NumRows(), task->first_input_t,
                     task->num_output_frames, task->is_edge,
                     task->is_irregular};
  std::lock_guard<std::mutex> lock(mutex_);
  Group &group = groups_[key];
  group.tasks.push_back(task);
  if (static_cast<int32_t>(group.tasks.size()) % FullSize(key) == 0)
    num_full_minibatches_++;
}

int32_t NnetBatchComputer::NumFullPendingMinibatches() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return num_full_minibatches_;
}

bool NnetBatchComputer::HasPendingTasks() const {
  std::lock_guard<std::mutex> lock(mutex_);
  for (const auto &g : groups_)
    if (!g.second.tasks.empty()) return true;
  return false;
}

int64_t NnetBatchComputer::NumPendingTasks() const {
  std::lock_guard<std::mutex> lock(mutex_);
  int64_t n = 0;
  for (const auto &g : groups_) n += static_cast<int64_t>(g.second.tasks.size());
  return n;
}

void NnetBatchComputer::DropPendingTasks() {
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto &g : groups_) g.second.tasks.clear();
  num_full_minibatches_ = 0;
}

double NnetBatchComputer::Priority(bool allow_partial, const GroupKey &key,
                                   const Group &group) const {
  const double kNever = -std::numeric_limits<double>::infinity();
  const int32_t num_tasks = static_cast<int32_t>(group.tasks.size()),
                full = FullSize(key);
  if (num_tasks == 0 || (!allow_partial && num_tasks < full)) return kNever;
  const int32_t used = std::min(num_tasks, full);
  // The priorities of the tasks that would be computed: the highest ones.
  std::vector<double> p(num_tasks);
  for (int32_t i = 0; i < num_tasks; ++i) p[i] = group.tasks[i]->priority;
  std::nth_element(p.begin(), p.begin() + (used - 1), p.end(),
                   std::greater<double>());
  const double mean = std::accumulate(p.begin(), p.begin() + used, 0.0) / used;
  // Up to 10 less for a minibatch that is not full (Kaldi's heuristic).
  return 10.0 * (static_cast<double>(used) / full - 1.0) + mean;
}

int32_t NnetBatchComputer::ActualMinibatchSize(const GroupKey &key,
                                               const Group &group) const {
  const int32_t num_tasks = static_cast<int32_t>(group.tasks.size());
  const float factor = opts_.partial_minibatch_factor;
  int32_t size = FullSize(key);
  while (num_tasks < static_cast<int32_t>(factor * size))
    size = static_cast<int32_t>(size * factor);
  return size;
}

void NnetBatchComputer::TakeTasks(int32_t num, const GroupKey &key,
                                  Group *group,
                                  std::vector<NnetInferenceTask *> *tasks) {
  std::vector<NnetInferenceTask *> &pending = group->tasks;
  const int32_t before = static_cast<int32_t>(pending.size());
  num = std::min(num, before);
  std::stable_sort(pending.begin(), pending.end(),
                   [](const NnetInferenceTask *a, const NnetInferenceTask *b) {
                     return a->priority > b->priority;
                   });
  tasks->assign(pending.begin(), pending.begin() + num);
  pending.erase(pending.begin(), pending.begin() + num);
  const int32_t full = FullSize(key);
  num_full_minibatches_ -= before / full - (before - num) / full;
  NNET3_ASSERT(num_full_minibatches_ >= 0);
}

ComputationRequest NnetBatchComputer::MakeRequest(
    const NnetInferenceTask &example, int32_t minibatch_size) const {
  const int32_t num_input = example.input.NumRows(),
                num_output = example.num_output_frames;
  // t-major (for t, for n): the order the compiler's matrices have anyway,
  // so the output needs no reordering copy.
  std::vector<Index> input, ivector, output;
  input.reserve(static_cast<size_t>(minibatch_size) * num_input);
  output.reserve(static_cast<size_t>(minibatch_size) * num_output);
  for (int32_t t = 0; t < num_input; ++t)
    for (int32_t n = 0; n < minibatch_size; ++n)
      input.emplace_back(n, example.first_input_t + t);
  for (int32_t t = 0; t < num_output; ++t)
    for (int32_t n = 0; n < minibatch_size; ++n)
      output.emplace_back(n, t * example.output_t_stride);
  for (int32_t n = 0; n < minibatch_size && info_.ivector_dim > 0; ++n)
    ivector.emplace_back(n, 0);
  ComputationRequest request;
  request.inputs.emplace_back("input", input);
  if (info_.ivector_dim > 0) request.inputs.emplace_back("ivector", ivector);
  request.outputs.emplace_back("output", output);
  return request;
}

namespace {

// The rows of chunk n in a t-major minibatch matrix of `minibatch_size`
// chunks: rows n, n + N, n + 2N, ... as one strided view.
MatrixView ChunkRows(const MatrixView &m, int32_t n, int32_t minibatch_size) {
  return MatrixView(m.device(), m.RowData(n), m.NumRows() / minibatch_size,
                    m.NumCols(), m.Stride() * minibatch_size);
}

}  // namespace

void NnetBatchComputer::FormatInputs(
    int32_t minibatch_size, const std::vector<NnetInferenceTask *> &tasks,
    Matrix *input, Matrix *ivector) const {
  const int32_t num_input = tasks[0]->input.NumRows(),
                num_tasks = static_cast<int32_t>(tasks.size());
  // The n values beyond the tasks get zeros.
  input->Resize(minibatch_size * num_input, info_.input_dim,
                num_tasks < minibatch_size ? ResizeType::kSetZero
                                           : ResizeType::kUndefined);
  for (int32_t n = 0; n < num_tasks; ++n)
    ChunkRows(*input, n, minibatch_size).CopyFromMat(tasks[n]->input);
  if (info_.ivector_dim == 0) return;
  ivector->Resize(minibatch_size, info_.ivector_dim, ResizeType::kSetZero);
  for (int32_t n = 0; n < num_tasks; ++n)
    ivector->Row(n).CopyFromVec(tasks[n]->ivector);
}

void NnetBatchComputer::FormatOutputs(
    int32_t minibatch_size, const MatrixView &output,
    const std::vector<NnetInferenceTask *> &tasks) const {
  for (size_t n = 0; n < tasks.size(); ++n) {
    NnetInferenceTask &task = *tasks[n];
    Matrix *dest = task.output;
    if (dest->NumRows() == 0)
      dest->Resize(task.output_num_rows, output_dim_, ResizeType::kUndefined);
    dest->RowRange(task.first_used_output_frame_index,
                   task.num_used_output_frames)
        .CopyFromMat(ChunkRows(output, static_cast<int32_t>(n), minibatch_size)
                         .RowRange(task.num_initial_unused_output_frames,
                                   task.num_used_output_frames));
  }
}

bool NnetBatchComputer::Compute(bool allow_partial_minibatch,
                                std::vector<NnetInferenceTask *> *done) {
  std::vector<NnetInferenceTask *> tasks;
  SizeInfo *info = nullptr;
  int32_t size = 0;
  std::shared_ptr<const NnetComputation> computation;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    double best = -std::numeric_limits<double>::infinity();
    auto best_it = groups_.end();
    for (auto it = groups_.begin(); it != groups_.end(); ++it) {
      const double p = Priority(allow_partial_minibatch, it->first, it->second);
      if (p > best) {
        best = p;
        best_it = it;
      }
    }
    if (best_it == groups_.end()) return false;
    size = ActualMinibatchSize(best_it->first, best_it->second);
    info = &best_it->second.sizes[size];
    computation = info->computation;
    TakeTasks(size, best_it->first, &best_it->second, &tasks);
  }
  Timer timer;
  if (computation == nullptr) {
    computation = compiler_.Compile(MakeRequest(*tasks[0], size));
    std::lock_guard<std::mutex> lock(mutex_);
    info->computation = computation;
  }
  NnetComputer computer(opts_.compute_config, *computation, nnet_, nullptr);
  Matrix input, ivector, output;
  FormatInputs(size, tasks, &input, &ivector);
  computer.AcceptInput("input", &input);
  if (info_.ivector_dim > 0) computer.AcceptInput("ivector", &ivector);
  computer.Run();
  computer.GetOutputDestructive("output", &output);
  if (log_priors_.Dim() != 0) output.AddVecToRows(-1.0f, log_priors_);
  if (opts_.acoustic_scale != 1.0f) output.Scale(opts_.acoustic_scale);
  FormatOutputs(size, output, tasks);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    info->num_done++;
    info->tot_num_tasks += static_cast<int64_t>(tasks.size());
    info->seconds_taken += timer.Elapsed();
  }
  done->insert(done->end(), tasks.begin(), tasks.end());
  return true;
}

void NnetBatchComputer::PrintMinibatchStats() const {
  struct Stats {
    int32_t frames_in, frames_out, size;
    int64_t num_done;
    int32_t percent_full;
    double seconds;
  };
  std::vector<Stats> all;
  int64_t tot_tasks = 0, tot_minibatches = 0;
  double tot_seconds = 0.0;
  for (const auto &g : groups_) {
    for (const auto &s : g.second.sizes) {
      const SizeInfo &i = s.second;
      if (i.num_done == 0) continue;
      all.push_back({g.first.num_input_frames, g.first.num_output_frames,
                     s.first, i.num_done,
                     static_cast<int32_t>(i.tot_num_tasks * 100.0 /
                                          (s.first * i.num_done)),
                     i.seconds_taken});
      tot_tasks += i.tot_num_tasks;
      tot_minibatches += i.num_done;
      tot_seconds += i.seconds_taken;
    }
  }
  std::stable_sort(all.begin(), all.end(), [](const Stats &a, const Stats &b) {
    return a.seconds > b.seconds;
  });
  std::ostringstream os;
  os << "Minibatch stats: seconds-taken,frames-in:frames-out*minibatch-size="
        "num-done(percent-full%)  "
     << std::fixed << std::setprecision(2);
  const size_t max_to_print = 10;
  for (size_t i = 0; i < std::min(all.size(), max_to_print); ++i)
    os << all[i].seconds << ',' << all[i].frames_in << ':' << all[i].frames_out
       << '*' << all[i].size << '=' << all[i].num_done << '('
       << all[i].percent_full << "%) ";
  if (all.size() > max_to_print) os << "...";
  NNET3_LOG << os.str();
  NNET3_LOG << "Did " << tot_tasks << " tasks in " << tot_minibatches
            << " minibatches, taking " << tot_seconds << " seconds.";
}

}  // namespace nnet3
