// Tests of device selection (--use-gpu) and the CPU device.
#include "device/device.h"

#include <catch2/catch.hpp>
#include <string>

#include "base/error.h"
#include "base/options.h"

namespace nnet3 {
namespace {

// SelectDevice(value) must throw a one-line UserError naming --use-gpu.
void CheckRefused(const std::string &value, const std::string &expect) {
  INFO("--use-gpu=" << value);
  DeviceOptions opts;
  opts.use_gpu = value;
  try {
    SelectDevice(opts);
    FAIL("no error");
  } catch (const UserError &e) {
    const std::string message = e.what();
    INFO("message: " << message);
    CHECK(message.find("--use-gpu") != std::string::npos);
    CHECK(message.find(expect) != std::string::npos);
    CHECK(message.find('\n') == std::string::npos);
  }
  CHECK(&ActiveDevice() == &CpuDevice());  // unchanged
}

TEST_CASE("CpuDevice", "[device]") {
  Device &cpu = CpuDevice();
  CHECK(&cpu == &CpuDevice());
  CHECK(cpu.Name() == "cpu");
  CHECK_FALSE(cpu.IsGpu());
  CHECK(cpu.backend().Name() == "cpu");
  void *p = cpu.Allocate(1000);
  CHECK(p != nullptr);
  CHECK(cpu.allocator().BytesInUse() >= 1000);
  cpu.Free(p, 1000);
}

TEST_CASE("SelectDevice with --use-gpu", "[device]") {
  DeviceOptions opts;
  CHECK(opts.use_gpu == "no");
  SelectDevice(opts);
  CHECK(&ActiveDevice() == &CpuDevice());
  if (CudaBackendCompiled()) return;  // the rest is for CPU-only builds

  // As a CPU-only Kaldi build: every valid value runs on the CPU (Kaldi's
  // scripts pass --use-gpu=yes by default); the warning is printed once.
  for (const char *value : {"optional", "yes", "wait", "yes"}) {
    INFO("--use-gpu=" << value);
    opts.use_gpu = value;
    SelectDevice(opts);
    CHECK(&ActiveDevice() == &CpuDevice());
  }
  CheckRefused("maybe", "no, yes, optional, wait");
  CheckRefused("", "no, yes, optional, wait");
  CheckRefused("YES", "no, yes, optional, wait");
}

TEST_CASE("DeviceOptions registers --use-gpu", "[device]") {
  OptionsRegistry po("test usage");
  DeviceOptions opts;
  opts.Register(&po);
  const char *argv[] = {"prog", "--use-gpu=optional", "arg"};
  CHECK(po.Read(3, argv) == 1);
  CHECK(opts.use_gpu == "optional");
}

}  // namespace
}  // namespace nnet3
