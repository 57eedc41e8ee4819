// The opaque debugging backend: its addresses fault when the host touches
// them (checked in a child process), and its primitives compute exactly
// what the CPU backend computes, including through device index vectors
// and device pointer lists (whose entries are opaque addresses too).
#include "device/opaque-backend.h"

#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <csignal>
#include <cstdint>
#include <vector>

#include "device/cpu-backend.h"

namespace nnet3 {
namespace {

// Uploads host floats to a fresh allocation of `b`.
float *Upload(Backend *b, const std::vector<float> &host) {
  float *p = static_cast<float *>(b->Allocate(host.size() * sizeof(float)));
  b->CopyFromHost(host.data(), p, host.size() * sizeof(float));
  return p;
}

std::vector<float> Download(Backend *b, const float *p, size_t n) {
  std::vector<float> host(n);
  b->CopyToHost(p, host.data(), n * sizeof(float));
  return host;
}

TEST_CASE("OpaqueBackend addresses fault on the host", "[device]") {
  OpaqueBackend opaque;
  CHECK(opaque.Name() == "opaque-cpu");
  CHECK(opaque.IsGpu());
  CHECK(opaque.Allocate(0) == nullptr);
  float *p = Upload(&opaque, {1.0f, 2.0f});
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    // The default action, so that the child dies of the signal even where
    // a sanitizer has installed its own handler.
    signal(SIGSEGV, SIG_DFL);
    signal(SIGBUS, SIG_DFL);
    volatile float x = *static_cast<volatile float *>(p);  // must fault
    (void)x;
    _exit(0);
  }
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  CHECK(WIFSIGNALED(status));
  if (WIFSIGNALED(status))
    CHECK((WTERMSIG(status) == SIGSEGV || WTERMSIG(status) == SIGBUS));
  CHECK(Download(&opaque, p, 2) == std::vector<float>({1.0f, 2.0f}));
  opaque.Free(p);
}

TEST_CASE("OpaqueBackend computes as the CPU backend", "[device]") {
  OpaqueBackend opaque;
  CpuBackend cpu;
  const std::vector<float> a = {1, -2, 3, 4, 5, -6}, b = {0.5f, 1, -1, 2, 3, 1};
  float *da = Upload(&opaque, a), *db = Upload(&opaque, b);
  float *dc = Upload(&opaque, std::vector<float>(4, 0.0f));
  // C (2x2) = A (2x3) * B^T (B as 2x3).
  opaque.Gemm(1.0f, ConstMatView(da, 2, 3, 3), Trans::kNo,
              ConstMatView(db, 2, 3, 3), Trans::kYes, 0.0f,
              MatView(dc, 2, 2, 2));
  std::vector<float> c(4);
  cpu.Gemm(1.0f, ConstMatView(a.data(), 2, 3, 3), Trans::kNo,
           ConstMatView(b.data(), 2, 3, 3), Trans::kYes, 0.0f,
           MatView(c.data(), 2, 2, 2));
  CHECK(Download(&opaque, dc, 4) == c);
  CHECK(opaque.Sum(ConstMatView(da, 2, 3, 3)) == 5.0);
  // Rows through a device index vector and a device pointer list.
  int32_t *idx = static_cast<int32_t *>(opaque.Allocate(2 * sizeof(int32_t)));
  const int32_t host_idx[2] = {1, -1};
  opaque.CopyFromHost(host_idx, idx, sizeof(host_idx));
  float *rows = Upload(&opaque, std::vector<float>(6, 9.0f));
  opaque.CopyRows(2.0f, ConstMatView(da, 2, 3, 3), idx, MatView(rows, 2, 3, 3));
  CHECK(Download(&opaque, rows, 6) ==
        std::vector<float>({8, 10, -12, 0, 0, 0}));
  const float *host_ptrs[2] = {db + 3, nullptr};  // opaque row addresses
  auto ptrs = static_cast<const float **>(opaque.Allocate(sizeof(host_ptrs)));
  opaque.CopyFromHost(host_ptrs, ptrs, sizeof(host_ptrs));
  opaque.AddRowsFromPtrs(1.0f, ptrs, MatView(rows, 2, 3, 3));
  CHECK(Download(&opaque, rows, 6) ==
        std::vector<float>({10, 13, -11, 0, 0, 0}));
  for (void *p : {static_cast<void *>(da), static_cast<void *>(db),
                  static_cast<void *>(dc), static_cast<void *>(idx),
                  static_cast<void *>(rows), static_cast<void *>(ptrs)})
    opaque.Free(p);
}

}  // namespace
}  // namespace nnet3
