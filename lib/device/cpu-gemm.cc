// Row-major SGEMM through oneDNN or OpenBLAS (see cpu-gemm.h).
#include "device/cpu-gemm.h"

#include <cblas.h>

#include <cstdlib>
#include <cstring>

#include "base/error.h"
#include "base/program.h"

#ifdef NNET3_HAVE_ONEDNN
#include <dnnl.h>
#endif

namespace nnet3 {
namespace cpu {

bool OneDnnAvailable() {
#ifdef NNET3_HAVE_ONEDNN
  return true;
#else
  return false;
#endif
}

GemmLibrary ActiveGemmLibrary() {
  static const GemmLibrary chosen = [] {
    const char *force = std::getenv("NNET3_CPU_GEMM");
    if (force != nullptr && std::strcmp(force, "openblas") == 0)
      return GemmLibrary::kOpenBlas;
    if (!OneDnnAvailable()) return GemmLibrary::kOpenBlas;
    // Under an address-space limit (ulimit -v) oneDNN's first product
    // crashes in its own start-up when memory is short, where OpenBLAS's
    // one reserved buffer (device/blas-workspace.h) fails cleanly.
    if (AddressSpaceLimitBytes() != 0) return GemmLibrary::kOpenBlas;
    // One thread pool: the products that need threads run in oneDNN's; what
    // still goes to OpenBLAS (matrix-vector products) is small, and its
    // workers, spinning after each call, would take the cores from
    // oneDNN's threads.
    openblas_set_num_threads(1);
    return GemmLibrary::kOneDnn;
  }();
  return chosen;
}

const char *GemmLibraryName(GemmLibrary library) {
  return library == GemmLibrary::kOneDnn ? "onednn" : "openblas";
}

void Sgemm(GemmLibrary library, bool ta, bool tb, int32_t m, int32_t n,
           int32_t k, float alpha, const float *a, int32_t lda, const float *b,
           int32_t ldb, float beta, float *c, int32_t ldc) {
#ifdef NNET3_HAVE_ONEDNN
  if (library == GemmLibrary::kOneDnn) {
    const dnnl_status_t status =
        dnnl_sgemm(ta ? 'T' : 'N', tb ? 'T' : 'N', m, n, k, alpha, a, lda, b,
                   ldb, beta, c, ldc);
    if (status != dnnl_success)
      NNET3_INTERNAL_ERR << "dnnl_sgemm failed (status " << status << ") for "
                         << m << " x " << n << " x " << k;
    return;
  }
#endif
  (void)library;
  cblas_sgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans,
              tb ? CblasTrans : CblasNoTrans, m, n, k, alpha, a, lda, b, ldb,
              beta, c, ldc);
}

}  // namespace cpu
}  // namespace nnet3
