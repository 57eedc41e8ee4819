#include "device/blas-workspace.h"

#include <cblas.h>

#include <cstdlib>
#include <vector>

#include "base/error.h"
#include "base/program.h"

namespace nnet3 {

void ReserveBlasWorkspace() {
  const uint64_t limit = AddressSpaceLimitBytes();
  if (limit == 0) return;
  void *probe = std::malloc(static_cast<size_t>(kBlasBufferBytes));
  if (probe == nullptr)
    NNET3_ERR << "Out of memory: the address-space limit (ulimit -v) of "
              << (limit >> 20) << " MiB leaves no room for the "
              << (kBlasBufferBytes >> 20)
              << " MiB work buffer of the BLAS library; raise the limit";
  std::free(probe);
  // One BLAS thread: OpenBLAS's worker threads take their buffers when
  // they start and cannot report failing to get one; a product handed to
  // such a thread would never finish.
  openblas_set_num_threads(1);
  // Large enough for OpenBLAS's general path (small products may bypass
  // the buffer); about a millisecond.
  const int n = 128;
  std::vector<float> a(n * n, 0.0f), c(n * n, 0.0f);
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f,
              a.data(), n, a.data(), n, 0.0f, c.data(), n);
}

}  // namespace nnet3
