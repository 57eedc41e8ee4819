// Threads of the CPU backend's products (see cpu-threads.h).
#include "device/cpu-threads.h"

#include <cblas.h>
#include <dlfcn.h>

#include <algorithm>

#include "base/error.h"
#include "device/cpu-gemm.h"

#ifdef NNET3_HAVE_ONEDNN
#include <dnnl.h>
#endif

namespace nnet3 {
namespace {

// OpenMP's per-thread setting, found in the OpenMP runtime that oneDNN
// loaded (we do not link one ourselves): null where there is none.
struct OmpThreads {
  int (*get_max)() = nullptr;
  void (*set)(int) = nullptr;
};

const OmpThreads &Omp() {
  static const OmpThreads omp = [] {
    OmpThreads found;
#ifdef NNET3_HAVE_ONEDNN
    if (cpu::ActiveGemmLibrary() != cpu::GemmLibrary::kOneDnn ||
        dnnl_version()->cpu_runtime != DNNL_RUNTIME_OMP)
      return found;
    void *get = dlsym(RTLD_DEFAULT, "omp_get_max_threads");
    void *set = dlsym(RTLD_DEFAULT, "omp_set_num_threads");
    if (get == nullptr || set == nullptr) return found;
    found.get_max = reinterpret_cast<int (*)()>(get);
    found.set = reinterpret_cast<void (*)(int)>(set);
#endif
    return found;
  }();
  return omp;
}

}  // namespace

int32_t CpuProductThreads() {
  if (cpu::ActiveGemmLibrary() == cpu::GemmLibrary::kOneDnn) {
    const OmpThreads &omp = Omp();
    // A oneDNN without OpenMP: its own pool, whose size we cannot read.
    return omp.get_max == nullptr ? 1 : std::max(1, omp.get_max());
  }
  return std::max(1, openblas_get_num_threads());
}

bool CpuPerThreadProductThreads() { return Omp().set != nullptr; }

ProductThreadsInThisThread::ProductThreadsInThisThread(int32_t threads) {
  NNET3_ASSERT(threads >= 1);
  const OmpThreads &omp = Omp();
  if (omp.set == nullptr) return;
  previous_ = std::max(1, omp.get_max());
  omp.set(threads);
}

ProductThreadsInThisThread::~ProductThreadsInThisThread() {
  if (previous_ > 0) Omp().set(previous_);
}

}  // namespace nnet3
