// A fixed pool of threads running a loop's iterations (see thread-pool.h).
#include "base/thread-pool.h"

#include <algorithm>

#include "base/error.h"

namespace nnet3 {

ThreadPool::ThreadPool(int32_t num_threads) {
  NNET3_ASSERT(num_threads >= 1);
  workers_.reserve(num_threads - 1);
  for (int32_t t = 1; t < num_threads; ++t)
    workers_.emplace_back([this, t] { WorkerLoop(t); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  start_cv_.notify_all();
  for (std::thread &w : workers_) w.join();
}

void ThreadPool::Run(int32_t n, void *body, Call call) {
  NNET3_ASSERT(n >= 0);
  if (n == 0) return;
  bool wake_workers;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    NNET3_ASSERT(busy_workers_ == 0 && next_ == end_);
    body_ = body;
    call_ = call;
    next_ = 0;
    end_ = n;
    error_ = nullptr;
    // Only as many workers as there are iterations besides the caller's.
    participants_ = std::min<int32_t>(n - 1, workers_.size());
    busy_workers_ = participants_;
    wake_workers = participants_ > 0;
    ++generation_;
  }
  if (wake_workers) start_cv_.notify_all();
  TakeIterations(0);
  std::unique_lock<std::mutex> lock(mutex_);
  done_cv_.wait(lock, [this] { return busy_workers_ == 0; });
  body_ = nullptr;
  if (error_ != nullptr) {
    std::exception_ptr error = error_;
    error_ = nullptr;
    std::rethrow_exception(error);
  }
}

void ThreadPool::TakeIterations(int32_t thread) {
  for (;;) {
    int32_t i;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (next_ >= end_) return;
      i = next_++;
    }
    try {
      call_(body_, thread, i);
    } catch (...) {
      std::lock_guard<std::mutex> lock(mutex_);
      if (error_ == nullptr) error_ = std::current_exception();
      next_ = end_;  // start no more
      return;
    }
  }
}

void ThreadPool::WorkerLoop(int32_t thread) {
  uint64_t seen = 0;
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(mutex_);
      // A worker joins a ParallelFor only if it was counted on (thread
      // numbers 1 .. participants_).
      start_cv_.wait(lock, [&] {
        return stopping_ || (generation_ != seen && thread <= participants_);
      });
      if (stopping_) return;
      seen = generation_;
    }
    TakeIterations(thread);
    std::lock_guard<std::mutex> lock(mutex_);
    if (--busy_workers_ == 0) done_cv_.notify_one();
  }
}

}  // namespace nnet3
