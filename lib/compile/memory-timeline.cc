#include "compile/memory-timeline.h"

#include <algorithm>

namespace nnet3 {

namespace {

const int64_t kBytesPerElement = 4;

// Walks the commands, keeping what each matrix holds.
class MemoryWalker {
 public:
  MemoryWalker(const NnetComputation &computation, MemoryTimeline *timeline)
      : c_(computation), t_(timeline), held_(computation.matrices.size(), 0) {}

  void Run() {
    const size_t num_matrices = c_.matrices.size();
    *t_ = MemoryTimeline();
    t_->held_at_peak.assign(num_matrices, 0);
    t_->first_alloc_command.assign(num_matrices, -1);
    t_->last_free_command.assign(num_matrices, -1);
    for (size_t k = 0; k < c_.commands.size(); k++) {
      const int32_t command = static_cast<int32_t>(k);
      if (c_.commands[k].command_type == kNoOperationMarker &&
          t_->backward_command < 0)
        t_->backward_command = command;
      Apply(command);
      // The most held while the command runs: a compression or
      // decompression still holds the old form of its matrix here.
      t_->bytes_after.push_back(current_);
      if (current_ > t_->peak_bytes) {
        t_->peak_bytes = current_;
        t_->peak_command = command;
        t_->held_at_peak = held_;
      }
      if (release_matrix_ > 0) {
        Set(release_matrix_, held_[release_matrix_] - release_bytes_, command);
        release_matrix_ = 0;
      }
    }
  }

 private:
  void Set(int32_t m, int64_t bytes, int32_t command) {
    current_ += bytes - held_[m];
    if (bytes > 0 && t_->first_alloc_command[m] < 0)
      t_->first_alloc_command[m] = command;
    if (bytes == 0 && held_[m] > 0) t_->last_free_command[m] = command;
    held_[m] = bytes;
  }

  void Apply(int32_t k) {
    const NnetComputation::Command &c = c_.commands[k];
    if (!c_.IsWholeMatrix(c.arg1)) return;
    const int32_t m = c_.submatrices[c.arg1].matrix_index;
    const int64_t elements =
        static_cast<int64_t>(c_.matrices[m].num_rows) * c_.matrices[m].num_cols;
    switch (c.command_type) {
      case kAllocMatrix:
      case kAcceptInput:
        Set(m, kBytesPerElement * elements, k);
        break;
      case kDecompressMatrix:  // the floats come before the packed block goes
        HoldBoth(m, kBytesPerElement * elements, k);
        break;
      case kDeallocMatrix:
        Set(m, 0, k);
        break;
      case kSwapMatrix:
        if (c_.IsWholeMatrix(c.arg2)) {
          const int32_t m2 = c_.submatrices[c.arg2].matrix_index;
          const int64_t a = held_[m], b = held_[m2];
          Set(m, b, k);
          Set(m2, a, k);
        }
        break;
      case kCompressMatrix:  // the packed block comes before the floats go
        HoldBoth(m, (c.arg2 <= 2 ? 1 : 2) * elements, k);
        break;
      default:
        break;
    }
  }

  // Matrix m gets `bytes` in a new form while it still holds the old one,
  // which Run releases once the command's bytes are counted.
  void HoldBoth(int32_t m, int64_t bytes, int32_t command) {
    release_matrix_ = m;
    release_bytes_ = held_[m];
    Set(m, held_[m] + bytes, command);
  }

  const NnetComputation &c_;
  MemoryTimeline *t_;
  std::vector<int64_t> held_;
  int64_t current_ = 0;
  int32_t release_matrix_ = 0;
  int64_t release_bytes_ = 0;
};

}  // namespace

void ComputeMemoryTimeline(const NnetComputation &computation,
                           MemoryTimeline *timeline) {
  MemoryWalker(computation, timeline).Run();
}

std::vector<int32_t> MatricesLiveAtPeak(const MemoryTimeline &timeline) {
  std::vector<int32_t> live;
  for (size_t m = 1; m < timeline.held_at_peak.size(); m++)
    if (timeline.held_at_peak[m] > 0) live.push_back(static_cast<int32_t>(m));
  std::stable_sort(live.begin(), live.end(), [&](int32_t a, int32_t b) {
    return timeline.held_at_peak[a] > timeline.held_at_peak[b];
  });
  return live;
}

}  // namespace nnet3
