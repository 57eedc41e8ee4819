// The memory timeline: live bytes after each command of hand-built
// computations, worked out by hand, and its peak as GetMaxMemoryUse.
#include "compile/memory-timeline.h"

#include <catch2/catch.hpp>
#include <vector>

#include "compile/computation-analysis.h"
#include "computation-test-utils.h"

using namespace nnet3;

TEST_CASE("memory timeline of the small forward-backward computation",
          "[memory-timeline]") {
  // m1, m8: 5x4 (80 bytes); m2..m7: 5x3 (60 bytes). See SmallComputation.
  const NnetComputation c = SmallComputation(false);
  MemoryTimeline t;
  ComputeMemoryTimeline(c, &t);
  const std::vector<int64_t> expected = {
      80,  140, 140, 200, 200, 260, 260, 260, 260, 320, 380, 380, 380,
      440, 440, 520, 520, 520, 520, 440, 380, 320, 260, 200, 140};
  CHECK(t.bytes_after == expected);
  CHECK(t.peak_bytes == 520);
  CHECK(t.peak_command == 15);  // the first command reaching it
  CHECK(t.backward_command == 8);
  CHECK(GetMaxMemoryUse(c) == 520);
  CHECK(MatricesLiveAtPeak(t) == std::vector<int32_t>{1, 8, 2, 3, 4, 5, 6, 7});
  CHECK(t.held_at_peak[1] == 80);
  CHECK(t.held_at_peak[5] == 60);
  CHECK(t.first_alloc_command[5] == 9);  // kAcceptInput allocates
  CHECK(t.last_free_command[5] == 22);
  CHECK(t.last_free_command[4] == -1);  // the output is never freed
  CHECK(t.last_free_command[8] == -1);
}

TEST_CASE("memory timeline: compression, swaps, double allocation",
          "[memory-timeline]") {
  NnetComputation c;
  const MatrixStrideType kDefault = MatrixStrideType::kDefaultStride;
  const int32_t m1 = c.NewMatrix(2, 2, kDefault),
                m2 = c.NewMatrix(2, 2, kDefault);
  using Cmd = NnetComputation::Command;
  Cmd compress(1.0f, kCompressMatrix, m1, 1);  // 8-bit: 1 byte per element
  Cmd swap(kSwapMatrix, m1, m2);
  c.commands = {Cmd(kAllocMatrix, m1),
                Cmd(kAllocMatrix, m2),
                compress,
                swap,
                Cmd(kDecompressMatrix, m2),
                Cmd(kDeallocMatrix, m1),
                Cmd(kAllocMatrix, m1),
                Cmd(kAllocMatrix, m1)};
  MemoryTimeline t;
  ComputeMemoryTimeline(c, &t);
  // The compression and the decompression hold both forms while they run
  // (16 + 4 bytes), then the old form goes: 20 after c2, 32 after c4.
  CHECK(t.bytes_after == std::vector<int64_t>{16, 32, 36, 20, 36, 16, 32, 32});
  CHECK(t.peak_bytes == 36);
  CHECK(t.peak_command == 2);
  CHECK(t.held_at_peak == std::vector<int64_t>{0, 20, 16});
  CHECK(t.last_free_command[m1] == 5);
  CHECK(t.backward_command == -1);
  CHECK(GetMaxMemoryUse(c) == 36);
}

TEST_CASE("memory timeline of an empty computation", "[memory-timeline]") {
  NnetComputation c;
  MemoryTimeline t;
  ComputeMemoryTimeline(c, &t);
  CHECK(t.bytes_after.empty());
  CHECK(t.peak_bytes == 0);
  CHECK(t.peak_command == -1);
  CHECK(MatricesLiveAtPeak(t).empty());
}
