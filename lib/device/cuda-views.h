// View checks for the CUDA backend (internal to lib/device/cuda-*.cc): the
// same shape rules the CPU backend asserts, checked on the host before a
// kernel is queued, since a kernel cannot report a bad shape.
#ifndef NNET3_DEVICE_CUDA_VIEWS_H_
#define NNET3_DEVICE_CUDA_VIEWS_H_

#include "base/error.h"
#include "device/backend.h"

namespace nnet3 {
namespace cuda {

inline bool SameShape(const ConstMatView &a, const ConstMatView &b) {
  return a.rows == b.rows && a.cols == b.cols;
}

// Non-negative sizes, stride >= cols when there are several rows, data
// present whenever the view is not empty.
inline void CheckView(const ConstMatView &m) {
  NNET3_ASSERT(m.rows >= 0 && m.cols >= 0);
  NNET3_ASSERT(m.rows <= 1 || m.stride >= m.cols);
  NNET3_ASSERT(m.data != nullptr || m.rows == 0 || m.cols == 0);
}

inline void CheckSame(const ConstMatView &a, const ConstMatView &b) {
  CheckView(a);
  CheckView(b);
  NNET3_ASSERT(SameShape(a, b));
}

inline void CheckSame3(const ConstMatView &a, const ConstMatView &b,
                       const ConstMatView &c) {
  CheckSame(a, b);
  CheckView(c);
  NNET3_ASSERT(SameShape(a, c));
}

// A vector argument: a 1 x dim view (an empty vector may have no row).
inline void CheckVector(const ConstMatView &v, int32_t dim) {
  CheckView(v);
  NNET3_ASSERT(v.cols == dim && (v.rows == 1 || dim == 0));
}

inline bool IsEmpty(const ConstMatView &m) {
  return m.rows == 0 || m.cols == 0;
}

}  // namespace cuda
}  // namespace nnet3

#endif  // NNET3_DEVICE_CUDA_VIEWS_H_
