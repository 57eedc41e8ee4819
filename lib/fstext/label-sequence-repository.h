// LabelSequenceRepository: small integer ids for sequences of labels, so
// that DeterminizeStar (determinize-star.h) can store, hash and compare
// the output strings of its subsets as single integers.
//
//   LabelSequenceRepository repo;
//   SequenceId e = repo.Empty();
//   SequenceId a = repo.Append(e, 7);          // "7"
//   SequenceId b = repo.Append(a, 9);          // "7 9"
//   repo.RemovePrefix(b, 1) == repo.Append(e, 9);
//
// Guarantees: two ids are equal exactly when their sequences are. Ids are
// Kaldi's numbering, which the determinizer's subset hash depends on: the
// empty sequence is 2^30 - 1, a single label l (0 <= l < 2^30) is
// 2^30 + l, and other sequences are numbered 0, 1, 2... in the order they
// are first seen. So the subset hash, and with it the result when
// approximately equal weights meet, is the same as Kaldi's.
#ifndef NNET3_FSTEXT_LABEL_SEQUENCE_REPOSITORY_H_
#define NNET3_FSTEXT_LABEL_SEQUENCE_REPOSITORY_H_

#include <cstddef>
#include <cstdint>
#include <deque>
#include <unordered_map>
#include <vector>

namespace nnet3 {

using SequenceId = int32_t;

class LabelSequenceRepository {
 public:
  SequenceId Empty() const { return kEmpty; }
  bool IsEmpty(SequenceId id) const { return id == kEmpty; }
  SequenceId IdOf(const std::vector<int32_t> &labels);
  // Replaces *labels with the sequence.
  void SequenceOf(SequenceId id, std::vector<int32_t> *labels) const;
  // The sequence `id` followed by `label`.
  SequenceId Append(SequenceId id, int32_t label);
  // The sequence without its first `n` labels (n <= its length).
  SequenceId RemovePrefix(SequenceId id, size_t n);
  // Frees every sequence.
  void Clear();

 private:
  static constexpr SequenceId kEmpty = (INT32_MAX / 2);
  static constexpr SequenceId kFirstSingle = kEmpty + 1;
  static constexpr int32_t kMaxSingle = INT32_MAX - kFirstSingle;

  struct Hash {
    size_t operator()(const std::vector<int32_t> *labels) const;
  };
  struct Equal {
    bool operator()(const std::vector<int32_t> *a,
                    const std::vector<int32_t> *b) const {
      return *a == *b;
    }
  };

  SequenceId IdOfLong(const std::vector<int32_t> &labels);

  std::deque<std::vector<int32_t>> sequences_;  // by id; stable addresses
  std::unordered_map<const std::vector<int32_t> *, SequenceId, Hash, Equal>
      ids_;
  std::vector<int32_t> scratch_;
};

}  // namespace nnet3

#endif  // NNET3_FSTEXT_LABEL_SEQUENCE_REPOSITORY_H_
