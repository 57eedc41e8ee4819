// A Device is a Backend plus its caching allocator: what a Matrix lives on.
//
//   DeviceOptions opts; opts.Register(&po);         // --use-gpu
//   SelectDevice(opts);                             // once, in main
//   Device &dev = ActiveDevice();                   // where new matrices go
//   void *p = dev.Allocate(bytes); ... dev.Free(p, bytes);
//
// CpuDevice() always exists (host I/O, tests, the reference). Only
// backend.cc / device.cc know whether a CUDA backend was compiled in.
#ifndef NNET3_DEVICE_DEVICE_H_
#define NNET3_DEVICE_DEVICE_H_

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

// Kaldi's --use-gpu=no|yes|optional|wait.
struct DeviceOptions {
  std::string use_gpu = "no";
  void Register(OptionsRegistry *opts);
};

Device &CpuDevice();
// The device new matrices are created on: CpuDevice() until SelectDevice.
Device &ActiveDevice();
// Chooses the active device. "no": CPU. In a build without the CUDA
// backend every other valid value runs on the CPU too, with one warning per
// process (as a CPU-only Kaldi build ignores --use-gpu). With the CUDA
// backend: "yes"/"wait": a GPU or a UserError saying why none is available;
// "optional": a GPU if available, else CPU with a log line. Any other value
// is a UserError naming the option.
void SelectDevice(const DeviceOptions &opts);
// Whether this build has a CUDA backend compiled in.
bool CudaBackendCompiled();

}  // namespace nnet3

#endif  // NNET3_DEVICE_DEVICE_H_
