// The CPU kernels compiled for the baseline ISA (see cpu-kernels.h).
#define NNET3_CPU_KERNELS_NS generic
#define NNET3_CPU_KERNELS_NAME "generic"
#include "device/cpu-kernels-impl.h"
