// ThreadPool: every iteration runs exactly once, on a valid thread number,
// side by side on several threads; exceptions reach the caller and stop
// the loop; the pool can be reused and destroyed while idle.
#include "base/thread-pool.h"

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

using namespace nnet3;

TEST_CASE("ThreadPool runs every iteration once, on a valid thread",
          "[thread-pool]") {
  for (int32_t threads : {1, 2, 4}) {
    ThreadPool pool(threads);
    REQUIRE(pool.NumThreads() == threads);
    for (int32_t n : {0, 1, 3, 17, 100}) {
      INFO("threads " << threads << ", n " << n);
      std::vector<std::atomic<int32_t>> runs(n);
      std::vector<int32_t> thread_of(n, -1);
      pool.ParallelFor(n, [&](int32_t thread, int32_t i) {
        runs[i]++;
        thread_of[i] = thread;
      });
      for (int32_t i = 0; i < n; ++i) {
        CHECK(runs[i] == 1);
        CHECK(thread_of[i] >= 0);
        CHECK(thread_of[i] < threads);
      }
    }
  }
}

TEST_CASE("ThreadPool runs iterations side by side", "[thread-pool]") {
  // Each iteration waits until two are running at once (or gives up after
  // 10 s): with one thread doing everything this would never happen.
  ThreadPool pool(2);
  std::atomic<int32_t> running{0}, max_running{0};
  pool.ParallelFor(2, [&](int32_t, int32_t) {
    const int32_t now = ++running;
    int32_t seen = max_running.load();
    while (now > seen && !max_running.compare_exchange_weak(seen, now)) {
    }
    const auto give_up =
        std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (max_running.load() < 2 && std::chrono::steady_clock::now() < give_up)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    --running;
  });
  CHECK(max_running.load() == 2);
}

TEST_CASE("ThreadPool puts every thread to work", "[thread-pool]") {
  ThreadPool pool(3);
  // Each iteration waits (10 s at most) until all three threads have
  // taken one.
  std::atomic<int32_t> distinct{0};
  std::vector<std::atomic<int32_t>> by_thread(3);
  pool.ParallelFor(3, [&](int32_t thread, int32_t) {
    if (by_thread[thread]++ == 0) ++distinct;
    const auto give_up =
        std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (distinct.load() < 3 && std::chrono::steady_clock::now() < give_up)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
  });
  CHECK(distinct.load() == 3);
}

TEST_CASE("ThreadPool passes the first exception on and stops the loop",
          "[thread-pool]") {
  ThreadPool pool(2);
  // Iteration 0 throws. The others take 20 ms each once it has thrown, so
  // that only a failure that is never seen would let the other thread run
  // through the 1000 iterations (a thread may still finish the one it had
  // taken, and a preempted thrower may let it take a few more).
  std::atomic<bool> thrown{false};
  std::atomic<int32_t> started{0};
  std::string message;
  try {
    pool.ParallelFor(1000, [&](int32_t, int32_t i) {
      ++started;
      if (i == 0) {
        thrown = true;
        throw std::runtime_error("chunk 0");
      }
      const auto give_up =
          std::chrono::steady_clock::now() + std::chrono::seconds(10);
      while (!thrown && std::chrono::steady_clock::now() < give_up)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    });
  } catch (const std::runtime_error &e) {
    message = e.what();
  }
  CHECK(message == "chunk 0");
  CHECK(started.load() < 50);
  // The pool still works afterwards.
  std::atomic<int32_t> runs{0};
  pool.ParallelFor(10, [&](int32_t, int32_t) { ++runs; });
  CHECK(runs.load() == 10);
}
