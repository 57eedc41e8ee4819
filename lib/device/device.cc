// Device, the device registry and --use-gpu. This file is the only place that
// knows which backends were compiled in: the CUDA backend is added by
// defining NNET3_WITH_CUDA for lib/device (meson.build does, when it builds
// lib/device/cuda-*.cc and kernels/).
#include "device/device.h"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "base/error.h"
#include "base/log.h"
#include "base/options.h"
#include "device/cpu-backend.h"
#include "device/gpu-selection.h"
#include "device/opaque-backend.h"
#ifdef NNET3_WITH_CUDA
#include "device/cuda-backend.h"  // NewCudaProbe, NewCudaBackend
#endif

namespace nnet3 {

Device::Device(std::unique_ptr<Backend> backend)
    : backend_(std::move(backend)), allocator_(*backend_) {}

void DeviceOptions::Register(OptionsRegistry *opts) {
  opts->Register("use-gpu", &use_gpu,
                 "yes|no|optional|wait: whether to use a GPU (\"optional\" "
                 "uses one if present; \"wait\" waits for a busy GPU in "
                 "exclusive-process mode to become free)");
  opts->Register("gpu-id", &gpu_id,
                 "Which of the visible GPUs (CUDA_VISIBLE_DEVICES) to use, "
                 "from 0; -1 chooses automatically");
  opts->Register("cuda-memory-cap", &cuda_memory_cap,
                 "Most GPU memory this process may hold, e.g. 8G or 512M "
                 "(empty or 0: no cap; memory is taken as needed, never "
                 "reserved up front)");
  opts->Register("cuda-use-tf32", &cuda_use_tf32,
                 "If true, matrix products on the GPU use TF32 tensor cores "
                 "(faster, about 3 significant digits of the inputs)");
}

namespace {

// ---- the backend registry ----

// A GPU backend as `opts` asks, or nullptr with *why_not saying why there is
// none. UserError where `opts.use_gpu` is "yes" or "wait" and none can be
// had (or the options are bad).
std::unique_ptr<Backend> NewGpuBackend(const DeviceOptions &opts,
                                       std::string *why_not) {
#ifdef NNET3_WITH_CUDA
  CudaBackendOptions cuda_opts;
  cuda_opts.memory_cap = ParseMemoryCap(opts.cuda_memory_cap);
  cuda_opts.use_tf32 = opts.cuda_use_tf32;
  std::unique_ptr<GpuProbe> probe = NewCudaProbe();
  const int id = ChooseGpu(opts.use_gpu, opts.gpu_id, probe.get(), why_not);
  if (id < 0) return nullptr;
  try {
    return NewCudaBackend(id, cuda_opts);
  } catch (const UserError &e) {
    if (opts.use_gpu != "optional") throw;
    *why_not = e.what();
    return nullptr;
  }
#else
  (void)opts;
  *why_not =
      "this build has no CUDA backend (configure with -Dcuda=enabled on a "
      "machine with nvcc and cuBLAS)";
  return nullptr;
#endif
}

// The opaque debugging device stands in for the GPU when the environment
// asks for it (opaque-backend.h).
Device *OpaqueDeviceIfAsked() {
  const char *env = std::getenv("NNET3_DEBUG_OPAQUE_DEVICE");
  if (env == nullptr || std::strcmp(env, "1") != 0) return nullptr;
  static Device *const opaque = new Device(std::make_unique<OpaqueBackend>());
  return opaque;
}

// ---- the active device ----

std::atomic<Device *> active_device{nullptr};

// Created at most once and never destroyed (see CpuDevice).
Device *GpuDevice(const DeviceOptions &opts, std::string *why_not) {
  static std::mutex mutex;
  static Device *gpu = nullptr;
  std::lock_guard<std::mutex> lock(mutex);
  if (gpu == nullptr) {
    std::unique_ptr<Backend> backend = NewGpuBackend(opts, why_not);
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

void SetActiveDevice(Device &device) {
  active_device.store(&device, std::memory_order_release);
}

Device *FindGpuDevice(const DeviceOptions &opts, std::string *why_not) {
  if (Device *opaque = OpaqueDeviceIfAsked()) return opaque;
  DeviceOptions optional = opts;
  optional.use_gpu = "optional";
  return GpuDevice(optional, why_not);
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
  if (Device *opaque = OpaqueDeviceIfAsked()) {
    NNET3_LOG << "--use-gpu=" << value << ": using the opaque debugging "
              << "device (NNET3_DEBUG_OPAQUE_DEVICE=1) instead of a GPU";
    active_device.store(opaque, std::memory_order_release);
    return;
  }
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
  Device *gpu = GpuDevice(opts, &why_not);
  if (gpu != nullptr) {
    NNET3_LOG << "Using GPU device " << gpu->Name();
    active_device.store(gpu, std::memory_order_release);
    return;
  }
  if (value == "optional") {
    NNET3_WARN << "--use-gpu=optional: " << why_not << "; running on the CPU";
    active_device.store(&CpuDevice(), std::memory_order_release);
    return;
  }
  NNET3_ERR << "--use-gpu=" << value << ": " << why_not << ", use --use-gpu=no";
}

}  // namespace nnet3
