#include "train/nnet-example-utils.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <iomanip>
#include <limits>
#include <set>
#include <sstream>

#include "base/error.h"
#include "base/log.h"
#include "base/text-utils.h"

namespace nnet3 {

namespace {

// Concatenates the rows of `mats` (sparse if all are sparse, else full).
void AppendGeneralMatrixRows(const std::vector<const GeneralMatrix *> &mats,
                             const std::string &name, GeneralMatrix *out) {
  out->Clear();
  bool all_sparse = true;
  int32_t num_rows = 0, num_cols = -1;
  for (const GeneralMatrix *m : mats) {
    if (m->NumRows() == 0) continue;
    if (m->Type() != GeneralMatrixType::kSparseMatrix) all_sparse = false;
    if (num_cols == -1) num_cols = m->NumCols();
    if (m->NumCols() != num_cols)
      NNET3_ERR << "Cannot merge egs: '" << name << "' has dimension "
                << num_cols << " in one eg and " << m->NumCols()
                << " in another";
    num_rows += m->NumRows();
  }
  if (num_rows == 0) return;
  if (all_sparse) {
    std::vector<SparseVector> rows;
    rows.reserve(num_rows);
    for (const GeneralMatrix *m : mats)
      if (m->NumRows() != 0)
        for (const SparseVector &row : m->GetSparseMatrix().Rows())
          rows.push_back(row);
    SparseMatrix smat(num_cols, rows);
    out->SwapSparseMatrix(&smat);
    return;
  }
  Matrix full(num_rows, num_cols, ResizeType::kUndefined, CpuDevice());
  int32_t row_offset = 0;
  for (const GeneralMatrix *m : mats) {
    if (m->NumRows() == 0) continue;
    MatrixView dest = full.RowRange(row_offset, m->NumRows());
    m->CopyToMatrix(&dest);
    row_offset += m->NumRows();
  }
  out->SwapFullMatrix(&full);
}

}  // namespace

void MergeExamples(const std::vector<NnetExample> &src, bool compress,
                   NnetExample *merged) {
  NNET3_ASSERT(!src.empty());
  std::set<std::string> name_set;
  int32_t max_n = 0;
  for (const NnetExample &eg : src)
    for (const NnetIo &io : eg.io) {
      name_set.insert(io.name);
      for (const Index &index : io.indexes) max_n = std::max(max_n, index.n);
    }
  // Example k's n values become n + k * (max_n + 1): all must fit an int32.
  const int64_t stride = int64_t(max_n) + 1;
  if (stride * static_cast<int64_t>(src.size()) - 1 > INT32_MAX)
    NNET3_ERR << "Cannot merge " << src.size() << " examples whose n values "
              << "reach " << max_n << ": the merged n values would not fit "
              << "a 32-bit integer (corrupted egs?)";
  std::vector<std::string> names(name_set.begin(), name_set.end());
  std::vector<std::vector<const GeneralMatrix *>> features(names.size());
  merged->io.clear();
  merged->io.resize(names.size());
  for (size_t f = 0; f < names.size(); f++) merged->io[f].name = names[f];
  for (size_t k = 0; k < src.size(); k++) {
    for (const NnetIo &io : src[k].io) {
      size_t f =
          std::lower_bound(names.begin(), names.end(), io.name) - names.begin();
      std::vector<Index> &dest = merged->io[f].indexes;
      for (Index index : io.indexes) {
        index.n += static_cast<int32_t>(static_cast<int64_t>(k) * stride);
        dest.push_back(index);
      }
      features[f].push_back(&io.features);
    }
  }
  for (size_t f = 0; f < names.size(); f++) {
    NnetIo &io = merged->io[f];
    AppendGeneralMatrixRows(features[f], io.name, &io.features);
    if (compress) io.features.Compress();
    NNET3_ASSERT(io.features.NumRows() ==
                 static_cast<int32_t>(io.indexes.size()));
  }
}

int32_t ExampleMergingConfig::IntSet::LargestSizeAtMost(
    int32_t max_size) const {
  int32_t ans = 0;
  for (const auto &range : ranges)
    if (range.first <= max_size)
      ans = std::max(ans, std::min(range.second, max_size));
  return ans;
}

bool ParseMinibatchSizeSet(const std::string &str,
                           ExampleMergingConfig::IntSet *set) {
  set->largest_size = 0;
  set->ranges.clear();
  for (const std::string &piece : SplitString(str, ",", false)) {
    std::vector<std::string> ends = SplitString(piece, ":", false);
    if (ends.empty() || ends.size() > 2) return false;
    int32_t lo, hi;
    if (!ConvertStringToInteger(ends.front(), &lo) ||
        !ConvertStringToInteger(ends.back(), &hi) || lo <= 0 || lo > hi)
      return false;
    set->ranges.emplace_back(lo, hi);
    set->largest_size = std::max(set->largest_size, hi);
  }
  return !set->ranges.empty();
}

void ExampleMergingConfig::Register(OptionsRegistry *po) {
  po->Register("compress", &compress,
               "If true, compress the output examples (not recommended "
               "unless you are writing to disk)");
  po->Register("measure-output-frames", &measure_output_frames,
               "This value will be ignored (included for back-compatibility)");
  po->Register("discard-partial-minibatches", &discard_partial_minibatches,
               "This value will be ignored (included for back-compatibility)");
  po->Register(
      "minibatch-size", &minibatch_size,
      "String controlling the minibatch size. May be just an integer, "
      "meaning a fixed minibatch size (e.g. --minibatch-size=128). May be a "
      "list of ranges and values, e.g. --minibatch-size=32,64 or "
      "--minibatch-size=16:32,64,128. All minibatches will be of the largest "
      "size until the end of the input is reached; then, increasingly "
      "smaller sizes will be allowed. Only egs with the same structure (e.g "
      "num-frames) are merged. You may specify different minibatch sizes for "
      "different sizes of eg (defined as the maximum number of Indexes on "
      "any input), in the format "
      "--minibatch-size='eg_size1=mb_sizes1/eg_size2=mb_sizes2', e.g. "
      "--minibatch-size=128=64:128,256/256=32:64,128. Egs are given "
      "minibatch-sizes based on the specified eg-size closest to their "
      "actual size.");
}

void ExampleMergingConfig::ComputeDerived() {
  if (measure_output_frames != "deprecated")
    NNET3_WARN << "The --measure-output-frames option is deprecated and will "
               << "be ignored.";
  if (discard_partial_minibatches != "deprecated")
    NNET3_WARN << "The --discard-partial-minibatches option is deprecated and "
               << "will be ignored.";
  const std::string what = "Invalid option --minibatch-size=" + minibatch_size;
  std::vector<std::string> pieces = SplitString(minibatch_size, "/", false);
  rules.clear();
  for (const std::string &piece : pieces) {
    std::pair<int32_t, IntSet> rule;
    std::string sizes = piece;
    size_t eq = piece.find('=');
    if (eq != std::string::npos) {
      if (!ConvertStringToInteger(piece.substr(0, eq), &rule.first) ||
          rule.first <= 0)
        NNET3_ERR << what << " (expected a positive eg size before '=' in '"
                  << piece << "')";
      sizes = piece.substr(eq + 1);
    } else if (pieces.size() != 1) {
      NNET3_ERR << what << " (every rule needs an eg size, as in "
                << "'128=64/256=32', when there is more than one rule)";
    }
    if (!ParseMinibatchSizeSet(sizes, &rule.second))
      NNET3_ERR << what << " (expected sizes and ranges like 16:32,64,128 in '"
                << sizes << "')";
    rules.push_back(rule);
  }
  if (rules.empty()) NNET3_ERR << what << " (empty)";
  std::set<int32_t> eg_sizes;
  for (const auto &rule : rules)
    if (!eg_sizes.insert(rule.first).second)
      NNET3_ERR << what << " (eg size " << rule.first << " appears twice)";
}

int32_t ExampleMergingConfig::MinibatchSize(int32_t size_of_eg,
                                            int32_t num_available,
                                            bool input_ended) const {
  NNET3_ASSERT(num_available > 0);
  if (rules.empty())
    NNET3_INTERNAL_ERR << "ExampleMergingConfig: call ComputeDerived() first";
  int32_t best = 0, best_distance = std::numeric_limits<int32_t>::max();
  for (size_t i = 0; i < rules.size(); i++) {
    int32_t distance = std::abs(size_of_eg - rules[i].first);
    if (distance < best_distance) {
      best_distance = distance;
      best = static_cast<int32_t>(i);
    }
  }
  const IntSet &set = rules[best].second;
  if (!input_ended)
    return set.largest_size <= num_available ? set.largest_size : 0;
  return set.LargestSizeAtMost(num_available);
}

ExampleMerger::ExampleMerger(const ExampleMergingConfig &config, Sink sink)
    : config_(config), sink_(std::move(sink)) {
  if (config_.rules.empty()) config_.ComputeDerived();
}

ExampleMerger::ExampleMerger(const ExampleMergingConfig &config,
                             NnetExampleWriter *writer)
    : ExampleMerger(config,
                    [writer](const std::string &key, const NnetExample &eg) {
                      writer->Write(key, eg);
                    }) {}

ExampleMerger::~ExampleMerger() {
  // Finish() can throw (a failed write) but a destructor must not: callers
  // that want to see such errors call Finish() themselves.
  try {
    Finish();
  } catch (...) {
  }
}

bool ExampleMerger::Matches(const std::vector<IoShape> &shape,
                            const NnetExample &eg) {
  if (shape.size() != eg.io.size()) return false;
  for (size_t i = 0; i < shape.size(); i++) {
    const NnetIo &io = eg.io[i];
    // The number of rows is the number of indexes.
    if (shape[i].name != io.name || shape[i].indexes != io.indexes ||
        shape[i].num_cols != io.features.NumCols())
      return false;
  }
  return true;
}

ExampleMerger::Group *ExampleMerger::FindGroup(const NnetExample &eg) {
  size_t hash = NnetExampleStructureHasher()(eg);
  auto range = group_index_.equal_range(hash);
  for (auto it = range.first; it != range.second; ++it)
    if (Matches(groups_[it->second].shape, eg)) return &groups_[it->second];
  group_index_.emplace(hash, groups_.size());
  groups_.emplace_back();
  Group &group = groups_.back();
  for (const NnetIo &io : eg.io)
    group.shape.push_back({io.name, io.indexes, io.features.NumCols()});
  group.eg_size = GetNnetExampleSize(eg);
  return &group;
}

void ExampleMerger::AcceptExample(NnetExample eg) {
  NNET3_ASSERT(!finished_);
  num_egs_read_++;
  Group *group = FindGroup(eg);
  group->egs.push_back(std::move(eg));
  int32_t size = config_.MinibatchSize(
      group->eg_size, static_cast<int32_t>(group->egs.size()), false);
  if (size != 0) WriteMinibatch(group, size);
}

void ExampleMerger::WriteMinibatch(Group *group, int32_t minibatch_size) {
  std::vector<NnetExample> batch(minibatch_size);
  for (int32_t i = 0; i < minibatch_size; i++) batch[i].Swap(&group->egs[i]);
  group->egs.erase(group->egs.begin(), group->egs.begin() + minibatch_size);
  NnetExample merged;
  MergeExamples(batch, config_.compress, &merged);
  std::ostringstream key;
  key << "merged-" << num_minibatches_written_++ << "-" << minibatch_size;
  group->minibatches[minibatch_size]++;
  sink_(key.str(), merged);
}

void ExampleMerger::Finish() {
  if (finished_) return;
  finished_ = true;
  for (size_t g = 0; g < groups_.size(); g++) {
    Group &group = groups_[g];
    int32_t size;
    while (!group.egs.empty() &&
           (size = config_.MinibatchSize(
                group.eg_size, static_cast<int32_t>(group.egs.size()), true)) !=
               0)
      WriteMinibatch(&group, size);
    if (!group.egs.empty()) {
      group.num_discarded = static_cast<int64_t>(group.egs.size());
      num_egs_discarded_ += group.num_discarded;
      NNET3_WARN << "Discarded " << group.num_discarded << " egs of size "
                 << group.eg_size << " (eg type " << g + 1
                 << "): no allowed minibatch size in --minibatch-size="
                 << config_.minibatch_size << " is <= " << group.egs.size();
      group.egs.clear();
    }
  }
  PrintStats();
}

int ExampleMerger::ExitStatus() {
  Finish();
  return num_minibatches_written_ > 0 ? 0 : 1;
}

void ExampleMerger::PrintStats() const {
  int64_t total_size = 0, num_types = 0;
  for (const Group &group : groups_) {
    int64_t n = group.num_discarded;
    for (const auto &mb : group.minibatches) {
      n += mb.first * mb.second;
      num_types++;
    }
    total_size += n * group.eg_size;
  }
  int64_t kept = num_egs_read_ - num_egs_discarded_;
  std::ostringstream os;
  os << std::setprecision(4) << "Processed " << num_egs_read_
     << " egs of avg. size "
     << (num_egs_read_ ? total_size * 1.0 / num_egs_read_ : 0.0) << " into "
     << num_minibatches_written_ << " minibatches, discarding "
     << (num_egs_read_ ? num_egs_discarded_ * 100.0 / num_egs_read_ : 0.0)
     << "% of egs.  Avg minibatch size was "
     << (num_minibatches_written_ ? kept * 1.0 / num_minibatches_written_ : 0.0)
     << ", #distinct types of egs/minibatches was " << groups_.size() << "/"
     << num_types;
  NNET3_LOG << os.str();
}

}  // namespace nnet3
