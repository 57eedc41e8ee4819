#include "nnet/components/random-mask-components.h"

#include <algorithm>
#include <sstream>
#include <tuple>

#include "base/error.h"
#include "base/io-funcs.h"
#include "device/backend.h"
#include "nnet/component-config.h"
#include "nnet/component-registry.h"
#include "nnet/components/nonlinear-common.h"

namespace nnet3 {

std::unique_ptr<Component> NewRandomMaskComponentOfType(
    const std::string &type) {
  if (type == "DropoutMaskComponent")
    return std::make_unique<DropoutMaskComponent>();
  if (type == "SpecAugmentTimeMaskComponent")
    return std::make_unique<SpecAugmentTimeMaskComponent>();
  return nullptr;
}

std::vector<std::string> RandomMaskComponentTypes() {
  return {"DropoutMaskComponent", "SpecAugmentTimeMaskComponent"};
}

namespace {

// Host draws from the counter-based generator: draw k of a seed is
// UniformFromBits(RandomBits(seed, k)), the numbers a device fill of the
// same seed would give element k.
class CounterDraws {
 public:
  explicit CounterDraws(uint64_t seed) : seed_(seed) {}
  float Uniform() { return UniformFromBits(RandomBits(seed_, counter_++)); }
  // Uniform integer in [lo, hi].
  int32_t Int(int32_t lo, int32_t hi) {
    const int32_t span = hi - lo + 1;
    return lo + std::min(span - 1, static_cast<int32_t>(Uniform() * span));
  }

 private:
  uint64_t seed_;
  uint64_t counter_ = 0;
};

}  // namespace

// ---------------------------------------------------------------------------
// DropoutMaskComponent

void DropoutMaskComponent::InitFromConfig(ConfigLine *cfl) {
  const std::string type = Type();
  output_dim_ = GetPositiveInt(cfl, type, "output-dim");
  dropout_proportion_ = 0.5f;
  cfl->GetValue("dropout-proportion", &dropout_proportion_);
  CheckConfig(dropout_proportion_ >= 0.0f && dropout_proportion_ <= 1.0f, type,
              "dropout-proportion", dropout_proportion_, "must be in [0, 1]",
              *cfl);
  continuous_ = false;
  cfl->GetValue("continuous", &continuous_);
  test_mode_ = false;
  cfl->GetValue("test-mode", &test_mode_);
}

std::unique_ptr<Component> DropoutMaskComponent::Copy() const {
  return std::make_unique<DropoutMaskComponent>(*this);
}

void DropoutMaskComponent::SetDropoutProportion(float p) {
  if (!(p >= 0.0f && p <= 1.0f))
    NNET3_ERR << "DropoutMaskComponent: dropout proportion " << p
              << " is outside [0, 1]";
  dropout_proportion_ = p;
}

void DropoutMaskComponent::Read(std::istream &is, bool binary) {
  ExpectOneOrTwoTokens(is, binary, "<DropoutMaskComponent>", "<OutputDim>");
  ReadBasicType(is, binary, &output_dim_);
  ExpectToken(is, binary, "<DropoutProportion>");
  ReadBasicType(is, binary, &dropout_proportion_);
  test_mode_ = false;
  if (PeekToken(is, binary) == 'T') {
    ExpectToken(is, binary, "<TestMode>");
    ReadBasicType(is, binary, &test_mode_);
  }
  continuous_ = false;
  if (PeekToken(is, binary) == 'C') {
    ExpectToken(is, binary, "<Continuous>");
    continuous_ = true;
  }
  ExpectToken(is, binary, "</DropoutMaskComponent>");
  if (output_dim_ <= 0)
    NNET3_ERR << "Reading <DropoutMaskComponent>: bad output dim "
              << output_dim_;
}

void DropoutMaskComponent::Write(std::ostream &os, bool binary) const {
  WriteToken(os, binary, "<DropoutMaskComponent>");
  WriteToken(os, binary, "<OutputDim>");
  WriteBasicType(os, binary, output_dim_);
  WriteToken(os, binary, "<DropoutProportion>");
  WriteBasicType(os, binary, dropout_proportion_);
  WriteToken(os, binary, "<TestMode>");
  WriteBasicType(os, binary, test_mode_);
  if (continuous_) WriteToken(os, binary, "<Continuous>");
  WriteToken(os, binary, "</DropoutMaskComponent>");
}

std::string DropoutMaskComponent::Info() const {
  std::ostringstream os;
  os << Type() << ", output-dim=" << output_dim_
     << ", dropout-proportion=" << dropout_proportion_;
  if (continuous_) os << ", continuous=true";
  return os.str();
}

void *DropoutMaskComponent::Propagate(const ComponentPrecomputedIndexes *,
                                      const MatrixView &,
                                      MatrixView *out) const {
  NNET3_ASSERT(out->NumCols() == output_dim_);
  const float p = dropout_proportion_;
  if (p == 0.0f || (continuous_ && test_mode_)) {
    out->Set(1.0f);
    return nullptr;
  }
  if (test_mode_) {
    out->Set(1.0f - p);
    return nullptr;
  }
  out->SetRandUniform(NextSeed());
  if (continuous_) {  // 1 + 4p(u - 1/2), expected value 1
    out->Scale(4.0f * p);
    out->Add(1.0f - 2.0f * p);
    return nullptr;
  }
  out->Add(-p);  // [u > p]
  if (output_dim_ == 2 || output_dim_ == 3) {
    // Columns 0 and 1 from one u per row: [u > p] and [u < 1 - p].
    Vector u(out->NumRows(), ResizeType::kUndefined, out->device());
    u.SetRandUniform(NextSeed());
    u.Add(-p);
    out->CopyColFromVec(u, 0);
    u.Add(2.0f * p - 1.0f);
    u.Scale(-1.0f);
    out->CopyColFromVec(u, 1);
  }
  out->ApplyFunc(Func::kHeaviside);
  return nullptr;
}

void DropoutMaskComponent::Backprop(const std::string &,
                                    const ComponentPrecomputedIndexes *,
                                    const MatrixView &, const MatrixView &,
                                    const MatrixView &, void *, Component *,
                                    MatrixView *in_deriv) const {
  if (in_deriv != nullptr) in_deriv->SetZero();
}

void DropoutMaskComponent::GetInputIndexes(
    const MiscComputationInfo &, const Index &,
    std::vector<Index> *desired_indexes) const {
  desired_indexes->clear();
}

bool DropoutMaskComponent::IsComputable(const MiscComputationInfo &,
                                        const Index &, const IndexSet &,
                                        std::vector<Index> *used_inputs) const {
  if (used_inputs != nullptr) used_inputs->clear();
  return true;
}

// ---------------------------------------------------------------------------
// SpecAugmentTimeMaskComponentPrecomputedIndexes

std::unique_ptr<ComponentPrecomputedIndexes>
SpecAugmentTimeMaskComponentPrecomputedIndexes::Copy() const {
  return std::make_unique<SpecAugmentTimeMaskComponentPrecomputedIndexes>(
      *this);
}

void SpecAugmentTimeMaskComponentPrecomputedIndexes::Write(std::ostream &os,
                                                           bool binary) const {
  WriteToken(os, binary, "<SpecAugmentTimeMaskComponentPrecomputedIndexes>");
  WriteToken(os, binary, "<Indexes>");
  WriteBasicType(os, binary, static_cast<int32_t>(indexes.size()));
  for (const std::vector<int32_t> &rows : indexes)
    WriteIntegerVector(os, binary, rows);
  WriteToken(os, binary, "</SpecAugmentTimeMaskComponentPrecomputedIndexes>");
}

void SpecAugmentTimeMaskComponentPrecomputedIndexes::Read(std::istream &is,
                                                          bool binary) {
  const std::string what =
      "Reading <SpecAugmentTimeMaskComponentPrecomputed"
      "Indexes>: ";
  ExpectOneOrTwoTokens(is, binary,
                       "<SpecAugmentTimeMaskComponentPrecomputedIndexes>",
                       "<Indexes>");
  int32_t size = 0;
  ReadBasicType(is, binary, &size);
  if (size < 0 || size > (1 << 24)) NNET3_ERR << what << "bad size " << size;
  indexes.assign(size, {});
  tot_size = 0;
  for (std::vector<int32_t> &rows : indexes) {
    ReadIntegerVector(is, binary, &rows);
    tot_size += static_cast<int32_t>(rows.size());
  }
  for (const std::vector<int32_t> &rows : indexes)
    for (int32_t r : rows)
      if (r < 0 || r >= tot_size)
        NNET3_ERR << what << "row " << r << " is outside [0, " << tot_size
                  << ")";
  ExpectToken(is, binary, "</SpecAugmentTimeMaskComponentPrecomputedIndexes>");
}

// ---------------------------------------------------------------------------
// SpecAugmentTimeMaskComponent

namespace {

// The longest kept run, floor(max_frames (1 - z) / z) (Kaldi's
// non_time_mask_max_frames).
int32_t MaxKeptFrames(int32_t max_frames, float z) {
  return static_cast<int32_t>(max_frames * (1.0f - z) / z);
}

}  // namespace

void SpecAugmentTimeMaskComponent::InitFromConfig(ConfigLine *cfl) {
  const std::string type = Type();
  dim_ = GetPositiveInt(cfl, type, "dim");
  zeroed_proportion_ = 0.25f;
  cfl->GetValue("zeroed-proportion", &zeroed_proportion_);
  time_mask_max_frames_ = 10;
  cfl->GetValue("time-mask-max-frames", &time_mask_max_frames_);
  CheckConfig(time_mask_max_frames_ > 1, type, "time-mask-max-frames",
              time_mask_max_frames_, "must be > 1", *cfl);
  const float z = zeroed_proportion_;
  CheckConfig(z >= 0.0f && z < 1.0f &&
                  (z == 0.0f || MaxKeptFrames(time_mask_max_frames_, z) >= 1),
              type, "zeroed-proportion", z,
              "must be in [0, 1) and leave kept runs of at least one frame, "
              "time-mask-max-frames * (1 - z) / z >= 1",
              *cfl);
  test_mode_ = false;
  cfl->GetValue("test-mode", &test_mode_);
}

std::unique_ptr<Component> SpecAugmentTimeMaskComponent::Copy() const {
  return std::make_unique<SpecAugmentTimeMaskComponent>(*this);
}

void SpecAugmentTimeMaskComponent::Read(std::istream &is, bool binary) {
  ExpectOneOrTwoTokens(is, binary, "<SpecAugmentTimeMaskComponent>", "<Dim>");
  ReadBasicType(is, binary, &dim_);
  ExpectToken(is, binary, "<ZeroedProportion>");
  ReadBasicType(is, binary, &zeroed_proportion_);
  ExpectToken(is, binary, "<TimeMaskMaxFrames>");
  ReadBasicType(is, binary, &time_mask_max_frames_);
  test_mode_ = false;
  if (PeekToken(is, binary) == 'T') {
    ExpectToken(is, binary, "<TestMode>");
    test_mode_ = true;
  }
  ExpectToken(is, binary, "</SpecAugmentTimeMaskComponent>");
  const float z = zeroed_proportion_;
  if (dim_ <= 0 || time_mask_max_frames_ <= 1 || !(z >= 0.0f && z < 1.0f) ||
      (z > 0.0f && MaxKeptFrames(time_mask_max_frames_, z) < 1))
    NNET3_ERR << "Reading <SpecAugmentTimeMaskComponent>: bad dim " << dim_
              << ", zeroed proportion " << z << " or time-mask-max-frames "
              << time_mask_max_frames_;
}

void SpecAugmentTimeMaskComponent::Write(std::ostream &os, bool binary) const {
  WriteToken(os, binary, "<SpecAugmentTimeMaskComponent>");
  WriteToken(os, binary, "<Dim>");
  WriteBasicType(os, binary, dim_);
  WriteToken(os, binary, "<ZeroedProportion>");
  WriteBasicType(os, binary, zeroed_proportion_);
  WriteToken(os, binary, "<TimeMaskMaxFrames>");
  WriteBasicType(os, binary, time_mask_max_frames_);
  if (test_mode_) WriteToken(os, binary, "<TestMode>");
  WriteToken(os, binary, "</SpecAugmentTimeMaskComponent>");
}

std::string SpecAugmentTimeMaskComponent::Info() const {
  std::ostringstream os;
  os << Type() << ", dim=" << dim_
     << ", zeroed-proportion=" << zeroed_proportion_
     << ", time-mask-max-frames=" << time_mask_max_frames_;
  return os.str();
}

Vector *SpecAugmentTimeMaskComponent::MakeMask(
    const ComponentPrecomputedIndexes *indexes_in, int32_t num_rows,
    Device &device) const {
  std::vector<std::vector<int32_t>> one_sequence;
  const std::vector<std::vector<int32_t>> *sequences = &one_sequence;
  if (indexes_in != nullptr) {
    const auto *indexes =
        dynamic_cast<const SpecAugmentTimeMaskComponentPrecomputedIndexes *>(
            indexes_in);
    NNET3_ASSERT(indexes != nullptr && indexes->tot_size == num_rows);
    sequences = &indexes->indexes;
  } else {
    one_sequence.resize(1);
    for (int32_t r = 0; r < num_rows; r++) one_sequence[0].push_back(r);
  }
  const float z = zeroed_proportion_;
  const int32_t max_kept = MaxKeptFrames(time_mask_max_frames_, z);
  CounterDraws draws(NextSeed());
  std::vector<float> mask(num_rows, 1.0f);
  for (const std::vector<int32_t> &rows : *sequences) {
    const size_t length = rows.size();
    size_t t = 0;
    while (t < length) {
      // A kept run, then a zeroed run; the sequence starts with a zeroed
      // run with probability z.
      if (t > 0 || draws.Uniform() >= z)
        for (int32_t k = draws.Int(1, max_kept); t < length && k > 0; t++, k--)
          mask[rows[t]] = 1.0f;
      for (int32_t k = draws.Int(1, time_mask_max_frames_); t < length && k > 0;
           t++, k--)
        mask[rows[t]] = 0.0f;
    }
  }
  return new Vector(mask, device);
}

void *SpecAugmentTimeMaskComponent::Propagate(
    const ComponentPrecomputedIndexes *indexes, const MatrixView &in,
    MatrixView *out) const {
  NNET3_ASSERT(in.SameShape(*out) && in.NumCols() == dim_);
  out->CopyFromMat(in);  // nothing to do when in place
  if (!Active()) return nullptr;
  Vector *mask = MakeMask(indexes, in.NumRows(), in.device());
  out->MulRowsVec(*mask);
  return mask;
}

void SpecAugmentTimeMaskComponent::Backprop(
    const std::string &, const ComponentPrecomputedIndexes *,
    const MatrixView &, const MatrixView &, const MatrixView &out_deriv,
    void *memo, Component *, MatrixView *in_deriv) const {
  if (in_deriv == nullptr) return;
  in_deriv->CopyFromMat(out_deriv);
  if (!Active()) return;
  NNET3_ASSERT(memo != nullptr);
  in_deriv->MulRowsVec(*static_cast<Vector *>(memo));
}

void SpecAugmentTimeMaskComponent::DeleteMemo(void *memo) const {
  delete static_cast<Vector *>(memo);
}

std::unique_ptr<ComponentPrecomputedIndexes>
SpecAugmentTimeMaskComponent::PrecomputeIndexes(
    const MiscComputationInfo &, const std::vector<Index> &input_indexes,
    const std::vector<Index> &output_indexes, bool) const {
  NNET3_ASSERT(input_indexes == output_indexes);
  // Sorting (n, t, row) groups the rows by n, each group in t order.
  std::vector<std::tuple<int32_t, int32_t, int32_t>> order;
  order.reserve(input_indexes.size());
  for (size_t i = 0; i < input_indexes.size(); i++)
    order.emplace_back(input_indexes[i].n, input_indexes[i].t,
                       static_cast<int32_t>(i));
  std::sort(order.begin(), order.end());
  auto ans = std::make_unique<SpecAugmentTimeMaskComponentPrecomputedIndexes>();
  for (size_t i = 0; i < order.size(); i++) {
    if (i == 0 || std::get<0>(order[i]) != std::get<0>(order[i - 1]))
      ans->indexes.emplace_back();
    ans->indexes.back().push_back(std::get<2>(order[i]));
  }
  ans->tot_size = static_cast<int32_t>(order.size());
  return ans;
}

}  // namespace nnet3
