// The products' thread count: per calling thread with oneDNN's OpenMP
// runtime (set, nested, restored, not seen by other threads), unchanged
// where the library cannot be set per thread.
#include "device/cpu-threads.h"

#include <catch2/catch.hpp>
#include <thread>

#include "device/cpu-gemm.h"

using namespace nnet3;

TEST_CASE("CpuProductThreads is at least one", "[cpu-threads]") {
  CHECK(CpuProductThreads() >= 1);
  // oneDNN built on OpenMP (Debian's) can be set per thread.
  if (cpu::ActiveGemmLibrary() == cpu::GemmLibrary::kOpenBlas)
    CHECK_FALSE(CpuPerThreadProductThreads());
}

TEST_CASE("ProductThreadsInThisThread sets, nests and restores",
          "[cpu-threads]") {
  const int32_t before = CpuProductThreads();
  {
    ProductThreadsInThisThread three(3);
    if (!CpuPerThreadProductThreads()) {
      CHECK(CpuProductThreads() == before);
      return;
    }
    CHECK(CpuProductThreads() == 3);
    {
      ProductThreadsInThisThread one(1);
      CHECK(CpuProductThreads() == 1);
      // Another thread keeps its own setting.
      int32_t other = 0;
      std::thread t([&] { other = CpuProductThreads(); });
      t.join();
      CHECK(other == before);
    }
    CHECK(CpuProductThreads() == 3);
  }
  CHECK(CpuProductThreads() == before);
}
