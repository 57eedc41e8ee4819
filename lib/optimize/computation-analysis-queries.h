// ComputationAnalysis: questions the optimizer asks about when parts of a
// computation are touched (Kaldi's ComputationAnalysis; reference 9.3),
// answered from an Analyzer (compile/computation-analysis.h).
//
//   Analyzer analyzer;
//   analyzer.Init(nnet, computation);
//   ComputationAnalysis analysis(computation, analyzer);
//   int32_t c = analysis.FirstNontrivialAccess(s);
//
// "Access" means reading or writing a variable's contents; kAllocMatrix,
// kDeallocMatrix and kSwapMatrix are not accesses. "Zeroing" is kSetConst
// with alpha 0. Commands are counted by index; "none" is num-commands for
// "first" queries and -1 for "last" ones. The analysis holds references:
// both arguments must outlive it and stay unchanged.
#ifndef NNET3_OPTIMIZE_COMPUTATION_ANALYSIS_QUERIES_H_
#define NNET3_OPTIMIZE_COMPUTATION_ANALYSIS_QUERIES_H_

#include <cstdint>

#include "compile/computation-analysis.h"
#include "compile/nnet-computation.h"

namespace nnet3 {

class ComputationAnalysis {
 public:
  ComputationAnalysis(const NnetComputation &computation,
                      const Analyzer &analyzer)
      : computation_(computation), analyzer_(analyzer) {}

  // The first command that accesses any part of submatrix s other than by
  // zeroing it; num-commands if none.
  int32_t FirstNontrivialAccess(int32_t s) const;
  // The first command that accesses any part of s (zeroing included);
  // num-commands if none.
  int32_t FirstAccess(int32_t s) const;
  // The last command that accesses any part of s; -1 if none.
  int32_t LastAccess(int32_t s) const;
  // The last command that writes any part of s; -1 if none.
  int32_t LastWriteAccess(int32_t s) const;
  // The first command after c that writes any part of s; if none, the
  // command that deallocates s's matrix; if none, num-commands. Data of s
  // read at c stays valid up to (not including) this command.
  int32_t DataInvalidatedCommand(int32_t c, int32_t s) const;
  // The first command that accesses matrix m other than by zeroing it;
  // num-commands if none.
  int32_t FirstNontrivialMatrixAccess(int32_t m) const;
  // The last command that accesses matrix m; -1 if none.
  int32_t LastMatrixAccess(int32_t m) const;

 private:
  bool IsZeroing(int32_t c) const;

  const NnetComputation &computation_;
  const Analyzer &analyzer_;
};

}  // namespace nnet3

#endif  // NNET3_OPTIMIZE_COMPUTATION_ANALYSIS_QUERIES_H_
