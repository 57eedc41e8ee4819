// LimitDerivativeTimes (truncated backprop through time; options
// --optimization.min-deriv-time / max-deriv-time / max-deriv-time-relative):
// derivatives at times t < min_deriv_time or t > max_deriv_time are taken to
// be zero (Kaldi's DerivativeTimeLimiter).
//
// Each derivative matrix keeps the smallest row range that holds all its
// rows with t inside the window (its "kept" rows); every other derivative
// row is treated as zero. Backprops of simple components without memos act
// on the kept rows only (or disappear when none are kept, freeing their
// memo); copies and row operations drop rows that read or write derivative
// rows that are not kept; derivative matrices left merely zeroed lose their
// commands and are removed (RenumberComputation). Non-simple components and
// components with memos backprop whole when any row is kept. Forward
// commands are untouched; matrices are not shrunk (Kaldi's LimitMatrices is
// not implemented: later passes do not need it to be correct).
//
// Needs: the computation exactly as the Compiler makes it, with debug info
// (InternalError otherwise): every allocated matrix is zeroed at
// allocation, which is what makes a dropped write equal to writing zeros.
// Optimize() runs it first, and only when a limit is set.
// Guarantees: a computation that passes the checker and computes the
// original's outputs and, for the derivatives, what the original computes
// when every non-kept derivative row is zero: input derivatives outside the
// window come out zero (for networks without time context, exactly the
// derivatives and model update of a computation over the window's frames).
#ifndef NNET3_OPTIMIZE_LIMIT_DERIVATIVE_TIMES_H_
#define NNET3_OPTIMIZE_LIMIT_DERIVATIVE_TIMES_H_

#include <cstdint>

#include "compile/nnet-computation.h"
#include "nnet/nnet.h"

namespace nnet3 {

// Returns true if it changed the computation. min_deriv_time may be
// INT_MIN and max_deriv_time INT_MAX (no limit on that side).
bool LimitDerivativeTimes(const Nnet &nnet, int32_t min_deriv_time,
                          int32_t max_deriv_time, NnetComputation *computation);

}  // namespace nnet3

#endif  // NNET3_OPTIMIZE_LIMIT_DERIVATIVE_TIMES_H_
