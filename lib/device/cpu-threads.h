// How many threads the CPU backend's matrix products use, and running
// independent pieces of work side by side with fewer threads per product.
//
//   const int32_t threads = CpuProductThreads();  // e.g. OMP_NUM_THREADS
//   // in each of `threads` worker threads, around its share of the work:
//   ProductThreadsInThisThread one(1);  // its products run on 1 thread
//
// A product of a few hundred rows does not keep two cores busy (oneDNN
// splits it, and each thread packs the whole weight matrix again), while
// two such products computed side by side, one per core, run each at the
// one-core speed. Inference of independent chunks therefore scales better
// with one chunk per thread than with every product spread over all
// threads; CpuProductThreads() says how many threads the user gave the
// products (the library's setting when this is first called), which is
// then also how many chunks may run at once.
//
// Only oneDNN's OpenMP runtime can be told per calling thread how many
// threads to use. With OpenBLAS (NNET3_CPU_GEMM=openblas, a build without
// oneDNN, or under an address-space limit) the setting is process-wide, so
// CpuPerThreadProductThreads() is false and callers keep the work in one
// thread; ProductThreadsInThisThread then does nothing.
#ifndef NNET3_DEVICE_CPU_THREADS_H_
#define NNET3_DEVICE_CPU_THREADS_H_

#include <cstdint>

namespace nnet3 {

// The number of threads a product started from the calling thread may use
// (>= 1).
int32_t CpuProductThreads();

// Whether ProductThreadsInThisThread can change that number for one thread
// without affecting the others.
bool CpuPerThreadProductThreads();

// While it exists, products started from the constructing thread use at
// most `threads` threads (>= 1); the destructor restores the previous
// setting. Construct and destroy it in the same thread.
class ProductThreadsInThisThread {
 public:
  explicit ProductThreadsInThisThread(int32_t threads);
  ~ProductThreadsInThisThread();
  ProductThreadsInThisThread(const ProductThreadsInThisThread &) = delete;
  ProductThreadsInThisThread &operator=(const ProductThreadsInThisThread &) =
      delete;

 private:
  int32_t previous_ = 0;  // 0: nothing to restore
};

}  // namespace nnet3

#endif  // NNET3_DEVICE_CPU_THREADS_H_
