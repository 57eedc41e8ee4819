#include "nnet/components/affine-components.h"

#include <cmath>
#include <sstream>

#include "base/error.h"
#include "base/io-funcs.h"
#include "nnet/component-config.h"
#include "nnet/component-registry.h"
#include "nnet/components/linear-components.h"
#include "nnet/init-random.h"
#include "nnet/parameter-stats.h"

namespace nnet3 {

std::unique_ptr<Component> NewAffineComponentOfType(const std::string &type) {
  if (type == "AffineComponent") return std::make_unique<AffineComponent>();
  if (type == "NaturalGradientAffineComponent")
    return std::make_unique<NaturalGradientAffineComponent>();
  if (type == "FixedAffineComponent")
    return std::make_unique<FixedAffineComponent>();
  if (type == "LinearComponent") return std::make_unique<LinearComponent>();
  if (type == "BlockAffineComponent")
    return std::make_unique<BlockAffineComponent>();
  return nullptr;
}

std::vector<std::string> AffineComponentTypes() {
  return {"AffineComponent", "BlockAffineComponent", "FixedAffineComponent",
          "LinearComponent", "NaturalGradientAffineComponent"};
}

namespace {

// Checks that an (output x (input+1)) matrix from matrix= can hold an affine
// transform.
void CheckAffineMatrix(const ConfigLine &cfl, const std::string &type,
                       const MatrixView &mat) {
  if (mat.NumRows() < 1 || mat.NumCols() < 2)
    ThrowConfigError(cfl, type,
                     "the matrix= file must be output-dim x (input-dim + 1) "
                     "with the bias in the last column, but it is " +
                         std::to_string(mat.NumRows()) + " x " +
                         std::to_string(mat.NumCols()));
}

// Reads "<BiasParams> vec" and checks it against the linear parameters.
void ReadBias(std::istream &is, bool binary, const std::string &type,
              int32_t rows, Vector *bias) {
  ExpectToken(is, binary, "<BiasParams>");
  bias->Read(is, binary);
  if (bias->Dim() != rows)
    NNET3_ERR << type << ": <BiasParams> has dimension " << bias->Dim()
              << " but <LinearParams> has " << rows << " rows";
}

}  // namespace

// ---------------------------------------------------------------------------
// AffineComponent

AffineComponent::AffineComponent(const MatrixView &linear_params,
                                 const VectorView &bias_params,
                                 float learning_rate)
    : linear_params_(linear_params), bias_params_(bias_params) {
  NNET3_ASSERT(bias_params.Dim() == linear_params.NumRows() &&
               bias_params.Dim() != 0);
  SetUnderlyingLearningRate(learning_rate);
}

void AffineComponent::InitParamsFromConfig(ConfigLine *cfl,
                                           bool allow_bias_mean) {
  Matrix mat;
  if (GetMatrixFromConfig(cfl, Type(), "matrix", &mat)) {
    CheckAffineMatrix(*cfl, Type(), mat);
    int32_t input_dim = mat.NumCols() - 1;
    linear_params_ = Matrix(mat.ColRange(0, input_dim));
    bias_params_ = Vector(mat.NumRows(), ResizeType::kUndefined, mat.device());
    bias_params_.CopyColFromMat(mat, input_dim);
    CheckOptionalDim(cfl, Type(), "input-dim", InputDim());
    CheckOptionalDim(cfl, Type(), "output-dim", OutputDim());
    return;
  }
  int32_t input_dim = GetPositiveInt(cfl, Type(), "input-dim"),
          output_dim = GetPositiveInt(cfl, Type(), "output-dim");
  float param_stddev = GetNonNegativeFloat(cfl, Type(), "param-stddev",
                                           1.0f / std::sqrt(float(input_dim)));
  float bias_stddev = GetNonNegativeFloat(cfl, Type(), "bias-stddev", 1.0f);
  float bias_mean = 0.0f;
  if (allow_bias_mean) cfl->GetValue("bias-mean", &bias_mean);
  // W = randn · param-stddev, b = randn · bias-stddev + bias-mean.
  uint64_t seed = NextComponentInitSeed();
  linear_params_ = Matrix(output_dim, input_dim);
  linear_params_.SetRandn(seed);
  linear_params_.Scale(param_stddev);
  bias_params_ = Vector(output_dim);
  bias_params_.SetRandn(BiasSeed(seed));
  bias_params_.Scale(bias_stddev);
  bias_params_.Add(bias_mean);
}

void AffineComponent::InitFromConfig(ConfigLine *cfl) {
  InitLearningRatesFromConfig(cfl);
  InitParamsFromConfig(cfl, false);
  orthonormal_constraint_ = 0.0f;
  cfl->GetValue("orthonormal-constraint", &orthonormal_constraint_);
}

void *AffineComponent::Propagate(const ComponentPrecomputedIndexes *,
                                 const MatrixView &in, MatrixView *out) const {
  // out = 1 bᵀ + in Wᵀ (one GEMM).
  out->CopyRowsFromVec(bias_params_);
  out->AddMatMat(1.0f, in, Trans::kNo, linear_params_, Trans::kYes, 1.0f);
  return nullptr;
}

void AffineComponent::Backprop(const std::string &debug_info,
                               const ComponentPrecomputedIndexes *,
                               const MatrixView &in_value, const MatrixView &,
                               const MatrixView &out_deriv, void *,
                               Component *to_update_in,
                               MatrixView *in_deriv) const {
  // y = x Wᵀ + b: ∂f/∂x = ∂f/∂y W (added: kBackpropAdds), ∂f/∂W = (∂f/∂y)ᵀ x,
  // ∂f/∂b = column sums of ∂f/∂y. in_deriv first, in case to_update == this.
  if (in_deriv != nullptr)
    in_deriv->AddMatMat(1.0f, out_deriv, Trans::kNo, linear_params_, Trans::kNo,
                        1.0f);
  if (to_update_in == nullptr) return;
  auto *to_update = dynamic_cast<AffineComponent *>(to_update_in);
  NNET3_ASSERT(to_update != nullptr);
  if (to_update->is_gradient_)
    to_update->UpdateSimple(in_value, out_deriv);
  else
    to_update->Update(debug_info, in_value, out_deriv);
}

void AffineComponent::UpdateSimple(const MatrixView &in_value,
                                   const MatrixView &out_deriv) {
  bias_params_.AddRowSumMat(learning_rate_, out_deriv, 1.0f);
  linear_params_.AddMatMat(learning_rate_, out_deriv, Trans::kYes, in_value,
                           Trans::kNo, 1.0f);
}

void AffineComponent::Update(const std::string &, const MatrixView &in_value,
                             const MatrixView &out_deriv) {
  UpdateSimple(in_value, out_deriv);
}

void AffineComponent::ReadParams(std::istream &is, bool binary,
                                 const std::string &token) {
  if (token.empty())
    ExpectToken(is, binary, "<LinearParams>");
  else if (token != "<LinearParams>")
    NNET3_ERR << Type() << ": expected <LearningRate> or <LinearParams>, "
              << "got " << token;
  linear_params_.Read(is, binary);
  ReadBias(is, binary, Type(), linear_params_.NumRows(), &bias_params_);
}

void AffineComponent::Read(std::istream &is, bool binary) {
  ReadParams(is, binary, ReadUpdatableCommon(is, binary));
  std::string token;
  ReadToken(is, binary, &token);
  if (token == "<IsGradient>") {  // legacy; now in the common prefix
    ReadBasicType(is, binary, &is_gradient_);
    ReadToken(is, binary, &token);
  }
  orthonormal_constraint_ = 0.0f;
  if (token == "<OrthonormalConstraint>") {
    ReadBasicType(is, binary, &orthonormal_constraint_);
    ReadToken(is, binary, &token);
  }
  if (token != "</AffineComponent>")
    NNET3_ERR << Type() << ": expected <IsGradient>, <OrthonormalConstraint> "
              << "or </AffineComponent>, got " << token;
}

void AffineComponent::Write(std::ostream &os, bool binary) const {
  WriteUpdatableCommon(os, binary);
  WriteToken(os, binary, "<LinearParams>");
  linear_params_.Write(os, binary);
  WriteToken(os, binary, "<BiasParams>");
  bias_params_.Write(os, binary);
  if (orthonormal_constraint_ != 0.0f) {
    WriteToken(os, binary, "<OrthonormalConstraint>");
    WriteBasicType(os, binary, orthonormal_constraint_);
  }
  WriteToken(os, binary, "</AffineComponent>");
}

std::unique_ptr<Component> AffineComponent::Copy() const {
  return std::make_unique<AffineComponent>(*this);
}

std::string AffineComponent::Info() const {
  std::ostringstream os;
  os << UpdatableComponent::Info();
  if (orthonormal_constraint_ != 0.0f)
    os << ", orthonormal-constraint=" << orthonormal_constraint_;
  PrintParameterStats(os, "linear-params", linear_params_,
                      /*include_mean=*/false, /*include_row_norms=*/true,
                      /*include_column_norms=*/true);
  PrintParameterStats(os, "bias", bias_params_, /*include_mean=*/true);
  return os.str();
}

void AffineComponent::Scale(float scale) {
  if (scale == 0.0f) {  // also clears inf and NaN
    linear_params_.SetZero();
    bias_params_.SetZero();
  } else {
    linear_params_.Scale(scale);
    bias_params_.Scale(scale);
  }
}

void AffineComponent::Add(float alpha, const Component &other_in) {
  auto *other = dynamic_cast<const AffineComponent *>(&other_in);
  NNET3_ASSERT(other != nullptr);
  linear_params_.AddMat(alpha, other->linear_params_);
  bias_params_.AddVec(alpha, other->bias_params_);
}

void AffineComponent::AddAndScaleSource(float alpha, Component *src_in,
                                        float src_scale) {
  auto *src = dynamic_cast<AffineComponent *>(src_in);
  NNET3_ASSERT(src != nullptr);
  linear_params_.AddMatAndScaleSrc(alpha, &src->linear_params_, src_scale);
  MatrixView bias = bias_params_.AsRowMatrix();
  MatrixView src_bias = src->bias_params_.AsRowMatrix();
  bias.AddMatAndScaleSrc(alpha, &src_bias, src_scale);
}

float AffineComponent::DotProduct(const UpdatableComponent &other_in) const {
  auto *other = dynamic_cast<const AffineComponent *>(&other_in);
  NNET3_ASSERT(other != nullptr);
  return static_cast<float>(
      TraceMatMat(linear_params_, other->linear_params_, Trans::kYes) +
      VecVec(bias_params_, other->bias_params_));
}

bool AffineComponent::ParamsAreFinite() const {
  // A sum in double of finite floats is finite; an inf or NaN poisons it.
  return std::isfinite(linear_params_.Sum() + bias_params_.Sum());
}

void AffineComponent::PerturbParams(float stddev, uint64_t seed) {
  Matrix noise(OutputDim(), InputDim(), ResizeType::kUndefined,
               linear_params_.device());
  noise.SetRandn(seed);
  linear_params_.AddMat(stddev, noise);
  Vector bias_noise(OutputDim(), ResizeType::kUndefined, bias_params_.device());
  bias_noise.SetRandn(BiasSeed(seed));
  bias_params_.AddVec(stddev, bias_noise);
}

int32_t AffineComponent::NumParameters() const {
  return (InputDim() + 1) * OutputDim();
}

void AffineComponent::Vectorize(VectorView *params) const {
  NNET3_ASSERT(params->Dim() == NumParameters());
  int32_t n = InputDim() * OutputDim();
  params->Range(0, n).CopyRowsFromMat(linear_params_);
  params->Range(n, OutputDim()).CopyFromVec(bias_params_);
}

void AffineComponent::UnVectorize(const VectorView &params) {
  NNET3_ASSERT(params.Dim() == NumParameters());
  int32_t n = InputDim() * OutputDim();
  linear_params_.CopyRowsFromVec(params.Range(0, n));
  bias_params_.CopyFromVec(params.Range(n, OutputDim()));
}

void AffineComponent::SetParams(const VectorView &bias,
                                const MatrixView &linear) {
  NNET3_ASSERT(bias.Dim() == linear.NumRows());
  linear_params_ = Matrix(linear, linear_params_.device());
  bias_params_ = Vector(bias, bias_params_.device());
}

// ---------------------------------------------------------------------------
// NaturalGradientAffineComponent

void NaturalGradientAffineComponent::InitFromConfig(ConfigLine *cfl) {
  is_gradient_ = false;  // not configurable, as in Kaldi
  InitLearningRatesFromConfig(cfl);
  InitParamsFromConfig(cfl, true);
  orthonormal_constraint_ = 0.0f;
  cfl->GetValue("orthonormal-constraint", &orthonormal_constraint_);
  NaturalGradientConfig ng;
  ng.ReadFromConfig(cfl, Type());
  preconditioner_in_ = OnlineNaturalGradient();
  preconditioner_out_ = OnlineNaturalGradient();
  ng.Apply(InputDim(), OutputDim(), &preconditioner_in_, &preconditioner_out_);
}

NaturalGradientAffineComponent::NaturalGradientAffineComponent(
    const MatrixView &linear_params, const VectorView &bias_params)
    : AffineComponent(linear_params, bias_params, 0.001f) {
  for (OnlineNaturalGradient *p : {&preconditioner_in_, &preconditioner_out_})
    p->SetUpdatePeriod(4);
  preconditioner_in_.SetRank(20);
  preconditioner_out_.SetRank(80);
}

void NaturalGradientAffineComponent::Read(std::istream &is, bool binary) {
  ReadParams(is, binary, ReadUpdatableCommon(is, binary));
  ReadNaturalGradientSettings(is, binary);
  ReadLegacyFieldsAndEnd(is, binary);
}

void NaturalGradientAffineComponent::ReadNaturalGradientSettings(
    std::istream &is, bool binary) {
  int32_t rank_in = 0, rank_out = 0, update_period = 0;
  float num_samples_history = 0.0f, alpha = 0.0f;
  ExpectToken(is, binary, "<RankIn>");
  ReadBasicType(is, binary, &rank_in);
  ExpectToken(is, binary, "<RankOut>");
  ReadBasicType(is, binary, &rank_out);
  std::string token;
  ReadToken(is, binary, &token);
  orthonormal_constraint_ = 0.0f;
  if (token == "<OrthonormalConstraint>") {
    ReadBasicType(is, binary, &orthonormal_constraint_);
    ReadToken(is, binary, &token);
  }
  if (token != "<UpdatePeriod>")
    NNET3_ERR << Type() << ": expected <OrthonormalConstraint> or "
              << "<UpdatePeriod>, got " << token;
  ReadBasicType(is, binary, &update_period);
  ExpectToken(is, binary, "<NumSamplesHistory>");
  ReadBasicType(is, binary, &num_samples_history);
  ExpectToken(is, binary, "<Alpha>");
  ReadBasicType(is, binary, &alpha);
  if (rank_in <= 0 || rank_out <= 0 || update_period <= 0 ||
      !(num_samples_history > 0.0f && num_samples_history < 1e6f) ||
      !(alpha >= 0.0f))
    NNET3_ERR << Type() << ": bad natural-gradient settings in the model: "
              << "<RankIn> " << rank_in << " <RankOut> " << rank_out
              << " <UpdatePeriod> " << update_period << " <NumSamplesHistory> "
              << num_samples_history << " <Alpha> " << alpha;
  preconditioner_in_ = OnlineNaturalGradient();
  preconditioner_out_ = OnlineNaturalGradient();
  for (OnlineNaturalGradient *p : {&preconditioner_in_, &preconditioner_out_}) {
    p->SetNumSamplesHistory(num_samples_history);
    p->SetAlpha(alpha);
    p->SetUpdatePeriod(update_period);
  }
  preconditioner_in_.SetRank(rank_in);
  preconditioner_out_.SetRank(rank_out);
}

void NaturalGradientAffineComponent::ReadLegacyFieldsAndEnd(std::istream &is,
                                                            bool binary) {
  // Older Kaldi versions wrote these fields (in this order) before the
  // closing token; all but <IsGradient> have since been removed.
  std::string token;
  ReadToken(is, binary, &token);
  if (token == "<MaxChangePerSample>") {
    float ignored;
    ReadBasicType(is, binary, &ignored);
    ReadToken(is, binary, &token);
  }
  if (token == "<IsGradient>") {
    ReadBasicType(is, binary, &is_gradient_);
    ReadToken(is, binary, &token);
  }
  if (token == "<UpdateCount>") {
    double ignored;
    ReadBasicType(is, binary, &ignored);
    ExpectToken(is, binary, "<ActiveScalingCount>");
    ReadBasicType(is, binary, &ignored);
    ExpectToken(is, binary, "<MaxChangeScaleStats>");
    ReadBasicType(is, binary, &ignored);
    ReadToken(is, binary, &token);
  }
  // Kaldi accepts any token ending in "NaturalGradientAffineComponent>".
  if (token.find("NaturalGradientAffineComponent>") == std::string::npos)
    NNET3_ERR << Type() << ": expected </NaturalGradientAffineComponent> "
              << "(or one of the legacy fields <MaxChangePerSample>, "
              << "<IsGradient>, <UpdateCount>), got " << token;
}

void NaturalGradientAffineComponent::Write(std::ostream &os,
                                           bool binary) const {
  WriteUpdatableCommon(os, binary);
  WriteToken(os, binary, "<LinearParams>");
  linear_params_.Write(os, binary);
  WriteToken(os, binary, "<BiasParams>");
  bias_params_.Write(os, binary);
  WriteToken(os, binary, "<RankIn>");
  WriteBasicType(os, binary, preconditioner_in_.GetRank());
  WriteToken(os, binary, "<RankOut>");
  WriteBasicType(os, binary, preconditioner_out_.GetRank());
  if (orthonormal_constraint_ != 0.0f) {
    WriteToken(os, binary, "<OrthonormalConstraint>");
    WriteBasicType(os, binary, orthonormal_constraint_);
  }
  WriteToken(os, binary, "<UpdatePeriod>");
  WriteBasicType(os, binary, preconditioner_in_.GetUpdatePeriod());
  WriteToken(os, binary, "<NumSamplesHistory>");
  WriteBasicType(os, binary, preconditioner_in_.GetNumSamplesHistory());
  WriteToken(os, binary, "<Alpha>");
  WriteBasicType(os, binary, preconditioner_in_.GetAlpha());
  WriteToken(os, binary, "</NaturalGradientAffineComponent>");
}

std::unique_ptr<Component> NaturalGradientAffineComponent::Copy() const {
  return std::make_unique<NaturalGradientAffineComponent>(*this);
}

std::string NaturalGradientAffineComponent::Info() const {
  std::ostringstream os;
  os << AffineComponent::Info() << ", rank-in=" << preconditioner_in_.GetRank()
     << ", rank-out=" << preconditioner_out_.GetRank()
     << ", num-samples-history=" << preconditioner_in_.GetNumSamplesHistory()
     << ", update-period=" << preconditioner_in_.GetUpdatePeriod()
     << ", alpha=" << preconditioner_in_.GetAlpha();
  return os.str();
}

void NaturalGradientAffineComponent::FreezeNaturalGradient(bool freeze) {
  preconditioner_in_.Freeze(freeze);
  preconditioner_out_.Freeze(freeze);
}

void NaturalGradientAffineComponent::Update(const std::string &,
                                            const MatrixView &in_value,
                                            const MatrixView &out_deriv) {
  // The gradient of W|b is out_derivᵀ [in 1]; both factors are
  // preconditioned (rows multiplied by the inverse smoothed Fisher matrix of
  // their side), and the scales that restore their norms go into the
  // learning rate instead of the matrices.
  int32_t rows = in_value.NumRows(), in_dim = in_value.NumCols();
  Matrix in_ext(rows, in_dim + 1, ResizeType::kUndefined, in_value.device());
  in_ext.ColRange(0, in_dim).CopyFromMat(in_value);
  in_ext.ColRange(in_dim, 1).Set(1.0f);
  Matrix out_deriv_precon(out_deriv);
  float in_scale = 1.0f, out_scale = 1.0f;
  preconditioner_in_.PreconditionDirections(&in_ext, &in_scale);
  preconditioner_out_.PreconditionDirections(&out_deriv_precon, &out_scale);
  float local_lrate = learning_rate_ * in_scale * out_scale;
  // What the column of ones became: the input of the bias update.
  Vector precon_ones(rows, ResizeType::kUndefined, in_value.device());
  precon_ones.CopyColFromMat(in_ext, in_dim);
  bias_params_.AddMatVec(local_lrate, out_deriv_precon, Trans::kYes,
                         precon_ones, 1.0f);
  linear_params_.AddMatMat(local_lrate, out_deriv_precon, Trans::kYes,
                           in_ext.ColRange(0, in_dim), Trans::kNo, 1.0f);
}

// ---------------------------------------------------------------------------
// FixedAffineComponent

FixedAffineComponent::FixedAffineComponent(const AffineComponent &c)
    : linear_params_(c.LinearParams()), bias_params_(c.BiasParams()) {}

void FixedAffineComponent::InitFromMatrix(const MatrixView &mat) {
  int32_t input_dim = mat.NumCols() - 1;
  linear_params_ = Matrix(mat.ColRange(0, input_dim));
  bias_params_ = Vector(mat.NumRows(), ResizeType::kUndefined, mat.device());
  bias_params_.CopyColFromMat(mat, input_dim);
}

void FixedAffineComponent::InitFromConfig(ConfigLine *cfl) {
  if (cfl->HasKey("matrix")) {
    std::string filename;
    cfl->GetValue("matrix", &filename);
    if (cfl->HasUnusedValues())
      ThrowConfigError(*cfl, Type(),
                       "matrix= must be the only key, but found '" +
                           cfl->UnusedValues() + "'");
    Matrix mat;
    GetMatrixFromConfig(cfl, Type(), "matrix", &mat);
    CheckAffineMatrix(*cfl, Type(), mat);
    InitFromMatrix(mat);
    return;
  }
  // Random parameters, for testing.
  int32_t input_dim = GetPositiveInt(cfl, Type(), "input-dim"),
          output_dim = GetPositiveInt(cfl, Type(), "output-dim");
  Matrix mat(output_dim, input_dim + 1);
  mat.SetRandn(NextComponentInitSeed());
  InitFromMatrix(mat);
}

void *FixedAffineComponent::Propagate(const ComponentPrecomputedIndexes *,
                                      const MatrixView &in,
                                      MatrixView *out) const {
  out->CopyRowsFromVec(bias_params_);  // out = 1 bᵀ + in Wᵀ
  out->AddMatMat(1.0f, in, Trans::kNo, linear_params_, Trans::kYes, 1.0f);
  return nullptr;
}

void FixedAffineComponent::Backprop(const std::string &,
                                    const ComponentPrecomputedIndexes *,
                                    const MatrixView &, const MatrixView &,
                                    const MatrixView &out_deriv, void *,
                                    Component *, MatrixView *in_deriv) const {
  // ∂f/∂x = ∂f/∂y W, added (kBackpropAdds); nothing is updated.
  if (in_deriv != nullptr)
    in_deriv->AddMatMat(1.0f, out_deriv, Trans::kNo, linear_params_, Trans::kNo,
                        1.0f);
}

void FixedAffineComponent::Read(std::istream &is, bool binary) {
  ExpectOneOrTwoTokens(is, binary, "<FixedAffineComponent>", "<LinearParams>");
  linear_params_.Read(is, binary);
  ReadBias(is, binary, Type(), linear_params_.NumRows(), &bias_params_);
  ExpectToken(is, binary, "</FixedAffineComponent>");
}

void FixedAffineComponent::Write(std::ostream &os, bool binary) const {
  WriteToken(os, binary, "<FixedAffineComponent>");
  WriteToken(os, binary, "<LinearParams>");
  linear_params_.Write(os, binary);
  WriteToken(os, binary, "<BiasParams>");
  bias_params_.Write(os, binary);
  WriteToken(os, binary, "</FixedAffineComponent>");
}

std::unique_ptr<Component> FixedAffineComponent::Copy() const {
  return std::make_unique<FixedAffineComponent>(*this);
}

std::string FixedAffineComponent::Info() const {
  std::ostringstream os;
  os << Component::Info();
  PrintParameterStats(os, "linear-params", linear_params_);
  PrintParameterStats(os, "bias", bias_params_, /*include_mean=*/true);
  return os.str();
}

void FixedAffineComponent::SetParams(const VectorView &bias,
                                     const MatrixView &linear) {
  NNET3_ASSERT(bias.Dim() == linear.NumRows());
  linear_params_ = Matrix(linear, linear_params_.device());
  bias_params_ = Vector(bias, bias_params_.device());
}

}  // namespace nnet3
