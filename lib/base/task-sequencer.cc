#include "base/task-sequencer.h"

#include <utility>

#include "base/error.h"

namespace nnet3 {

TaskSequencer::TaskSequencer(int32_t num_threads, int32_t max_tasks)
    : max_tasks_(max_tasks) {
  NNET3_ASSERT(num_threads >= 1 && max_tasks >= num_threads);
  for (int32_t t = 0; t < num_threads; t++)
    workers_.emplace_back([this, t]() { WorkerLoop(t); });
}

TaskSequencer::~TaskSequencer() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  work_cv_.notify_all();
  for (std::thread &worker : workers_) worker.join();
}

void TaskSequencer::WorkerLoop(int32_t thread) {
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    work_cv_.wait(lock, [this]() { return stopping_ || num_waiting_ > 0; });
    if (stopping_) return;
    // std::deque keeps references to its elements valid while other
    // threads push at the back; only the caller pops, and only done tasks.
    Task &task = tasks_[tasks_.size() - num_waiting_];
    num_waiting_--;
    lock.unlock();
    std::exception_ptr error;
    try {
      task.work(thread);
    } catch (...) {
      error = std::current_exception();
    }
    lock.lock();
    task.error = error;
    task.done = true;
    done_cv_.notify_all();
  }
}

void TaskSequencer::OutputFront(bool block) {
  while (true) {
    std::function<void()> output;
    std::exception_ptr error;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      if (block)
        done_cv_.wait(lock,
                      [this]() { return tasks_.empty() || tasks_[0].done; });
      if (tasks_.empty() || !tasks_[0].done) return;
      output = std::move(tasks_[0].output);
      error = tasks_[0].error;
      tasks_.pop_front();
    }
    block = false;
    if (error) std::rethrow_exception(error);
    output();
  }
}

void TaskSequencer::Run(std::function<void(int32_t thread)> task,
                        std::function<void()> output) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    tasks_.emplace_back();
    tasks_.back().work = std::move(task);
    tasks_.back().output = std::move(output);
    num_waiting_++;
  }
  work_cv_.notify_one();
  OutputFront(false);
  while (true) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (static_cast<int32_t>(tasks_.size()) < max_tasks_) return;
    }
    OutputFront(true);
  }
}

void TaskSequencer::Wait() {
  while (true) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (tasks_.empty()) return;
    }
    OutputFront(true);
  }
}

}  // namespace nnet3
