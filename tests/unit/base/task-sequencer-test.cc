// TaskSequencer: outputs come in submission order whatever order the tasks
// finish in, on the caller's thread; thread numbers are valid; no more
// than max_tasks tasks are pending at once; several workers run side by
// side; a task's exception reaches the caller at its turn, after the
// outputs before it.
#include "base/task-sequencer.h"

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <memory>
#include <random>
#include <stdexcept>
#include <thread>
#include <vector>

using namespace nnet3;

TEST_CASE("TaskSequencer outputs in order", "[task-sequencer]") {
  const uint32_t seed = 99;
  INFO("seed " << seed);
  std::mt19937 rng(seed);
  for (int32_t threads : {1, 3}) {
    for (int32_t max_tasks : {threads, threads + 4}) {
      INFO("threads " << threads << ", max_tasks " << max_tasks);
      std::vector<int32_t> outputs;
      std::atomic<int32_t> pending{0}, max_pending{0}, bad_thread{0};
      const std::thread::id caller = std::this_thread::get_id();
      bool outputs_on_caller = true;
      {
        TaskSequencer sequencer(threads, max_tasks);
        for (int32_t i = 0; i < 40; i++) {
          const int32_t sleep_us = static_cast<int32_t>(rng() % 2000);
          int32_t now = ++pending;
          for (int32_t m = max_pending; now > m;)
            if (max_pending.compare_exchange_weak(m, now)) break;
          sequencer.Run(
              [&, sleep_us](int32_t thread) {
                if (thread < 0 || thread >= threads) bad_thread++;
                std::this_thread::sleep_for(
                    std::chrono::microseconds(sleep_us));
              },
              [&, i]() {
                outputs.push_back(i);
                pending--;
                outputs_on_caller =
                    outputs_on_caller && std::this_thread::get_id() == caller;
              });
        }
        sequencer.Wait();
      }
      std::vector<int32_t> expected(40);
      for (int32_t i = 0; i < 40; i++) expected[i] = i;
      CHECK(outputs == expected);
      CHECK(bad_thread == 0);
      CHECK(outputs_on_caller);
      // Counted before Run: one more than the tasks Run lets stay pending.
      CHECK(max_pending <= max_tasks + 1);
    }
  }
}

TEST_CASE("TaskSequencer runs tasks side by side", "[task-sequencer]") {
  // Each task waits (up to 5 s) until two are running at once.
  std::atomic<int32_t> running{0};
  std::atomic<bool> overlapped{false};
  TaskSequencer sequencer(2, 2);
  for (int32_t i = 0; i < 2; i++)
    sequencer.Run(
        [&](int32_t) {
          running++;
          for (int32_t k = 0; k < 5000 && !overlapped; k++) {
            if (running == 2) overlapped = true;
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
          }
        },
        []() {});
  sequencer.Wait();
  CHECK(overlapped);
}

TEST_CASE("TaskSequencer rethrows a task's exception in order",
          "[task-sequencer]") {
  std::vector<int32_t> outputs;
  TaskSequencer sequencer(2, 8);
  bool thrown = false;
  try {
    for (int32_t i = 0; i < 8; i++)
      sequencer.Run(
          [i](int32_t) {
            if (i == 3) throw std::runtime_error("task 3 failed");
          },
          [&outputs, i]() { outputs.push_back(i); });
    sequencer.Wait();
  } catch (const std::runtime_error &e) {
    thrown = std::string(e.what()) == "task 3 failed";
  }
  CHECK(thrown);
  CHECK(outputs == std::vector<int32_t>{0, 1, 2});
}
