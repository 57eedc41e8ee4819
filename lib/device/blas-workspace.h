// The BLAS library's work buffer under an address-space limit.
//
// OpenBLAS takes a work buffer (128 MiB and a page) from its pool on every
// product, allocating the pool's buffers as it first needs them, and when
// that allocation fails it retries for ever: under `ulimit -v` (or a batch
// scheduler's virtual-memory limit, e.g. SGE's h_vmem) a program that has
// filled the limit with a model would hang in its first matrix product
// instead of reporting that it is out of memory.
//
//   ReserveBlasWorkspace();   // CpuBackend's constructor calls it
//
// With no address-space limit this does nothing. With one, it first checks
// with an allocation of its own that the buffer fits (a UserError naming
// the limit if it does not), limits BLAS to one thread (programs already
// run with OPENBLAS_NUM_THREADS=1 there, base/program.h: a worker thread
// that cannot get its own buffer never finishes its share of a product),
// then runs one small product so that OpenBLAS takes its buffer now, before
// any model or data is read; whatever then fails to fit is one of our
// allocations, reported with what it was for.
#ifndef NNET3_DEVICE_BLAS_WORKSPACE_H_
#define NNET3_DEVICE_BLAS_WORKSPACE_H_

#include <cstdint>

namespace nnet3 {

// The size OpenBLAS (Debian's 0.3.21 build) allocates per buffer.
constexpr int64_t kBlasBufferBytes = (int64_t(128) << 20) + 4096;

void ReserveBlasWorkspace();

}  // namespace nnet3

#endif  // NNET3_DEVICE_BLAS_WORKSPACE_H_
