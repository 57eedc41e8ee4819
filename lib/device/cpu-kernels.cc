// Chooses the CPU kernel table for this processor (see cpu-kernels.h).
#include "device/cpu-kernels.h"

#include <cstdlib>
#include <cstring>

namespace nnet3 {
namespace cpu {

namespace generic {
const Kernels &Table();
}
#ifdef NNET3_HAVE_AVX2_KERNELS
namespace avx2 {
const Kernels &Table();
}
#endif

const Kernels &GenericKernels() { return generic::Table(); }

const Kernels *Avx2Kernels() {
#ifdef NNET3_HAVE_AVX2_KERNELS
  static const bool usable =
      __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return usable ? &avx2::Table() : nullptr;
#else
  return nullptr;
#endif
}

const Kernels &ActiveKernels() {
  static const Kernels &chosen = []() -> const Kernels & {
    const char *force = std::getenv("NNET3_CPU_KERNELS");
    const Kernels *avx2 = Avx2Kernels();
    if (avx2 != nullptr && (force == nullptr || std::strcmp(force, "generic")))
      return *avx2;
    return GenericKernels();
  }();
  return chosen;
}

}  // namespace cpu
}  // namespace nnet3
