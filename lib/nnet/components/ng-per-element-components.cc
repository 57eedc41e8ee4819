#include "nnet/components/ng-per-element-components.h"

#include <sstream>

#include "base/error.h"
#include "base/io-funcs.h"
#include "nnet/component-config.h"
#include "nnet/component-registry.h"
#include "nnet/components/simple-component-utils.h"
#include "nnet/init-random.h"
#include "util/kaldi-io.h"

namespace nnet3 {

std::unique_ptr<Component> NewNgPerElementComponentOfType(
    const std::string &type) {
  if (type == "NaturalGradientPerElementScaleComponent")
    return std::make_unique<NaturalGradientPerElementScaleComponent>();
  return nullptr;
}

std::vector<std::string> NgPerElementComponentTypes() {
  return {"NaturalGradientPerElementScaleComponent"};
}

namespace {

// UserError "<type>: <what> (config line '...')" when `bad`.
void FailIf(bool bad, const std::string &type, const std::string &what,
            const ConfigLine &cfl) {
  if (bad) ThrowConfigError(cfl, type, what);
}

}  // namespace

NaturalGradientPerElementScaleComponent::
    NaturalGradientPerElementScaleComponent() {
  preconditioner_.SetRank(8);
  preconditioner_.SetUpdatePeriod(10);
  preconditioner_.SetNumSamplesHistory(2000.0f);
  preconditioner_.SetAlpha(4.0f);
}

void NaturalGradientPerElementScaleComponent::InitFromConfig(ConfigLine *cfl) {
  const std::string type = Type();
  int32_t rank = 8, update_period = 10;
  float num_samples_history = 2000.0f, alpha = 4.0f;
  cfl->GetValue("rank", &rank);
  cfl->GetValue("update-period", &update_period);
  cfl->GetValue("num-samples-history", &num_samples_history);
  cfl->GetValue("alpha", &alpha);
  FailIf(rank <= 0, type, "rank=" + std::to_string(rank) + " must be > 0",
         *cfl);
  FailIf(update_period <= 0, type,
         "update-period=" + std::to_string(update_period) + " must be > 0",
         *cfl);
  FailIf(!(num_samples_history > 0.0f) || !(alpha >= 0.0f), type,
         "num-samples-history must be > 0 and alpha >= 0", *cfl);
  InitLearningRatesFromConfig(cfl);
  std::string filename;
  if (cfl->GetValue("scales", &filename)) {
    FailIf(cfl->HasUnusedValues(), type,
           "scales= cannot be combined with '" + cfl->UnusedValues() + "'",
           *cfl);
    ReadKaldiObject(filename, &scales_);
    FailIf(scales_.Dim() == 0, type,
           "the vector in scales=" + filename + " is empty", *cfl);
  } else {
    const int32_t dim = GetPositiveInt(cfl, type, "dim");
    float param_mean = 1.0f;
    cfl->GetValue("param-mean", &param_mean);
    const float param_stddev =
        GetNonNegativeFloat(cfl, type, "param-stddev", 0.0f);
    scales_ = Vector(dim);
    scales_.SetRandn(NextComponentInitSeed());
    scales_.Scale(param_stddev);
    scales_.Add(param_mean);
  }
  preconditioner_.SetRank(rank);
  preconditioner_.SetUpdatePeriod(update_period);
  preconditioner_.SetNumSamplesHistory(num_samples_history);
  preconditioner_.SetAlpha(alpha);
}

std::unique_ptr<Component> NaturalGradientPerElementScaleComponent::Copy()
    const {
  return std::make_unique<NaturalGradientPerElementScaleComponent>(*this);
}

void NaturalGradientPerElementScaleComponent::Read(std::istream &is,
                                                   bool binary) {
  const std::string what = "Reading <" + Type() + ">: ";
  std::string token = ReadUpdatableCommon(is, binary);
  ExpectAfterUpdatableCommon(is, binary, token, "<Params>");
  scales_.Read(is, binary);
  ExpectToken(is, binary, "<IsGradient>");
  ReadBasicType(is, binary, &is_gradient_);
  int32_t rank = 0, update_period = 0;
  float num_samples_history = 0.0f, alpha = 0.0f;
  ExpectToken(is, binary, "<Rank>");
  ReadBasicType(is, binary, &rank);
  ExpectToken(is, binary, "<UpdatePeriod>");
  ReadBasicType(is, binary, &update_period);
  ExpectToken(is, binary, "<NumSamplesHistory>");
  ReadBasicType(is, binary, &num_samples_history);
  ExpectToken(is, binary, "<Alpha>");
  ReadBasicType(is, binary, &alpha);
  ReadToken(is, binary, &token);
  if (token == "<MaxChangePerMinibatch>") {  // old files; now max-change
    float unused = 0.0f;
    ReadBasicType(is, binary, &unused);
    ReadToken(is, binary, &token);
  }
  if (token != "</" + Type() + ">")
    NNET3_ERR << what << "expected </" << Type() << "> but found " << token;
  if (scales_.Dim() == 0 || rank <= 0 || update_period <= 0 ||
      !(num_samples_history > 0.0f))
    NNET3_ERR << what << "empty <Params> or bad natural-gradient options "
              << "(rank " << rank << ", update period " << update_period
              << ", history " << num_samples_history << ")";
  preconditioner_ = OnlineNaturalGradient();
  preconditioner_.SetRank(rank);
  preconditioner_.SetUpdatePeriod(update_period);
  preconditioner_.SetNumSamplesHistory(num_samples_history);
  preconditioner_.SetAlpha(alpha);
}

void NaturalGradientPerElementScaleComponent::Write(std::ostream &os,
                                                    bool binary) const {
  WriteUpdatableCommon(os, binary);
  WriteToken(os, binary, "<Params>");
  scales_.Write(os, binary);
  WriteToken(os, binary, "<IsGradient>");
  WriteBasicType(os, binary, is_gradient_);
  WriteToken(os, binary, "<Rank>");
  WriteBasicType(os, binary, preconditioner_.GetRank());
  WriteToken(os, binary, "<UpdatePeriod>");
  WriteBasicType(os, binary, preconditioner_.GetUpdatePeriod());
  WriteToken(os, binary, "<NumSamplesHistory>");
  WriteBasicType(os, binary, preconditioner_.GetNumSamplesHistory());
  WriteToken(os, binary, "<Alpha>");
  WriteBasicType(os, binary, preconditioner_.GetAlpha());
  WriteToken(os, binary, "</" + Type() + ">");
}

std::string NaturalGradientPerElementScaleComponent::Info() const {
  std::ostringstream os;
  os << PerElementScaleComponent::Info()
     << ", rank=" << preconditioner_.GetRank()
     << ", update-period=" << preconditioner_.GetUpdatePeriod()
     << ", num-samples-history=" << preconditioner_.GetNumSamplesHistory()
     << ", alpha=" << preconditioner_.GetAlpha();
  return os.str();
}

void NaturalGradientPerElementScaleComponent::Backprop(
    const std::string &, const ComponentPrecomputedIndexes *,
    const MatrixView &in_value, const MatrixView &, const MatrixView &out_deriv,
    void *, Component *to_update_in, MatrixView *in_deriv) const {
  auto *to_update =
      dynamic_cast<NaturalGradientPerElementScaleComponent *>(to_update_in);
  NNET3_ASSERT(to_update_in == nullptr || to_update != nullptr);
  Vector delta;
  if (to_update != nullptr) {
    // Computed before in_deriv, which may overwrite out_deriv (in place).
    Matrix per_frame(out_deriv);
    per_frame.MulElements(in_value);
    float scale = 1.0f;
    if (!to_update->is_gradient_)
      to_update->preconditioner_.PreconditionDirections(&per_frame, &scale);
    delta = Vector(scales_.Dim(), ResizeType::kSetZero, scales_.device());
    delta.AddRowSumMat(scale * to_update->learning_rate_, per_frame, 0.0f);
  }
  if (in_deriv != nullptr) {
    in_deriv->CopyFromMat(out_deriv);
    in_deriv->MulColsVec(scales_);
  }
  if (to_update != nullptr) to_update->scales_.AddVec(1.0f, delta);
}

}  // namespace nnet3
