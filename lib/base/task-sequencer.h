// Tasks computed on worker threads, their outputs made in the caller's
// thread in the order the tasks were given (the idea of Kaldi's
// TaskSequencer, which the -parallel decoders use: utterances decode side
// by side and are written in input order).
//
//   TaskSequencer sequencer(num_threads, max_tasks);
//   for (...) {
//     auto slot = std::make_shared<Result>();
//     sequencer.Run([slot](int32_t thread) { Compute(thread, slot.get()); },
//                   [slot]() { Write(*slot); });
//   }
//   sequencer.Wait();   // every task computed and every output made
//
// `thread` (0 .. num_threads-1) says which worker runs the task, so that
// each worker can keep its own scratch (a decoder, a network computer).
// Run returns at once unless `max_tasks` tasks are waiting, running, or
// done but not yet output; then it makes outputs (in order) until there is
// room. Outputs run only inside Run and Wait, on the caller's thread, so
// they need no locking. If a task throws, its exception is rethrown by the
// Run or Wait that reaches its output (the tasks before it are output
// first); the destructor finishes the running tasks, drops the others and
// joins the workers.
#ifndef NNET3_BASE_TASK_SEQUENCER_H_
#define NNET3_BASE_TASK_SEQUENCER_H_

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace nnet3 {

class TaskSequencer {
 public:
  // num_threads >= 1 workers; max_tasks >= num_threads.
  TaskSequencer(int32_t num_threads, int32_t max_tasks);
  ~TaskSequencer();
  TaskSequencer(const TaskSequencer &) = delete;
  TaskSequencer &operator=(const TaskSequencer &) = delete;

  void Run(std::function<void(int32_t thread)> task,
           std::function<void()> output);
  void Wait();

 private:
  struct Task {
    std::function<void(int32_t)> work;
    std::function<void()> output;
    bool done = false;
    std::exception_ptr error;
  };
  void WorkerLoop(int32_t thread);
  // Outputs the finished tasks at the front; with `block`, first waits
  // for the front one to finish. Called without the lock.
  void OutputFront(bool block);

  int32_t max_tasks_;
  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable work_cv_, done_cv_;
  // Guarded by mutex_: every task not yet output, oldest first, and how
  // many of them (from the back) no worker has taken yet.
  std::deque<Task> tasks_;
  size_t num_waiting_ = 0;
  bool stopping_ = false;
};

}  // namespace nnet3

#endif  // NNET3_BASE_TASK_SEQUENCER_H_
