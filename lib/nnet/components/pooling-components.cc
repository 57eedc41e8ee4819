#include "nnet/components/pooling-components.h"

#include <algorithm>
#include <sstream>
#include <unordered_map>

#include "base/error.h"
#include "base/io-funcs.h"
#include "nnet/component-config.h"
#include "nnet/component-registry.h"
#include "nnet/convolution-computation.h"
#include "nnet/convolution-io.h"

namespace nnet3 {

std::unique_ptr<Component> NewPoolingComponentOfType(const std::string &type) {
  if (type == "StatisticsExtractionComponent")
    return std::make_unique<StatisticsExtractionComponent>();
  if (type == "StatisticsPoolingComponent")
    return std::make_unique<StatisticsPoolingComponent>();
  if (type == "MaxpoolingComponent")
    return std::make_unique<MaxpoolingComponent>();
  return nullptr;
}

std::vector<std::string> PoolingComponentTypes() {
  return {"StatisticsExtractionComponent", "StatisticsPoolingComponent",
          "MaxpoolingComponent"};
}

namespace {

// Every pair is an empty (-1, -1) or a non-empty range inside [0, limit).
void CheckRanges(const std::vector<std::pair<int32_t, int32_t>> &pairs,
                 int32_t limit, const char *what) {
  for (const auto &p : pairs)
    if (!((p.first == -1 && p.second == -1) ||
          (p.first >= 0 && p.second > p.first &&
           (limit < 0 || p.second <= limit))))
      NNET3_ERR << "Reading " << what << ": bad range (" << p.first << ","
                << p.second << ")";
}

// Ranges with (-1, -1) made empty (0, 0) for AddRowRanges.
std::vector<std::pair<int32_t, int32_t>> ForAddRowRanges(
    const std::vector<std::pair<int32_t, int32_t>> &pairs) {
  std::vector<std::pair<int32_t, int32_t>> ans(pairs);
  for (auto &p : ans)
    if (p.first < 0) p = {0, 0};
  return ans;
}

// Input rows by Index.
std::unordered_map<Index, int32_t, IndexHasher> RowsByIndex(
    const std::vector<Index> &indexes) {
  std::unordered_map<Index, int32_t, IndexHasher> map;
  for (size_t i = 0; i < indexes.size(); i++) map[indexes[i]] = int32_t(i);
  return map;
}

}  // namespace

// ---------------------------------------------------------------------------
// StatisticsExtractionComponentPrecomputedIndexes

std::unique_ptr<ComponentPrecomputedIndexes>
StatisticsExtractionComponentPrecomputedIndexes::Copy() const {
  auto ans =
      std::make_unique<StatisticsExtractionComponentPrecomputedIndexes>();
  ans->Set(forward_pairs, counts.ToHost(), backward_host);
  return ans;
}

void StatisticsExtractionComponentPrecomputedIndexes::Set(
    const std::vector<std::pair<int32_t, int32_t>> &forward,
    const std::vector<float> &counts_host,
    const std::vector<int32_t> &backward) {
  forward_pairs = forward;
  forward_indexes = IndexVector::FromRanges(ForAddRowRanges(forward));
  counts = Vector(counts_host);
  backward_host = backward;
  backward_indexes = IndexVector(backward);
}

void StatisticsExtractionComponentPrecomputedIndexes::Write(std::ostream &os,
                                                            bool binary) const {
  WriteToken(os, binary, "<StatisticsExtractionComponentPrecomputedIndexes>");
  WriteToken(os, binary, "<ForwardIndexes>");
  WriteIntegerPairVector(os, binary, forward_pairs);
  WriteToken(os, binary, "<Counts>");
  counts.Write(os, binary);
  WriteToken(os, binary, "<BackwardIndexes>");
  WriteIntegerVector(os, binary, backward_host);
  WriteToken(os, binary, "</StatisticsExtractionComponentPrecomputedIndexes>");
}

void StatisticsExtractionComponentPrecomputedIndexes::Read(std::istream &is,
                                                           bool binary) {
  const char *what = "<StatisticsExtractionComponentPrecomputedIndexes>";
  ExpectOneOrTwoTokens(is, binary, what, "<ForwardIndexes>");
  std::vector<std::pair<int32_t, int32_t>> forward;
  ReadIntegerPairVector(is, binary, &forward);
  ExpectToken(is, binary, "<Counts>");
  Vector c;
  c.Read(is, binary);
  ExpectToken(is, binary, "<BackwardIndexes>");
  std::vector<int32_t> backward;
  ReadIntegerVector(is, binary, &backward);
  ExpectToken(is, binary, "</StatisticsExtractionComponentPrecomputedIndexes>");
  CheckRanges(forward, -1, what);
  for (int32_t b : backward)
    if (b < -1 || b >= static_cast<int32_t>(forward.size()))
      NNET3_ERR << "Reading " << what << ": backward index " << b
                << " out of range";
  if (c.Dim() != static_cast<int32_t>(forward.size()))
    NNET3_ERR << "Reading " << what << ": " << c.Dim() << " counts for "
              << forward.size() << " outputs";
  Set(forward, c.ToHost(), backward);
}

// ---------------------------------------------------------------------------
// StatisticsExtractionComponent

void StatisticsExtractionComponent::InitFromConfig(ConfigLine *cfl) {
  const std::string type = Type();
  input_dim_ = GetPositiveInt(cfl, type, "input-dim");
  input_period_ = 1;
  output_period_ = 1;
  include_variance_ = true;
  cfl->GetValue("input-period", &input_period_);
  cfl->GetValue("output-period", &output_period_);
  cfl->GetValue("include-variance", &include_variance_);
  if (input_period_ <= 0)
    ThrowConfigError(
        *cfl, type,
        "input-period=" + std::to_string(input_period_) + " must be > 0");
  if (output_period_ <= 0 || output_period_ % input_period_ != 0)
    ThrowConfigError(*cfl, type,
                     "output-period=" + std::to_string(output_period_) +
                         " must be a positive multiple of input-period=" +
                         std::to_string(input_period_));
}

std::unique_ptr<Component> StatisticsExtractionComponent::Copy() const {
  return std::make_unique<StatisticsExtractionComponent>(*this);
}

void StatisticsExtractionComponent::Read(std::istream &is, bool binary) {
  ExpectOneOrTwoTokens(is, binary, "<StatisticsExtractionComponent>",
                       "<InputDim>");
  ReadBasicType(is, binary, &input_dim_);
  ExpectToken(is, binary, "<InputPeriod>");
  ReadBasicType(is, binary, &input_period_);
  ExpectToken(is, binary, "<OutputPeriod>");
  ReadBasicType(is, binary, &output_period_);
  ExpectToken(is, binary, "<IncludeVarinance>");  // sic, as Kaldi writes it
  ReadBasicType(is, binary, &include_variance_);
  ExpectToken(is, binary, "</StatisticsExtractionComponent>");
  if (input_dim_ <= 0 || input_period_ <= 0 || output_period_ <= 0 ||
      output_period_ % input_period_ != 0)
    NNET3_ERR << "Reading <StatisticsExtractionComponent>: bad <InputDim> "
              << input_dim_ << ", <InputPeriod> " << input_period_
              << " or <OutputPeriod> " << output_period_;
}

void StatisticsExtractionComponent::Write(std::ostream &os, bool binary) const {
  WriteToken(os, binary, "<StatisticsExtractionComponent>");
  WriteToken(os, binary, "<InputDim>");
  WriteBasicType(os, binary, input_dim_);
  WriteToken(os, binary, "<InputPeriod>");
  WriteBasicType(os, binary, input_period_);
  WriteToken(os, binary, "<OutputPeriod>");
  WriteBasicType(os, binary, output_period_);
  WriteToken(os, binary, "<IncludeVarinance>");
  WriteBasicType(os, binary, include_variance_);
  WriteToken(os, binary, "</StatisticsExtractionComponent>");
}

int32_t StatisticsExtractionComponent::PeriodStart(int32_t t) const {
  return output_period_ * DivideRoundingDown(t, output_period_);
}

void StatisticsExtractionComponent::GetInputIndexes(
    const MiscComputationInfo &, const Index &output_index,
    std::vector<Index> *desired_indexes) const {
  desired_indexes->clear();
  const int32_t start = PeriodStart(output_index.t);
  for (int32_t t = start; t < start + output_period_; t += input_period_)
    desired_indexes->push_back(Index(output_index.n, t, output_index.x));
}

bool StatisticsExtractionComponent::IsComputable(
    const MiscComputationInfo &misc_info, const Index &output_index,
    const IndexSet &input_index_set, std::vector<Index> *used_inputs) const {
  std::vector<Index> wanted;
  GetInputIndexes(misc_info, output_index, &wanted);
  if (used_inputs != nullptr) used_inputs->clear();
  bool ans = false;
  for (const Index &index : wanted) {
    if (!input_index_set(index)) continue;
    ans = true;
    if (used_inputs == nullptr) break;
    used_inputs->push_back(index);
  }
  return ans;
}

void StatisticsExtractionComponent::ReorderIndexes(
    std::vector<Index> *input_indexes,
    std::vector<Index> *output_indexes) const {
  std::sort(input_indexes->begin(), input_indexes->end(), IndexLessNxt());
  std::sort(output_indexes->begin(), output_indexes->end(), IndexLessNxt());
}

std::unique_ptr<ComponentPrecomputedIndexes>
StatisticsExtractionComponent::PrecomputeIndexes(
    const MiscComputationInfo &misc_info,
    const std::vector<Index> &input_indexes,
    const std::vector<Index> &output_indexes, bool need_backprop) const {
  const int32_t num_in = int32_t(input_indexes.size()),
                num_out = int32_t(output_indexes.size());
  std::vector<std::pair<int32_t, int32_t>> forward(num_out, {-1, -1});
  std::vector<float> counts(num_out, 0.0f);
  std::vector<int32_t> backward(num_in, -1);
  auto row_of = RowsByIndex(input_indexes);
  std::vector<Index> wanted;
  for (int32_t i = 0; i < num_out; i++) {
    GetInputIndexes(misc_info, output_indexes[i], &wanted);
    for (const Index &index : wanted) {
      auto it = row_of.find(index);
      if (it == row_of.end()) continue;
      const int32_t row = it->second;
      // The inputs of one output are consecutive rows (sorted by n, x, t).
      if (forward[i].first == -1) {
        forward[i] = {row, row + 1};
      } else {
        NNET3_ASSERT(forward[i].second == row);
        forward[i].second++;
      }
      counts[i] += 1.0f;
      NNET3_ASSERT(backward[row] == -1);
      backward[row] = i;
    }
    NNET3_ASSERT(counts[i] > 0.0f);
  }
  for (int32_t b : backward) NNET3_ASSERT(b != -1);
  auto ans =
      std::make_unique<StatisticsExtractionComponentPrecomputedIndexes>();
  ans->Set(forward, counts, need_backprop ? backward : std::vector<int32_t>());
  return ans;
}

void *StatisticsExtractionComponent::Propagate(
    const ComponentPrecomputedIndexes *indexes_in, const MatrixView &in,
    MatrixView *out) const {
  auto *indexes =
      dynamic_cast<const StatisticsExtractionComponentPrecomputedIndexes *>(
          indexes_in);
  NNET3_ASSERT(indexes != nullptr && indexes->counts.Dim() == out->NumRows() &&
               in.NumCols() == input_dim_ && out->NumCols() == OutputDim());
  // Adds to `out` (kPropagateAdds; Kaldi zeroes it first, which gives the
  // same result where the compiler has zeroed it).
  const int32_t rows = out->NumRows();
  out->ColRange(0, 1).AddMat(1.0f, indexes->counts.AsMatrix(rows, 1));
  out->ColRange(1, input_dim_).AddRowRanges(1.0f, in, indexes->forward_indexes);
  if (include_variance_) {
    Matrix in_squared(in);
    in_squared.ApplyPow(2.0f);
    out->ColRange(1 + input_dim_, input_dim_)
        .AddRowRanges(1.0f, in_squared, indexes->forward_indexes);
  }
  return nullptr;
}

void StatisticsExtractionComponent::Backprop(
    const std::string &, const ComponentPrecomputedIndexes *indexes_in,
    const MatrixView &in_value, const MatrixView &, const MatrixView &out_deriv,
    void *, Component *, MatrixView *in_deriv) const {
  if (in_deriv == nullptr) return;
  auto *indexes =
      dynamic_cast<const StatisticsExtractionComponentPrecomputedIndexes *>(
          indexes_in);
  NNET3_ASSERT(indexes != nullptr &&
               indexes->backward_indexes.Dim() == in_deriv->NumRows());
  in_deriv->CopyRows(out_deriv.ColRange(1, input_dim_),
                     indexes->backward_indexes);
  if (include_variance_) {
    Matrix sumsq_deriv(in_deriv->NumRows(), input_dim_, ResizeType::kUndefined,
                       MatrixStrideType::kDefaultStride, in_deriv->device());
    sumsq_deriv.CopyRows(out_deriv.ColRange(1 + input_dim_, input_dim_),
                         indexes->backward_indexes);
    in_deriv->AddMatMatElements(2.0f, sumsq_deriv, in_value, 1.0f);
  }
}

// ---------------------------------------------------------------------------
// StatisticsPoolingComponentPrecomputedIndexes

std::unique_ptr<ComponentPrecomputedIndexes>
StatisticsPoolingComponentPrecomputedIndexes::Copy() const {
  auto ans = std::make_unique<StatisticsPoolingComponentPrecomputedIndexes>();
  ans->Set(forward_pairs, backward_pairs);
  return ans;
}

void StatisticsPoolingComponentPrecomputedIndexes::Set(
    const std::vector<std::pair<int32_t, int32_t>> &forward,
    const std::vector<std::pair<int32_t, int32_t>> &backward) {
  forward_pairs = forward;
  backward_pairs = backward;
  forward_indexes = IndexVector::FromRanges(ForAddRowRanges(forward));
  backward_indexes = IndexVector::FromRanges(ForAddRowRanges(backward));
}

void StatisticsPoolingComponentPrecomputedIndexes::Write(std::ostream &os,
                                                         bool binary) const {
  WriteToken(os, binary, "<StatisticsPoolingComponentPrecomputedIndexes>");
  WriteToken(os, binary, "<ForwardIndexes>");
  WriteIntegerPairVector(os, binary, forward_pairs);
  WriteToken(os, binary, "<BackwardIndexes>");
  WriteIntegerPairVector(os, binary, backward_pairs);
  WriteToken(os, binary, "</StatisticsPoolingComponentPrecomputedIndexes>");
}

void StatisticsPoolingComponentPrecomputedIndexes::Read(std::istream &is,
                                                        bool binary) {
  const char *what = "<StatisticsPoolingComponentPrecomputedIndexes>";
  ExpectOneOrTwoTokens(is, binary, what, "<ForwardIndexes>");
  std::vector<std::pair<int32_t, int32_t>> forward, backward;
  ReadIntegerPairVector(is, binary, &forward);
  ExpectToken(is, binary, "<BackwardIndexes>");
  ReadIntegerPairVector(is, binary, &backward);
  ExpectToken(is, binary, "</StatisticsPoolingComponentPrecomputedIndexes>");
  CheckRanges(forward,
              static_cast<int32_t>(backward.empty() ? -1 : backward.size()),
              what);
  CheckRanges(backward, static_cast<int32_t>(forward.size()), what);
  Set(forward, backward);
}

// ---------------------------------------------------------------------------
// StatisticsPoolingComponent

std::string StatisticsPoolingComponent::Problem() const {
  std::string problem;
  if (input_dim_ <= 0)
    problem = "input-dim=" + std::to_string(input_dim_) + " must be > 0";
  else if (input_period_ <= 0)
    problem = "input-period=" + std::to_string(input_period_) + " must be > 0";
  else if (left_context_ < 0 || right_context_ < 0 ||
           left_context_ + right_context_ <= 0)
    problem = "left-context=" + std::to_string(left_context_) +
              " and right-context=" + std::to_string(right_context_) +
              " must be >= 0 and not both 0 (the pooling window would be "
              "empty or undefined)";
  else if (left_context_ % input_period_ != 0 ||
           right_context_ % input_period_ != 0)
    problem =
        "left-context and right-context must be multiples of "
        "input-period=" +
        std::to_string(input_period_);
  else if (num_log_count_features_ < 0)
    problem =
        "num-log-count-features=" + std::to_string(num_log_count_features_) +
        " must be >= 0";
  else if (!(variance_floor_ > 0.0f && variance_floor_ < 1.0f))
    problem = "variance-floor must be in (0, 1)";
  else if (output_stddevs_ && (input_dim_ - 1) % 2 != 0)
    problem =
        "with output-stddevs=true, input-dim=" + std::to_string(input_dim_) +
        " must be odd (a count, sums and sums of squares)";
  else if (input_dim_ < 2)
    problem = "input-dim=" + std::to_string(input_dim_) +
              " must be at least 2 (a count and some sums)";
  return problem;
}

void StatisticsPoolingComponent::InitFromConfig(ConfigLine *cfl) {
  const std::string type = Type();
  input_dim_ = 0;
  if (!cfl->GetValue("input-dim", &input_dim_))
    ThrowConfigError(*cfl, type, "missing required key input-dim=");
  input_period_ = 1;
  left_context_ = right_context_ = -1;
  num_log_count_features_ = 0;
  output_stddevs_ = false;
  variance_floor_ = 1.0e-10f;
  cfl->GetValue("input-period", &input_period_);
  cfl->GetValue("left-context", &left_context_);
  cfl->GetValue("right-context", &right_context_);
  cfl->GetValue("num-log-count-features", &num_log_count_features_);
  cfl->GetValue("output-stddevs", &output_stddevs_);
  cfl->GetValue("variance-floor", &variance_floor_);
  // (Both contexts must be given: their default, -1, is rejected, as
  // Kaldi's Check() does.)
  std::string problem = Problem();
  if (!problem.empty()) ThrowConfigError(*cfl, type, problem);
}

std::unique_ptr<Component> StatisticsPoolingComponent::Copy() const {
  return std::make_unique<StatisticsPoolingComponent>(*this);
}

void StatisticsPoolingComponent::Read(std::istream &is, bool binary) {
  ExpectOneOrTwoTokens(is, binary, "<StatisticsPoolingComponent>",
                       "<InputDim>");
  ReadBasicType(is, binary, &input_dim_);
  ExpectToken(is, binary, "<InputPeriod>");
  ReadBasicType(is, binary, &input_period_);
  ExpectToken(is, binary, "<LeftContext>");
  ReadBasicType(is, binary, &left_context_);
  ExpectToken(is, binary, "<RightContext>");
  ReadBasicType(is, binary, &right_context_);
  ExpectToken(is, binary, "<NumLogCountFeatures>");
  ReadBasicType(is, binary, &num_log_count_features_);
  ExpectToken(is, binary, "<OutputStddevs>");
  ReadBasicType(is, binary, &output_stddevs_);
  ExpectToken(is, binary, "<VarianceFloor>");
  ReadBasicType(is, binary, &variance_floor_);
  ExpectToken(is, binary, "</StatisticsPoolingComponent>");
  std::string problem = Problem();
  if (!problem.empty())
    NNET3_ERR << "Reading <StatisticsPoolingComponent>: " << problem;
}

void StatisticsPoolingComponent::Write(std::ostream &os, bool binary) const {
  WriteToken(os, binary, "<StatisticsPoolingComponent>");
  WriteToken(os, binary, "<InputDim>");
  WriteBasicType(os, binary, input_dim_);
  WriteToken(os, binary, "<InputPeriod>");
  WriteBasicType(os, binary, input_period_);
  WriteToken(os, binary, "<LeftContext>");
  WriteBasicType(os, binary, left_context_);
  WriteToken(os, binary, "<RightContext>");
  WriteBasicType(os, binary, right_context_);
  WriteToken(os, binary, "<NumLogCountFeatures>");
  WriteBasicType(os, binary, num_log_count_features_);
  WriteToken(os, binary, "<OutputStddevs>");
  WriteBasicType(os, binary, output_stddevs_);
  WriteToken(os, binary, "<VarianceFloor>");
  WriteBasicType(os, binary, variance_floor_);
  WriteToken(os, binary, "</StatisticsPoolingComponent>");
}

void StatisticsPoolingComponent::GetInputIndexes(
    const MiscComputationInfo &, const Index &output_index,
    std::vector<Index> *desired_indexes) const {
  desired_indexes->clear();
  for (int32_t t = output_index.t - left_context_;
       t <= output_index.t + right_context_; t += input_period_)
    desired_indexes->push_back(Index(output_index.n, t, output_index.x));
}

bool StatisticsPoolingComponent::IsComputable(
    const MiscComputationInfo &misc_info, const Index &output_index,
    const IndexSet &input_index_set, std::vector<Index> *used_inputs) const {
  if (used_inputs != nullptr) used_inputs->clear();
  // Outputs exist only at multiples of the input period.
  if (output_index.t % input_period_ != 0) return false;
  std::vector<Index> wanted;
  GetInputIndexes(misc_info, output_index, &wanted);
  bool ans = false;
  for (const Index &index : wanted) {
    if (!input_index_set(index)) continue;
    ans = true;
    if (used_inputs == nullptr) break;
    used_inputs->push_back(index);
  }
  return ans;
}

void StatisticsPoolingComponent::ReorderIndexes(
    std::vector<Index> *input_indexes,
    std::vector<Index> *output_indexes) const {
  std::sort(input_indexes->begin(), input_indexes->end(), IndexLessNxt());
  std::sort(output_indexes->begin(), output_indexes->end(), IndexLessNxt());
}

std::unique_ptr<ComponentPrecomputedIndexes>
StatisticsPoolingComponent::PrecomputeIndexes(
    const MiscComputationInfo &misc_info,
    const std::vector<Index> &input_indexes,
    const std::vector<Index> &output_indexes, bool need_backprop) const {
  const int32_t num_in = int32_t(input_indexes.size()),
                num_out = int32_t(output_indexes.size());
  std::vector<std::pair<int32_t, int32_t>> forward(num_out, {-1, -1}),
      backward(num_in, {-1, -1});
  auto row_of = RowsByIndex(input_indexes);
  std::vector<Index> wanted;
  // The window of an output is a run of consecutive input rows (sorted by
  // n, x, t), and the outputs pooling an input are consecutive too.
  for (int32_t i = 0; i < num_out; i++) {
    GetInputIndexes(misc_info, output_indexes[i], &wanted);
    for (const Index &index : wanted) {
      auto it = row_of.find(index);
      if (it == row_of.end()) continue;
      const int32_t row = it->second;
      for (auto *range : {&forward[i], &backward[row]}) {
        const int32_t value = range == &forward[i] ? row : i;
        if (range->first == -1) {
          *range = {value, value + 1};
        } else {
          NNET3_ASSERT(range->second == value);
          range->second++;
        }
      }
    }
    NNET3_ASSERT(forward[i].first != -1);
  }
  for (const auto &b : backward) NNET3_ASSERT(b.first != -1);
  auto ans = std::make_unique<StatisticsPoolingComponentPrecomputedIndexes>();
  ans->Set(forward, need_backprop ? backward
                                  : std::vector<std::pair<int32_t, int32_t>>());
  return ans;
}

Vector StatisticsPoolingComponent::PooledCounts(
    const StatisticsPoolingComponentPrecomputedIndexes &p,
    const MatrixView &in) const {
  const int32_t rows = static_cast<int32_t>(p.forward_pairs.size());
  Vector counts(rows, ResizeType::kSetZero, in.device());
  counts.AsMatrix(rows, 1).AddRowRanges(1.0f, in.ColRange(0, 1),
                                        p.forward_indexes);
  return counts;
}

void *StatisticsPoolingComponent::Propagate(
    const ComponentPrecomputedIndexes *indexes_in, const MatrixView &in,
    MatrixView *out) const {
  auto *p = dynamic_cast<const StatisticsPoolingComponentPrecomputedIndexes *>(
      indexes_in);
  const int32_t rows = out->NumRows(), nlc = num_log_count_features_;
  NNET3_ASSERT(p != nullptr &&
               static_cast<int32_t>(p->forward_pairs.size()) == rows &&
               in.NumCols() == input_dim_ && out->NumCols() == OutputDim());
  out->SetZero();
  Vector counts = PooledCounts(*p, in);
  MatrixView stats = out->ColRange(nlc, input_dim_ - 1);
  stats.AddRowRanges(1.0f, in.ColRange(1, input_dim_ - 1), p->forward_indexes);
  Vector inv_counts(counts);
  inv_counts.ApplyPow(-1.0f);
  stats.MulRowsVec(inv_counts);  // sums / count
  if (nlc > 0) {
    counts.ApplyFunc(Func::kLog);
    for (int32_t c = 0; c < nlc; c++) out->CopyColFromVec(counts, c);
  }
  if (output_stddevs_) {
    const int32_t dim = (input_dim_ - 1) / 2;
    MatrixView mean = out->ColRange(nlc, dim),
               var = out->ColRange(nlc + dim, dim);
    var.AddMatMatElements(-1.0f, mean, mean, 1.0f);
    var.ApplyFloor(variance_floor_);
    var.ApplyPow(0.5f);
  }
  return nullptr;
}

void StatisticsPoolingComponent::Backprop(
    const std::string &, const ComponentPrecomputedIndexes *indexes_in,
    const MatrixView &in_value, const MatrixView &out_value,
    const MatrixView &out_deriv_in, void *, Component *,
    MatrixView *in_deriv) const {
  if (in_deriv == nullptr) return;
  auto *p = dynamic_cast<const StatisticsPoolingComponentPrecomputedIndexes *>(
      indexes_in);
  NNET3_ASSERT(p != nullptr && static_cast<int32_t>(p->backward_pairs.size()) ==
                                   in_deriv->NumRows());
  const int32_t rows = out_deriv_in.NumRows(), nlc = num_log_count_features_;
  Matrix out_deriv(out_deriv_in);
  if (output_stddevs_) {
    // σ = sqrt(v), v = q/c - mean²: ∂f/∂(q/c) = ∂f/∂σ / (2σ) and the mean
    // gains -2 mean ∂f/∂(q/c). (The floor is ignored, as in Kaldi.)
    const int32_t dim = (input_dim_ - 1) / 2;
    MatrixView mean_deriv = out_deriv.ColRange(nlc, dim),
               var_deriv = out_deriv.ColRange(nlc + dim, dim);
    var_deriv.DivElements(out_value.ColRange(nlc + dim, dim));
    var_deriv.Scale(0.5f);
    mean_deriv.AddMatMatElements(-2.0f, out_value.ColRange(nlc, dim), var_deriv,
                                 1.0f);
  }
  Vector counts(rows, ResizeType::kUndefined, out_deriv.device());
  if (nlc > 0) {
    counts.CopyColFromMat(out_value, 0);
    counts.ApplyFunc(Func::kExp);
  } else {
    counts = PooledCounts(*p, in_value);
  }
  counts.ApplyPow(-1.0f);
  out_deriv.MulRowsVec(counts);  // through the division by the count
  in_deriv->ColRange(1, input_dim_ - 1)
      .AddRowRanges(1.0f, out_deriv.ColRange(nlc, input_dim_ - 1),
                    p->backward_indexes);
}

// ---------------------------------------------------------------------------
// MaxpoolingComponent

int32_t MaxpoolingComponent::OutputDim() const {
  if (pool_x_step_ <= 0 || pool_y_step_ <= 0 || pool_z_step_ <= 0) return 0;
  return (1 + (input_x_dim_ - pool_x_size_) / pool_x_step_) *
         (1 + (input_y_dim_ - pool_y_size_) / pool_y_step_) *
         (1 + (input_z_dim_ - pool_z_size_) / pool_z_step_);
}

std::string MaxpoolingComponent::Problem() const {
  const char *axes = "xyz";
  const int32_t input[] = {input_x_dim_, input_y_dim_, input_z_dim_},
                size[] = {pool_x_size_, pool_y_size_, pool_z_size_},
                step[] = {pool_x_step_, pool_y_step_, pool_z_step_};
  for (int32_t a = 0; a < 3; a++) {
    const std::string x(1, axes[a]), in = "input-" + x + "-dim",
                                     sz = "pool-" + x + "-size",
                                     st = "pool-" + x + "-step";
    if (input[a] <= 0)
      return in + "=" + std::to_string(input[a]) + " must be > 0";
    if (size[a] <= 0)
      return sz + "=" + std::to_string(size[a]) + " must be > 0";
    if (step[a] <= 0)
      return st + "=" + std::to_string(step[a]) + " must be > 0";
    if (size[a] > input[a])
      return sz + "=" + std::to_string(size[a]) + " must be <= " + in + "=" +
             std::to_string(input[a]);
    if (step[a] > size[a])
      return st + "=" + std::to_string(step[a]) + " must be <= " + sz + "=" +
             std::to_string(size[a]);
    if ((input[a] - size[a]) % step[a] != 0)
      return st + "=" + std::to_string(step[a]) + " must divide " + in + " - " +
             sz + " = " + std::to_string(input[a] - size[a]);
  }
  // The column maps built from these hold one entry per input column and
  // per (patch, position in the pool): bounded, so that a few bytes of a
  // model file cannot ask for gigabytes (real pooling layers are far below).
  const int64_t kMaxEntries = int64_t(1) << 22;
  double input_dim = 1.0, entries = 1.0;
  for (int32_t a = 0; a < 3; a++) {
    input_dim *= input[a];
    entries *= double(size[a]) * (1 + (input[a] - size[a]) / step[a]);
  }
  if (input_dim > double(kMaxEntries) || entries > double(kMaxEntries))
    return "the input (" + std::to_string(input[0]) + " x " +
           std::to_string(input[1]) + " x " + std::to_string(input[2]) +
           ") or its pools need column maps of more than " +
           std::to_string(kMaxEntries) + " entries";
  return "";
}

void MaxpoolingComponent::InitFromConfig(ConfigLine *cfl) {
  const std::string type = Type();
  int32_t *fields[] = {&input_x_dim_, &input_y_dim_, &input_z_dim_,
                       &pool_x_size_, &pool_y_size_, &pool_z_size_,
                       &pool_x_step_, &pool_y_step_, &pool_z_step_};
  const char *keys[] = {"input-x-dim", "input-y-dim", "input-z-dim",
                        "pool-x-size", "pool-y-size", "pool-z-size",
                        "pool-x-step", "pool-y-step", "pool-z-step"};
  for (int32_t i = 0; i < 9; i++)
    if (!cfl->GetValue(keys[i], fields[i]))
      ThrowConfigError(*cfl, type,
                       std::string("missing required key ") + keys[i] + "=");
  std::string problem = Problem();
  if (!problem.empty()) ThrowConfigError(*cfl, type, problem);
  ComputeColumnMaps();
}

void MaxpoolingComponent::ComputeColumnMaps() {
  const int32_t npx = 1 + (input_x_dim_ - pool_x_size_) / pool_x_step_,
                npy = 1 + (input_y_dim_ - pool_y_size_) / pool_y_step_,
                npz = 1 + (input_z_dim_ - pool_z_size_) / pool_z_step_;
  std::vector<int32_t> columns;
  for (int32_t x = 0; x < pool_x_size_; x++)
    for (int32_t y = 0; y < pool_y_size_; y++)
      for (int32_t z = 0; z < pool_z_size_; z++)
        for (int32_t px = 0; px < npx; px++)
          for (int32_t py = 0; py < npy; py++)
            for (int32_t pz = 0; pz < npz; pz++)
              columns.push_back(((px * pool_x_step_ + x) * input_y_dim_ +
                                 (py * pool_y_step_ + y)) *
                                    input_z_dim_ +
                                pz * pool_z_step_ + z);
  patch_columns_ = IndexVector(columns);
  backward_columns_.clear();
  for (const std::vector<int32_t> &map : ReverseColumnMap(columns, InputDim()))
    backward_columns_.emplace_back(map);
}

std::unique_ptr<Component> MaxpoolingComponent::Copy() const {
  return std::make_unique<MaxpoolingComponent>(*this);
}

void MaxpoolingComponent::Read(std::istream &is, bool binary) {
  ExpectOneOrTwoTokens(is, binary, "<MaxpoolingComponent>", "<InputXDim>");
  ReadBasicType(is, binary, &input_x_dim_);
  const char *tokens[] = {"<InputYDim>", "<InputZDim>", "<PoolXSize>",
                          "<PoolYSize>", "<PoolZSize>", "<PoolXStep>",
                          "<PoolYStep>", "<PoolZStep>"};
  int32_t *fields[] = {&input_y_dim_, &input_z_dim_, &pool_x_size_,
                       &pool_y_size_, &pool_z_size_, &pool_x_step_,
                       &pool_y_step_, &pool_z_step_};
  for (int32_t i = 0; i < 8; i++) {
    ExpectToken(is, binary, tokens[i]);
    ReadBasicType(is, binary, fields[i]);
  }
  ExpectToken(is, binary, "</MaxpoolingComponent>");
  std::string problem = Problem();
  if (!problem.empty())
    NNET3_ERR << "Reading <MaxpoolingComponent>: " << problem;
  ComputeColumnMaps();
}

void MaxpoolingComponent::Write(std::ostream &os, bool binary) const {
  WriteToken(os, binary, "<MaxpoolingComponent>");
  const char *tokens[] = {"<InputXDim>", "<InputYDim>", "<InputZDim>",
                          "<PoolXSize>", "<PoolYSize>", "<PoolZSize>",
                          "<PoolXStep>", "<PoolYStep>", "<PoolZStep>"};
  const int32_t fields[] = {input_x_dim_, input_y_dim_, input_z_dim_,
                            pool_x_size_, pool_y_size_, pool_z_size_,
                            pool_x_step_, pool_y_step_, pool_z_step_};
  for (int32_t i = 0; i < 9; i++) {
    WriteToken(os, binary, tokens[i]);
    WriteBasicType(os, binary, fields[i]);
  }
  WriteToken(os, binary, "</MaxpoolingComponent>");
}

std::string MaxpoolingComponent::Info() const {
  std::ostringstream os;
  os << Type() << ", input-x-dim=" << input_x_dim_
     << ", input-y-dim=" << input_y_dim_ << ", input-z-dim=" << input_z_dim_
     << ", pool-x-size=" << pool_x_size_ << ", pool-y-size=" << pool_y_size_
     << ", pool-z-size=" << pool_z_size_ << ", pool-x-step=" << pool_x_step_
     << ", pool-y-step=" << pool_y_step_ << ", pool-z-step=" << pool_z_step_;
  return os.str();
}

void *MaxpoolingComponent::Propagate(const ComponentPrecomputedIndexes *,
                                     const MatrixView &in,
                                     MatrixView *out) const {
  const int32_t num_pools = OutputDim(),
                pool_size = pool_x_size_ * pool_y_size_ * pool_z_size_;
  Matrix patches(in.NumRows(), num_pools * pool_size, ResizeType::kUndefined,
                 MatrixStrideType::kDefaultStride, in.device());
  patches.CopyCols(in, patch_columns_);
  out->Set(-1e20f);
  for (int32_t q = 0; q < pool_size; q++)
    out->MaxElements(patches.ColRange(q * num_pools, num_pools));
  return nullptr;
}

void MaxpoolingComponent::Backprop(const std::string &,
                                   const ComponentPrecomputedIndexes *,
                                   const MatrixView &in_value,
                                   const MatrixView &out_value,
                                   const MatrixView &out_deriv, void *,
                                   Component *, MatrixView *in_deriv) const {
  if (in_deriv == nullptr) return;
  const int32_t num_pools = OutputDim(),
                pool_size = pool_x_size_ * pool_y_size_ * pool_z_size_;
  Matrix patches(in_value.NumRows(), num_pools * pool_size,
                 ResizeType::kUndefined, MatrixStrideType::kDefaultStride,
                 in_value.device());
  patches.CopyCols(in_value, patch_columns_);
  for (int32_t q = 0; q < pool_size; q++) {
    MatrixView part = patches.ColRange(q * num_pools, num_pools);
    part.EqualElementMask(out_value, part);  // 1 where this input is the max
    part.MulElements(out_deriv);
  }
  for (const IndexVector &back : backward_columns_)
    in_deriv->AddCols(patches, back);
}

}  // namespace nnet3
