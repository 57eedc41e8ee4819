// The main of the GPU suite's programs: the device under test is the GPU
// (--use-gpu=optional's choice; CUDA_VISIBLE_DEVICES applies). Without one
// the program says why and exits 77, which Meson counts as skipped.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#include <iostream>
#include <string>

#include "device/device.h"
#include "twin.h"

namespace nnet3 {
namespace gpu_test {
namespace {
Device *test_device = nullptr;
}  // namespace

Device &TestDevice() { return *test_device; }
bool Thorough() { return true; }

}  // namespace gpu_test
}  // namespace nnet3

int main(int argc, char *argv[]) {
  using namespace nnet3;
  std::string why_not;
  Device *gpu = FindGpuDevice(DeviceOptions(), &why_not);
  if (gpu == nullptr) {
    std::cout << "SKIP: no GPU: " << why_not << std::endl;
    return 77;
  }
  gpu_test::test_device = gpu;
  std::cout << "Device under test: " << gpu->Name() << std::endl;
  return Catch::Session().run(argc, argv);
}
