#include "lat/lattice-depth.h"

#include <fst/fst.h>

#include "base/error.h"
#include "lat/lattice-state-times.h"

namespace nnet3 {
namespace {

void CheckSorted(const CompactLattice &clat, const char *function) {
  if (clat.Properties(fst::kTopSorted, true) == 0)
    NNET3_ERR << "The lattice given to " << function
              << " is not topologically sorted (sort it first)";
}

// Adds one to each of the `length` frames from `start`.
void Cover(int32_t start, size_t length, std::vector<int32_t> *depth) {
  const size_t end = static_cast<size_t>(start) + length;
  if (start < 0 || end > depth->size())
    NNET3_ERR << "A lattice string covers frames " << start << " to " << end
              << ", past the utterance's " << depth->size() << " frames";
  for (size_t t = static_cast<size_t>(start); t < end; ++t) ++(*depth)[t];
}

}  // namespace

float CompactLatticeDepth(const CompactLattice &clat, int32_t *num_frames) {
  CheckSorted(clat, "CompactLatticeDepth");
  if (clat.Start() == fst::kNoStateId) {
    if (num_frames != nullptr) *num_frames = 0;
    return 1.0f;
  }
  std::vector<int32_t> times;
  const int32_t frames = CompactLatticeStateTimes(clat, &times);
  if (num_frames != nullptr) *num_frames = frames;
  size_t total_length = 0;
  for (int32_t s = 0; s < clat.NumStates(); ++s) {
    for (fst::ArcIterator<CompactLattice> aiter(clat, s); !aiter.Done();
         aiter.Next())
      total_length += aiter.Value().weight.String().size();
    total_length += clat.Final(s).String().size();
  }
  return total_length / static_cast<float>(frames);
}

void CompactLatticeDepthPerFrame(const CompactLattice &clat,
                                 std::vector<int32_t> *depth_per_frame) {
  CheckSorted(clat, "CompactLatticeDepthPerFrame");
  depth_per_frame->clear();
  if (clat.Start() == fst::kNoStateId) return;
  std::vector<int32_t> times;
  const int32_t frames = CompactLatticeStateTimes(clat, &times);
  if (frames <= 0) return;
  depth_per_frame->assign(frames, 0);
  for (int32_t s = 0; s < clat.NumStates(); ++s) {
    if (times[s] < 0) continue;  // unreachable: no frames to cover
    for (fst::ArcIterator<CompactLattice> aiter(clat, s); !aiter.Done();
         aiter.Next())
      Cover(times[s], aiter.Value().weight.String().size(), depth_per_frame);
    Cover(times[s], clat.Final(s).String().size(), depth_per_frame);
  }
}

}  // namespace nnet3
