#include "nnet/components/convolution-3d-component.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "base/error.h"
#include "base/io-funcs.h"
#include "nnet/component-config.h"
#include "nnet/components/weight-bias-params.h"
#include "nnet/convolution-computation.h"
#include "nnet/init-random.h"
#include "nnet/parameter-stats.h"

namespace nnet3 {

// ---------------------------------------------------------------------------
// ConvolutionComponent (the old 3-D convolution)

int32_t ConvolutionComponent::NumPatches() const {
  if (filt_x_step_ <= 0 || filt_y_step_ <= 0) return 0;
  return (1 + (input_x_dim_ - filt_x_dim_) / filt_x_step_) *
         (1 + (input_y_dim_ - filt_y_dim_) / filt_y_step_);
}

std::string ConvolutionComponent::Problem() const {
  const int32_t values[] = {input_x_dim_, input_y_dim_, input_z_dim_,
                            filt_x_dim_,  filt_y_dim_,  filt_x_step_,
                            filt_y_step_};
  const char *keys[] = {"input-x-dim", "input-y-dim", "input-z-dim",
                        "filt-x-dim",  "filt-y-dim",  "filt-x-step",
                        "filt-y-step"};
  for (int32_t i = 0; i < 7; i++)
    if (values[i] <= 0)
      return std::string(keys[i]) + "=" + std::to_string(values[i]) +
             " must be > 0";
  if (filt_x_dim_ > input_x_dim_ || filt_y_dim_ > input_y_dim_)
    return "filt-x-dim and filt-y-dim must be <= input-x-dim and input-y-dim";
  if ((input_x_dim_ - filt_x_dim_) % filt_x_step_ != 0)
    return "filt-x-step=" + std::to_string(filt_x_step_) +
           " must divide input-x-dim - filt-x-dim = " +
           std::to_string(input_x_dim_ - filt_x_dim_);
  if ((input_y_dim_ - filt_y_dim_) % filt_y_step_ != 0)
    return "filt-y-step=" + std::to_string(filt_y_step_) +
           " must divide input-y-dim - filt-y-dim = " +
           std::to_string(input_y_dim_ - filt_y_dim_);
  return "";
}

void ConvolutionComponent::InitFromConfig(ConfigLine *cfl) {
  const std::string type = Type();
  is_gradient_ = false;
  InitLearningRatesFromConfig(cfl);
  int32_t *fields[] = {&input_x_dim_, &input_y_dim_, &input_z_dim_,
                       &filt_x_dim_,  &filt_y_dim_,  &filt_x_step_,
                       &filt_y_step_};
  const char *keys[] = {"input-x-dim", "input-y-dim", "input-z-dim",
                        "filt-x-dim",  "filt-y-dim",  "filt-x-step",
                        "filt-y-step"};
  for (int32_t i = 0; i < 7; i++)
    if (!cfl->GetValue(keys[i], fields[i]))
      ThrowConfigError(*cfl, type,
                       std::string("missing required key ") + keys[i] + "=");
  std::string order = "zyx";
  cfl->GetValue("input-vectorization-order", &order);
  if (order != "zyx" && order != "yzx")
    ThrowConfigError(
        *cfl, type,
        "input-vectorization-order=" + order + " must be zyx or yzx");
  input_vectorization_ = order == "zyx" ? kZyx : kYzx;
  std::string problem = Problem();
  if (!problem.empty()) ThrowConfigError(*cfl, type, problem);
  const int32_t filter_dim = filt_x_dim_ * filt_y_dim_ * input_z_dim_;
  Matrix mat;
  if (GetMatrixFromConfig(cfl, type, "matrix", &mat)) {
    if (mat.NumRows() == 0 || mat.NumCols() != filter_dim + 1)
      ThrowConfigError(*cfl, type,
                       "the matrix= file must have filter-dim + 1 = " +
                           std::to_string(filter_dim + 1) + " columns");
    filter_params_ = Matrix(mat.ColRange(0, filter_dim));
    bias_params_ = Vector(mat.NumRows());
    bias_params_.CopyColFromMat(mat, filter_dim);
  } else {
    const int32_t num_filters = GetPositiveInt(cfl, type, "num-filters");
    const float param_stddev = GetNonNegativeFloat(
        cfl, type, "param-stddev", 1.0f / std::sqrt(float(filter_dim)));
    const float bias_stddev =
        GetNonNegativeFloat(cfl, type, "bias-stddev", 1.0f);
    // W = randn · param-stddev, b = randn · bias-stddev.
    const uint64_t seed = NextComponentInitSeed();
    filter_params_ = Matrix(num_filters, filter_dim);
    filter_params_.SetRandn(seed);
    filter_params_.Scale(param_stddev);
    bias_params_ = Vector(num_filters);
    bias_params_.SetRandn(BiasSeed(seed));
    bias_params_.Scale(bias_stddev);
  }
  ComputeColumnMaps();
}

void ConvolutionComponent::ComputeColumnMaps() {
  const int32_t nx = 1 + (input_x_dim_ - filt_x_dim_) / filt_x_step_,
                ny = 1 + (input_y_dim_ - filt_y_dim_) / filt_y_step_;
  std::vector<int32_t> columns;
  for (int32_t px = 0; px < nx; px++)
    for (int32_t py = 0; py < ny; py++)
      for (int32_t x = 0; x < filt_x_dim_; x++)
        for (int32_t y = 0; y < filt_y_dim_; y++)
          for (int32_t z = 0; z < input_z_dim_; z++) {
            const int32_t ix = px * filt_x_step_ + x,
                          iy = py * filt_y_step_ + y;
            // x is slowest in both orders; then z,y ("yzx": y fastest) or
            // y,z ("zyx": z fastest).
            columns.push_back(input_vectorization_ == kZyx
                                  ? (ix * input_y_dim_ + iy) * input_z_dim_ + z
                                  : (ix * input_z_dim_ + z) * input_y_dim_ +
                                        iy);
          }
  patch_columns_ = IndexVector(columns);
  backward_columns_.clear();
  for (const std::vector<int32_t> &map : ReverseColumnMap(columns, InputDim()))
    backward_columns_.emplace_back(map);
}

Matrix ConvolutionComponent::Patches(const MatrixView &in) const {
  Matrix patches(in.NumRows(), patch_columns_.Dim(), ResizeType::kUndefined,
                 MatrixStrideType::kStrideEqualNumCols, in.device());
  patches.CopyCols(in, patch_columns_);
  return patches;
}

void *ConvolutionComponent::Propagate(const ComponentPrecomputedIndexes *,
                                      const MatrixView &in,
                                      MatrixView *out) const {
  // One GEMM over all patches: the patches seen as (rows * #patches) x
  // filter-dim, the output as (rows * #patches) x num-filters.
  const int32_t p = NumPatches(), f = filter_params_.NumRows(),
                d = filter_params_.NumCols(), rows = in.NumRows();
  Matrix patches = Patches(in);
  Matrix y(rows, p * f, ResizeType::kUndefined,
           MatrixStrideType::kStrideEqualNumCols, in.device());
  MatrixView y_r(y.device(), y.Data(), rows * p, f, f);
  y_r.CopyRowsFromVec(bias_params_);
  y_r.AddMatMat(1.0f, MatrixView(in.device(), patches.Data(), rows * p, d, d),
                Trans::kNo, filter_params_, Trans::kYes, 1.0f);
  out->AddMat(1.0f, y);  // kPropagateAdds
  return nullptr;
}

void ConvolutionComponent::Backprop(const std::string &,
                                    const ComponentPrecomputedIndexes *,
                                    const MatrixView &in_value,
                                    const MatrixView &,
                                    const MatrixView &out_deriv_in, void *,
                                    Component *to_update_in,
                                    MatrixView *in_deriv) const {
  const int32_t p = NumPatches(), f = filter_params_.NumRows(),
                d = filter_params_.NumCols(), rows = out_deriv_in.NumRows();
  Matrix out_deriv(rows, out_deriv_in.NumCols(), ResizeType::kUndefined,
                   MatrixStrideType::kStrideEqualNumCols,
                   out_deriv_in.device());
  out_deriv.CopyFromMat(out_deriv_in);  // contiguous, for the reshape
  MatrixView od_r(out_deriv.device(), out_deriv.Data(), rows * p, f, f);
  if (in_deriv != nullptr) {
    Matrix patch_deriv(rows, p * d, ResizeType::kUndefined,
                       MatrixStrideType::kStrideEqualNumCols,
                       out_deriv.device());
    MatrixView(patch_deriv.device(), patch_deriv.Data(), rows * p, d, d)
        .AddMatMat(1.0f, od_r, Trans::kNo, filter_params_, Trans::kNo, 0.0f);
    for (const IndexVector &back : backward_columns_)
      in_deriv->AddCols(patch_deriv, back);
  }
  if (to_update_in == nullptr) return;
  auto *to_update = dynamic_cast<ConvolutionComponent *>(to_update_in);
  NNET3_ASSERT(to_update != nullptr);
  const float lr = to_update->learning_rate_;
  Matrix patches = Patches(in_value);
  to_update->filter_params_.AddMatMat(
      lr, od_r, Trans::kYes,
      MatrixView(patches.device(), patches.Data(), rows * p, d, d), Trans::kNo,
      1.0f);
  to_update->bias_params_.AddRowSumMat(lr, od_r, 1.0f);
}

void ConvolutionComponent::Read(std::istream &is, bool binary) {
  std::string token = ReadUpdatableCommon(is, binary);
  if (token.empty()) ReadToken(is, binary, &token);
  if (token != "<InputXDim>")
    NNET3_ERR << "ConvolutionComponent: expected <InputXDim>, got " << token;
  ReadBasicType(is, binary, &input_x_dim_);
  const char *tokens[] = {"<InputYDim>", "<InputZDim>", "<FiltXDim>",
                          "<FiltYDim>",  "<FiltXStep>", "<FiltYStep>"};
  int32_t *fields[] = {&input_y_dim_, &input_z_dim_, &filt_x_dim_,
                       &filt_y_dim_,  &filt_x_step_, &filt_y_step_};
  for (int32_t i = 0; i < 6; i++) {
    ExpectToken(is, binary, tokens[i]);
    ReadBasicType(is, binary, fields[i]);
  }
  int32_t order = 0;
  ExpectToken(is, binary, "<InputVectorization>");
  ReadBasicType(is, binary, &order);
  if (order != kYzx && order != kZyx)
    NNET3_ERR << "ConvolutionComponent: bad <InputVectorization> " << order;
  input_vectorization_ = static_cast<Vectorization>(order);
  ExpectToken(is, binary, "<FilterParams>");
  filter_params_.Read(is, binary);
  ExpectToken(is, binary, "<BiasParams>");
  bias_params_.Read(is, binary);
  ReadToken(is, binary, &token);
  if (token == "<IsGradient>") {
    ReadBasicType(is, binary, &is_gradient_);
    ReadToken(is, binary, &token);
  }
  if (token != "</ConvolutionComponent>")
    NNET3_ERR << "ConvolutionComponent: expected </ConvolutionComponent>, got "
              << token;
  std::string problem = Problem();
  if (problem.empty() &&
      (filter_params_.NumRows() == 0 ||
       filter_params_.NumCols() != filt_x_dim_ * filt_y_dim_ * input_z_dim_ ||
       bias_params_.Dim() != filter_params_.NumRows()))
    problem = "the filter parameters do not match the geometry";
  if (!problem.empty()) NNET3_ERR << "ConvolutionComponent: " << problem;
  ComputeColumnMaps();
}

void ConvolutionComponent::Write(std::ostream &os, bool binary) const {
  WriteUpdatableCommon(os, binary);
  const char *tokens[] = {"<InputXDim>", "<InputYDim>", "<InputZDim>",
                          "<FiltXDim>",  "<FiltYDim>",  "<FiltXStep>",
                          "<FiltYStep>"};
  const int32_t fields[] = {input_x_dim_, input_y_dim_, input_z_dim_,
                            filt_x_dim_,  filt_y_dim_,  filt_x_step_,
                            filt_y_step_};
  for (int32_t i = 0; i < 7; i++) {
    WriteToken(os, binary, tokens[i]);
    WriteBasicType(os, binary, fields[i]);
  }
  WriteToken(os, binary, "<InputVectorization>");
  WriteBasicType(os, binary, static_cast<int32_t>(input_vectorization_));
  WriteToken(os, binary, "<FilterParams>");
  filter_params_.Write(os, binary);
  WriteToken(os, binary, "<BiasParams>");
  bias_params_.Write(os, binary);
  WriteToken(os, binary, "<IsGradient>");
  WriteBasicType(os, binary, is_gradient_);
  WriteToken(os, binary, "</ConvolutionComponent>");
}

std::unique_ptr<Component> ConvolutionComponent::Copy() const {
  return std::make_unique<ConvolutionComponent>(*this);
}

std::string ConvolutionComponent::Info() const {
  std::ostringstream os;
  os << UpdatableComponent::Info() << ", input-x-dim=" << input_x_dim_
     << ", input-y-dim=" << input_y_dim_ << ", input-z-dim=" << input_z_dim_
     << ", filt-x-dim=" << filt_x_dim_ << ", filt-y-dim=" << filt_y_dim_
     << ", filt-x-step=" << filt_x_step_ << ", filt-y-step=" << filt_y_step_
     << ", input-vectorization=" << static_cast<int32_t>(input_vectorization_)
     << ", num-filters=" << filter_params_.NumRows();
  PrintParameterStats(os, "filter-params", filter_params_);
  PrintParameterStats(os, "bias-params", bias_params_, /*include_mean=*/true);
  return os.str();
}

void ConvolutionComponent::Scale(float scale) {
  ScaleWeightBias(scale, &filter_params_, &bias_params_);
}

void ConvolutionComponent::Add(float alpha, const Component &other_in) {
  auto *other = dynamic_cast<const ConvolutionComponent *>(&other_in);
  NNET3_ASSERT(other != nullptr);
  filter_params_.AddMat(alpha, other->filter_params_);
  bias_params_.AddVec(alpha, other->bias_params_);
}

float ConvolutionComponent::DotProduct(
    const UpdatableComponent &other_in) const {
  auto *other = dynamic_cast<const ConvolutionComponent *>(&other_in);
  NNET3_ASSERT(other != nullptr);
  return static_cast<float>(
      TraceMatMat(filter_params_, other->filter_params_, Trans::kYes) +
      VecVec(bias_params_, other->bias_params_));
}

void ConvolutionComponent::PerturbParams(float stddev, uint64_t seed) {
  PerturbWeightBias(stddev, seed, &filter_params_, &bias_params_);
}

int32_t ConvolutionComponent::NumParameters() const {
  return (filter_params_.NumCols() + 1) * filter_params_.NumRows();
}

void ConvolutionComponent::Vectorize(VectorView *params) const {
  VectorizeWeightBias(filter_params_, bias_params_, params);
}

void ConvolutionComponent::UnVectorize(const VectorView &params) {
  UnVectorizeWeightBias(params, &filter_params_, &bias_params_);
}

}  // namespace nnet3
