// NnetBatchComputer: computes chunks (tasks, nnet-batch-tasks.h) of many
// utterances together, in minibatches of chunks that have the same shape
// (Kaldi's class of the same name, nnet-batch-compute.h; reference 7.2).
//
//   NnetBatchComputer computer(opts, nnet, log_priors);  // priors: may be
//   empty computer.SplitUtteranceIntoTasks("utt1", feats, nullptr, nullptr, 0,
//   &tasks); for (NnetInferenceTask &t : tasks) {
//     t.output = &utt1_output;  t.output_num_rows = num_output_frames;
//     computer.AcceptTask(&t);
//   }
//   std::vector<NnetInferenceTask *> done;
//   while (computer.Compute(/*allow_partial_minibatch=*/true, &done)) {}
//
// Tasks are grouped by shape (input frames, first input t, output frames,
// edge/irregular). A full minibatch has --minibatch-size tasks
// (--edge-minibatch-size for edge tasks, 1 for irregular ones). Compute()
// picks the group with the highest priority (Kaldi's heuristic: the mean
// priority of the tasks that would be computed, minus up to 10 for a
// minibatch that is not full; without allow_partial_minibatch only full
// minibatches count) and computes its highest-priority tasks. A partial
// minibatch of k tasks is computed at size s = the full size times
// --partial-minibatch-factor as many times as k stays below
// int(factor · s) (so 0.0 pads every minibatch up to the full size); the
// n values beyond k get zero input and their output is dropped.
//
// One request per (shape, size): Kaldi's GetComputationRequest, but with
// the indexes t-major (for t, for n; Kaldi's are n-major) -- the order the
// compiler gives its matrices anyway, so that the output needs no
// reordering copy (which would also hold a second output-sized matrix);
// each chunk's rows are then a strided view. Compiled by the computer's
// CachingOptimizingCompiler (--optimization.*, --compiler.*): with
// --compiler.use-shortcut (the default) a size above 2 is compiled as two
// chunks and expanded, and each (shape, size) pair is compiled once and
// then reused without even a cache lookup. The output of each minibatch
// gets the log-priors subtracted (if any) and is scaled by
// --acoustic-scale, then each task's used rows are copied into its output
// destination.
//
// Threads: AcceptTask, Compute and the queries may be called from
// different threads (one lock; Compute holds it only to pick the tasks and
// to record statistics, never while compiling or computing). The tasks
// must stay alive until Compute returns them as done. At destruction, LOG
// lines give Kaldi's minibatch statistics ("Minibatch stats: ..." and
// "Did N tasks in M minibatches, taking S seconds.").
#ifndef NNET3_COMPUTE_NNET_BATCH_COMPUTER_H_
#define NNET3_COMPUTE_NNET_BATCH_COMPUTER_H_

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

#include "compile/computation-request.h"
#include "compile/nnet-computation.h"
#include "compute/nnet-batch-tasks.h"
#include "matrix/matrix.h"
#include "matrix/vector.h"
#include "nnet/nnet.h"
#include "optimize/caching-compiler.h"

namespace nnet3 {

class NnetBatchComputer {
 public:
  // `nnet` (simple: compile/nnet-context.h) must outlive the computer.
  // `log_priors`, if not empty, has the output's dimension and is
  // subtracted from every output row (log-probabilities minus log-priors
  // give Kaldi's pseudo log-likelihoods). --frames-per-chunk is rounded up
  // to a multiple of lcm(frame-subsampling-factor, nnet modulus), as Kaldi
  // does. UserError for bad options, a network that is not simple, or
  // priors of the wrong dimension.
  NnetBatchComputer(const NnetBatchComputerOptions &opts, const Nnet &nnet,
                    const VectorView &log_priors);
  NnetBatchComputer(const NnetBatchComputer &) = delete;
  NnetBatchComputer &operator=(const NnetBatchComputer &) = delete;
  // Logs the minibatch statistics. Pending tasks are dropped.
  ~NnetBatchComputer();

  // SplitUtteranceIntoTasks (nnet-batch-tasks.h) with this network and the
  // rounded options.
  void SplitUtteranceIntoTasks(const std::string &utterance,
                               const MatrixView &features,
                               const VectorView *ivector,
                               const MatrixView *online_ivectors,
                               int32_t online_ivector_period,
                               std::vector<NnetInferenceTask> *tasks) const;

  // Queues a task (the caller keeps ownership; task->output must be set).
  void AcceptTask(NnetInferenceTask *task);
  // Computes one minibatch, if there is one to compute (see the file
  // comment), and appends its tasks to *done. Returns false if there was
  // nothing to compute.
  bool Compute(bool allow_partial_minibatch,
               std::vector<NnetInferenceTask *> *done);
  // How many full minibatches are waiting, whether any task is, and how
  // many tasks are.
  int32_t NumFullPendingMinibatches() const;
  bool HasPendingTasks() const;
  int64_t NumPendingTasks() const;
  // Forgets every pending task (they will never be computed).
  void DropPendingTasks();

  const NnetBatchComputerOptions &Options() const { return opts_; }
  CachingOptimizingCompiler &Compiler() { return compiler_; }
  int32_t OutputDim() const { return output_dim_; }
  int32_t IvectorDim() const { return info_.ivector_dim; }

 private:
  struct GroupKey {
    int32_t num_input_frames, first_input_t, num_output_frames;
    bool is_edge, is_irregular;
    bool operator<(const GroupKey &o) const {
      return std::tie(num_input_frames, first_input_t, num_output_frames,
                      is_edge, is_irregular) <
             std::tie(o.num_input_frames, o.first_input_t, o.num_output_frames,
                      o.is_edge, o.is_irregular);
    }
  };
  // Per minibatch size of a group: its computation and statistics.
  struct SizeInfo {
    std::shared_ptr<const NnetComputation> computation;
    int64_t num_done = 0, tot_num_tasks = 0;
    double seconds_taken = 0.0;
  };
  struct Group {
    std::vector<NnetInferenceTask *> tasks;
    std::map<int32_t, SizeInfo> sizes;
  };

  int32_t FullSize(const GroupKey &key) const;
  // Kaldi's heuristic; -infinity if the group may not be computed now.
  double Priority(bool allow_partial, const GroupKey &key,
                  const Group &group) const;
  int32_t ActualMinibatchSize(const GroupKey &key, const Group &group) const;
  // Moves the `num` highest-priority tasks (earliest first among equals)
  // out of `group` into *tasks.
  void TakeTasks(int32_t num, const GroupKey &key, Group *group,
                 std::vector<NnetInferenceTask *> *tasks);
  ComputationRequest MakeRequest(const NnetInferenceTask &example,
                                 int32_t minibatch_size) const;
  void FormatInputs(int32_t minibatch_size,
                    const std::vector<NnetInferenceTask *> &tasks,
                    Matrix *input, Matrix *ivector) const;
  void FormatOutputs(int32_t minibatch_size, const MatrixView &output,
                     const std::vector<NnetInferenceTask *> &tasks) const;
  void PrintMinibatchStats() const;

  NnetBatchComputerOptions opts_;
  const Nnet &nnet_;
  CachingOptimizingCompiler compiler_;
  Vector log_priors_;
  BatchNnetInfo info_;
  int32_t output_dim_ = 0;

  mutable std::mutex mutex_;  // guards everything below
  std::map<GroupKey, Group> groups_;
  int32_t num_full_minibatches_ = 0;
};

}  // namespace nnet3

#endif  // NNET3_COMPUTE_NNET_BATCH_COMPUTER_H_
