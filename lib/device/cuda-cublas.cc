#include "device/cuda-cublas.h"

#include <dlfcn.h>

#include <mutex>

namespace nnet3 {

namespace {

#ifndef NNET3_CUBLAS_DIR
#define NNET3_CUBLAS_DIR ""
#endif

#define NNET3_STR2(x) #x
#define NNET3_STR(x) NNET3_STR2(x)

template <class F>
bool Resolve(void *lib, const char *name, F *f, std::string *why_not) {
  *f = reinterpret_cast<F>(dlsym(lib, name));
  if (*f == nullptr) *why_not = std::string("cuBLAS has no function ") + name;
  return *f != nullptr;
}

bool Load(CublasApi *api, std::string *why_not) {
  const std::string soname =
      std::string("libcublas.so.") + NNET3_STR(CUBLAS_VER_MAJOR);
  void *lib = dlopen(soname.c_str(), RTLD_NOW | RTLD_LOCAL);
  const std::string dir = NNET3_CUBLAS_DIR;
  if (lib == nullptr && !dir.empty())
    lib = dlopen((dir + "/" + soname).c_str(), RTLD_NOW | RTLD_LOCAL);
  if (lib == nullptr) {
    const char *error = dlerror();
    *why_not = "cannot load cuBLAS (" + soname +
               "): " + (error != nullptr ? error : "not found") +
               "; add the CUDA toolkit's library directory to "
               "LD_LIBRARY_PATH";
    return false;
  }
  // The library stays loaded for the life of the process.
  return Resolve(lib, "cublasCreate_v2", &api->create, why_not) &&
         Resolve(lib, "cublasDestroy_v2", &api->destroy, why_not) &&
         Resolve(lib, "cublasSetStream_v2", &api->set_stream, why_not) &&
         Resolve(lib, "cublasSetMathMode", &api->set_math_mode, why_not) &&
         Resolve(lib, "cublasSgemm_v2", &api->sgemm, why_not);
}

}  // namespace

const CublasApi *LoadCublas(std::string *why_not) {
  static std::once_flag once;
  static CublasApi api;
  static bool ok = false;
  static std::string error;
  std::call_once(once, []() { ok = Load(&api, &error); });
  if (!ok) *why_not = error;
  return ok ? &api : nullptr;
}

}  // namespace nnet3
