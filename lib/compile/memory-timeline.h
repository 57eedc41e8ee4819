// MemoryTimeline: the matrix memory a computation holds at each of its
// commands, as the executor (NnetComputer) allocates it running the
// commands in order — the curve whose maximum is GetMaxMemoryUse
// (computation-analysis.h), with where that maximum is reached and which
// matrices hold it.
//
//   MemoryTimeline timeline;
//   ComputeMemoryTimeline(computation, &timeline);
//   timeline.bytes_after[k];          // live bytes at command k (below)
//   timeline.peak_bytes;              // == GetMaxMemoryUse(computation)
//   for (int32_t m = 1; m < timeline.held_at_peak.size(); m++) ...
//
// Counting (the one rule GetMaxMemoryUse uses): 4 bytes per element;
// kAllocMatrix and kAcceptInput of a whole matrix make it hold all its
// bytes, kDeallocMatrix none; kCompressMatrix leaves it 1 byte (types 1, 2)
// or 2 bytes (types 3, 4) per element and kDecompressMatrix all its bytes
// again; kSwapMatrix swaps what two matrices hold; kProvideOutput frees
// nothing. A matrix allocated twice is counted once. bytes_after[k] is what
// is held once command k has run, except at kCompressMatrix and
// kDecompressMatrix: these allocate the matrix's new form before they free
// the old one, so their entry (and held_at_peak, when the peak is there)
// counts both forms, the most they hold while they run; the next command
// starts without the old form. (Kaldi's GetMaxMemoryUse counts only the new
// form, so it is lower when the peak is at one of them.) The peak is the
// first command at which the live bytes are largest (-1 and 0 bytes when
// nothing is ever allocated).
#ifndef NNET3_COMPILE_MEMORY_TIMELINE_H_
#define NNET3_COMPILE_MEMORY_TIMELINE_H_

#include <cstdint>
#include <vector>

#include "compile/nnet-computation.h"

namespace nnet3 {

struct MemoryTimeline {
  std::vector<int64_t> bytes_after;  // per command
  int64_t peak_bytes = 0;
  int32_t peak_command = -1;
  // Per matrix (entry 0 unused): the bytes it holds after peak_command.
  std::vector<int64_t> held_at_peak;
  // Per matrix: the first command that gives it memory and the last one
  // that frees it (kDeallocMatrix or a swap), -1 where there is none.
  std::vector<int32_t> first_alloc_command, last_free_command;
  // The index of the first kNoOperationMarker (where the backward commands
  // begin), -1 if none.
  int32_t backward_command = -1;
};

void ComputeMemoryTimeline(const NnetComputation &computation,
                           MemoryTimeline *timeline);

// The matrices with held_at_peak > 0, largest first (ties: lower index
// first).
std::vector<int32_t> MatricesLiveAtPeak(const MemoryTimeline &timeline);

}  // namespace nnet3

#endif  // NNET3_COMPILE_MEMORY_TIMELINE_H_
