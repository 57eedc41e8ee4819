#include "fstext/label-sequence-repository.h"

#include "base/error.h"

namespace nnet3 {

size_t LabelSequenceRepository::Hash::operator()(
    const std::vector<int32_t> *labels) const {
  size_t hash = 0, factor = 1;
  for (int32_t label : *labels) {
    hash += factor * label;
    factor *= 103333;
  }
  return hash;
}

SequenceId LabelSequenceRepository::IdOf(const std::vector<int32_t> &labels) {
  if (labels.empty()) return kEmpty;
  if (labels.size() == 1 && labels[0] >= 0 && labels[0] <= kMaxSingle)
    return kFirstSingle + labels[0];
  return IdOfLong(labels);
}

SequenceId LabelSequenceRepository::IdOfLong(
    const std::vector<int32_t> &labels) {
  auto it = ids_.find(&labels);
  if (it != ids_.end()) return it->second;
  const SequenceId id = static_cast<SequenceId>(sequences_.size());
  NNET3_ASSERT(id < kEmpty - 1);
  sequences_.push_back(labels);
  ids_.emplace(&sequences_.back(), id);
  return id;
}

void LabelSequenceRepository::SequenceOf(SequenceId id,
                                         std::vector<int32_t> *labels) const {
  if (id == kEmpty) {
    labels->clear();
  } else if (id >= kFirstSingle) {
    labels->assign(1, id - kFirstSingle);
  } else {
    NNET3_ASSERT(id >= 0 && static_cast<size_t>(id) < sequences_.size());
    *labels = sequences_[id];
  }
}

SequenceId LabelSequenceRepository::Append(SequenceId id, int32_t label) {
  if (id == kEmpty) return IdOf(std::vector<int32_t>(1, label));
  SequenceOf(id, &scratch_);
  scratch_.push_back(label);
  return IdOfLong(scratch_);
}

SequenceId LabelSequenceRepository::RemovePrefix(SequenceId id, size_t n) {
  if (n == 0) return id;
  SequenceOf(id, &scratch_);
  NNET3_ASSERT(n <= scratch_.size());
  scratch_.erase(scratch_.begin(), scratch_.begin() + n);
  return IdOf(scratch_);
}

void LabelSequenceRepository::Clear() {
  ids_.clear();
  sequences_.clear();
  sequences_.shrink_to_fit();
}

}  // namespace nnet3
