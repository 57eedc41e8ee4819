// Hand-built networks and computations for the computation, analysis and
// checker tests: small enough to reason about line by line.
#ifndef NNET3_TESTS_UNIT_COMPILE_COMPUTATION_TEST_UTILS_H_
#define NNET3_TESTS_UNIT_COMPILE_COMPUTATION_TEST_UTILS_H_

#include <sstream>
#include <string>

#include "base/io-funcs.h"
#include "compile/nnet-computation.h"
#include "nnet/nnet.h"

namespace nnet3 {

// input(4) -> affine1(4->3) -> relu1 -> affine2(3->3) -> output. Nodes:
// input 0, affine1 2, relu1 4, affine2 6, output 7; components affine1 0,
// relu1 1, affine2 2.
Nnet SmallNnet();

// A forward+backward computation over 5 frames for SmallNnet(), as a
// compiler could make it (commands c0..c24, listed in the .cc file):
// matrices m1 input 5x4, m2 affine1 5x3, m3 relu1 5x3, m4 affine2 5x3
// (the output), m5 output-deriv, m6 relu1-deriv, m7 affine1-deriv 5x3,
// m8 input-deriv 5x4; submatrix s == matrix m for s = 1..8. With debug
// info if `debug_info`.
NnetComputation SmallComputation(bool debug_info);

// input(3) -> bn (BatchNormComponent, uses memos) -> output; nodes input 0,
// bn 2, output 3.
Nnet MemoNnet();
// Forward+backward through bn with memo 1.
NnetComputation MemoComputation();

template <class T>
std::string WriteToString(const T &t, bool binary) {
  std::ostringstream os;
  t.Write(os, binary);
  return os.str();
}

template <class T>
T ReadFromString(const std::string &s, bool binary) {
  std::istringstream is(s);
  T t;
  t.Read(is, binary);
  return t;
}

}  // namespace nnet3

#endif  // NNET3_TESTS_UNIT_COMPILE_COMPUTATION_TEST_UTILS_H_
