// A fixed set of worker threads that runs the iterations of a loop side by
// side: the calling thread takes part, so a pool of N threads starts N − 1.
//
//   ThreadPool pool(4);
//   pool.ParallelFor(num_chunks, [&](int32_t thread, int32_t i) {
//     Compute(chunk[i], &scratch[thread]);   // thread: 0 .. NumThreads()-1
//   });
//
// ParallelFor hands out the iterations in order, one at a time, to whichever
// thread is free, and returns when all have finished. `thread` says which
// thread runs an iteration (0 is the caller), so that each can keep its own
// scratch data. If an iteration throws, no further iterations start, the
// running ones finish, and the first exception is rethrown to the caller.
// ParallelFor allocates nothing (the body is called through a pointer), so
// it is safe in a steady-state loop. One ParallelFor at a time per pool;
// the destructor stops and joins the workers.
#ifndef NNET3_BASE_THREAD_POOL_H_
#define NNET3_BASE_THREAD_POOL_H_

#include <condition_variable>
#include <cstdint>
#include <exception>
#include <mutex>
#include <thread>
#include <type_traits>
#include <vector>

namespace nnet3 {

class ThreadPool {
 public:
  // `num_threads` >= 1, counting the caller.
  explicit ThreadPool(int32_t num_threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool &) = delete;
  ThreadPool &operator=(const ThreadPool &) = delete;

  int32_t NumThreads() const {
    return static_cast<int32_t>(workers_.size()) + 1;
  }

  // Calls body(thread, i) for every i in [0, n), on all threads.
  template <typename Body>
  void ParallelFor(int32_t n, Body &&body) {
    using B = std::remove_reference_t<Body>;
    Run(n, &body, [](void *b, int32_t thread, int32_t i) {
      (*static_cast<B *>(b))(thread, i);
    });
  }

 private:
  using Call = void (*)(void *body, int32_t thread, int32_t i);
  void Run(int32_t n, void *body, Call call);
  void WorkerLoop(int32_t thread);
  // Runs iterations until none are left (or one has failed).
  void TakeIterations(int32_t thread);

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable start_cv_, done_cv_;
  // Guarded by mutex_.
  uint64_t generation_ = 0;  // one per ParallelFor
  bool stopping_ = false;
  int32_t participants_ = 0;  // workers that join this ParallelFor
  int32_t busy_workers_ = 0;  // of those, the ones not finished yet
  int32_t next_ = 0, end_ = 0;
  std::exception_ptr error_;
  void *body_ = nullptr;
  Call call_ = nullptr;
};

}  // namespace nnet3

#endif  // NNET3_BASE_THREAD_POOL_H_
