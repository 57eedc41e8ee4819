// LimitDerivativeTimes (truncated backprop through time; option
// --optimization.min-deriv-time / max-deriv-time / max-deriv-time-relative):
// derivatives at times t < min_deriv_time or t > max_deriv_time are taken to
// be zero.
//
// Needs: a computation with debug info (matrix_debug_info with cindexes),
// as the Compiler makes it; runs first, before any other pass.
// Guarantees: the computation computes what the original does when every
// derivative row whose t is outside [min_deriv_time, max_deriv_time] is
// replaced by zero (input derivatives at such t come out zero, and model
// updates lose those frames' contributions); it passes the checker. Row ops
// that only move derivatives from or into such rows are trimmed or
// removed; backprop commands whose input or output derivative lies entirely
// outside the window are removed, and their matrices (if no longer used)
// lose their commands; forward values are unchanged.
#ifndef NNET3_OPTIMIZE_LIMIT_DERIVATIVE_TIMES_H_
#define NNET3_OPTIMIZE_LIMIT_DERIVATIVE_TIMES_H_

#include <cstdint>

#include "compile/nnet-computation.h"
#include "nnet/nnet.h"

namespace nnet3 {

// Returns true if it changed the computation. min_deriv_time may be
// INT_MIN and max_deriv_time INT_MAX (no limit on that side).
bool LimitDerivativeTimes(const Nnet &nnet, int32_t min_deriv_time,
                          int32_t max_deriv_time,
                          NnetComputation *computation);

}  // namespace nnet3

#endif  // NNET3_OPTIMIZE_LIMIT_DERIVATIVE_TIMES_H_
