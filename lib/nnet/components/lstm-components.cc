#include "nnet/components/lstm-components.h"

#include <iomanip>
#include <sstream>

#include "base/error.h"
#include "base/io-funcs.h"
#include "nnet/component-config.h"
#include "nnet/component-registry.h"
#include "nnet/components/nonlinear-common.h"
#include "nnet/components/recurrent-stats.h"
#include "nnet/init-random.h"
#include "nnet/parameter-stats.h"

namespace nnet3 {

namespace {

const char *const kNonlinearityNames[5] = {
    "i_t_sigmoid", "f_t_sigmoid", "c_t_tanh", "o_t_sigmoid", "m_t_tanh"};

// Contiguous zeros on `device`, viewed as rows x cols (the vector owns it).
MatrixView ZeroedBlock(int32_t rows, int32_t cols, Device &device,
                       Vector *storage) {
  *storage = Vector(rows * cols, ResizeType::kSetZero, device);
  return storage->AsMatrix(rows, cols);
}

}  // namespace

std::unique_ptr<Component> NewLstmComponentOfType(const std::string &type) {
  if (type == "LstmNonlinearityComponent")
    return std::make_unique<LstmNonlinearityComponent>();
  return nullptr;
}

std::vector<std::string> LstmComponentTypes() {
  return {"LstmNonlinearityComponent"};
}

void LstmNonlinearityComponent::InitFromConfig(ConfigLine *cfl) {
  InitLearningRatesFromConfig(cfl);
  const std::string type = Type();
  int32_t cell_dim = 0;
  GetRequiredKey(type, "cell-dim", cfl, &cell_dim);
  CheckConfig(cell_dim > 0, type, "cell-dim", cell_dim, "must be > 0", *cfl);
  float param_stddev = 1.0f, tanh_threshold = 0.2f, sigmoid_threshold = 0.05f,
        self_repair_scale = 1.0e-05f;
  bool use_dropout = false;
  cfl->GetValue("param-stddev", &param_stddev);
  cfl->GetValue("tanh-self-repair-threshold", &tanh_threshold);
  cfl->GetValue("sigmoid-self-repair-threshold", &sigmoid_threshold);
  cfl->GetValue("self-repair-scale", &self_repair_scale);
  cfl->GetValue("use-dropout", &use_dropout);
  CheckConfig(param_stddev >= 0.0f, type, "param-stddev", param_stddev,
              "must be >= 0", *cfl);
  CheckConfig(tanh_threshold >= 0.0f && tanh_threshold <= 1.0f, type,
              "tanh-self-repair-threshold", tanh_threshold, "must be in [0, 1]",
              *cfl);
  CheckConfig(sigmoid_threshold >= 0.0f && sigmoid_threshold <= 0.25f, type,
              "sigmoid-self-repair-threshold", sigmoid_threshold,
              "must be in [0, 0.25]", *cfl);
  CheckConfig(self_repair_scale >= 0.0f && self_repair_scale <= 0.1f, type,
              "self-repair-scale", self_repair_scale, "must be in [0, 0.1]",
              *cfl);
  Init(cell_dim, use_dropout, param_stddev, tanh_threshold, sigmoid_threshold,
       self_repair_scale);
}

void LstmNonlinearityComponent::Init(int32_t cell_dim, bool use_dropout,
                                     float param_stddev, float tanh_threshold,
                                     float sigmoid_threshold,
                                     float self_repair_scale) {
  use_dropout_ = use_dropout;
  params_ = Matrix(3, cell_dim);  // randn · param-stddev
  params_.SetRandn(NextComponentInitSeed());
  params_.Scale(param_stddev);
  value_avg_ = Vector(5 * cell_dim);
  deriv_avg_ = Vector(5 * cell_dim);
  std::vector<float> config(10, sigmoid_threshold);
  config[2] = config[4] = tanh_threshold;
  for (int32_t k = 5; k < 10; k++) config[k] = self_repair_scale;
  self_repair_config_ = Vector(config);
  self_repair_prob_ = Vector(5);
  count_ = 0.0;
  InitNaturalGradient();
}

void LstmNonlinearityComponent::InitNaturalGradient() {
  // Fixed, as in Kaldi: the preconditioner sees only 3 rows (summed over
  // the minibatch) per update, so a small rank and history suffice.
  preconditioner_ = OnlineNaturalGradient();
  preconditioner_.SetRank(20);
  preconditioner_.SetUpdatePeriod(2);
  preconditioner_.SetNumSamplesHistory(1000.0f);
}

void *LstmNonlinearityComponent::Propagate(const ComponentPrecomputedIndexes *,
                                           const MatrixView &in,
                                           MatrixView *out) const {
  NNET3_ASSERT(in.NumCols() == InputDim() && out->NumCols() == OutputDim() &&
               in.NumRows() == out->NumRows());
  in.backend().LstmNonlinearity(in.ConstView(), params_.ConstView(),
                                out->View());
  return nullptr;
}

void LstmNonlinearityComponent::Backprop(
    const std::string &, const ComponentPrecomputedIndexes *,
    const MatrixView &in_value, const MatrixView &, const MatrixView &out_deriv,
    void *, Component *to_update_in, MatrixView *in_deriv) const {
  const int32_t cell_dim = CellDim();
  Backend &backend = in_value.backend();
  MatView in_deriv_view = in_deriv != nullptr ? in_deriv->View() : MatView();
  // Self-repair decides from this component's derivative sums.
  Matrix deriv_sum(DerivAvg());
  if (count_ != 0.0) deriv_sum.Scale(static_cast<float>(count_));
  auto *to_update = dynamic_cast<LstmNonlinearityComponent *>(to_update_in);
  if (to_update_in != nullptr) NNET3_ASSERT(to_update != nullptr);
  if (to_update == nullptr) {
    backend.DiffLstmNonlinearity(
        in_value.ConstView(), params_.ConstView(), out_deriv.ConstView(),
        deriv_sum.ConstView(), self_repair_config_.ConstView(), count_,
        in_deriv_view, MatView(), MatView(), MatView(), MatView());
    return;
  }
  Device &device = in_value.device();
  Vector params_store, value_store, deriv_store, repair_store;
  MatrixView params_deriv = ZeroedBlock(3, cell_dim, device, &params_store),
             value_sum = ZeroedBlock(5, cell_dim, device, &value_store),
             batch_deriv_sum = ZeroedBlock(5, cell_dim, device, &deriv_store),
             repair_sum = ZeroedBlock(5, cell_dim, device, &repair_store);
  backend.DiffLstmNonlinearity(
      in_value.ConstView(), params_.ConstView(), out_deriv.ConstView(),
      deriv_sum.ConstView(), self_repair_config_.ConstView(), count_,
      in_deriv_view, params_deriv.View(), value_sum.View(),
      batch_deriv_sum.View(), repair_sum.View());
  to_update->AccumulateStats(in_value.NumRows(), value_sum, batch_deriv_sum,
                             repair_sum);
  // Peephole update: natural gradient over the 3 rows of the gradient.
  float scale = 1.0f;
  if (!to_update->is_gradient_)
    to_update->preconditioner_.PreconditionDirections(&params_deriv, &scale);
  to_update->params_.AddMat(to_update->learning_rate_ * scale, params_deriv);
}

void LstmNonlinearityComponent::AccumulateStats(
    int32_t rows, const MatrixView &value_sum, const MatrixView &deriv_sum,
    const MatrixView &self_repair_sum) {
  const int32_t cell_dim = CellDim();
  const double new_count = count_ + rows;
  Vector sum(5 * cell_dim, ResizeType::kUndefined, value_avg_.device());
  sum.CopyRowsFromMat(value_sum);
  CombineAverage(count_, new_count, 1.0, sum, &value_avg_);
  sum.CopyRowsFromMat(deriv_sum);
  CombineAverage(count_, new_count, 1.0, sum, &deriv_avg_);
  // The repaired proportion is per frame and cell.
  Vector repaired(5, ResizeType::kSetZero, value_avg_.device());
  repaired.AddColSumMat(1.0f, self_repair_sum, 0.0f);
  CombineAverage(count_ * cell_dim, new_count * cell_dim, 1.0, repaired,
                 &self_repair_prob_);
  count_ = new_count;
}

void LstmNonlinearityComponent::Read(std::istream &is, bool binary) {
  std::string token = ReadUpdatableCommon(is, binary);
  if (token.empty()) ReadToken(is, binary, &token);
  if (token != "<Params>")
    NNET3_ERR << Type() << ": expected <Params>, got " << token;
  params_.Read(is, binary);
  Matrix value_avg, deriv_avg;
  ExpectToken(is, binary, "<ValueAvg>");
  value_avg.Read(is, binary);
  ExpectToken(is, binary, "<DerivAvg>");
  deriv_avg.Read(is, binary);
  ExpectToken(is, binary, "<SelfRepairConfig>");
  self_repair_config_.Read(is, binary);
  ExpectToken(is, binary, "<SelfRepairProb>");
  self_repair_prob_.Read(is, binary);
  const int32_t cell_dim = params_.NumCols();
  if (params_.NumRows() != 3 || cell_dim == 0 || value_avg.NumRows() != 5 ||
      value_avg.NumCols() != cell_dim || deriv_avg.NumRows() != 5 ||
      deriv_avg.NumCols() != cell_dim || self_repair_config_.Dim() != 10 ||
      self_repair_prob_.Dim() != 5)
    NNET3_ERR << Type() << ": inconsistent model: <Params> "
              << params_.NumRows() << " x " << cell_dim << ", <ValueAvg> "
              << value_avg.NumRows() << " x " << value_avg.NumCols()
              << ", <SelfRepairConfig> dimension " << self_repair_config_.Dim()
              << ", <SelfRepairProb> dimension " << self_repair_prob_.Dim()
              << " (expected 3 x C, 5 x C, 10 and 5)";
  value_avg_ = Vector(5 * cell_dim);
  value_avg_.CopyRowsFromMat(value_avg);
  deriv_avg_ = Vector(5 * cell_dim);
  deriv_avg_.CopyRowsFromMat(deriv_avg);
  ReadToken(is, binary, &token);
  use_dropout_ = false;
  if (token == "<UseDropout>") {
    ReadBasicType(is, binary, &use_dropout_);
    ReadToken(is, binary, &token);
  }
  if (token != "<Count>")
    NNET3_ERR << Type() << ": expected <Count>, got " << token;
  ReadBasicType(is, binary, &count_);
  InitNaturalGradient();
  ExpectToken(is, binary, "</LstmNonlinearityComponent>");
}

void LstmNonlinearityComponent::Write(std::ostream &os, bool binary) const {
  WriteUpdatableCommon(os, binary);
  WriteToken(os, binary, "<Params>");
  params_.Write(os, binary);
  WriteToken(os, binary, "<ValueAvg>");
  ValueAvg().Write(os, binary);
  WriteToken(os, binary, "<DerivAvg>");
  DerivAvg().Write(os, binary);
  WriteToken(os, binary, "<SelfRepairConfig>");
  self_repair_config_.Write(os, binary);
  WriteToken(os, binary, "<SelfRepairProb>");
  self_repair_prob_.Write(os, binary);
  if (use_dropout_) {  // only when true, as Kaldi
    WriteToken(os, binary, "<UseDropout>");
    WriteBasicType(os, binary, use_dropout_);
  }
  WriteToken(os, binary, "<Count>");
  WriteBasicType(os, binary, count_);
  WriteToken(os, binary, "</LstmNonlinearityComponent>");
}

std::unique_ptr<Component> LstmNonlinearityComponent::Copy() const {
  return std::make_unique<LstmNonlinearityComponent>(*this);
}

std::string LstmNonlinearityComponent::Info() const {
  std::ostringstream os;
  const int32_t cell_dim = CellDim();
  os << UpdatableComponent::Info() << ", cell-dim=" << cell_dim
     << ", use-dropout=" << (use_dropout_ ? "true" : "false");
  PrintParameterStats(os, "w_ic", params_.Row(0));
  PrintParameterStats(os, "w_fc", params_.Row(1));
  PrintParameterStats(os, "w_oc", params_.Row(2));
  if (count_ > 0)
    os << ", count=" << std::setprecision(3) << count_ << std::setprecision(6);
  const std::vector<float> config = self_repair_config_.ToHost(),
                           prob = self_repair_prob_.ToHost();
  for (int32_t k = 0; k < 5; k++) {
    os << ", " << kNonlinearityNames[k]
       << "={ self-repair-lower-threshold=" << config[k]
       << ", self-repair-scale=" << config[k + 5];
    if (count_ != 0) {
      os << ", self-repaired-proportion=" << prob[k]
         << ", value-avg=" << SummarizeVector(ValueAvg().Row(k).ToHost())
         << ", deriv-avg=" << SummarizeVector(DerivAvg().Row(k).ToHost());
    }
    os << " }";
  }
  return os.str();
}

void LstmNonlinearityComponent::Scale(float scale) {
  if (scale == 0.0f) {
    params_.SetZero();
    ZeroStats();
    return;
  }
  params_.Scale(scale);
  ScaleAverage(scale, count_, &value_avg_);
  ScaleAverage(scale, count_, &deriv_avg_);
  ScaleAverage(scale, count_, &self_repair_prob_);
  count_ *= scale;
}

void LstmNonlinearityComponent::Add(float alpha, const Component &other_in) {
  auto *other = dynamic_cast<const LstmNonlinearityComponent *>(&other_in);
  NNET3_ASSERT(other != nullptr && other->CellDim() == CellDim());
  params_.AddMat(alpha, other->params_);
  const int32_t cell_dim = CellDim();
  AddAverage(count_, alpha, other->count_, other->value_avg_, &value_avg_);
  AddAverage(count_, alpha, other->count_, other->deriv_avg_, &deriv_avg_);
  AddAverage(count_ * cell_dim, alpha, other->count_ * cell_dim,
             other->self_repair_prob_, &self_repair_prob_);
  count_ += alpha * other->count_;
}

void LstmNonlinearityComponent::ZeroStats() {
  value_avg_.SetZero();
  deriv_avg_.SetZero();
  self_repair_prob_.SetZero();
  count_ = 0.0;
}

float LstmNonlinearityComponent::DotProduct(
    const UpdatableComponent &other_in) const {
  auto *other = dynamic_cast<const LstmNonlinearityComponent *>(&other_in);
  NNET3_ASSERT(other != nullptr);
  return static_cast<float>(TraceMatMat(params_, other->params_, Trans::kYes));
}

void LstmNonlinearityComponent::PerturbParams(float stddev, uint64_t seed) {
  Matrix noise(3, CellDim(), ResizeType::kUndefined, params_.device());
  noise.SetRandn(seed);
  params_.AddMat(stddev, noise);
}

void LstmNonlinearityComponent::Vectorize(VectorView *params) const {
  NNET3_ASSERT(params->Dim() == NumParameters());
  params->CopyRowsFromMat(params_);
}

void LstmNonlinearityComponent::UnVectorize(const VectorView &params) {
  NNET3_ASSERT(params.Dim() == NumParameters());
  params_.CopyRowsFromVec(params);
}

void LstmNonlinearityComponent::FreezeNaturalGradient(bool freeze) {
  preconditioner_.Freeze(freeze);
}

}  // namespace nnet3
