// A Device is a Backend plus its caching allocator: what a Matrix lives on.
//
//   DeviceOptions opts; opts.Register(&po);         // --use-gpu, --gpu-id...
//   SelectDevice(opts);                             // once, in main
//   Device &dev = ActiveDevice();                   // where new matrices go
//   void *p = dev.Allocate(bytes); ... dev.Free(p, bytes);
//
// CpuDevice() always exists (host I/O, tests, the reference). Only
// device.cc (the backend registry) knows whether a CUDA backend was compiled
// in; the GPU's Device, once created, lives until the process ends.
#ifndef NNET3_DEVICE_DEVICE_H_
#define NNET3_DEVICE_DEVICE_H_

#include <cstdint>
#include <memory>
#include <string>

#include "device/backend.h"
#include "device/caching-allocator.h"

namespace nnet3 {

class OptionsRegistry;

class Device {
 public:
  explicit Device(std::unique_ptr<Backend> backend);
  Backend &backend() { return *backend_; }
  CachingAllocator &allocator() { return allocator_; }
  bool IsGpu() const { return backend_->IsGpu(); }
  std::string Name() const { return backend_->Name(); }
  void *Allocate(size_t bytes) { return allocator_.Allocate(bytes); }
  void Free(void *ptr, size_t bytes) { allocator_.Free(ptr, bytes); }

 private:
  std::unique_ptr<Backend> backend_;
  CachingAllocator allocator_;
};

// Kaldi's --use-gpu=no|yes|optional|wait, and the GPU's settings (ignored
// by a build without the CUDA backend).
struct DeviceOptions {
  std::string use_gpu = "no";
  int32_t gpu_id = -1;          // --gpu-id: a visible GPU; -1 automatic
  std::string cuda_memory_cap;  // --cuda-memory-cap: e.g. "8G"; "" no cap
  bool cuda_use_tf32 = false;   // --cuda-use-tf32: TF32 tensor-core GEMM
  void Register(OptionsRegistry *opts);
};

Device &CpuDevice();
// The device new matrices are created on: CpuDevice() until SelectDevice.
Device &ActiveDevice();
// Chooses the active device. "no": CPU. In a build without the CUDA
// backend every other valid value runs on the CPU too, with one warning per
// process (as a CPU-only Kaldi build ignores --use-gpu). With the CUDA
// backend, Kaldi's policy (gpu-selection.h): "yes": a GPU or a UserError
// saying why none is available (after one retry 20 s later when they are
// all busy); "wait": waits until a GPU is free; "optional": a GPU if
// available, else the CPU with a warning. Any other value is a UserError
// naming the option. The GPU is set up once per process: later calls reuse
// it (its --gpu-id, cap and TF32 setting cannot change).
void SelectDevice(const DeviceOptions &opts);
// The GPU device (set up as by --use-gpu=optional with these options, if it
// is not yet), without making it active; nullptr with *why_not set when
// there is none (always so without the CUDA backend). For tests and tools
// that compare devices.
Device *FindGpuDevice(const DeviceOptions &opts, std::string *why_not);
// Makes `device` the active device (tests switch between the CPU and a GPU;
// programs use SelectDevice).
void SetActiveDevice(Device &device);
// Whether this build has a CUDA backend compiled in.
bool CudaBackendCompiled();

}  // namespace nnet3

#endif  // NNET3_DEVICE_DEVICE_H_
