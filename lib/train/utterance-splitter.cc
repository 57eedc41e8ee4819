#include "train/utterance-splitter.h"

#include <algorithm>
#include <cstdlib>
#include <iomanip>
#include <limits>
#include <numeric>
#include <set>
#include <sstream>

#include "base/error.h"
#include "base/log.h"
#include "base/text-utils.h"

namespace nnet3 {

void ExampleGenerationConfig::Register(OptionsRegistry *po) {
  po->Register("left-context", &left_context,
               "Number of frames of left context of input features that are "
               "added to each example");
  po->Register("right-context", &right_context,
               "Number of frames of right context of input features that are "
               "added to each example");
  po->Register("left-context-initial", &left_context_initial,
               "Number of frames of left context of input features that are "
               "added to each example at the start of the utterance (if <0, "
               "this defaults to the same as --left-context)");
  po->Register("right-context-final", &right_context_final,
               "Number of frames of right context of input features that are "
               "added to each example at the end of the utterance (if <0, "
               "this defaults to the same as --right-context)");
  po->Register("num-frames", &num_frames_str,
               "Number of frames with labels that each example contains "
               "(i.e. the left and right context are to be added to this). "
               "May just be an integer (e.g. --num-frames=8), or a principal "
               "value followed by alternative values to be used at most once "
               "for each utterance to deal with odd-sized input, e.g. "
               "--num-frames=40,25,50 means that most of the time the number "
               "of frames will be 40, but to deal with odd-sized inputs we "
               "may also generate egs with these other sizes. All these "
               "values will be rounded up to the closest multiple of "
               "--frame-subsampling-factor. As a special case, "
               "--num-frames=-1 means 'don't do any splitting'.");
  po->Register("num-frames-overlap", &num_frames_overlap,
               "Number of frames of overlap between adjacent samples "
               "(applies to chunks of size equal to the primary "
               "[first-listed] --num-frames value... will be adjusted for "
               "different-sized chunks). Advisory; will not be exactly "
               "enforced.");
  po->Register("frame-subsampling-factor", &frame_subsampling_factor,
               "Used if the frame-rate of the output labels in the generated "
               "examples will be less than the frame-rate at the input");
}

void ExampleGenerationConfig::ComputeDerived() {
  const int32_t f = frame_subsampling_factor;
  if (f < 1)
    NNET3_ERR << "Invalid value --frame-subsampling-factor=" << f
              << " (must be >= 1)";
  if (left_context < 0 || right_context < 0)
    NNET3_ERR << "Invalid --left-context=" << left_context
              << " / --right-context=" << right_context << " (must be >= 0)";
  if (num_frames_overlap < 0)
    NNET3_ERR << "Invalid --num-frames-overlap=" << num_frames_overlap
              << " (must be >= 0)";
  num_frames.clear();
  if (Trim(num_frames_str) == "-1") return;
  bool changed = false;
  for (const std::string &piece : SplitString(num_frames_str, ",", false)) {
    int32_t value;
    if (!ConvertStringToInteger(piece, &value) || value <= 0)
      NNET3_ERR << "Invalid option --num-frames=" << num_frames_str
                << " (expected -1 or a comma-separated list of positive "
                << "integers)";
    if (value % f != 0) {
      value = (value / f + 1) * f;
      changed = true;
    }
    num_frames.push_back(value);
  }
  if (num_frames.empty())
    NNET3_ERR << "Invalid option --num-frames=" << num_frames_str;
  if (num_frames_overlap >= num_frames[0])
    NNET3_ERR << "--num-frames-overlap=" << num_frames_overlap
              << " must be less than the principal --num-frames="
              << num_frames[0];
  if (changed) {
    std::ostringstream rounded;
    for (size_t i = 0; i < num_frames.size(); i++)
      rounded << (i ? "," : "") << num_frames[i];
    NNET3_LOG << "Rounding up --num-frames=" << num_frames_str
              << " to multiples of --frame-subsampling-factor=" << f
              << ", to: " << rounded.str();
  }
}

UtteranceSplitter::UtteranceSplitter(const ExampleGenerationConfig &config)
    : config_(config) {
  NNET3_ASSERT(config_.frame_subsampling_factor >= 1);
  if (Trim(config_.num_frames_str) == "-1") return;
  NNET3_ASSERT(!config_.num_frames.empty() &&
               "call ComputeDerived() on the ExampleGenerationConfig");
  InitSplitForLength();
}

float UtteranceSplitter::DefaultDurationOfSplit(
    const std::vector<int32_t> &split) const {
  if (split.empty()) return 0.0f;
  const float overlap_proportion =
      static_cast<float>(config_.num_frames_overlap) / config_.num_frames[0];
  float ans = static_cast<float>(
      std::accumulate(split.begin(), split.end(), int32_t(0)));
  for (size_t i = 0; i + 1 < split.size(); i++)
    ans -= overlap_proportion * std::min(split[i], split[i + 1]);
  NNET3_ASSERT(ans > 0.0f);
  return ans;
}

int32_t UtteranceSplitter::MaxUtteranceLength() const {
  const std::vector<int32_t> &sizes = config_.num_frames;
  return 2 * *std::max_element(sizes.begin(), sizes.end()) + sizes[0];
}

void UtteranceSplitter::InitSplits(
    std::vector<std::vector<int32_t>> *splits) const {
  // Splits up to this default duration are enough for every tabulated
  // length.
  const int32_t primary = config_.num_frames[0];
  const float ceiling = static_cast<float>(MaxUtteranceLength() + primary);
  const int32_t num_sizes = static_cast<int32_t>(config_.num_frames.size());
  std::set<std::vector<int32_t>> all;
  // i, j: at most two alternatives (0 means none); then primaries.
  for (int32_t i = 0; i < num_sizes; i++) {
    for (int32_t j = 0; j < num_sizes; j++) {
      std::vector<int32_t> split;
      if (i > 0) split.push_back(config_.num_frames[i]);
      if (j > 0) split.push_back(config_.num_frames[j]);
      std::sort(split.begin(), split.end());
      while (DefaultDurationOfSplit(split) <= ceiling) {
        if (!split.empty()) all.insert(split);
        split.push_back(primary);
        std::sort(split.begin(), split.end());
      }
    }
  }
  splits->assign(all.begin(), all.end());  // sorted, as Kaldi sorts them
}

void UtteranceSplitter::InitSplitForLength() {
  const int32_t max_length = MaxUtteranceLength();
  std::vector<std::vector<int32_t>> splits;
  InitSplits(&splits);
  const float kInfinity = std::numeric_limits<float>::max();
  splits_for_length_.assign(max_length + 1, {});
  std::vector<float> costs(splits.size());
  for (int32_t u = 0; u <= max_length; u++) {
    for (size_t s = 0; s < splits.size(); s++) {
      const float duration = DefaultDurationOfSplit(splits[s]);
      // Gaps (frames thrown away) cost twice as much as overlaps.
      float c = duration > static_cast<float>(u)
                    ? duration - static_cast<float>(u)
                    : 2.0f * (static_cast<float>(u) - duration);
      if (u < *std::max_element(splits[s].begin(), splits[s].end()))
        c = kInfinity;
      costs[s] = c;
    }
    const float min_cost = *std::min_element(costs.begin(), costs.end());
    if (min_cost == kInfinity) continue;  // shorter than every size
    // Just under 2, so that ties behave deterministically.
    const float kThreshold = 1.9999f;
    for (size_t s = 0; s < splits.size(); s++)
      if (costs[s] < min_cost + kThreshold)
        splits_for_length_[u].push_back(splits[s]);
  }
  if (VerboseLevel() >= 3) {
    std::ostringstream os;
    for (int32_t u = 0; u <= max_length; u++) {
      if (splits_for_length_[u].empty()) continue;
      os << u << "=(";
      for (size_t s = 0; s < splits_for_length_[u].size(); s++) {
        os << (s ? "/" : "");
        for (size_t k = 0; k < splits_for_length_[u][s].size(); k++)
          os << (k ? "," : "") << splits_for_length_[u][s][k];
      }
      os << ")" << (u < max_length ? ", " : "");
    }
    NNET3_VLOG(3) << "Utterance-length-to-splits map is: " << os.str();
  }
}

const std::vector<std::vector<int32_t>> &UtteranceSplitter::SplitsForLength(
    int32_t u) const {
  NNET3_ASSERT(u >= 0 && u <= MaxTabulatedLength());
  return splits_for_length_[u];
}

bool UtteranceSplitter::LengthsMatch(const std::string &utt,
                                     int32_t utterance_length,
                                     int32_t supervision_length,
                                     int32_t length_tolerance) const {
  const int32_t f = config_.frame_subsampling_factor;
  const int32_t expected = (utterance_length + f - 1) / f;
  if (std::abs(supervision_length - expected) <= length_tolerance) return true;
  if (f == 1)
    NNET3_WARN << "Supervision does not have expected length for utterance "
               << utt << ": expected length = " << utterance_length << ", got "
               << supervision_length;
  else
    NNET3_WARN << "Supervision does not have expected length for utterance "
               << utt << ": expected length = (" << utterance_length << " + "
               << f << " - 1) / " << f << " = " << expected
               << ", got: " << supervision_length
               << " (note: --frame-subsampling-factor=" << f << ")";
  return false;
}

void UtteranceSplitter::GetChunkSizesForUtterance(
    int32_t utterance_length, RandomState *rng,
    std::vector<int32_t> *chunk_sizes) const {
  const int32_t primary = config_.num_frames[0],
                step = primary - config_.num_frames_overlap;
  NNET3_ASSERT(step > 0 && utterance_length >= 0);
  int32_t num_repeats = 0;
  while (utterance_length > MaxTabulatedLength()) {
    utterance_length -= step;
    num_repeats++;
  }
  const std::vector<std::vector<int32_t>> &candidates =
      splits_for_length_[utterance_length];
  chunk_sizes->clear();
  if (candidates.empty()) return;
  const int32_t n = static_cast<int32_t>(candidates.size());
  // Kaldi's RandInt draws nothing when there is one choice.
  *chunk_sizes = candidates[n == 1 ? 0 : rng->Int(0, n - 1)];
  chunk_sizes->insert(chunk_sizes->end(), num_repeats, primary);
  std::sort(chunk_sizes->begin(), chunk_sizes->end());
  if (rng->Int(0, 1) == 0)
    std::reverse(chunk_sizes->begin(), chunk_sizes->end());
}

void UtteranceSplitter::DistributeProportionally(
    int32_t n, const std::vector<int32_t> &magnitudes,
    std::vector<int32_t> *vec) {
  NNET3_ASSERT(!magnitudes.empty() && vec->size() == magnitudes.size());
  if (n < 0) {
    DistributeProportionally(-n, magnitudes, vec);
    for (int32_t &v : *vec) v = -v;
    return;
  }
  const float total = static_cast<float>(
      std::accumulate(magnitudes.begin(), magnitudes.end(), int32_t(0)));
  NNET3_ASSERT(total > 0.0f);
  int32_t total_count = 0;
  for (size_t i = 0; i < vec->size(); i++) {
    // Kaldi keeps the fractional parts in an int32, i.e. as zeros, so its
    // sort by fractional part leaves the order unchanged: the frames left
    // over go one each to the first elements.
    const float share = n * static_cast<float>(magnitudes[i]) / total;
    (*vec)[i] = static_cast<int32_t>(share);
    total_count += (*vec)[i];
  }
  NNET3_ASSERT(total_count <= n &&
               total_count + static_cast<int32_t>(vec->size()) >= n);
  for (size_t i = 0; total_count < n; i++, total_count++) (*vec)[i]++;
}

void UtteranceSplitter::DistributeUniformly(int32_t n, RandomState *rng,
                                            std::vector<int32_t> *vec) {
  NNET3_ASSERT(!vec->empty());
  if (n < 0) {
    DistributeUniformly(-n, rng, vec);
    for (int32_t &v : *vec) v = -v;
    return;
  }
  const int32_t size = static_cast<int32_t>(vec->size());
  const int32_t common = n / size, remainder = n % size;
  for (int32_t i = 0; i < size; i++)
    (*vec)[i] = common + (i < remainder ? 1 : 0);
  if (remainder == 0) return;  // all equal: nothing to shuffle
  // Kaldi shuffles with a generator seeded from std::random_device, so its
  // choice here is not repeatable; ours comes from rng's own engine, which
  // leaves rng's Kaldi draws (the C library's rand()) to the other choices.
  std::shuffle(vec->begin(), vec->end(), rng->engine());
}

void UtteranceSplitter::GetGapSizes(int32_t utterance_length, RandomState *rng,
                                    const std::vector<int32_t> &chunk_sizes,
                                    std::vector<int32_t> *gap_sizes) const {
  gap_sizes->clear();
  if (chunk_sizes.empty()) return;
  // Work in output frames, so that every gap is a multiple of f.
  const int32_t f = config_.frame_subsampling_factor;
  const int32_t num_chunks = static_cast<int32_t>(chunk_sizes.size());
  const int32_t length = (utterance_length + f - 1) / f;
  std::vector<int32_t> sizes(chunk_sizes);
  for (int32_t &s : sizes) {
    NNET3_ASSERT(s % f == 0);
    s /= f;
  }
  const int32_t total_gap =
      length - std::accumulate(sizes.begin(), sizes.end(), int32_t(0));
  gap_sizes->assign(num_chunks, 0);
  if (total_gap < 0) {
    // Overlaps go only between chunks, in proportion to the smaller chunk
    // of each pair.
    if (num_chunks == 1)
      NNET3_INTERNAL_ERR << "Chunk size is " << chunk_sizes[0]
                         << " but utterance length is only "
                         << utterance_length;
    std::vector<int32_t> magnitudes(num_chunks - 1), overlaps(num_chunks - 1);
    for (int32_t i = 0; i + 1 < num_chunks; i++)
      magnitudes[i] = std::min(sizes[i], sizes[i + 1]);
    DistributeProportionally(total_gap, magnitudes, &overlaps);
    for (int32_t i = 1; i < num_chunks; i++) (*gap_sizes)[i] = overlaps[i - 1];
  } else {
    // Gaps may go before, between and after the chunks; the one after the
    // last chunk is implicit.
    std::vector<int32_t> gaps(num_chunks + 1);
    DistributeUniformly(total_gap, rng, &gaps);
    for (int32_t i = 0; i < num_chunks; i++) (*gap_sizes)[i] = gaps[i];
  }
  for (int32_t &g : *gap_sizes) g *= f;
}

void UtteranceSplitter::GetChunksForUtterance(
    int32_t utterance_length, RandomState *rng,
    std::vector<ChunkTimeInfo> *chunks) {
  chunks->clear();
  const int32_t lc_initial = config_.left_context_initial >= 0
                                 ? config_.left_context_initial
                                 : config_.left_context,
                rc_final = config_.right_context_final >= 0
                               ? config_.right_context_final
                               : config_.right_context;
  int32_t t = 0;
  if (splits_for_length_.empty()) {  // --num-frames=-1
    ChunkTimeInfo info;
    info.num_frames = utterance_length;
    info.left_context = lc_initial;
    info.right_context = rc_final;
    chunks->push_back(info);
  } else {
    std::vector<int32_t> sizes, gaps;
    GetChunkSizesForUtterance(utterance_length, rng, &sizes);
    GetGapSizes(utterance_length, rng, sizes, &gaps);
    const size_t num_chunks = sizes.size();
    for (size_t i = 0; i < num_chunks; i++) {
      t += gaps[i];
      ChunkTimeInfo info;
      info.first_frame = t;
      info.num_frames = sizes[i];
      info.left_context = i == 0 ? lc_initial : config_.left_context;
      info.right_context =
          i + 1 == num_chunks ? rc_final : config_.right_context;
      chunks->push_back(info);
      t += sizes[i];
    }
    // Up to f - 1 frames past the end are rounding.
    NNET3_ASSERT(t - utterance_length < config_.frame_subsampling_factor);
  }
  SetOutputWeights(utterance_length, chunks);
  AccStatsForUtterance(utterance_length, *chunks);
}

void UtteranceSplitter::SetOutputWeights(
    int32_t utterance_length, std::vector<ChunkTimeInfo> *chunks) const {
  const int32_t f = config_.frame_subsampling_factor;
  std::vector<int32_t> count((utterance_length + f - 1) / f, 0);
  for (const ChunkTimeInfo &c : *chunks)
    for (int32_t t = c.first_frame / f; t < (c.first_frame + c.num_frames) / f;
         t++)
      count[t]++;
  for (ChunkTimeInfo &c : *chunks) {
    c.output_weights.assign(c.num_frames / f, 0.0f);
    const int32_t start = c.first_frame / f;
    for (size_t i = 0; i < c.output_weights.size(); i++)
      c.output_weights[i] = 1.0f / count[start + i];
  }
}

void UtteranceSplitter::AccStatsForUtterance(
    int32_t utterance_length, const std::vector<ChunkTimeInfo> &chunks) {
  total_num_utterances_++;
  total_input_frames_ += utterance_length;
  for (size_t c = 0; c < chunks.size(); c++) {
    if (c > 0) {
      const int32_t last_end =
          chunks[c - 1].first_frame + chunks[c - 1].num_frames;
      if (last_end > chunks[c].first_frame)
        total_frames_overlap_ += last_end - chunks[c].first_frame;
    }
    chunk_size_to_count_[chunks[c].num_frames]++;
    total_num_chunks_++;
    total_frames_in_chunks_ += chunks[c].num_frames;
  }
}

void UtteranceSplitter::LogStats() const {
  NNET3_LOG << "Split " << total_num_utterances_ << " utts, with "
            << "total length " << total_input_frames_ << " frames ("
            << total_input_frames_ / 360000.0 << " hours assuming "
            << "100 frames per second) into " << total_num_chunks_
            << " chunks.";
  if (total_num_chunks_ == 0) return;  // Kaldi would print nan averages
  // Kaldi's figures are floats, printed with the default precision.
  const float average_chunk_length =
                  total_frames_in_chunks_ * 1.0 / total_num_chunks_,
              overlap_percent =
                  total_frames_overlap_ * 100.0 / total_input_frames_,
              output_percent =
                  total_frames_in_chunks_ * 100.0 / total_input_frames_,
              output_percent_no_overlap = output_percent - overlap_percent;
  NNET3_LOG << "Average chunk length was " << average_chunk_length
            << " frames; overlap between adjacent chunks was "
            << overlap_percent << "% of input length; length of output was "
            << output_percent << "% of input length (minus overlap = "
            << output_percent_no_overlap << "%).";
  if (chunk_size_to_count_.size() <= 1) return;
  std::ostringstream os;
  os << std::setprecision(4);
  for (auto it = chunk_size_to_count_.begin(); it != chunk_size_to_count_.end();
       ++it) {
    const float percent = static_cast<float>(it->first * it->second * 100.0 /
                                             total_frames_in_chunks_);
    os << (it == chunk_size_to_count_.begin() ? "" : ", ") << it->first << " = "
       << percent << "%";
  }
  NNET3_LOG << "Output frames are distributed among chunk-sizes as follows: "
            << os.str();
}

}  // namespace nnet3
