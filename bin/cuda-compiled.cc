// cuda-compiled: exits 0 if this build has the CUDA backend, 1 otherwise
// (Kaldi's tool of the same name; its scripts call it through
// check_if_cuda_compiled to decide whether to warn about CPU training).
#include <iostream>

#include "device/device.h"

int main(int argc, char *argv[]) {
  (void)argv;
  if (argc > 1) {
    std::cerr << "This program returns exit status 0 (success) if the code\n"
                 "was compiled with CUDA support, and 1 otherwise.  To "
                 "support CUDA,\nconfigure the build with -Dcuda=enabled on "
                 "a machine that has the\nCUDA compiler 'nvcc' and cuBLAS.\n"
                 "\n"
                 "Usage: cuda-compiled\n"
                 "e.g.: if cuda-compiled; then echo yes; fi\n"
                 "See also: nnet3-train (--use-gpu)\n";
  }
  return nnet3::CudaBackendCompiled() ? 0 : 1;
}
