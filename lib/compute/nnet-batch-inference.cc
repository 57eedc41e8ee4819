#include "compute/nnet-batch-inference.h"

#include <algorithm>
#include <utility>

#include "base/error.h"
#include "base/timer.h"

namespace nnet3 {

NnetBatchInference::NnetBatchInference(const NnetBatchComputerOptions &opts,
                                       const Nnet &nnet,
                                       const VectorView &log_priors)
    : computer_(opts, nnet, log_priors),
      max_in_flight_(opts.max_utterances_in_flight) {
  compute_thread_ = std::thread([this] { ComputeLoop(); });
}

NnetBatchInference::~NnetBatchInference() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!finished_) aborted_ = true;
    NotifyAll();
  }
  if (compute_thread_.joinable()) compute_thread_.join();
  computer_.DropPendingTasks();
}

void NnetBatchInference::ThrowIfAborted() const {
  if (error_) std::rethrow_exception(error_);
  NNET3_ERR << "Batched inference was stopped before this utterance";
}

void NnetBatchInference::AcceptInput(const std::string &utterance,
                                     const MatrixView &features,
                                     const VectorView *ivector,
                                     const MatrixView *online_ivectors,
                                     int32_t online_ivector_period) {
  std::vector<NnetInferenceTask> tasks;
  computer_.SplitUtteranceIntoTasks(utterance, features, ivector,
                                    online_ivectors, online_ivector_period,
                                    &tasks);
  const int32_t f = computer_.Options().frame_subsampling_factor;
  AcceptTasks(utterance, std::move(tasks), (features.NumRows() + f - 1) / f,
              features.NumRows());
}

void NnetBatchInference::AcceptTasks(const std::string &utterance,
                                     std::vector<NnetInferenceTask> tasks,
                                     int32_t num_output_rows,
                                     int64_t num_input_frames) {
  auto utt = std::make_unique<Utterance>();
  utt->key = utterance;
  utt->tasks = std::move(tasks);
  utt->num_input_frames = num_input_frames;
  std::unique_lock<std::mutex> lock(mutex_);
  while (!aborted_ && MustWaitForRoom()) {
    // The compute thread may now compute partial minibatches.
    reader_waiting_ = true;
    work_cv_.notify_one();
    room_cv_.wait(lock);
  }
  reader_waiting_ = false;
  if (aborted_) ThrowIfAborted();
  const double priority = -static_cast<double>(num_accepted_++);
  Utterance *u = utt.get();
  std::vector<NnetInferenceTask *> to_accept;
  to_accept.reserve(u->tasks.size());
  for (NnetInferenceTask &task : u->tasks) {
    task.output = &u->output;
    task.output_num_rows = num_output_rows;
    task.priority = priority;
    owner_[&task] = u;
    to_accept.push_back(&task);
  }
  utterances_.push_back(std::move(utt));
  max_in_flight_seen_ =
      std::max(max_in_flight_seen_, static_cast<int32_t>(utterances_.size()));
  lock.unlock();
  // Registered first: a task may be computed as soon as it is accepted, and
  // once the last one is, the utterance may be written and freed (so `u`
  // is not touched after this loop).
  for (NnetInferenceTask *task : to_accept) computer_.AcceptTask(task);
  lock.lock();
  if (computer_.NumFullPendingMinibatches() > 0) work_cv_.notify_one();
}

void NnetBatchInference::NotifyAll() {
  work_cv_.notify_all();
  output_cv_.notify_all();
  room_cv_.notify_all();
}

bool NnetBatchInference::OldestIsDone() const {
  return !utterances_.empty() &&
         utterances_.front()->num_done == utterances_.front()->tasks.size();
}

bool NnetBatchInference::MustWaitForRoom() const {
  const int64_t in_flight = static_cast<int64_t>(utterances_.size());
  if (in_flight < max_in_flight_) return false;
  // Short utterances (one chunk each, e.g. images) could never fill a
  // minibatch under the bound alone: read on while fewer chunks than a full
  // minibatch wait to be computed, up to --minibatch-size more utterances.
  const int32_t full = computer_.Options().minibatch_size;
  return in_flight >= static_cast<int64_t>(max_in_flight_) + full ||
         computer_.NumPendingTasks() >= full;
}

void NnetBatchInference::Finished() {
  std::lock_guard<std::mutex> lock(mutex_);
  finished_ = true;
  NotifyAll();
}

void NnetBatchInference::Abort(std::exception_ptr error) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (error && !error_) error_ = error;
  aborted_ = true;
  NotifyAll();
}

int32_t NnetBatchInference::MaxInFlightSeen() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return max_in_flight_seen_;
}

int64_t NnetBatchInference::NumCompletedOutOfOrder() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return num_completed_out_of_order_;
}

double NnetBatchInference::ComputeSeconds() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return compute_seconds_;
}

bool NnetBatchInference::GetOutput(std::string *utterance, Matrix *output,
                                   int64_t *num_input_frames) {
  std::unique_lock<std::mutex> lock(mutex_);
  output_cv_.wait(lock, [this] {
    return aborted_ || (finished_ && utterances_.empty()) || OldestIsDone();
  });
  if (aborted_) {
    if (error_) std::rethrow_exception(error_);
    return false;
  }
  if (utterances_.empty()) return false;
  std::unique_ptr<Utterance> utt = std::move(utterances_.front());
  utterances_.pop_front();
  if (reader_waiting_) room_cv_.notify_one();
  lock.unlock();
  *utterance = utt->key;
  output->Swap(&utt->output);
  if (num_input_frames != nullptr) *num_input_frames = utt->num_input_frames;
  return true;
}

bool NnetBatchInference::WaitForWork(bool *allow_partial) {
  std::unique_lock<std::mutex> lock(mutex_);
  work_cv_.wait(lock, [this] {
    if (aborted_ || computer_.NumFullPendingMinibatches() > 0) return true;
    const bool pending = computer_.HasPendingTasks();
    return finished_ ? true : (reader_waiting_ && pending);
  });
  if (aborted_) return false;
  if (finished_ && !computer_.HasPendingTasks()) return false;
  *allow_partial = finished_ || reader_waiting_;
  return true;
}

void NnetBatchInference::MarkDone(
    const std::vector<NnetInferenceTask *> &done) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (NnetInferenceTask *task : done) {
    auto it = owner_.find(task);
    NNET3_ASSERT(it != owner_.end());
    Utterance *utt = it->second;
    task->input = Matrix();  // no longer needed: free it now
    owner_.erase(it);
    if (++utt->num_done < utt->tasks.size()) continue;
    for (const auto &earlier : utterances_) {
      if (earlier.get() == utt) break;
      if (earlier->num_done < earlier->tasks.size()) {
        num_completed_out_of_order_++;
        break;
      }
    }
  }
  if (OldestIsDone()) output_cv_.notify_one();
  // Tasks were taken: the reader may now have room.
  if (reader_waiting_) room_cv_.notify_one();
}

void NnetBatchInference::ComputeLoop() {
  std::vector<NnetInferenceTask *> done;
  bool allow_partial = false;
  try {
    while (WaitForWork(&allow_partial)) {
      done.clear();
      Timer timer;
      const bool computed = computer_.Compute(allow_partial, &done);
      const double seconds = timer.Elapsed();
      {
        std::lock_guard<std::mutex> lock(mutex_);
        compute_seconds_ += seconds;
      }
      if (computed) MarkDone(done);
    }
  } catch (...) {
    Abort(std::current_exception());
  }
}

}  // namespace nnet3
