// cuBLAS, loaded when the first CUDA backend is created rather than linked:
// libcublas (and the libcublasLt it pulls in, together over 500 MB) would
// otherwise be mapped at the start of every program, which costs a quarter
// of a second per process even when it runs on the CPU. Internal to the
// CUDA backend.
//
//   std::string why;
//   const CublasApi *cublas = LoadCublas(&why);   // nullptr: see why
//   cublas->sgemm(handle, ...);
#ifndef NNET3_DEVICE_CUDA_CUBLAS_H_
#define NNET3_DEVICE_CUDA_CUBLAS_H_

#include <cublas_v2.h>

#include <string>

namespace nnet3 {

// The cuBLAS functions the CUDA backend calls, typed from cublas_v2.h.
struct CublasApi {
  decltype(&cublasCreate_v2) create = nullptr;
  decltype(&cublasDestroy_v2) destroy = nullptr;
  decltype(&cublasSetStream_v2) set_stream = nullptr;
  decltype(&cublasSetMathMode) set_math_mode = nullptr;
  decltype(&cublasSgemm_v2) sgemm = nullptr;
};

// Loads libcublas.so.<major of the headers we built with> once per process
// (the library path, then the CUDA toolkit's directory found at configure
// time); nullptr with *why_not set if it or a function is missing.
const CublasApi *LoadCublas(std::string *why_not);

}  // namespace nnet3

#endif  // NNET3_DEVICE_CUDA_CUBLAS_H_
