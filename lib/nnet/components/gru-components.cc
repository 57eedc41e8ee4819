#include "nnet/components/gru-components.h"

#include <cmath>
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

std::unique_ptr<Component> NewGruComponentOfType(const std::string &type) {
  if (type == "GruNonlinearityComponent")
    return std::make_unique<GruNonlinearityComponent>();
  if (type == "OutputGruNonlinearityComponent")
    return std::make_unique<OutputGruNonlinearityComponent>();
  return nullptr;
}

std::vector<std::string> GruComponentTypes() {
  return {"GruNonlinearityComponent", "OutputGruNonlinearityComponent"};
}

namespace {

// Reads the common prefix and then expects `token`.
void ReadCommonThen(const std::string &common_result, std::istream &is,
                    bool binary, const std::string &type,
                    const std::string &token) {
  if (common_result.empty())
    ExpectToken(is, binary, token);
  else if (common_result != token)
    NNET3_ERR << type << ": expected <LearningRate> or " << token << ", got "
              << common_result;
}

// The self-repair keys shared by both components.
void ReadSelfRepairKeys(ConfigLine *cfl, const std::string &type,
                        GruTanhStats *stats) {
  stats->self_repair_threshold = 0.2f;
  stats->self_repair_scale = 1.0e-05f;
  cfl->GetValue("self-repair-threshold", &stats->self_repair_threshold);
  cfl->GetValue("self-repair-scale", &stats->self_repair_scale);
  CheckConfig(stats->self_repair_threshold >= 0.0f, type,
              "self-repair-threshold", stats->self_repair_threshold,
              "must be >= 0", *cfl);
  CheckConfig(stats->self_repair_scale >= 0.0f, type, "self-repair-scale",
              stats->self_repair_scale, "must be >= 0", *cfl);
}

// The forward pass shared by both components once the tanh input is in
// h_t: h_t = tanh(h_t); c_t = (1 - z)∘h_t + z∘c_{t-1}.
void FinishForward(const MatrixView &z_t, const MatrixView &c_t1,
                   MatrixView *h_t, MatrixView *c_t) {
  h_t->ApplyFunc(Func::kTanh);
  c_t->CopyFromMat(*h_t);
  c_t->AddMatMatElements(-1.0f, z_t, *h_t, 1.0f);
  c_t->AddMatMatElements(1.0f, z_t, c_t1, 1.0f);
}

// Backprop through c_t = (1 - z)∘h + z∘c_{t-1} and the tanh: returns the
// derivative w.r.t. the tanh input, and adds to ∂z and ∂c_{t-1} if wanted.
Matrix BackpropStateUpdate(const MatrixView &z_t, const MatrixView &c_t1,
                           const MatrixView &h_t, const MatrixView &out_deriv,
                           MatrixView *z_t_deriv, MatrixView *c_t1_deriv) {
  const int32_t c = h_t.NumCols();
  MatrixView c_t_deriv = out_deriv.ColRange(c, c);
  // h_t is never used outside the GRU, but tests may give it a derivative.
  Matrix h_t_deriv(out_deriv.ColRange(0, c));
  h_t_deriv.AddMat(1.0f, c_t_deriv);
  h_t_deriv.AddMatMatElements(-1.0f, c_t_deriv, z_t, 1.0f);
  if (z_t_deriv != nullptr) {
    z_t_deriv->AddMatMatElements(-1.0f, c_t_deriv, h_t, 1.0f);
    z_t_deriv->AddMatMatElements(1.0f, c_t_deriv, c_t1, 1.0f);
    c_t1_deriv->AddMatMatElements(1.0f, c_t_deriv, z_t, 1.0f);
  }
  h_t_deriv.DiffTanh(h_t, h_t_deriv);
  return h_t_deriv;
}

}  // namespace

// ---------------------------------------------------------------------------
// GruTanhStats

void GruTanhStats::Init(int32_t cell_dim) {
  value_avg = Vector(cell_dim);
  deriv_avg = Vector(cell_dim);
  self_repair_total = 0.0;
  count = 0.0;
}

void GruTanhStats::AccumulateAndRepair(const MatrixView &h_t,
                                       MatrixView *h_t_deriv) {
  const int32_t rows = h_t.NumRows(), dim = h_t.NumCols();
  Matrix tanh_deriv(h_t);  // 1 - h^2
  tanh_deriv.ApplyPow(2.0f);
  tanh_deriv.Scale(-1.0f);
  tanh_deriv.Add(1.0f);
  Vector sum(dim, ResizeType::kUndefined, h_t.device());
  const double new_count = count + rows;
  sum.AddRowSumMat(1.0f, h_t, 0.0f);
  CombineAverage(count, new_count, 1.0, sum, &value_avg);
  sum.AddRowSumMat(1.0f, tanh_deriv, 0.0f);
  CombineAverage(count, new_count, 1.0, sum, &deriv_avg);
  count = new_count;
  if (count <= 0.0) return;
  // Units whose derivative average is below the threshold: 1, else 0.
  Vector below(deriv_avg);
  below.Scale(-1.0f);
  below.Add(self_repair_threshold);
  below.ApplyFunc(Func::kHeaviside);
  self_repair_total += below.Sum();
  h_t_deriv->AddMatDiagVec(-self_repair_scale, h_t, Trans::kNo, below, 1.0f);
}

void GruTanhStats::Scale(float scale) {
  ScaleAverage(scale, count, &value_avg);
  ScaleAverage(scale, count, &deriv_avg);
  self_repair_total *= scale;
  count *= scale;
}

void GruTanhStats::Add(float alpha, const GruTanhStats &other) {
  AddAverage(count, alpha, other.count, other.value_avg, &value_avg);
  AddAverage(count, alpha, other.count, other.deriv_avg, &deriv_avg);
  self_repair_total += alpha * other.self_repair_total;
  count += alpha * other.count;
}

void GruTanhStats::Zero() {
  value_avg.SetZero();
  deriv_avg.SetZero();
  self_repair_total = 0.0;
  count = 0.0;
}

void GruTanhStats::Write(std::ostream &os, bool binary) const {
  WriteToken(os, binary, "<ValueAvg>");
  value_avg.Write(os, binary);
  WriteToken(os, binary, "<DerivAvg>");
  deriv_avg.Write(os, binary);
  WriteToken(os, binary, "<SelfRepairTotal>");
  WriteBasicType(os, binary, self_repair_total);
  WriteToken(os, binary, "<Count>");
  WriteBasicType(os, binary, count);
  WriteToken(os, binary, "<SelfRepairThreshold>");
  WriteBasicType(os, binary, self_repair_threshold);
  WriteToken(os, binary, "<SelfRepairScale>");
  WriteBasicType(os, binary, self_repair_scale);
}

void GruTanhStats::Read(std::istream &is, bool binary, const std::string &type,
                        int32_t cell_dim) {
  ExpectToken(is, binary, "<ValueAvg>");
  value_avg.Read(is, binary);
  ExpectToken(is, binary, "<DerivAvg>");
  deriv_avg.Read(is, binary);
  if (value_avg.Dim() != cell_dim || deriv_avg.Dim() != cell_dim)
    NNET3_ERR << type << ": <ValueAvg> / <DerivAvg> have dimensions "
              << value_avg.Dim() << " / " << deriv_avg.Dim()
              << " but <CellDim> is " << cell_dim;
  ExpectToken(is, binary, "<SelfRepairTotal>");
  ReadBasicType(is, binary, &self_repair_total);
  ExpectToken(is, binary, "<Count>");
  ReadBasicType(is, binary, &count);
  ExpectToken(is, binary, "<SelfRepairThreshold>");
  ReadBasicType(is, binary, &self_repair_threshold);
  ExpectToken(is, binary, "<SelfRepairScale>");
  ReadBasicType(is, binary, &self_repair_scale);
}

void GruTanhStats::AppendInfo(std::ostream &os, int32_t cell_dim) const {
  os << ", self-repair-threshold=" << self_repair_threshold
     << ", self-repair-scale=" << self_repair_scale;
  if (count > 0) {
    os << ", count=" << std::setprecision(3) << count << std::setprecision(6)
       << ", self-repaired-proportion="
       << self_repair_total / (count * cell_dim)
       << ", value-avg=" << SummarizeVector(value_avg.ToHost())
       << ", deriv-avg=" << SummarizeVector(deriv_avg.ToHost());
  }
}

// ---------------------------------------------------------------------------
// GruNonlinearityComponent

void GruNonlinearityComponent::InitFromConfig(ConfigLine *cfl) {
  const std::string type = Type();
  InitLearningRatesFromConfig(cfl);
  GetRequiredKey(type, "cell-dim", cfl, &cell_dim_);
  CheckConfig(cell_dim_ > 0, type, "cell-dim", cell_dim_, "must be > 0", *cfl);
  recurrent_dim_ = -1;
  cfl->GetValue("recurrent-dim", &recurrent_dim_);
  if (recurrent_dim_ < 0) recurrent_dim_ = cell_dim_;
  CheckConfig(recurrent_dim_ > 0 && recurrent_dim_ <= cell_dim_, type,
              "recurrent-dim", recurrent_dim_, "must be in [1, cell-dim]",
              *cfl);
  ReadSelfRepairKeys(cfl, type, &stats_);
  float param_stddev = 1.0f / std::sqrt(static_cast<float>(cell_dim_)),
        alpha = 4.0f;
  int32_t rank_in = 20, rank_out = 80, update_period = 4;
  cfl->GetValue("param-stddev", &param_stddev);
  cfl->GetValue("alpha", &alpha);
  cfl->GetValue("rank-in", &rank_in);
  cfl->GetValue("rank-out", &rank_out);
  cfl->GetValue("update-period", &update_period);
  CheckConfig(rank_in > 0, type, "rank-in", rank_in, "must be > 0", *cfl);
  CheckConfig(rank_out > 0, type, "rank-out", rank_out, "must be > 0", *cfl);
  CheckConfig(update_period > 0, type, "update-period", update_period,
              "must be > 0", *cfl);
  w_h_ = Matrix(cell_dim_, recurrent_dim_);  // randn · param-stddev
  w_h_.SetRandn(NextComponentInitSeed());
  w_h_.Scale(param_stddev);
  preconditioner_in_ = OnlineNaturalGradient();
  preconditioner_out_ = OnlineNaturalGradient();
  for (OnlineNaturalGradient *p : {&preconditioner_in_, &preconditioner_out_}) {
    p->SetAlpha(alpha);
    p->SetUpdatePeriod(update_period);
  }
  preconditioner_in_.SetRank(rank_in);
  preconditioner_out_.SetRank(rank_out);
  stats_.Init(cell_dim_);
}

void *GruNonlinearityComponent::Propagate(const ComponentPrecomputedIndexes *,
                                          const MatrixView &in,
                                          MatrixView *out) const {
  NNET3_ASSERT(in.NumCols() == InputDim() && out->NumCols() == OutputDim() &&
               in.NumRows() == out->NumRows());
  const int32_t c = cell_dim_, r = recurrent_dim_;
  MatrixView z_t = in.ColRange(0, c), r_t = in.ColRange(c, r),
             hpart_t = in.ColRange(c + r, c), c_t1 = in.ColRange(2 * c + r, c),
             s_t1 = in.ColRange(in.NumCols() - r, r);
  MatrixView h_t = out->ColRange(0, c), c_t = out->ColRange(c, c);
  Matrix sdotr(in.NumRows(), r, ResizeType::kUndefined, in.device());
  sdotr.AddMatMatElements(1.0f, r_t, s_t1, 0.0f);
  h_t.CopyFromMat(hpart_t);
  h_t.AddMatMat(1.0f, sdotr, Trans::kNo, w_h_, Trans::kYes, 1.0f);
  FinishForward(z_t, c_t1, &h_t, &c_t);
  return nullptr;
}

void GruNonlinearityComponent::Backprop(const std::string &,
                                        const ComponentPrecomputedIndexes *,
                                        const MatrixView &in_value,
                                        const MatrixView &out_value,
                                        const MatrixView &out_deriv, void *,
                                        Component *to_update_in,
                                        MatrixView *in_deriv) const {
  auto *to_update = dynamic_cast<GruNonlinearityComponent *>(to_update_in);
  NNET3_ASSERT(to_update_in == nullptr || to_update != nullptr);
  const int32_t c = cell_dim_, r = recurrent_dim_;
  const int32_t s_offset = in_value.NumCols() - r;
  MatrixView z_t = in_value.ColRange(0, c), r_t = in_value.ColRange(c, r),
             c_t1 = in_value.ColRange(2 * c + r, c),
             s_t1 = in_value.ColRange(s_offset, r),
             h_t = out_value.ColRange(0, c);
  Matrix sdotr(in_value.NumRows(), r, ResizeType::kUndefined,
               in_value.device());
  sdotr.AddMatMatElements(1.0f, r_t, s_t1, 0.0f);
  MatrixView z_t_deriv = in_deriv ? in_deriv->ColRange(0, c) : MatrixView(),
             c_t1_deriv =
                 in_deriv ? in_deriv->ColRange(2 * c + r, c) : MatrixView();
  Matrix h_t_deriv = BackpropStateUpdate(
      z_t, c_t1, h_t, out_deriv, in_deriv ? &z_t_deriv : nullptr, &c_t1_deriv);
  if (to_update != nullptr) {
    to_update->stats_.AccumulateAndRepair(h_t, &h_t_deriv);
    to_update->UpdateParameters(sdotr, h_t_deriv);
  }
  if (in_deriv == nullptr) return;
  in_deriv->ColRange(c + r, c).AddMat(1.0f, h_t_deriv);
  // sdotr now holds ∂f/∂(s∘r) = a W^h.
  sdotr.AddMatMat(1.0f, h_t_deriv, Trans::kNo, w_h_, Trans::kNo, 0.0f);
  in_deriv->ColRange(c, r).AddMatMatElements(1.0f, sdotr, s_t1, 1.0f);
  in_deriv->ColRange(s_offset, r).AddMatMatElements(1.0f, sdotr, r_t, 1.0f);
}

void GruNonlinearityComponent::UpdateParameters(const MatrixView &sdotr,
                                                const MatrixView &h_t_deriv) {
  if (is_gradient_) {
    w_h_.AddMatMat(learning_rate_, h_t_deriv, Trans::kYes, sdotr, Trans::kNo,
                   1.0f);
    return;
  }
  Matrix in_precon(sdotr), out_precon(h_t_deriv);
  float in_scale = 1.0f, out_scale = 1.0f;
  preconditioner_in_.PreconditionDirections(&in_precon, &in_scale);
  preconditioner_out_.PreconditionDirections(&out_precon, &out_scale);
  w_h_.AddMatMat(learning_rate_ * in_scale * out_scale, out_precon, Trans::kYes,
                 in_precon, Trans::kNo, 1.0f);
}

void GruNonlinearityComponent::Read(std::istream &is, bool binary) {
  ReadCommonThen(ReadUpdatableCommon(is, binary), is, binary, Type(),
                 "<CellDim>");
  ReadBasicType(is, binary, &cell_dim_);
  ExpectToken(is, binary, "<RecurrentDim>");
  ReadBasicType(is, binary, &recurrent_dim_);
  ExpectToken(is, binary, "<w_h>");
  w_h_.Read(is, binary);
  if (cell_dim_ <= 0 || recurrent_dim_ <= 0 || recurrent_dim_ > cell_dim_ ||
      w_h_.NumRows() != cell_dim_ || w_h_.NumCols() != recurrent_dim_)
    NNET3_ERR << Type() << ": inconsistent model: <CellDim> " << cell_dim_
              << ", <RecurrentDim> " << recurrent_dim_ << ", <w_h> "
              << w_h_.NumRows() << " x " << w_h_.NumCols();
  stats_.Read(is, binary, Type(), cell_dim_);
  float alpha = 0.0f;
  int32_t rank_in = 0, rank_out = 0, update_period = 0;
  ExpectToken(is, binary, "<Alpha>");
  ReadBasicType(is, binary, &alpha);
  ExpectToken(is, binary, "<RankInOut>");
  ReadBasicType(is, binary, &rank_in);
  ReadBasicType(is, binary, &rank_out);
  ExpectToken(is, binary, "<UpdatePeriod>");
  ReadBasicType(is, binary, &update_period);
  if (rank_in <= 0 || rank_out <= 0 || update_period <= 0 || !(alpha >= 0.0f))
    NNET3_ERR << Type() << ": bad natural-gradient settings in the model: "
              << "<Alpha> " << alpha << " <RankInOut> " << rank_in << " "
              << rank_out << " <UpdatePeriod> " << update_period;
  preconditioner_in_ = OnlineNaturalGradient();
  preconditioner_out_ = OnlineNaturalGradient();
  for (OnlineNaturalGradient *p : {&preconditioner_in_, &preconditioner_out_}) {
    p->SetAlpha(alpha);
    p->SetUpdatePeriod(update_period);
  }
  preconditioner_in_.SetRank(rank_in);
  preconditioner_out_.SetRank(rank_out);
  ExpectToken(is, binary, "</GruNonlinearityComponent>");
}

void GruNonlinearityComponent::Write(std::ostream &os, bool binary) const {
  WriteUpdatableCommon(os, binary);
  WriteToken(os, binary, "<CellDim>");
  WriteBasicType(os, binary, cell_dim_);
  WriteToken(os, binary, "<RecurrentDim>");
  WriteBasicType(os, binary, recurrent_dim_);
  WriteToken(os, binary, "<w_h>");
  w_h_.Write(os, binary);
  stats_.Write(os, binary);
  WriteToken(os, binary, "<Alpha>");
  WriteBasicType(os, binary, preconditioner_in_.GetAlpha());
  WriteToken(os, binary, "<RankInOut>");
  WriteBasicType(os, binary, preconditioner_in_.GetRank());
  WriteBasicType(os, binary, preconditioner_out_.GetRank());
  WriteToken(os, binary, "<UpdatePeriod>");
  WriteBasicType(os, binary, preconditioner_in_.GetUpdatePeriod());
  WriteToken(os, binary, "</GruNonlinearityComponent>");
}

std::unique_ptr<Component> GruNonlinearityComponent::Copy() const {
  return std::make_unique<GruNonlinearityComponent>(*this);
}

std::string GruNonlinearityComponent::Info() const {
  std::ostringstream os;
  os << UpdatableComponent::Info() << ", cell-dim=" << cell_dim_
     << ", recurrent-dim=" << recurrent_dim_;
  PrintParameterStats(os, "w_h", w_h_);
  stats_.AppendInfo(os, cell_dim_);
  os << ", alpha=" << preconditioner_in_.GetAlpha()
     << ", rank-in=" << preconditioner_in_.GetRank()
     << ", rank-out=" << preconditioner_out_.GetRank()
     << ", update-period=" << preconditioner_in_.GetUpdatePeriod();
  return os.str();
}

void GruNonlinearityComponent::Scale(float scale) {
  if (scale == 0.0f) {
    w_h_.SetZero();
    stats_.Zero();
    return;
  }
  w_h_.Scale(scale);
  stats_.Scale(scale);
}

void GruNonlinearityComponent::Add(float alpha, const Component &other_in) {
  auto *other = dynamic_cast<const GruNonlinearityComponent *>(&other_in);
  NNET3_ASSERT(other != nullptr);
  w_h_.AddMat(alpha, other->w_h_);
  stats_.Add(alpha, other->stats_);
}

float GruNonlinearityComponent::DotProduct(
    const UpdatableComponent &other_in) const {
  auto *other = dynamic_cast<const GruNonlinearityComponent *>(&other_in);
  NNET3_ASSERT(other != nullptr);
  return static_cast<float>(TraceMatMat(w_h_, other->w_h_, Trans::kYes));
}

void GruNonlinearityComponent::PerturbParams(float stddev, uint64_t seed) {
  Matrix noise(cell_dim_, recurrent_dim_, ResizeType::kUndefined,
               w_h_.device());
  noise.SetRandn(seed);
  w_h_.AddMat(stddev, noise);
}

void GruNonlinearityComponent::Vectorize(VectorView *params) const {
  NNET3_ASSERT(params->Dim() == NumParameters());
  params->CopyRowsFromMat(w_h_);
}

void GruNonlinearityComponent::UnVectorize(const VectorView &params) {
  NNET3_ASSERT(params.Dim() == NumParameters());
  w_h_.CopyRowsFromVec(params);
}

void GruNonlinearityComponent::FreezeNaturalGradient(bool freeze) {
  preconditioner_in_.Freeze(freeze);
  preconditioner_out_.Freeze(freeze);
}

// ---------------------------------------------------------------------------
// OutputGruNonlinearityComponent

void OutputGruNonlinearityComponent::InitFromConfig(ConfigLine *cfl) {
  const std::string type = Type();
  InitLearningRatesFromConfig(cfl);
  GetRequiredKey(type, "cell-dim", cfl, &cell_dim_);
  CheckConfig(cell_dim_ > 0, type, "cell-dim", cell_dim_, "must be > 0", *cfl);
  ReadSelfRepairKeys(cfl, type, &stats_);
  float param_mean = 0.0f, param_stddev = 1.0f, alpha = 4.0f;
  int32_t rank = 8, update_period = 10;
  cfl->GetValue("param-mean", &param_mean);
  cfl->GetValue("param-stddev", &param_stddev);
  cfl->GetValue("alpha", &alpha);
  cfl->GetValue("rank", &rank);
  cfl->GetValue("update-period", &update_period);
  CheckConfig(rank > 0, type, "rank", rank, "must be > 0", *cfl);
  CheckConfig(update_period > 0, type, "update-period", update_period,
              "must be > 0", *cfl);
  w_h_ = Vector(cell_dim_);  // randn · param-stddev + param-mean
  w_h_.SetRandn(NextComponentInitSeed());
  w_h_.Scale(param_stddev);
  w_h_.Add(param_mean);
  preconditioner_ = OnlineNaturalGradient();
  preconditioner_.SetAlpha(alpha);
  preconditioner_.SetRank(rank);
  preconditioner_.SetUpdatePeriod(update_period);
  stats_.Init(cell_dim_);
}

void *OutputGruNonlinearityComponent::Propagate(
    const ComponentPrecomputedIndexes *, const MatrixView &in,
    MatrixView *out) const {
  NNET3_ASSERT(in.NumCols() == InputDim() && out->NumCols() == OutputDim() &&
               in.NumRows() == out->NumRows());
  const int32_t c = cell_dim_;
  MatrixView z_t = in.ColRange(0, c), hpart_t = in.ColRange(c, c),
             c_t1 = in.ColRange(2 * c, c);
  MatrixView h_t = out->ColRange(0, c), c_t = out->ColRange(c, c);
  h_t.CopyFromMat(c_t1);
  h_t.MulColsVec(w_h_);
  h_t.AddMat(1.0f, hpart_t);
  FinishForward(z_t, c_t1, &h_t, &c_t);
  return nullptr;
}

void OutputGruNonlinearityComponent::Backprop(
    const std::string &, const ComponentPrecomputedIndexes *,
    const MatrixView &in_value, const MatrixView &out_value,
    const MatrixView &out_deriv, void *, Component *to_update_in,
    MatrixView *in_deriv) const {
  auto *to_update =
      dynamic_cast<OutputGruNonlinearityComponent *>(to_update_in);
  NNET3_ASSERT(to_update_in == nullptr || to_update != nullptr);
  const int32_t c = cell_dim_;
  MatrixView z_t = in_value.ColRange(0, c), c_t1 = in_value.ColRange(2 * c, c),
             h_t = out_value.ColRange(0, c);
  MatrixView z_t_deriv = in_deriv ? in_deriv->ColRange(0, c) : MatrixView(),
             c_t1_deriv =
                 in_deriv ? in_deriv->ColRange(2 * c, c) : MatrixView();
  Matrix h_t_deriv = BackpropStateUpdate(
      z_t, c_t1, h_t, out_deriv, in_deriv ? &z_t_deriv : nullptr, &c_t1_deriv);
  if (to_update != nullptr) {
    to_update->stats_.AccumulateAndRepair(h_t, &h_t_deriv);
    to_update->UpdateParameters(c_t1, h_t_deriv);
  }
  if (in_deriv == nullptr) return;
  in_deriv->ColRange(c, c).AddMat(1.0f, h_t_deriv);
  h_t_deriv.MulColsVec(w_h_);
  c_t1_deriv.AddMat(1.0f, h_t_deriv);
}

void OutputGruNonlinearityComponent::UpdateParameters(
    const MatrixView &c_t1, const MatrixView &h_t_deriv) {
  if (is_gradient_) {
    AddColDotProducts(learning_rate_, h_t_deriv, c_t1, 1.0f, &w_h_);
    return;
  }
  Matrix per_frame(c_t1);
  per_frame.MulElements(h_t_deriv);
  float scale = 1.0f;
  preconditioner_.PreconditionDirections(&per_frame, &scale);
  w_h_.AddRowSumMat(scale * learning_rate_, per_frame, 1.0f);
}

void OutputGruNonlinearityComponent::Read(std::istream &is, bool binary) {
  ReadCommonThen(ReadUpdatableCommon(is, binary), is, binary, Type(),
                 "<CellDim>");
  ReadBasicType(is, binary, &cell_dim_);
  ExpectToken(is, binary, "<w_h>");
  w_h_.Read(is, binary);
  if (cell_dim_ <= 0 || w_h_.Dim() != cell_dim_)
    NNET3_ERR << Type() << ": inconsistent model: <CellDim> " << cell_dim_
              << ", <w_h> dimension " << w_h_.Dim();
  stats_.Read(is, binary, Type(), cell_dim_);
  float alpha = 0.0f;
  int32_t rank = 0, update_period = 0;
  ExpectToken(is, binary, "<Alpha>");
  ReadBasicType(is, binary, &alpha);
  ExpectToken(is, binary, "<Rank>");
  ReadBasicType(is, binary, &rank);
  ExpectToken(is, binary, "<UpdatePeriod>");
  ReadBasicType(is, binary, &update_period);
  if (rank <= 0 || update_period <= 0 || !(alpha >= 0.0f))
    NNET3_ERR << Type() << ": bad natural-gradient settings in the model: "
              << "<Alpha> " << alpha << " <Rank> " << rank << " <UpdatePeriod> "
              << update_period;
  preconditioner_ = OnlineNaturalGradient();
  preconditioner_.SetAlpha(alpha);
  preconditioner_.SetRank(rank);
  preconditioner_.SetUpdatePeriod(update_period);
  ExpectToken(is, binary, "</OutputGruNonlinearityComponent>");
}

void OutputGruNonlinearityComponent::Write(std::ostream &os,
                                           bool binary) const {
  WriteUpdatableCommon(os, binary);
  WriteToken(os, binary, "<CellDim>");
  WriteBasicType(os, binary, cell_dim_);
  WriteToken(os, binary, "<w_h>");
  w_h_.Write(os, binary);
  stats_.Write(os, binary);
  WriteToken(os, binary, "<Alpha>");
  WriteBasicType(os, binary, preconditioner_.GetAlpha());
  WriteToken(os, binary, "<Rank>");
  WriteBasicType(os, binary, preconditioner_.GetRank());
  WriteToken(os, binary, "<UpdatePeriod>");
  WriteBasicType(os, binary, preconditioner_.GetUpdatePeriod());
  WriteToken(os, binary, "</OutputGruNonlinearityComponent>");
}

std::unique_ptr<Component> OutputGruNonlinearityComponent::Copy() const {
  return std::make_unique<OutputGruNonlinearityComponent>(*this);
}

std::string OutputGruNonlinearityComponent::Info() const {
  std::ostringstream os;
  os << UpdatableComponent::Info() << ", cell-dim=" << cell_dim_;
  PrintParameterStats(os, "w_h", w_h_);
  stats_.AppendInfo(os, cell_dim_);
  os << ", alpha=" << preconditioner_.GetAlpha()
     << ", rank=" << preconditioner_.GetRank()
     << ", update-period=" << preconditioner_.GetUpdatePeriod();
  return os.str();
}

void OutputGruNonlinearityComponent::Scale(float scale) {
  if (scale == 0.0f) {
    w_h_.SetZero();
    stats_.Zero();
    return;
  }
  w_h_.Scale(scale);
  stats_.Scale(scale);
}

void OutputGruNonlinearityComponent::Add(float alpha,
                                         const Component &other_in) {
  auto *other = dynamic_cast<const OutputGruNonlinearityComponent *>(&other_in);
  NNET3_ASSERT(other != nullptr);
  w_h_.AddVec(alpha, other->w_h_);
  stats_.Add(alpha, other->stats_);
}

float OutputGruNonlinearityComponent::DotProduct(
    const UpdatableComponent &other_in) const {
  auto *other = dynamic_cast<const OutputGruNonlinearityComponent *>(&other_in);
  NNET3_ASSERT(other != nullptr);
  return static_cast<float>(VecVec(w_h_, other->w_h_));
}

void OutputGruNonlinearityComponent::PerturbParams(float stddev,
                                                   uint64_t seed) {
  Vector noise(cell_dim_, ResizeType::kUndefined, w_h_.device());
  noise.SetRandn(seed);
  w_h_.AddVec(stddev, noise);
}

void OutputGruNonlinearityComponent::Vectorize(VectorView *params) const {
  NNET3_ASSERT(params->Dim() == NumParameters());
  params->CopyFromVec(w_h_);
}

void OutputGruNonlinearityComponent::UnVectorize(const VectorView &params) {
  NNET3_ASSERT(params.Dim() == NumParameters());
  w_h_.CopyFromVec(params);
}

void OutputGruNonlinearityComponent::FreezeNaturalGradient(bool freeze) {
  preconditioner_.Freeze(freeze);
}

}  // namespace nnet3
