// Merging egs into minibatches (Kaldi's ExampleMergingConfig / ExampleMerger,
// reference 6.5), as nnet3-merge-egs does.
//
//   ExampleMergingConfig config;            // --minibatch-size, --compress
//   config.Register(&po);                   // then po.Read(...)
//   config.ComputeDerived();                // parses --minibatch-size
//   ExampleMerger merger(config, &writer);  // or with a sink function
//   for (...) merger.AcceptExample(std::move(eg));
//   merger.Finish();                        // flushes, logs the stats
//   return merger.ExitStatus();             // 1 if nothing was written
//
// --minibatch-size syntax: one rule "S" where S is a comma list of sizes and
// a:b ranges ("128", "64,32", "16:32,64,128"), or several "/"-separated
// rules "egsize=S" ("256=128/512=64", "128=64:128,256/256=32:64,128"). An eg
// uses the rule whose egsize is closest to its size (GetNnetExampleSize;
// the first such rule on a tie).
//
// The merger groups egs by structure (SameStructure). Until the input ends a
// group is emitted only when it reaches the rule's largest size; at the end
// each group is emitted greedily at the largest allowed size not above what
// is left, and the rest (fitting no allowed size) is discarded and reported.
// Groups are flushed in the order they first appeared, so output is
// deterministic. Keys are "merged-<k>-<size>", k counting the minibatches
// written from 0.
#ifndef NNET3_TRAIN_NNET_EXAMPLE_UTILS_H_
#define NNET3_TRAIN_NNET_EXAMPLE_UTILS_H_

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "base/options.h"
#include "train/nnet-example.h"

namespace nnet3 {

// Merges egs into one: io names sorted; for each name, the rows of each eg
// in turn, each eg's n values offset by k * stride (k its position, stride
// the largest n in any source plus 1, so merged egs can merge again). The
// result is sparse when every source is sparse, else a full matrix
// (compressed if `compress`). Inconsistent dimensions for one name are a
// UserError.
void MergeExamples(const std::vector<NnetExample> &src, bool compress,
                   NnetExample *merged);

struct ExampleMergingConfig {
  bool compress = false;
  std::string minibatch_size = "256";
  // Accepted for compatibility with old scripts, then ignored (warned).
  std::string measure_output_frames = "deprecated";
  std::string discard_partial_minibatches = "deprecated";

  // A set of allowed minibatch sizes: the union of [first, second] ranges.
  struct IntSet {
    int32_t largest_size = 0;
    std::vector<std::pair<int32_t, int32_t>> ranges;
    // The largest allowed size <= max_size, or 0 if none.
    int32_t LargestSizeAtMost(int32_t max_size) const;
  };
  // (egsize, sizes); egsize is 0 for a rule given without "=". Filled by
  // ComputeDerived.
  std::vector<std::pair<int32_t, IntSet>> rules;

  explicit ExampleMergingConfig(const std::string &default_size = "256")
      : minibatch_size(default_size) {}
  void Register(OptionsRegistry *po);
  // Parses minibatch_size into rules; UserError on bad syntax.
  void ComputeDerived();
  // How many egs of size size_of_eg to merge now, out of num_available
  // (> 0): before the input ends, the rule's largest size if that many are
  // available, else 0; at the end, the largest allowed size <= num_available
  // (0 if none).
  int32_t MinibatchSize(int32_t size_of_eg, int32_t num_available,
                        bool input_ended) const;
};

// Parses "16:32,64,128" (sizes and a:b ranges, all positive, a <= b).
// Returns false on bad syntax.
bool ParseMinibatchSizeSet(const std::string &str,
                           ExampleMergingConfig::IntSet *set);

class ExampleMerger {
 public:
  using Sink =
      std::function<void(const std::string &key, const NnetExample &eg)>;
  // config must have had ComputeDerived() called.
  ExampleMerger(const ExampleMergingConfig &config, Sink sink);
  ExampleMerger(const ExampleMergingConfig &config, NnetExampleWriter *writer);
  ~ExampleMerger();  // calls Finish()

  void AcceptExample(NnetExample eg);
  // Flushes every group (see the file comment) and logs the statistics.
  // Further calls do nothing.
  void Finish();
  // 0 if any minibatch was written, else 1 (calls Finish()).
  int ExitStatus();

  int64_t NumMinibatchesWritten() const { return num_minibatches_written_; }
  int64_t NumEgsRead() const { return num_egs_read_; }
  int64_t NumEgsDiscarded() const { return num_egs_discarded_; }

 private:
  // What SameStructure compares, kept while a group is empty.
  struct IoShape {
    std::string name;
    std::vector<Index> indexes;
    int32_t num_cols = 0;
  };
  struct Group {
    std::vector<IoShape> shape;
    std::vector<NnetExample> egs;
    int32_t eg_size = 0;
    // minibatch size -> how many written; egs discarded.
    std::map<int32_t, int64_t> minibatches;
    int64_t num_discarded = 0;
  };
  static bool Matches(const std::vector<IoShape> &shape, const NnetExample &eg);
  Group *FindGroup(const NnetExample &eg);
  void WriteMinibatch(Group *group, int32_t minibatch_size);
  void PrintStats() const;

  ExampleMergingConfig config_;
  Sink sink_;
  bool finished_ = false;
  // Groups in order of appearance; the map finds them by structure hash.
  std::vector<Group> groups_;
  std::unordered_multimap<size_t, size_t> group_index_;
  int64_t num_minibatches_written_ = 0;
  int64_t num_egs_read_ = 0;
  int64_t num_egs_discarded_ = 0;
};

}  // namespace nnet3

#endif  // NNET3_TRAIN_NNET_EXAMPLE_UTILS_H_
