// NnetBatchInference: many utterances through one network, their chunks
// computed together in minibatches by an NnetBatchComputer on a compute
// thread of its own, the outputs handed back whole and in input order
// (Kaldi's class of the same name, nnet-batch-compute.h), with a bound on
// the utterances held at once.
//
//   NnetBatchInference inference(opts, nnet, log_priors);  // starts its thread
//   // reader thread:                       // writer thread:
//   for (each utterance)                    std::string key;  Matrix out;
//     inference.AcceptInput(key, feats,     while (inference.GetOutput(&key,
//                           iv, online,                            &out))
//                           period);          write(key, out);
//   inference.Finished();
//
// AcceptInput splits the utterance (NnetBatchComputer::
// SplitUtteranceIntoTasks: a UserError naming the utterance if it does not
// fit the network, and nothing is queued) and queues its tasks with
// priority −(utterance number), so earlier utterances are computed first.
// It blocks while --max-utterances-in-flight utterances have been accepted
// and not yet taken by GetOutput (call GetOutput from another thread),
// unless fewer chunks than --minibatch-size wait to be computed: then it
// takes up to --minibatch-size utterances more, so that one-chunk
// utterances still fill whole minibatches.
// AcceptTasks queues tasks made by the caller (x-vector chunks): their used
// rows fill an output of `num_output_rows` rows.
//
// The compute thread computes full minibatches as they fill; partial ones
// only when they must be, i.e. after Finished() or while the reader waits
// on the in-flight bound (so a group that fills slowly, like first chunks
// with their own context, cannot hold memory for ever). GetOutput blocks
// until the oldest utterance not yet taken is complete, and returns false
// once Finished() was called and everything was taken. Memory is bounded
// by the in-flight utterances (at most --max-utterances-in-flight plus
// --minibatch-size: their features, chunk inputs until computed, and
// outputs) plus one minibatch, whatever the archive size.
//
// Errors: an exception on the compute thread (or one passed to Abort by a
// caller) stops everything; AcceptInput, AcceptTasks and GetOutput then
// rethrow it. Abort() without an error makes them return (GetOutput false)
// or throw UserError. The destructor aborts if Finished() was not called,
// joins the thread and drops what was not taken.
#ifndef NNET3_COMPUTE_NNET_BATCH_INFERENCE_H_
#define NNET3_COMPUTE_NNET_BATCH_INFERENCE_H_

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "compute/nnet-batch-computer.h"
#include "compute/nnet-batch-tasks.h"
#include "matrix/matrix.h"
#include "matrix/vector.h"
#include "nnet/nnet.h"

namespace nnet3 {

class NnetBatchInference {
 public:
  // See NnetBatchComputer for the arguments; starts the compute thread.
  NnetBatchInference(const NnetBatchComputerOptions &opts, const Nnet &nnet,
                     const VectorView &log_priors);
  NnetBatchInference(const NnetBatchInference &) = delete;
  NnetBatchInference &operator=(const NnetBatchInference &) = delete;
  ~NnetBatchInference();

  void AcceptInput(const std::string &utterance, const MatrixView &features,
                   const VectorView *ivector, const MatrixView *online_ivectors,
                   int32_t online_ivector_period);
  // Queues `tasks` (their output destinations are set here); each task's
  // used rows go to rows of the utterance's output (num_output_rows rows).
  // `num_input_frames` is handed back by GetOutput.
  void AcceptTasks(const std::string &utterance,
                   std::vector<NnetInferenceTask> tasks,
                   int32_t num_output_rows, int64_t num_input_frames);
  // No more input.
  void Finished();
  // The next utterance in input order, when complete (see the file
  // comment); false when there are no more.
  bool GetOutput(std::string *utterance, Matrix *output,
                 int64_t *num_input_frames = nullptr);
  // Stops everything (see the file comment); `error` may be null.
  void Abort(std::exception_ptr error = nullptr);

  NnetBatchComputer &Computer() { return computer_; }
  // The most utterances that were in flight at once, and how many
  // utterances were complete before an earlier one (diagnostics, tests).
  int32_t MaxInFlightSeen() const;
  int64_t NumCompletedOutOfOrder() const;
  // Seconds the compute thread has spent computing minibatches so far (for
  // the programs' time shares).
  double ComputeSeconds() const;

 private:
  struct Utterance {
    std::string key;
    std::vector<NnetInferenceTask> tasks;
    Matrix output;
    size_t num_done = 0;
    int64_t num_input_frames = 0;
  };

  void ComputeLoop();
  // Waits for work; false when the loop should end. Sets *allow_partial.
  bool WaitForWork(bool *allow_partial);
  void MarkDone(const std::vector<NnetInferenceTask *> &done);
  // Throws the stored error, or UserError if aborted without one.
  void ThrowIfAborted() const;
  // Whether AcceptTasks must wait for GetOutput, and whether the oldest
  // utterance not yet taken is complete (mutex_ held).
  bool MustWaitForRoom() const;
  bool OldestIsDone() const;

  NnetBatchComputer computer_;
  const int32_t max_in_flight_;

  mutable std::mutex mutex_;  // guards everything below
  // One per waiter, each notified only when its condition may have become
  // true: with one-frame utterances a shared notify_all woke all three
  // threads per utterance (a quarter of the time in context switches).
  std::condition_variable work_cv_;    // the compute thread: WaitForWork
  std::condition_variable output_cv_;  // the writer: GetOutput
  std::condition_variable room_cv_;    // the reader: AcceptTasks
  void NotifyAll();                    // all three (Finished, Abort, ...)
  std::deque<std::unique_ptr<Utterance>> utterances_;  // in input order
  std::unordered_map<const NnetInferenceTask *, Utterance *> owner_;
  int64_t num_accepted_ = 0;
  int32_t max_in_flight_seen_ = 0;
  int64_t num_completed_out_of_order_ = 0;
  double compute_seconds_ = 0.0;
  bool finished_ = false, aborted_ = false, reader_waiting_ = false;
  std::exception_ptr error_;

  std::thread compute_thread_;  // last: started once the rest exists
};

}  // namespace nnet3

#endif  // NNET3_COMPUTE_NNET_BATCH_INFERENCE_H_
