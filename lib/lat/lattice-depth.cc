#include "lat/lattice-depth.h"

#include "base/error.h"
#include "lat/lattice-state-times.h"

namespace nnet3 {
namespace {

void CheckSorted(const CompactLattice &clat) {
  if (clat.Properties(fst::kTopSorted, true) == 0)
    NNET3_ERR << "The lattice is not topologically sorted (sort it first, "
              << "e.g. with lattice-copy)";
}

}  // namespace

void CompactLatticeDepthPerFrame(const CompactLattice &clat,
                                 std::vector<int32_t> *depth_per_frame) {
  CheckSorted(clat);
  depth_per_frame->clear();
  if (clat.Start() == fst::kNoStateId) return;
  std::vector<int32_t> times;
  const int32_t num_frames = CompactLatticeStateTimes(clat, &times);
  if (num_frames <= 0) return;
  depth_per_frame->resize(num_frames, 0);
  auto add = [&](int32_t start, size_t length) {
    if (start + static_cast<int64_t>(length) > num_frames)
      NNET3_ERR << "The lattice has an arc that ends after its last frame ("
                << num_frames << "): final states at different frames?";
    for (size_t i = 0; i < length; ++i) ++(*depth_per_frame)[start + i];
  };
  for (CompactLatticeArc::StateId s = 0; s < clat.NumStates(); ++s) {
    if (times[s] < 0) continue;  // unreachable
    for (fst::ArcIterator<CompactLattice> aiter(clat, s); !aiter.Done();
         aiter.Next())
      add(times[s], aiter.Value().weight.String().size());
    add(times[s], clat.Final(s).String().size());
  }
}

float CompactLatticeDepth(const CompactLattice &clat, int32_t *num_frames) {
  CheckSorted(clat);
  if (clat.Start() == fst::kNoStateId) {
    if (num_frames != nullptr) *num_frames = 0;
    return 1.0f;
  }
  std::vector<int32_t> times;
  const int32_t t = CompactLatticeStateTimes(clat, &times);
  if (num_frames != nullptr) *num_frames = t;
  size_t num_arc_frames = 0;
  for (CompactLatticeArc::StateId s = 0; s < clat.NumStates(); ++s) {
    for (fst::ArcIterator<CompactLattice> aiter(clat, s); !aiter.Done();
         aiter.Next())
      num_arc_frames += aiter.Value().weight.String().size();
    num_arc_frames += clat.Final(s).String().size();
  }
  return num_arc_frames / static_cast<float>(t);
}

}  // namespace nnet3
