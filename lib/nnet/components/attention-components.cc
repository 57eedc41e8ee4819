#include "nnet/components/attention-components.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>

#include "base/error.h"
#include "base/io-funcs.h"
#include "matrix/matrix-io.h"
#include "nnet/attention.h"
#include "nnet/component-config.h"
#include "nnet/component-registry.h"
#include "nnet/components/nonlinear-common.h"

namespace nnet3 {

std::unique_ptr<Component> NewAttentionComponentOfType(
    const std::string &type) {
  if (type == "RestrictedAttentionComponent")
    return std::make_unique<RestrictedAttentionComponent>();
  return nullptr;
}

std::vector<std::string> AttentionComponentTypes() {
  return {"RestrictedAttentionComponent"};
}

// ---------------------------------------------------------------------------
// AttentionComputationIo and the precomputed indexes

void AttentionComputationIo::Write(std::ostream &os, bool binary) const {
  WriteToken(os, binary, "<ConvCompIo>");
  for (int32_t v : {num_images, start_t_in, t_step_in, num_t_in, start_t_out,
                    t_step_out, num_t_out, reorder_t_in})
    WriteBasicType(os, binary, v);
  WriteToken(os, binary, "</ConvCompIo>");
}

void AttentionComputationIo::Read(std::istream &is, bool binary) {
  ExpectToken(is, binary, "<ConvCompIo>");
  for (int32_t *v : {&num_images, &start_t_in, &t_step_in, &num_t_in,
                     &start_t_out, &t_step_out, &num_t_out, &reorder_t_in})
    ReadBasicType(is, binary, v);
  ExpectToken(is, binary, "</ConvCompIo>");
  if (num_images <= 0 || num_t_in <= 0 || num_t_out <= 0 || t_step_in < 0 ||
      t_step_out < 0 || reorder_t_in != 1)
    NNET3_ERR << "Reading <ConvCompIo>: bad values (num-images " << num_images
              << ", num-t " << num_t_in << "/" << num_t_out << ", t-steps "
              << t_step_in << "/" << t_step_out << ", reorder-t-in "
              << reorder_t_in << ")";
}

std::unique_ptr<ComponentPrecomputedIndexes>
RestrictedAttentionComponentPrecomputedIndexes::Copy() const {
  return std::make_unique<RestrictedAttentionComponentPrecomputedIndexes>(
      *this);
}

void RestrictedAttentionComponentPrecomputedIndexes::Write(std::ostream &os,
                                                           bool binary) const {
  WriteToken(os, binary, "<RestrictedAttentionComponentPrecomputedIndexes>");
  WriteToken(os, binary, "<Io>");
  io.Write(os, binary);
  WriteToken(os, binary, "</RestrictedAttentionComponentPrecomputedIndexes>");
}

void RestrictedAttentionComponentPrecomputedIndexes::Read(std::istream &is,
                                                          bool binary) {
  ExpectOneOrTwoTokens(
      is, binary, "<RestrictedAttentionComponentPrecomputedIndexes>", "<Io>");
  io.Read(is, binary);
  ExpectToken(is, binary, "</RestrictedAttentionComponentPrecomputedIndexes>");
}

// ---------------------------------------------------------------------------
// Configuration and I/O

void RestrictedAttentionComponent::Check(const std::string &where) const {
  const std::string type = Type();
  auto fail = [&](const char *key, auto value, const char *why) {
    NNET3_ERR << type << ": invalid " << key << "=" << value << " (" << why
              << ") in " << where;
  };
  if (num_heads_ <= 0) fail("num-heads", num_heads_, "must be > 0");
  if (key_dim_ <= 0) fail("key-dim", key_dim_, "must be > 0");
  if (value_dim_ <= 0) fail("value-dim", value_dim_, "must be > 0");
  if (num_left_inputs_ < 0)
    fail("num-left-inputs", num_left_inputs_, "must be >= 0");
  if (num_right_inputs_ < 0)
    fail("num-right-inputs", num_right_inputs_, "must be >= 0");
  if (num_left_inputs_ + num_right_inputs_ <= 0)
    fail("num-right-inputs", num_right_inputs_,
         "num-left-inputs + num-right-inputs must be > 0");
  if (time_stride_ <= 0) fail("time-stride", time_stride_, "must be > 0");
  if (num_left_inputs_required_ < 0 ||
      num_left_inputs_required_ > num_left_inputs_)
    fail("num-left-inputs-required", num_left_inputs_required_,
         "must be in [0, num-left-inputs]");
  if (num_right_inputs_required_ < 0 ||
      num_right_inputs_required_ > num_right_inputs_)
    fail("num-right-inputs-required", num_right_inputs_required_,
         "must be in [0, num-right-inputs]");
  if (!(key_scale_ > 0.0f && key_scale_ <= 1.0f))
    fail("key-scale", key_scale_, "must be in (0, 1]");
  if (!(stats_count_ >= 0.0)) fail("stats-count", stats_count_, "must be >= 0");
}

void RestrictedAttentionComponent::InitFromConfig(ConfigLine *cfl) {
  const std::string type = Type();
  GetRequiredKey(type, "key-dim", cfl, &key_dim_);
  GetRequiredKey(type, "value-dim", cfl, &value_dim_);
  GetRequiredKey(type, "num-left-inputs", cfl, &num_left_inputs_);
  GetRequiredKey(type, "num-right-inputs", cfl, &num_right_inputs_);
  num_heads_ = 1;
  cfl->GetValue("num-heads", &num_heads_);
  time_stride_ = 1;
  cfl->GetValue("time-stride", &time_stride_);
  // Negative values (the defaults) mean "all of the window".
  num_left_inputs_required_ = -1;
  cfl->GetValue("num-left-inputs-required", &num_left_inputs_required_);
  if (num_left_inputs_required_ < 0)
    num_left_inputs_required_ = num_left_inputs_;
  num_right_inputs_required_ = -1;
  cfl->GetValue("num-right-inputs-required", &num_right_inputs_required_);
  if (num_right_inputs_required_ < 0)
    num_right_inputs_required_ = num_right_inputs_;
  output_context_ = true;
  cfl->GetValue("output-context", &output_context_);
  key_scale_ = -1.0f;
  cfl->GetValue("key-scale", &key_scale_);
  if (key_scale_ < 0.0f && key_dim_ > 0)
    key_scale_ = 1.0f / std::sqrt(static_cast<float>(key_dim_));
  context_dim_ = num_left_inputs_ + 1 + num_right_inputs_;
  stats_count_ = 0.0;
  entropy_stats_.clear();
  posterior_stats_.clear();
  Check("'" + cfl->WholeLine() + "'");
}

std::unique_ptr<Component> RestrictedAttentionComponent::Copy() const {
  return std::make_unique<RestrictedAttentionComponent>(*this);
}

void RestrictedAttentionComponent::Write(std::ostream &os, bool binary) const {
  WriteToken(os, binary, "<RestrictedAttentionComponent>");
  const std::pair<const char *, int32_t> ints[] = {
      {"<NumHeads>", num_heads_},
      {"<KeyDim>", key_dim_},
      {"<ValueDim>", value_dim_},
      {"<NumLeftInputs>", num_left_inputs_},
      {"<NumRightInputs>", num_right_inputs_},
      {"<TimeStride>", time_stride_},
      {"<NumLeftInputsRequired>", num_left_inputs_required_},
      {"<NumRightInputsRequired>", num_right_inputs_required_}};
  for (const auto &p : ints) {
    WriteToken(os, binary, p.first);
    WriteBasicType(os, binary, p.second);
  }
  WriteToken(os, binary, "<OutputContext>");
  WriteBasicType(os, binary, output_context_);
  WriteToken(os, binary, "<KeyScale>");
  WriteBasicType(os, binary, key_scale_);
  WriteToken(os, binary, "<StatsCount>");
  WriteBasicType(os, binary, stats_count_);
  WriteToken(os, binary, "<EntropyStats>");
  matrix_io::WriteDoubleVector(os, binary, entropy_stats_);
  WriteToken(os, binary, "<PosteriorStats>");
  const int32_t rows = posterior_stats_.empty() ? 0 : num_heads_;
  matrix_io::WriteDoubleMatrix(os, binary, posterior_stats_, rows,
                               rows == 0 ? 0 : context_dim_);
  WriteToken(os, binary, "</RestrictedAttentionComponent>");
}

void RestrictedAttentionComponent::Read(std::istream &is, bool binary) {
  ExpectOneOrTwoTokens(is, binary, "<RestrictedAttentionComponent>",
                       "<NumHeads>");
  ReadBasicType(is, binary, &num_heads_);
  const std::pair<const char *, int32_t *> ints[] = {
      {"<KeyDim>", &key_dim_},
      {"<ValueDim>", &value_dim_},
      {"<NumLeftInputs>", &num_left_inputs_},
      {"<NumRightInputs>", &num_right_inputs_},
      {"<TimeStride>", &time_stride_},
      {"<NumLeftInputsRequired>", &num_left_inputs_required_},
      {"<NumRightInputsRequired>", &num_right_inputs_required_}};
  for (const auto &p : ints) {
    ExpectToken(is, binary, p.first);
    ReadBasicType(is, binary, p.second);
  }
  ExpectToken(is, binary, "<OutputContext>");
  ReadBasicType(is, binary, &output_context_);
  ExpectToken(is, binary, "<KeyScale>");
  ReadBasicType(is, binary, &key_scale_);
  ExpectToken(is, binary, "<StatsCount>");
  ReadBasicType(is, binary, &stats_count_);
  ExpectToken(is, binary, "<EntropyStats>");
  matrix_io::ReadDoubleVector(is, binary, &entropy_stats_);
  ExpectToken(is, binary, "<PosteriorStats>");
  int32_t rows = 0, cols = 0;
  matrix_io::ReadDoubleMatrix(is, binary, &posterior_stats_, &rows, &cols);
  ExpectToken(is, binary, "</RestrictedAttentionComponent>");
  context_dim_ = num_left_inputs_ + 1 + num_right_inputs_;
  Check("a <RestrictedAttentionComponent> in a model file");
  const bool empty = entropy_stats_.empty() && posterior_stats_.empty();
  if (!empty && (static_cast<int32_t>(entropy_stats_.size()) != num_heads_ ||
                 rows != num_heads_ || cols != context_dim_))
    NNET3_ERR << "Reading <RestrictedAttentionComponent>: stats of dims "
              << entropy_stats_.size() << " and " << rows << " x " << cols
              << " do not match " << num_heads_ << " heads and context dim "
              << context_dim_;
}

std::string RestrictedAttentionComponent::Info() const {
  std::ostringstream os;
  os << Type() << ", input-dim=" << InputDim() << ", output-dim=" << OutputDim()
     << ", num-heads=" << num_heads_ << ", time-stride=" << time_stride_
     << ", key-dim=" << key_dim_ << ", value-dim=" << value_dim_
     << ", num-left-inputs=" << num_left_inputs_
     << ", num-right-inputs=" << num_right_inputs_
     << ", context-dim=" << context_dim_
     << ", num-left-inputs-required=" << num_left_inputs_required_
     << ", num-right-inputs-required=" << num_right_inputs_required_
     << ", output-context=" << (output_context_ ? "true" : "false")
     << ", key-scale=" << key_scale_;
  if (stats_count_ != 0.0 && !entropy_stats_.empty()) {
    os << ", entropy=";
    for (double e : entropy_stats_) os << e / stats_count_ << ',';
    for (int32_t h = 0; h < num_heads_ && h < 5; h++) {
      os << " posterior-stats[" << h << "]=";
      for (int32_t j = 0; j < context_dim_; j++)
        os << posterior_stats_[h * context_dim_ + j] / stats_count_ << ',';
    }
    os << " stats-count=" << stats_count_;
  }
  return os.str();
}

// ---------------------------------------------------------------------------
// Propagate and Backprop

void RestrictedAttentionComponent::CheckIo(const AttentionComputationIo &io,
                                           int32_t in_rows,
                                           int32_t out_rows) const {
  NNET3_ASSERT(in_rows == io.num_t_in * io.num_images &&
               out_rows == io.num_t_out * io.num_images &&
               io.t_step_in == io.t_step_out && io.t_step_in > 0 &&
               time_stride_ % io.t_step_in == 0 &&
               (io.start_t_out - io.start_t_in) % io.t_step_in == 0 &&
               io.start_t_out - io.start_t_in ==
                   time_stride_ * num_left_inputs_ &&
               io.num_t_in == io.num_t_out + (context_dim_ - 1) *
                                                 (time_stride_ / io.t_step_in));
}

void *RestrictedAttentionComponent::Propagate(
    const ComponentPrecomputedIndexes *indexes_in, const MatrixView &in,
    MatrixView *out) const {
  const auto *indexes =
      dynamic_cast<const RestrictedAttentionComponentPrecomputedIndexes *>(
          indexes_in);
  NNET3_ASSERT(indexes != nullptr && in.NumCols() == InputDim() &&
               out->NumCols() == OutputDim());
  const AttentionComputationIo &io = indexes->io;
  CheckIo(io, in.NumRows(), out->NumRows());
  auto *c = new Matrix(out->NumRows(), num_heads_ * context_dim_,
                       ResizeType::kSetZero, MatrixStrideType::kDefaultStride,
                       in.device());
  const int32_t in_per_head = 2 * key_dim_ + value_dim_ + context_dim_,
                out_per_head =
                    value_dim_ + (output_context_ ? context_dim_ : 0);
  // The queries belong to the output frames, which start this many rows
  // into the input.
  const int32_t query_row =
      (io.start_t_out - io.start_t_in) / io.t_step_in * io.num_images;
  for (int32_t h = 0; h < num_heads_; h++) {
    const MatrixView in_h = in.ColRange(h * in_per_head, in_per_head);
    MatrixView c_h = c->ColRange(h * context_dim_, context_dim_);
    MatrixView out_h = out->ColRange(h * out_per_head, out_per_head);
    attention::AttentionForward(
        key_scale_, in_h.ColRange(0, key_dim_),
        in_h.Range(query_row, out->NumRows(), key_dim_ + value_dim_,
                   key_dim_ + context_dim_),
        in_h.ColRange(key_dim_, value_dim_), &c_h, &out_h);
  }
  return c;
}

void RestrictedAttentionComponent::Backprop(
    const std::string &, const ComponentPrecomputedIndexes *indexes_in,
    const MatrixView &in_value, const MatrixView &, const MatrixView &out_deriv,
    void *memo, Component *, MatrixView *in_deriv) const {
  if (in_deriv == nullptr) return;
  const auto *indexes =
      dynamic_cast<const RestrictedAttentionComponentPrecomputedIndexes *>(
          indexes_in);
  NNET3_ASSERT(indexes != nullptr && memo != nullptr &&
               in_value.SameShape(*in_deriv));
  const AttentionComputationIo &io = indexes->io;
  CheckIo(io, in_value.NumRows(), out_deriv.NumRows());
  const Matrix &c = *static_cast<const Matrix *>(memo);
  const int32_t in_per_head = 2 * key_dim_ + value_dim_ + context_dim_,
                out_per_head =
                    value_dim_ + (output_context_ ? context_dim_ : 0),
                rows = out_deriv.NumRows();
  const int32_t query_row =
      (io.start_t_out - io.start_t_in) / io.t_step_in * io.num_images;
  for (int32_t h = 0; h < num_heads_; h++) {
    const MatrixView in_h = in_value.ColRange(h * in_per_head, in_per_head);
    MatrixView d_h = in_deriv->ColRange(h * in_per_head, in_per_head);
    MatrixView keys_deriv = d_h.ColRange(0, key_dim_),
               values_deriv = d_h.ColRange(key_dim_, value_dim_),
               queries_deriv = d_h.Range(query_row, rows, key_dim_ + value_dim_,
                                         key_dim_ + context_dim_);
    attention::AttentionBackward(
        key_scale_, in_h.ColRange(0, key_dim_),
        in_h.Range(query_row, rows, key_dim_ + value_dim_,
                   key_dim_ + context_dim_),
        in_h.ColRange(key_dim_, value_dim_),
        c.ColRange(h * context_dim_, context_dim_),
        out_deriv.ColRange(h * out_per_head, out_per_head), &keys_deriv,
        &queries_deriv, &values_deriv);
  }
}

void RestrictedAttentionComponent::DeleteMemo(void *memo) const {
  delete static_cast<Matrix *>(memo);
}

// ---------------------------------------------------------------------------
// Statistics of the attention weights

void RestrictedAttentionComponent::StoreStats(const MatrixView &,
                                              const MatrixView &, void *memo) {
  NNET3_ASSERT(memo != nullptr);
  const Matrix &c = *static_cast<const Matrix *>(memo);
  const int32_t dim = num_heads_ * context_dim_;
  NNET3_ASSERT(c.NumCols() == dim);
  if (static_cast<int32_t>(entropy_stats_.size()) != num_heads_) {
    entropy_stats_.assign(num_heads_, 0.0);
    posterior_stats_.assign(dim, 0.0);
    stats_count_ = 0.0;
  }
  // Kaldi stores them on about two minibatches in three (its RandInt(0, 2)
  // == 0 skips), even the first.
  if (stats_rng_.OneIn(3)) return;
  // Column sums of c, and of -c log c (c floored at 1e-20 inside the log);
  // only these dim numbers come to the host.
  Vector c_sum(dim, ResizeType::kSetZero, c.device());
  c_sum.AddRowSumMat(1.0f, c, 0.0f);
  Matrix log_c(c);
  log_c.ApplyFloor(1.0e-20f);
  log_c.ApplyFunc(Func::kLog);
  Vector neg_entropy(dim, ResizeType::kSetZero, c.device());
  AddColDotProducts(1.0f, c, log_c, 0.0f, &neg_entropy);
  const std::vector<float> sums = c_sum.ToHost(), ent = neg_entropy.ToHost();
  for (int32_t i = 0; i < dim; i++) {
    posterior_stats_[i] += sums[i];
    entropy_stats_[i / context_dim_] -= ent[i];
  }
  stats_count_ += c.NumRows();
}

void RestrictedAttentionComponent::ZeroStats() {
  std::fill(entropy_stats_.begin(), entropy_stats_.end(), 0.0);
  std::fill(posterior_stats_.begin(), posterior_stats_.end(), 0.0);
  stats_count_ = 0.0;
}

void RestrictedAttentionComponent::Scale(float scale) {
  for (double &v : entropy_stats_) v *= scale;
  for (double &v : posterior_stats_) v *= scale;
  stats_count_ *= scale;
}

void RestrictedAttentionComponent::Add(float alpha, const Component &other_in) {
  const auto *other =
      dynamic_cast<const RestrictedAttentionComponent *>(&other_in);
  NNET3_ASSERT(other != nullptr);
  if (entropy_stats_.empty() && !other->entropy_stats_.empty()) {
    entropy_stats_.assign(other->entropy_stats_.size(), 0.0);
    posterior_stats_.assign(other->posterior_stats_.size(), 0.0);
  }
  if (!other->entropy_stats_.empty()) {
    NNET3_ASSERT(other->entropy_stats_.size() == entropy_stats_.size() &&
                 other->posterior_stats_.size() == posterior_stats_.size());
    for (size_t i = 0; i < entropy_stats_.size(); i++)
      entropy_stats_[i] += alpha * other->entropy_stats_[i];
    for (size_t i = 0; i < posterior_stats_.size(); i++)
      posterior_stats_[i] += alpha * other->posterior_stats_[i];
  }
  stats_count_ += alpha * other->stats_count_;
}

// ---------------------------------------------------------------------------
// Indexes

void RestrictedAttentionComponent::GetInputIndexes(
    const MiscComputationInfo &, const Index &output_index,
    std::vector<Index> *desired_indexes) const {
  NNET3_ASSERT(output_index.t != kNoTime);
  desired_indexes->clear();
  Index index = output_index;
  for (int32_t k = -num_left_inputs_; k <= num_right_inputs_; k++) {
    index.t = output_index.t + k * time_stride_;
    desired_indexes->push_back(index);
  }
}

bool RestrictedAttentionComponent::IsComputable(
    const MiscComputationInfo &, const Index &output_index,
    const IndexSet &input_index_set, std::vector<Index> *used_inputs) const {
  NNET3_ASSERT(output_index.t != kNoTime);
  if (used_inputs != nullptr) used_inputs->clear();
  Index index = output_index;
  for (int32_t k = -num_left_inputs_; k <= num_right_inputs_; k++) {
    index.t = output_index.t + k * time_stride_;
    const bool required =
        k >= -num_left_inputs_required_ && k <= num_right_inputs_required_;
    if (!required && used_inputs == nullptr) continue;
    if (input_index_set(index)) {
      if (used_inputs != nullptr) used_inputs->push_back(index);
    } else if (required) {
      if (used_inputs != nullptr) used_inputs->clear();
      return false;
    }
  }
  return true;
}

namespace {

// The sorted distinct (n, x) pairs of `indexes`.
std::vector<std::pair<int32_t, int32_t>> NxList(
    const std::vector<Index> &indexes) {
  std::vector<std::pair<int32_t, int32_t>> pairs;
  pairs.reserve(indexes.size());
  for (const Index &index : indexes) pairs.emplace_back(index.n, index.x);
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  return pairs;
}

// The smallest regular grid (start, step, num) holding the non-blank t
// values; step 0 for a single value.
void RegularTList(const std::vector<Index> &indexes, int32_t *start,
                  int32_t *step, int32_t *num) {
  std::vector<int32_t> t;
  for (const Index &index : indexes)
    if (index.t != kNoTime) t.push_back(index.t);
  std::sort(t.begin(), t.end());
  t.erase(std::unique(t.begin(), t.end()), t.end());
  NNET3_ASSERT(!t.empty());
  *start = t.front();
  *step = 0;
  for (size_t i = 1; i < t.size(); i++)
    *step = std::gcd(*step, t[i] - t[i - 1]);
  *num = *step == 0 ? 1 : 1 + (t.back() - t.front()) / *step;
}

// Grid Indexes, t slowest, blank (t = kNoTime) where not in `present`.
std::vector<Index> GridIndexes(
    const std::vector<std::pair<int32_t, int32_t>> &nx, int32_t t_start,
    int32_t t_step, int32_t num_t,
    const std::unordered_set<Index, IndexHasher> &present) {
  std::vector<Index> ans;
  ans.reserve(static_cast<size_t>(num_t) * nx.size());
  for (int32_t i = 0; i < num_t; i++)
    for (const auto &p : nx) {
      Index index(p.first, t_start + i * t_step, p.second);
      if (present.count(index) == 0) index.t = kNoTime;
      ans.push_back(index);
    }
  return ans;
}

}  // namespace

void RestrictedAttentionComponent::GetComputationStructure(
    const std::vector<Index> &input_indexes,
    const std::vector<Index> &output_indexes,
    AttentionComputationIo *io) const {
  io->num_images = static_cast<int32_t>(NxList(input_indexes).size());
  NNET3_ASSERT(io->num_images > 0);
  io->reorder_t_in = 1;
  RegularTList(input_indexes, &io->start_t_in, &io->t_step_in, &io->num_t_in);
  RegularTList(output_indexes, &io->start_t_out, &io->t_step_out,
               &io->num_t_out);
  // A single t: let the step be the time stride.
  if (io->t_step_out == 0) io->t_step_out = time_stride_;
  if (io->t_step_in == 0) io->t_step_in = time_stride_;
  // One grid step for input and output that divides the stride (finer
  // grids keep their start and end).
  const int32_t step =
      std::gcd(std::gcd(io->t_step_out, io->t_step_in), time_stride_);
  io->num_t_out = 1 + (io->t_step_out / step) * (io->num_t_out - 1);
  io->num_t_in = 1 + (io->t_step_in / step) * (io->num_t_in - 1);
  io->t_step_in = io->t_step_out = step;
  // The input must cover the required window of every output and may not
  // go beyond the requested one; it is padded to the requested one.
  const int32_t last_t_out = io->start_t_out + (io->num_t_out - 1) * step,
                last_t_in = io->start_t_in + (io->num_t_in - 1) * step,
                first_requested =
                    io->start_t_out - time_stride_ * num_left_inputs_,
                last_requested = last_t_out + time_stride_ * num_right_inputs_;
  NNET3_ASSERT(
      io->start_t_in >= first_requested && last_t_in <= last_requested &&
      io->start_t_in <=
          io->start_t_out - time_stride_ * num_left_inputs_required_ &&
      last_t_in >= last_t_out + time_stride_ * num_right_inputs_required_);
  io->start_t_in = first_requested;
  io->num_t_in = 1 + (last_requested - first_requested) / step;
}

void RestrictedAttentionComponent::GetIndexes(
    const std::vector<Index> &input_indexes,
    const std::vector<Index> &output_indexes, const AttentionComputationIo &io,
    std::vector<Index> *new_input_indexes,
    std::vector<Index> *new_output_indexes) const {
  const std::unordered_set<Index, IndexHasher> in_set(input_indexes.begin(),
                                                      input_indexes.end()),
      out_set(output_indexes.begin(), output_indexes.end());
  const auto nx = NxList(input_indexes);  // the same (n, x) at the output
  NNET3_ASSERT(static_cast<int32_t>(nx.size()) == io.num_images);
  *new_input_indexes =
      GridIndexes(nx, io.start_t_in, io.t_step_in, io.num_t_in, in_set);
  *new_output_indexes =
      GridIndexes(nx, io.start_t_out, io.t_step_out, io.num_t_out, out_set);
}

void RestrictedAttentionComponent::ReorderIndexes(
    std::vector<Index> *input_indexes,
    std::vector<Index> *output_indexes) const {
  AttentionComputationIo io;
  GetComputationStructure(*input_indexes, *output_indexes, &io);
  std::vector<Index> new_input, new_output;
  GetIndexes(*input_indexes, *output_indexes, io, &new_input, &new_output);
  input_indexes->swap(new_input);
  output_indexes->swap(new_output);
}

std::unique_ptr<ComponentPrecomputedIndexes>
RestrictedAttentionComponent::PrecomputeIndexes(
    const MiscComputationInfo &, const std::vector<Index> &input_indexes,
    const std::vector<Index> &output_indexes, bool) const {
  auto ans = std::make_unique<RestrictedAttentionComponentPrecomputedIndexes>();
  // The Indexes have been through ReorderIndexes, whose grid this
  // reproduces from their non-blank members.
  GetComputationStructure(input_indexes, output_indexes, &ans->io);
  CheckIo(ans->io, static_cast<int32_t>(input_indexes.size()),
          static_cast<int32_t>(output_indexes.size()));
  return ans;
}

}  // namespace nnet3
