// Tests of CachingAllocator: reuse in a steady-state loop, the counters,
// size classes, misuse detection, release on out-of-memory, and a
// two-thread smoke test.
#include "device/caching-allocator.h"

#include <catch2/catch.hpp>
#include <cstring>
#include <map>
#include <random>
#include <thread>
#include <vector>

#include "base/error.h"
#include "device/cpu-backend.h"

namespace nnet3 {
namespace {

// A CPU backend that counts its allocations and can refuse to hold more
// than `limit` bytes at once (to test the release-and-retry path).
class CountingBackend : public CpuBackend {
 public:
  void *Allocate(size_t bytes) override {
    if (live_bytes + bytes > limit) NNET3_ERR << "out of memory (test)";
    allocations++;
    live_bytes += bytes;
    sizes.push_back(bytes);
    void *ptr = CpuBackend::Allocate(bytes);
    live[ptr] = bytes;
    return ptr;
  }
  void Free(void *ptr) override {
    if (ptr == nullptr) return;
    frees++;
    live_bytes -= live.at(ptr);
    live.erase(ptr);
    CpuBackend::Free(ptr);
  }
  size_t allocations = 0, frees = 0, live_bytes = 0;
  size_t limit = ~size_t{0};
  std::vector<size_t> sizes;
  std::map<void *, size_t> live;
};

TEST_CASE("CachingAllocator size classes", "[device][allocator]") {
  CHECK(CachingAllocator::RoundedSize(1) == 256);
  CHECK(CachingAllocator::RoundedSize(256) == 256);
  CHECK(CachingAllocator::RoundedSize(257) == 512);
  CHECK(CachingAllocator::RoundedSize(1000000) == 1000192);
}

TEST_CASE("CachingAllocator reuses blocks in a steady-state loop",
          "[device][allocator]") {
  CountingBackend backend;
  CachingAllocator alloc(backend);
  CHECK(alloc.Allocate(0) == nullptr);
  alloc.Free(nullptr, 0);
  CHECK(alloc.NumAllocateCalls() == 0);

  const std::vector<size_t> sizes = {100, 4000, 4000, 1 << 20, 7, 333};
  size_t total = 0;
  for (size_t s : sizes) total += CachingAllocator::RoundedSize(s);
  for (int iter = 0; iter < 5; iter++) {
    INFO("iteration " << iter);
    std::vector<void *> ptrs;
    for (size_t s : sizes) {
      void *p = alloc.Allocate(s);
      REQUIRE(p != nullptr);
      CHECK(reinterpret_cast<uintptr_t>(p) % 64 == 0);
      std::memset(p, iter, s);
      ptrs.push_back(p);
    }
    CHECK(alloc.BytesInUse() == total);
    CHECK(alloc.BytesCached() == 0);
    for (size_t i = 0; i < sizes.size(); i++) alloc.Free(ptrs[i], sizes[i]);
    CHECK(alloc.BytesInUse() == 0);
    CHECK(alloc.BytesCached() == total);
    // Only the first iteration reaches the backend.
    CHECK(alloc.NumBackendAllocations() == sizes.size());
    CHECK(backend.allocations == sizes.size());
    CHECK(alloc.NumAllocateCalls() == (iter + 1) * sizes.size());
  }
  CHECK(alloc.PeakBytesInUse() == total);
  // The backend saw rounded sizes.
  for (size_t s : backend.sizes) CHECK(s % CachingAllocator::kGranularity == 0);

  alloc.ReleaseCached();
  CHECK(alloc.BytesCached() == 0);
  CHECK(backend.frees == sizes.size());
  void *p = alloc.Allocate(100);
  CHECK(alloc.NumBackendAllocations() == sizes.size() + 1);
  alloc.Free(p, 100);
}

TEST_CASE("CachingAllocator shares a size class", "[device][allocator]") {
  CountingBackend backend;
  CachingAllocator alloc(backend);
  void *p = alloc.Allocate(300);
  alloc.Free(p, 300);
  void *q = alloc.Allocate(500);  // same 512-byte class
  CHECK(q == p);
  CHECK(backend.allocations == 1);
  void *r = alloc.Allocate(600);  // a different class
  CHECK(r != p);
  CHECK(backend.allocations == 2);
  alloc.Free(q, 500);
  alloc.Free(r, 600);
}

// Best fit up to kMaxSlack: a somewhat larger cached block serves a
// request; a much larger one does not.
TEST_CASE("CachingAllocator reuses a somewhat larger block",
          "[device][allocator]") {
  CountingBackend backend;
  CachingAllocator alloc(backend);
  void *p = alloc.Allocate(100000);  // a 100096-byte block
  alloc.Free(p, 100000);
  void *q = alloc.Allocate(70000);  // 70144 * 1.5 >= 100096: reused
  CHECK(q == p);
  CHECK(backend.allocations == 1);
  CHECK(alloc.BytesInUse() == 100096);  // the block's size
  CHECK(alloc.BytesCached() == 0);
  void *r = alloc.Allocate(60000);  // 60160 * 1.5 < 100096: a new block
  CHECK(r != p);
  CHECK(backend.allocations == 2);
  // The size class is the one asked for, not the block's.
  CHECK_THROWS_AS(alloc.Free(q, 100000), InternalError);
  alloc.Free(q, 70000);
  alloc.Free(r, 60000);
  CHECK(alloc.BytesInUse() == 0);
  CHECK(alloc.BytesCached() == 100096 + 60160);
  // The smallest block that fits is taken.
  void *s1 = alloc.Allocate(60000);
  CHECK(s1 == r);
  alloc.Free(s1, 60000);
}

// Matrices of many sizes one after another (utterances of many lengths):
// the cache stays bounded instead of keeping a block per size.
TEST_CASE("CachingAllocator: many sizes, bounded cache",
          "[device][allocator]") {
  CountingBackend backend;
  CachingAllocator alloc(backend);
  std::mt19937 rng(4711);  // seed 4711
  std::uniform_int_distribution<size_t> frames(300, 1500);
  for (int i = 0; i < 2000; i++) {
    const size_t bytes = frames(rng) * 2000 * 4;  // an output matrix
    void *p = alloc.Allocate(bytes);
    REQUIRE(p != nullptr);
    alloc.Free(p, bytes);
  }
  // The peak in use is one matrix (12 MB), so the cache holds at most
  // kMinCacheLimit (64 MiB); most requests still find a block.
  CHECK(alloc.PeakBytesInUse() <= 1500 * 2000 * 4 + 256);
  CHECK(alloc.BytesCached() <= CachingAllocator::kMinCacheLimit);
  CHECK(backend.live_bytes == alloc.BytesCached());
  CHECK(backend.allocations < 1000);
}

// Beyond the peak in use, the least recently freed blocks go back.
TEST_CASE("CachingAllocator evicts the least recently freed blocks",
          "[device][allocator]") {
  // Blocks of 40, 30 and 100 MiB (never touched: no real memory).
  const size_t kMiB = size_t{1} << 20;
  CountingBackend backend;
  CachingAllocator alloc(backend);
  void *a = alloc.Allocate(40 * kMiB), *b = alloc.Allocate(30 * kMiB);
  alloc.Free(a, 40 * kMiB);
  alloc.Free(b, 30 * kMiB);  // cached 70 MiB == peak: nothing evicted
  CHECK(backend.frees == 0);
  void *c = alloc.Allocate(30 * kMiB);  // b's block
  CHECK(c == b);
  // No fit: held would be 40 + 30 + 100 > 1.25 * 70 and > the new peak
  // 130: a (the least recently freed) goes back first.
  void *d = alloc.Allocate(100 * kMiB);
  CHECK(backend.frees == 1);
  CHECK(backend.live.count(a) == 0);
  alloc.Free(c, 30 * kMiB);
  alloc.Free(d, 100 * kMiB);  // held 130 <= 1.25 * 130: nothing evicted
  CHECK(backend.frees == 1);
  CHECK(alloc.BytesCached() == 130 * kMiB);
  c = alloc.Allocate(100 * kMiB);
  CHECK(c == d);
  alloc.Free(c, 100 * kMiB);
}

TEST_CASE("CachingAllocator: the blocks held stay within the limit",
          "[device][allocator]") {
  const size_t kMiB = size_t{1} << 20;
  CountingBackend backend;
  CachingAllocator alloc(backend);
  void *a = alloc.Allocate(40 * kMiB), *b = alloc.Allocate(30 * kMiB);
  alloc.Free(a, 40 * kMiB);
  alloc.Free(b, 30 * kMiB);
  // No fit: a new block; held would be 170 > max(1.25 * 70, 100).
  void *c = alloc.Allocate(100 * kMiB);
  alloc.Free(c, 100 * kMiB);
  CHECK(backend.frees == 2);  // a and b went back before c was allocated
  CHECK(alloc.BytesCached() == 100 * kMiB);
  CHECK(alloc.Allocate(100 * kMiB) == c);  // the most recent one stayed
  alloc.Free(c, 100 * kMiB);
}

TEST_CASE("CachingAllocator detects misuse", "[device][allocator]") {
  CountingBackend backend;
  CachingAllocator alloc(backend);
  void *p = alloc.Allocate(1000);
  CHECK_THROWS_AS(alloc.Free(p, 5000), InternalError);  // wrong size class
  int not_ours = 0;
  CHECK_THROWS_AS(alloc.Free(&not_ours, 4), InternalError);
  alloc.Free(p, 1000);
  CHECK_THROWS_AS(alloc.Free(p, 1000), InternalError);  // double free
  CHECK(alloc.BytesInUse() == 0);
}

TEST_CASE("CachingAllocator destructor and out-of-memory retry",
          "[device][allocator]") {
  CountingBackend backend;
  {
    CachingAllocator alloc(backend);
    backend.limit = 4096;
    void *p = alloc.Allocate(2048);
    alloc.Free(p, 2048);  // cached: the backend still holds 2048 bytes
    // 3072 more would exceed the limit: the cache is released and the
    // allocation retried.
    void *q = alloc.Allocate(3072);
    CHECK(q != nullptr);
    CHECK(backend.frees == 1);
    CHECK(alloc.BytesCached() == 0);
    // Nothing cached to release: the error reaches the caller.
    CHECK_THROWS_AS(alloc.Allocate(2048), UserError);
    alloc.Free(q, 3072);
    CHECK(alloc.BytesCached() == 3072);
  }
  CHECK(backend.frees == 2);  // the destructor released the cached block
}

TEST_CASE("CachingAllocator from two threads", "[device][allocator]") {
  CountingBackend backend;
  CachingAllocator alloc(backend);
  const int kIterations = 3000;
  auto work = [&alloc](uint32_t seed) {
    std::mt19937 rng(seed);
    const size_t sizes[] = {64, 1000, 5000, 70000};
    std::vector<std::pair<void *, size_t>> held;
    for (int i = 0; i < kIterations; i++) {
      const size_t s = sizes[rng() % 4];
      void *p = alloc.Allocate(s);
      std::memset(p, 0xab, s);
      held.emplace_back(p, s);
      if (held.size() > 3) {  // hold at most 3 blocks
        const size_t k = rng() % held.size();
        alloc.Free(held[k].first, held[k].second);
        held.erase(held.begin() + k);
      }
    }
    for (auto &h : held) alloc.Free(h.first, h.second);
  };
  std::thread t1(work, 11u), t2(work, 12u);
  t1.join();
  t2.join();
  CHECK(alloc.NumAllocateCalls() == 2 * kIterations);
  CHECK(alloc.BytesInUse() == 0);
  // At most 8 blocks live at once, so at most 8 backend allocations per
  // size class (4 classes).
  CHECK(alloc.NumBackendAllocations() <= 4 * 8);
  CHECK(alloc.NumBackendAllocations() == backend.allocations);
  CHECK(alloc.PeakBytesInUse() <= 8 * CachingAllocator::RoundedSize(70000));
}

}  // namespace
}  // namespace nnet3
