#include "train/nnet-training-utils.h"

#include <cmath>
#include <limits>
#include <sstream>

#include "base/error.h"
#include "base/log.h"
#include "nnet/component-itf.h"
#include "nnet/components/affine-components.h"
#include "nnet/components/linear-components.h"
#include "nnet/components/normalize-components.h"
#include "nnet/components/tdnn-components.h"
#include "nnet/nnet-utils.h"

namespace nnet3 {
namespace {

const UpdatableComponent &AsUpdatable(const Nnet &nnet, int32_t c) {
  const auto *uc =
      dynamic_cast<const UpdatableComponent *>(nnet.GetComponent(c));
  if (uc == nullptr)
    NNET3_INTERNAL_ERR << "Component '" << nnet.GetComponentName(c)
                       << "' is updatable but not an UpdatableComponent";
  return *uc;
}

UpdatableComponent *MutableUpdatable(Nnet *nnet, int32_t c) {
  auto *uc = dynamic_cast<UpdatableComponent *>(nnet->GetComponent(c));
  if (uc == nullptr)
    NNET3_ERR << "Component '" << nnet->GetComponentName(c)
              << "' is not updatable in both networks";
  return uc;
}

bool IsUpdatable(const Nnet &nnet, int32_t c) {
  return (nnet.GetComponent(c)->Properties() & kUpdatableComponent) != 0;
}

}  // namespace

void ApplyL2Regularization(const Nnet &nnet, float l2_regularize_scale,
                           Nnet *delta_nnet) {
  if (l2_regularize_scale == 0.0f) return;
  for (int32_t c = 0; c < nnet.NumComponents(); ++c) {
    if (!IsUpdatable(nnet, c)) continue;
    const UpdatableComponent &src = AsUpdatable(nnet, c);
    UpdatableComponent *dest = MutableUpdatable(delta_nnet, c);
    const float lrate = dest->LearningRate(), l2 = dest->L2Regularization();
    NNET3_ASSERT(lrate >= 0.0f && l2 >= 0.0f);
    const float scale = -2.0f * l2_regularize_scale * lrate * l2;
    if (scale != 0.0f) dest->Add(scale, src);
  }
}

namespace {

// The per-component max-change factors (one per updatable component of
// delta_nnet), counting the enforcements in *counts; adds
// Σ factor²·‖delta_c‖² to *param_delta_squared. *summary describes the
// smallest factor if any is below 1, else is left empty. Without
// `need_norm` (no global max-change), a component without a max-change of
// its own adds 0, or inf if its change is not finite: only the finiteness
// of the total is then used.
std::vector<float> PerComponentFactors(const Nnet &delta_nnet, bool need_norm,
                                       float max_change_scale, float scale,
                                       std::vector<int32_t> *counts,
                                       double *param_delta_squared,
                                       std::string *summary) {
  std::vector<float> factors;
  int32_t num_limited = 0;
  float min_factor = 1.0f, max_change_of_min = 0.0f;
  std::string name_of_min;
  for (int32_t c = 0; c < delta_nnet.NumComponents(); ++c) {
    if (!IsUpdatable(delta_nnet, c)) continue;
    const UpdatableComponent &uc = AsUpdatable(delta_nnet, c);
    const size_t i = factors.size();
    if (counts->size() <= i) counts->resize(i + 1, 0);
    const float max_change = uc.MaxChange();
    NNET3_ASSERT(max_change >= 0.0f);
    double dot_prod = 0.0;
    if (need_norm || max_change != 0.0f)
      dot_prod = uc.DotProduct(uc);
    else if (!uc.ParamsAreFinite())
      dot_prod = std::numeric_limits<double>::infinity();
    const double norm = std::sqrt(dot_prod) * std::fabs(scale);
    float factor = 1.0f;
    if (max_change != 0.0f && norm > max_change * max_change_scale) {
      factor = static_cast<float>(max_change * max_change_scale / norm);
      (*counts)[i]++;
      num_limited++;
      NNET3_VLOG(2) << "Parameters in " << delta_nnet.GetComponentName(c)
                    << " change too big: " << std::sqrt(dot_prod) << " * "
                    << scale
                    << " > max-change * max-change-scale=" << max_change
                    << " * " << max_change_scale << ", scaling by " << factor;
    }
    if (i == 0 || factor < min_factor) {
      min_factor = factor;
      name_of_min = delta_nnet.GetComponentName(c);
      max_change_of_min = max_change;
    }
    *param_delta_squared += static_cast<double>(factor) * factor * dot_prod;
    factors.push_back(factor);
  }
  if (min_factor < 1.0f) {
    std::ostringstream os;
    os << "Per-component max-change active on " << num_limited << " / "
       << factors.size()
       << " Updatable Components. (Smallest factor=" << min_factor << " on "
       << name_of_min << " with max-change=" << max_change_of_min << "). ";
    *summary = os.str();
  }
  return factors;
}

}  // namespace

namespace {

// UpdateNnetWithMaxChange's work; with delta_to_scale, delta_to_scale (the
// same network as delta_nnet) is scaled by delta_scale while it is added.
bool UpdateWithMaxChange(
    const Nnet &delta_nnet, float max_param_change, float max_change_scale,
    float scale, Nnet *nnet,
    std::vector<int32_t> *num_max_change_per_component_applied,
    int32_t *num_max_change_global_applied, Nnet *delta_to_scale,
    float delta_scale) {
  double param_delta_squared = 0.0;
  std::string summary;
  std::vector<float> scale_factors = PerComponentFactors(
      delta_nnet, max_param_change != 0.0f, max_change_scale, scale,
      num_max_change_per_component_applied, &param_delta_squared, &summary);
  const double param_delta = std::sqrt(param_delta_squared) * std::fabs(scale);
  if (!std::isfinite(param_delta)) {
    NNET3_WARN << "Infinite parameter change, will not apply.";
    return false;  // the delta is left as it is, for the caller to explain
  }
  const double global_limit = max_param_change * max_change_scale;
  if (max_param_change != 0.0f && param_delta > global_limit) {
    scale = static_cast<float>(scale * global_limit / param_delta);
    (*num_max_change_global_applied)++;
    std::ostringstream os;
    os << "Global max-change factor was " << global_limit / param_delta
       << " with max-change=" << max_param_change << ".";
    summary += os.str();
  }
  if (!summary.empty()) NNET3_LOG << summary;
  for (float &f : scale_factors) f *= scale;
  if (delta_to_scale == nullptr) {
    AddNnetComponents(delta_nnet, scale_factors, scale, nnet);
    return true;
  }
  NNET3_ASSERT(delta_to_scale->NumComponents() == nnet->NumComponents());
  size_t i = 0;
  for (int32_t c = 0; c < nnet->NumComponents(); ++c) {
    const float alpha =
        IsUpdatable(*delta_to_scale, c) ? scale_factors[i++] : scale;
    nnet->GetComponent(c)->AddAndScaleSource(
        alpha, delta_to_scale->GetComponent(c), delta_scale);
  }
  NNET3_ASSERT(i == scale_factors.size());
  return true;
}

}  // namespace

bool UpdateNnetWithMaxChange(
    const Nnet &delta_nnet, float max_param_change, float max_change_scale,
    float scale, Nnet *nnet,
    std::vector<int32_t> *num_max_change_per_component_applied,
    int32_t *num_max_change_global_applied) {
  return UpdateWithMaxChange(delta_nnet, max_param_change, max_change_scale,
                             scale, nnet, num_max_change_per_component_applied,
                             num_max_change_global_applied, nullptr, 1.0f);
}

bool UpdateNnetWithMaxChangeAndScaleDelta(
    Nnet *delta_nnet, float max_param_change, float max_change_scale,
    float scale, float delta_scale, Nnet *nnet,
    std::vector<int32_t> *num_max_change_per_component_applied,
    int32_t *num_max_change_global_applied) {
  return UpdateWithMaxChange(*delta_nnet, max_param_change, max_change_scale,
                             scale, nnet, num_max_change_per_component_applied,
                             num_max_change_global_applied, delta_nnet,
                             delta_scale);
}

void AddNnetComponents(const Nnet &src, const std::vector<float> &alphas,
                       float scale, Nnet *dest) {
  if (src.NumComponents() != dest->NumComponents())
    NNET3_INTERNAL_ERR << "AddNnetComponents: " << src.NumComponents()
                       << " vs. " << dest->NumComponents() << " components";
  size_t i = 0;
  for (int32_t c = 0; c < src.NumComponents(); ++c) {
    if (IsUpdatable(src, c)) {
      NNET3_ASSERT(i < alphas.size());
      dest->GetComponent(c)->Add(alphas[i++], *src.GetComponent(c));
    } else {
      dest->GetComponent(c)->Add(scale, *src.GetComponent(c));
    }
  }
  NNET3_ASSERT(i == alphas.size());
}

void ScaleBatchnormStats(float batchnorm_stats_scale, Nnet *nnet) {
  if (batchnorm_stats_scale < 0.0f || batchnorm_stats_scale > 1.0f)
    NNET3_ERR << "--batchnorm-stats-scale must be in [0, 1], got "
              << batchnorm_stats_scale;
  if (batchnorm_stats_scale == 1.0f) return;
  for (int32_t c = 0; c < nnet->NumComponents(); ++c)
    if (auto *bc = dynamic_cast<BatchNormComponent *>(nnet->GetComponent(c)))
      bc->Scale(batchnorm_stats_scale);
}

void ConstrainOrthonormalInternal(float scale, Matrix *m) {
  NNET3_ASSERT(scale != 0.0f && m->NumRows() <= m->NumCols());
  const int32_t rows = m->NumRows();
  // P = M Mᵀ; its diagonal as a rows x 1 view with stride + 1.
  Matrix p(rows, rows, ResizeType::kUndefined, m->device());
  p.AddMatMat(1.0f, *m, Trans::kNo, *m, Trans::kYes, 0.0f);
  MatrixView diag(p.device(), p.Data(), rows, 1, p.Stride() + 1);
  float update_speed = 0.125f;
  if (scale < 0.0f) {
    // A floating scale: the one that makes the update orthogonal to M,
    // scale² = tr(P²) / tr(P).
    const double trace_p = diag.Sum(), trace_p_p = DotProduct(p, p);
    scale = static_cast<float>(std::sqrt(trace_p_p / trace_p));
    // ratio >= 1: the mean-square eigenvalue of P over the squared mean; far
    // from 1 the objective is not locally quadratic, so go slower.
    const double ratio = trace_p_p * rows / (trace_p * trace_p);
    if (ratio > 1.02) {
      update_speed *= 0.5f;
      if (ratio > 1.1) update_speed *= 0.5f;
    }
  }
  diag.Add(-scale * scale);  // P now holds Q = P − scale² I
  NNET3_VLOG(2) << "Error in orthogonality is " << p.FrobeniusNorm();
  // d(−α‖Q‖²)/dM = −4α Q M, with α = update_speed / scale².
  const float alpha = update_speed / (scale * scale);
  Matrix update(rows, m->NumCols(), ResizeType::kUndefined, m->device());
  update.AddMatMat(-4.0f * alpha, p, Trans::kNo, *m, Trans::kNo, 0.0f);
  m->AddMat(1.0f, update);
}

namespace {

// Applies the constraint to a copy of `params`, which is returned.
Matrix ConstrainedCopy(float constraint, const MatrixView &params) {
  if (params.NumRows() <= params.NumCols()) {
    Matrix m(params);
    ConstrainOrthonormalInternal(constraint, &m);
    return m;
  }
  Matrix m_trans(params, Trans::kYes);
  ConstrainOrthonormalInternal(constraint, &m_trans);
  return Matrix(m_trans, Trans::kYes);
}

}  // namespace

void ConstrainOrthonormal(RandomState *rng, Nnet *nnet) {
  for (int32_t c = 0; c < nnet->NumComponents(); ++c) {
    Component *component = nnet->GetComponent(c);
    auto *ac = dynamic_cast<AffineComponent *>(component);
    auto *lc = dynamic_cast<LinearComponent *>(component);
    auto *tc = dynamic_cast<TdnnComponent *>(component);
    const float constraint = ac != nullptr   ? ac->OrthonormalConstraint()
                             : lc != nullptr ? lc->OrthonormalConstraint()
                             : tc != nullptr ? tc->OrthonormalConstraint()
                                             : 0.0f;
    // Only every four or so minibatches, for speed: the parameters do not
    // stray far from the constraint in between.
    if (constraint == 0.0f || rng->Int(0, 3) != 0) continue;
    if (ac != nullptr)
      ac->SetParams(ac->BiasParams(),
                    ConstrainedCopy(constraint, ac->LinearParams()));
    else if (lc != nullptr)
      lc->SetParams(ConstrainedCopy(constraint, lc->Params()));
    else
      tc->SetParams(tc->BiasParams(),
                    ConstrainedCopy(constraint, tc->LinearParams()));
  }
}

void ComponentDotProducts(const Nnet &a, const Nnet &b,
                          std::vector<double> *dot_prod) {
  if (a.NumComponents() != b.NumComponents())
    NNET3_ERR << "The networks differ in their number of components ("
              << a.NumComponents() << " vs. " << b.NumComponents() << ")";
  dot_prod->clear();
  for (int32_t c = 0; c < a.NumComponents(); ++c) {
    if (!IsUpdatable(a, c)) continue;
    const UpdatableComponent &ua = AsUpdatable(a, c);
    const auto *ub =
        dynamic_cast<const UpdatableComponent *>(b.GetComponent(c));
    if (ub == nullptr || ub->Type() != ua.Type())
      NNET3_ERR << "Component " << c << " ('" << a.GetComponentName(c)
                << "') differs in type between the networks";
    dot_prod->push_back(ua.DotProduct(*ub));
  }
}

std::string PrintVectorPerUpdatableComponent(const Nnet &nnet,
                                             const std::vector<double> &vec) {
  std::ostringstream os;
  os << "[ ";
  size_t i = 0;
  for (int32_t c = 0; c < nnet.NumComponents(); ++c) {
    if (!IsUpdatable(nnet, c)) continue;
    NNET3_ASSERT(i < vec.size());
    os << nnet.GetComponentName(c) << ':' << static_cast<float>(vec[i++])
       << ' ';
  }
  NNET3_ASSERT(i == vec.size());
  os << ']';
  return os.str();
}

}  // namespace nnet3
