// The main of the device-equivalence tests run against the opaque debugging
// device (lib/device/opaque-backend.h): the CPU backend behind addresses
// the host cannot touch. It runs on every machine, so every build checks
// that the executor and the trainer never read device memory on the host,
// and that the GPU suite's harness itself works.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#include <memory>

#include "device/device.h"
#include "device/opaque-backend.h"
#include "twin.h"

namespace nnet3 {
namespace gpu_test {

bool Thorough() { return false; }

// Never destroyed, like the other devices.
Device &TestDevice() {
  static Device *const opaque = new Device(std::make_unique<OpaqueBackend>());
  return *opaque;
}

}  // namespace gpu_test
}  // namespace nnet3

int main(int argc, char *argv[]) { return Catch::Session().run(argc, argv); }
