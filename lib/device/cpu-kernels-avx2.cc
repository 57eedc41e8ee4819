// The CPU kernels compiled with -mavx2 -mfma (see cpu-kernels.h); only
// called after a run-time check that the processor has AVX2 and FMA.
#define NNET3_CPU_KERNELS_NS avx2
#define NNET3_CPU_KERNELS_NAME "avx2"
#include "device/cpu-kernels-impl.h"
