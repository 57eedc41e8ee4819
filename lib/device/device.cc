// Device, the device registry and --use-gpu. This file is the only place that
// knows which backends were compiled in: a CUDA backend is added by
// defining NNET3_WITH_CUDA for this file and filling in NewGpuBackend below.
#include "device/device.h"

#include <atomic>
#include <mutex>

#include "base/error.h"
#include "base/log.h"
#include "base/options.h"
#include "device/cpu-backend.h"
#ifdef NNET3_WITH_CUDA
#include "device/cuda-backend.h"  // NewCudaBackend
#endif

namespace nnet3 {

Device::Device(std::unique_ptr<Backend> backend)
    : backend_(std::move(backend)), allocator_(*backend_) {}

void DeviceOptions::Register(OptionsRegistry *opts) {
  opts->Register("use-gpu", &use_gpu,
                 "yes|no|optional|wait: whether to use a GPU (\"optional\" "
                 "uses one if present; \"wait\" is treated like \"yes\")");
}

namespace {

// ---- the backend registry ----

// A GPU backend, or nullptr with *why_not saying why there is none.
std::unique_ptr<Backend> NewGpuBackend(std::string *why_not) {
#ifdef NNET3_WITH_CUDA
  return NewCudaBackend(why_not);
#else
  *why_not =
      "this build has no CUDA backend (configure with -Dcuda=enabled on a "
      "machine with nvcc and cuBLAS)";
  return nullptr;
#endif
}

// ---- the active device ----

std::atomic<Device *> active_device{nullptr};

// Created at most once and never destroyed (see CpuDevice).
Device *GpuDevice(std::string *why_not) {
  static std::mutex mutex;
  static Device *gpu = nullptr;
  std::lock_guard<std::mutex> lock(mutex);
  if (gpu == nullptr) {
    std::unique_ptr<Backend> backend = NewGpuBackend(why_not);
    if (backend != nullptr) gpu = new Device(std::move(backend));
  }
  return gpu;
}

}  // namespace

bool CudaBackendCompiled() {
#ifdef NNET3_WITH_CUDA
  return true;
#else
  return false;
#endif
}

// Never destroyed: matrices in other static objects may still free their
// memory during static destruction, after a function-local static object
// would be gone.
Device &CpuDevice() {
  static Device *const cpu = new Device(std::make_unique<CpuBackend>());
  return *cpu;
}

Device &ActiveDevice() {
  Device *device = active_device.load(std::memory_order_acquire);
  return device != nullptr ? *device : CpuDevice();
}

void SelectDevice(const DeviceOptions &opts) {
  const std::string &value = opts.use_gpu;
  if (value == "no") {
    active_device.store(&CpuDevice(), std::memory_order_release);
    return;
  }
  if (value != "yes" && value != "wait" && value != "optional")
    NNET3_ERR << "--use-gpu=" << value
              << ": invalid value, expected one of no, yes, optional, wait";
  if (!CudaBackendCompiled()) {
    // As a CPU-only Kaldi build: the option has no effect (Kaldi's scripts
    // pass --use-gpu=yes by default), so run on the CPU; say so once.
    static std::once_flag warned;
    std::call_once(warned, [&value]() {
      NNET3_WARN << "--use-gpu=" << value
                 << ": this build has no CUDA backend; running on the CPU";
    });
    active_device.store(&CpuDevice(), std::memory_order_release);
    return;
  }
  std::string why_not;
  Device *gpu = GpuDevice(&why_not);
  if (gpu != nullptr) {
    NNET3_LOG << "Using GPU device " << gpu->Name();
    active_device.store(gpu, std::memory_order_release);
    return;
  }
  if (value == "optional") {
    NNET3_LOG << "--use-gpu=optional: " << why_not << "; using the CPU";
    active_device.store(&CpuDevice(), std::memory_order_release);
    return;
  }
  NNET3_ERR << "--use-gpu=" << value << ": " << why_not << ", use --use-gpu=no";
}

}  // namespace nnet3
