// The suite's comparisons can fail: each is run against the device under
// test with one primitive made wrong on purpose (perturbed-backend.h) and
// must report the difference, and against the device with a stand-in for
// other rounding (relative noise in every product) and must not:
//  - the primitive comparison (TwinMat): tanh off by 1e-4, and a copy that
//    writes one element outside its view;
//  - the random networks forward and backward: a GEMM off by 1e-3;
//  - training: an optimizer step that drops the update, and one that adds
//    half of it, with SGD and with Adam. Comparing whole parameter blocks
//    after training (within 1e-2 of each block, as this suite did before)
//    passes the halved SGD update: two steps move the parameters by well
//    under 1% of their norm (CompareUpdates says how much).
#include <catch2/catch.hpp>
#include <iostream>
#include <memory>
#include <string>

#include "../unit/compute/compute-test-utils.h"
#include "device/device.h"
#include "nnet-compare.h"
#include "perturbed-backend.h"
#include "twin.h"

namespace nnet3 {
namespace gpu_test {
namespace {

// A device over the device under test with `what` of `size`.
std::unique_ptr<Device> Perturbed(Perturbation what, float size,
                                  PerturbedBackend **backend) {
  auto owned = std::make_unique<PerturbedBackend>(TestBackend(), what, size);
  *backend = owned.get();
  return std::make_unique<Device>(std::move(owned));
}

TEST_CASE("harness: a wrong primitive fails the primitive comparison",
          "[gpu]") {
  Rng rng(808);
  PerturbedBackend *bad = nullptr;
  std::unique_ptr<Device> device =
      Perturbed(Perturbation::kTanhShift, 1e-4f, &bad);
  Twins env(CpuDevice().backend(), device->backend());
  TwinMat in(&env, 7, 9, &rng), out(&env, 7, 9, &rng);
  env.Run([&](Backend &b, Side s) { b.Apply(Func::kSigmoid, in[s], out[s]); });
  CHECK(out.Difference(Tol::Rel(2e-5, 2e-6)) == "");
  env.Run([&](Backend &b, Side s) { b.Apply(Func::kTanh, in[s], out[s]); });
  const std::string tanh = out.Difference(Tol::Rel(2e-5, 2e-6));
  INFO("tanh + 1e-4: " << tanh);
  CHECK(bad->NumPerturbed() == 1);
  CHECK(tanh.find("63 elements differ (0 outside") != std::string::npos);

  std::unique_ptr<Device> outside =
      Perturbed(Perturbation::kCopyOutside, 0.5f, &bad);
  Twins env2(CpuDevice().backend(), outside->backend());
  TwinMat a(&env2, 5, 6, &rng), b(&env2, 5, 6, &rng);
  env2.Run(
      [&](Backend &be, Side s) { be.CopyMat(1.0f, a[s], Trans::kNo, b[s]); });
  const std::string copy = b.Difference(Tol::Exact());
  INFO("copy writing outside its view: " << copy);
  CHECK(bad->NumPerturbed() == 1);
  CHECK(copy.find("1 elements differ (1 outside") != std::string::npos);
}

TEST_CASE("harness: a wrong GEMM fails the random-network comparison",
          "[gpu]") {
  int32_t cases = 0;
  for (uint64_t seed = 51000; seed < 51010; seed++) {
    PerturbedBackend *bad = nullptr;
    std::unique_ptr<Device> device =
        Perturbed(Perturbation::kGemmScale, 1e-3f, &bad);
    const Comparison c = CompareRandomNetwork(seed, *device);
    if (bad->NumPerturbed() == 0) continue;  // this network has no GEMM
    cases++;
    INFO("seed " << seed << ", GEMM off by 1e-3: " << c.Describe());
    CHECK_FALSE(c.Agree());
  }
  CHECK(cases >= 5);
}

TEST_CASE("harness: a wrong optimizer step fails the training comparison",
          "[gpu]") {
  for (const char *optimizer : {"sgd", "adam"}) {
    const TrainingCase c{"mlp", ExampleNnet("mlp", false), true, optimizer};
    for (float size : {-1.0f, -0.5f}) {
      PerturbedBackend *bad = nullptr;
      std::unique_ptr<Device> device =
          Perturbed(Perturbation::kUpdateScale, size, &bad);
      const Comparison result = CompareTraining(c, *device);
      INFO(optimizer << ", the update times " << 1 + size << ": "
                     << result.Describe());
      CHECK(bad->NumPerturbed() > 0);
      CHECK_FALSE(result.Agree());
    }
    // Rounding differences of ~1e-6 in every product are not a mismatch.
    PerturbedBackend *noisy = nullptr;
    std::unique_ptr<Device> device =
        Perturbed(Perturbation::kGemmNoise, 1e-6f, &noisy);
    const Comparison result = CompareTraining(c, *device);
    INFO(optimizer << ", products with relative noise 1e-6: "
                   << result.Describe());
    CHECK(noisy->NumPerturbed() > 0);
    CHECK(result.Agree());
    std::cout << "mlp (" << optimizer
              << ") with noise 1e-6 in products: " << result.margin
              << std::endl;
  }
}

}  // namespace
}  // namespace gpu_test
}  // namespace nnet3
