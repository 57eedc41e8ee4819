#include "device/gpu-selection.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <numeric>
#include <vector>

#include "base/error.h"
#include "base/log.h"

namespace nnet3 {

namespace {

constexpr double kRetrySecondsYes = 20.0, kRetrySecondsOptional = 2.0;
constexpr double kWaitSeconds = 5.0;

// The GPUs to try, in order.
std::vector<int> Candidates(int num_devices, int gpu_id, GpuProbe *probe) {
  if (gpu_id >= 0) return {gpu_id};
  std::vector<int> ids(num_devices);
  std::iota(ids.begin(), ids.end(), 0);
  if (num_devices < 2) return ids;
  for (int id : ids)
    if (probe->IsExclusive(id)) return ids;  // the driver decides who is free
  std::vector<double> ratio(num_devices);
  for (int id : ids) {
    ratio[id] = probe->FreeMemoryRatio(id);
    NNET3_LOG << "GPU " << id << ": free memory ratio " << ratio[id];
  }
  std::stable_sort(ids.begin(), ids.end(),
                   [&ratio](int a, int b) { return ratio[a] > ratio[b]; });
  return ids;
}

// The first candidate that can be acquired, or -1 (*why: the last reason).
int TryCandidates(const std::vector<int> &ids, GpuProbe *probe,
                  std::string *why) {
  for (int id : ids) {
    std::string reason;
    if (probe->TryAcquire(id, &reason)) return id;
    *why = "GPU " + std::to_string(id) + ": " + reason;
  }
  return -1;
}

std::string VisibleDevicesNote() {
  const char *visible = std::getenv("CUDA_VISIBLE_DEVICES");
  if (visible == nullptr) return "";
  return std::string(" (CUDA_VISIBLE_DEVICES=") + visible + ")";
}

}  // namespace

int ChooseGpu(const std::string &use_gpu, int gpu_id, GpuProbe *probe,
              std::string *why_not) {
  NNET3_ASSERT(use_gpu == "yes" || use_gpu == "optional" || use_gpu == "wait");
  std::string why;
  const int n = probe->NumDevices(&why);
  if (n <= 0) {
    if (use_gpu == "optional") {
      *why_not = "no CUDA GPU detected: " + why;
      return -1;
    }
    NNET3_ERR << "--use-gpu=" << use_gpu << ": no CUDA GPU detected: " << why
              << VisibleDevicesNote()
              << "; use --use-gpu=no (or optional) to run on the CPU";
  }
  if (gpu_id < -1 || gpu_id >= n)
    NNET3_ERR << "--gpu-id=" << gpu_id << ": " << n << " GPU"
              << (n == 1 ? " is" : "s are") << " visible"
              << VisibleDevicesNote() << ", numbered 0 to " << n - 1
              << " (-1 chooses automatically)";
  const std::vector<int> ids = Candidates(n, gpu_id, probe);
  int id = TryCandidates(ids, probe, &why);
  if (id >= 0) return id;
  if (use_gpu == "wait") {
    NNET3_WARN << "Could not get a GPU (" << why
               << "); will try again indefinitely every " << kWaitSeconds
               << " seconds to get a GPU.";
    double waited = 0.0;
    while (id < 0) {
      probe->Sleep(kWaitSeconds);
      waited += kWaitSeconds;
      id = TryCandidates(ids, probe, &why);
    }
    NNET3_WARN << "Waited " << waited
               << " seconds before creating CUDA context";
    return id;
  }
  const double seconds =
      use_gpu == "yes" ? kRetrySecondsYes : kRetrySecondsOptional;
  NNET3_WARN << "Could not get a GPU (" << why << "); will try again to get a "
             << "GPU after " << seconds << " seconds.";
  probe->Sleep(seconds);
  id = TryCandidates(ids, probe, &why);
  if (id >= 0) return id;
  if (use_gpu == "optional") {
    *why_not = "no unused CUDA GPU: " + why;
    return -1;
  }
  NNET3_ERR << "--use-gpu=yes: failed to create a CUDA context, no more "
            << "unused GPUs? " << why
            << " (a GPU in exclusive-process mode serves one process at a "
            << "time: use --use-gpu=wait to wait for it, or --use-gpu=no)";
  return -1;  // not reached
}

size_t ParseMemoryCap(const std::string &value) {
  if (value.empty()) return 0;
  const char *begin = value.c_str();
  char *end = nullptr;
  const double number = std::strtod(begin, &end);
  std::string suffix(end);
  for (char &c : suffix) c = static_cast<char>(std::toupper(c));
  double scale = 1.0;
  if (!suffix.empty()) {
    const std::string units = "KMGT";
    const size_t k = units.find(suffix[0]);
    const std::string rest = suffix.substr(1);
    if (k == std::string::npos ||
        !(rest.empty() || rest == "B" || rest == "IB"))
      scale = -1.0;
    else
      scale = std::pow(1024.0, static_cast<double>(k + 1));
  }
  if (end == begin || scale < 0.0 || !std::isfinite(number) || number < 0.0 ||
      !std::isdigit(static_cast<unsigned char>(value[0])))
    NNET3_ERR << "--cuda-memory-cap=" << value
              << ": expected a size in bytes with an optional K, M, G or T "
              << "suffix (e.g. 8G or 512M), or 0 for no cap";
  return static_cast<size_t>(number * scale);
}

}  // namespace nnet3
