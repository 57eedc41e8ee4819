// Kaldi's --use-gpu policy for choosing a GPU (its CuDevice::SelectGpuId),
// written against an abstract view of the machine's GPUs so that it is the
// same code with and without the CUDA backend and can be tested without a
// GPU. The CUDA backend implements GpuProbe (cuda-probe.cc); device.cc
// calls ChooseGpu and then creates the backend on the chosen device.
//
//   std::string why_not;
//   int id = ChooseGpu("yes", /*gpu_id=*/-1, &probe, &why_not);
//
// The policy, with N the number of visible GPUs (CUDA_VISIBLE_DEVICES is
// applied by the driver; --gpu-id numbers the visible ones):
//   - N == 0: "yes" and "wait" fail; "optional" returns -1 (use the CPU).
//   - The candidates are --gpu-id alone if given; otherwise every GPU, the
//     one with the largest share of free memory first when there are
//     several and none is in an exclusive compute mode (else in order).
//   - The first candidate on which a context can be created is chosen. If
//     none can (all busy in exclusive-process mode), "yes" waits 20 s and
//     tries once more, then fails; "optional" waits 2 s, tries once more,
//     then returns -1; "wait" tries again every 5 s until it gets one.
// Failures are UserErrors whose message names --use-gpu and says why.
#ifndef NNET3_DEVICE_GPU_SELECTION_H_
#define NNET3_DEVICE_GPU_SELECTION_H_

#include <cstddef>
#include <string>

namespace nnet3 {

class GpuProbe {
 public:
  virtual ~GpuProbe() = default;
  // The number of visible GPUs; 0 with *why_none set (no driver, no device).
  virtual int NumDevices(std::string *why_none) = 0;
  // Whether GPU `id` is in an exclusive compute mode.
  virtual bool IsExclusive(int id) = 0;
  // Free / total memory of GPU `id` (0 when it cannot be read); may create
  // and release a context on it.
  virtual double FreeMemoryRatio(int id) = 0;
  // Makes GPU `id` this process's device, with a context; false with *why
  // set when that fails (busy in exclusive-process mode, ...).
  virtual bool TryAcquire(int id, std::string *why) = 0;
  virtual void Sleep(double seconds) = 0;
};

// The GPU to use (0 <= id < N), or -1 for the CPU (only for "optional",
// with *why_not set). `use_gpu` is "yes", "optional" or "wait"; gpu_id is
// --gpu-id (-1: automatic).
int ChooseGpu(const std::string &use_gpu, int gpu_id, GpuProbe *probe,
              std::string *why_not);

// The value of --cuda-memory-cap in bytes: "" or "0" for no cap, else a
// number with an optional K, M, G or T suffix (powers of 1024; "8G",
// "512M", "1.5G"). UserError naming the option for anything else.
size_t ParseMemoryCap(const std::string &value);

}  // namespace nnet3

#endif  // NNET3_DEVICE_GPU_SELECTION_H_
