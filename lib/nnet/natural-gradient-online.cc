// The online natural-gradient preconditioner. Notation (header comment):
// X is N x D, R is the rank, F_t = R_tᵀ D_t R_t + ρ_t I, β_t = ρ_t (1 + α) +
// (α/D) Σ d_ti, E_t = diag(e_t) with e_ti = 1 / (β_t / d_ti + 1), and we
// store W_t = E_t^{1/2} R_t (rank x D) on the device of the data.
//
// Preconditioning (Woodbury): G_t⁻¹ = (R_tᵀ D_t R_t + β_t I)⁻¹
//   = (1/β_t) (I - R_tᵀ diag(d_ti / (d_ti + β_t)) R_t)
//   = (1/β_t) (I - R_tᵀ E_t R_t),   since d/(d + β) = 1/(β/d + 1) = e,
// so X̂ = β_t X G_t⁻¹ = X - X W_tᵀ W_t = X - H_t W_t with H_t = X W_tᵀ.
//
// Update: with S_t = XᵀX/N and T_t = η S_t + (1-η) F_t, one step of subspace
// iteration from R_t: Y_t = R_t T_t, Z_t = Y_t Y_tᵀ = U_t C_t U_tᵀ (C_t
// descending), R_{t+1} = C_t^{-1/2} U_tᵀ Y_t (orthonormal rows spanning the
// rows of Y_t), and the eigenvalues of T_t on that subspace are
// approximated by the singular values √c_ti of Y_t (exact when R_t spans an
// invariant subspace of T_t, i.e. at convergence). F_{t+1} has eigenvalue
// √c_ti on the rows of R_{t+1} and ρ_{t+1} elsewhere, with the trace of T_t:
//   ρ_{t+1} = (tr T_t - Σ √c_ti) / (D - R),
//   tr T_t = (η/N) tr(X Xᵀ) + (1-η)(D ρ_t + Σ d_ti),
//   d_{t+1,i} = √c_ti - ρ_{t+1},
// both floored at max(ε, δ max √c_t). Everything is done with the R x D and
// R x R products (using R_t R_tᵀ = I, W_t W_tᵀ = E_t):
//   J_t = H_tᵀ X = W_t XᵀX,  K_t = J_t J_tᵀ,  L_t = H_tᵀ H_t = W_t J_tᵀ,
//   Y_t = E_t^{-1/2} ((η/N) J_t + (1-η)(D_t + ρ_t I) W_t),
//   Z_t = (η/N)² E^{-½} K E^{-½} + (η/N)(1-η) (E^{-½} L E^{-½} (D+ρ) +
//         (D+ρ) E^{-½} L E^{-½}) + (1-η)² (D+ρ)²,
//   W_{t+1} = E_{t+1}^{1/2} R_{t+1} = A_t B_t with
//   B_t = J_t + ((1-η)/(η/N)) (D_t + ρ_t I) W_t,
//   A_t = (η/N) E_{t+1}^{1/2} C_t^{-1/2} U_tᵀ E_t^{-1/2}.
#include "nnet/natural-gradient-online.h"

#include <algorithm>
#include <cmath>

#include "base/error.h"
#include "base/log.h"
#include "nnet/host-linear-algebra.h"

namespace nnet3 {

namespace {

// Kaldi updates on each of the first 10 calls before skipping any (this must
// exceed the 3 initialization iterations).
constexpr int64_t kNumInitialUpdates = 10;
// Z_t's condition number above which R_{t+1} is re-orthogonalized.
constexpr double kConditionThreshold = 1e6;
// Largest |R Rᵀ - I| element tolerated without re-orthogonalizing.
constexpr double kOrthonormalTolerance = 1e-3;
// Orthonormality is also checked every this many updates.
constexpr int64_t kOrthonormalCheckPeriod = 10;

// β = ρ (1 + α) + (α/D) Σ d, i.e. ρ + (α/D) tr(F).
double Beta(const std::vector<double> &d, double rho, double alpha,
            int32_t dim) {
  double sum = 0.0;
  for (double x : d) sum += x;
  return rho * (1.0 + alpha) + alpha * sum / dim;
}

// e_i = 1 / (β / d_i + 1).
std::vector<double> ComputeE(const std::vector<double> &d, double beta) {
  std::vector<double> e(d.size());
  for (size_t i = 0; i < d.size(); i++) e[i] = 1.0 / (beta / d[i] + 1.0);
  return e;
}

std::vector<double> ToDouble(const MatrixView &m) {
  std::vector<float> f = m.ToHost();
  return std::vector<double>(f.begin(), f.end());
}

Matrix FromHost(int32_t rows, int32_t cols, const std::vector<double> &v,
                Device &device) {
  Matrix m(rows, cols, ResizeType::kUndefined, device);
  m.CopyFromHost(std::vector<float>(v.begin(), v.end()));
  return m;
}

}  // namespace

OnlineNaturalGradient::OnlineNaturalGradient() = default;

void OnlineNaturalGradient::SetRank(int32_t rank) {
  NNET3_ASSERT(rank > 0);
  rank_ = rank;
}
void OnlineNaturalGradient::SetUpdatePeriod(int32_t update_period) {
  NNET3_ASSERT(update_period > 0);
  update_period_ = update_period;
}
void OnlineNaturalGradient::SetNumSamplesHistory(float n) {
  NNET3_ASSERT(n > 0 && n < 1e6);
  num_samples_history_ = n;
}
void OnlineNaturalGradient::SetNumMinibatchesHistory(float n) {
  NNET3_ASSERT(n > 1 && n < 1e6);
  num_minibatches_history_ = n;
}
void OnlineNaturalGradient::SetAlpha(float alpha) {
  NNET3_ASSERT(alpha >= 0);
  alpha_ = alpha;
}

std::vector<double> OnlineNaturalGradient::GetR() const {
  if (W_t_.IsEmpty()) return {};
  int32_t rank = W_t_.NumRows(), dim = W_t_.NumCols();
  std::vector<double> e = ComputeE(d_t_, Beta(d_t_, rho_t_, alpha_, dim));
  std::vector<double> r = ToDouble(W_t_);
  for (int32_t i = 0; i < rank; i++)  // R_t = E_t^{-1/2} W_t
    for (int32_t j = 0; j < dim; j++) r[i * dim + j] /= std::sqrt(e[i]);
  return r;
}

void OnlineNaturalGradient::InitDefault(int32_t dim, Device &device) {
  if (rank_ >= dim) {
    NNET3_WARN << "Rank " << rank_ << " of the natural-gradient preconditioner"
               << " is >= the dimension " << dim << "; using " << dim - 1;
    rank_ = dim - 1;
  }
  // F_0 = R_0ᵀ (ε I) R_0 + ε I. R_0 is Kaldi's fixed orthonormal matrix:
  // row r has its nonzeros in columns r, r + R, r + 2R, ... (disjoint, so
  // the rows are orthogonal), the first 1.1 and the rest 1 before
  // normalization (the 1.1 keeps the all-ones direction out of the span).
  // Then β_0 = ε (1 + α (D + R) / D), so e_0i = 1 / (2 + α (D + R) / D).
  int32_t rank = rank_;
  d_t_.assign(rank, epsilon_);
  rho_t_ = epsilon_;
  double e0 = 1.0 / (2.0 + alpha_ * (dim + rank) / dim);
  std::vector<float> w(static_cast<size_t>(rank) * dim, 0.0f);
  for (int32_t r = 0; r < rank; r++) {
    int32_t count = (dim - r + rank - 1) / rank;  // columns r, r+R, ...
    double norm = std::sqrt(1.1 * 1.1 + (count - 1));
    for (int32_t k = 0, c = r; c < dim; k++, c += rank)
      w[static_cast<size_t>(r) * dim + c] =
          static_cast<float>((k == 0 ? 1.1 : 1.0) / norm * std::sqrt(e0));
  }
  W_t_ = Matrix(rank, dim, ResizeType::kUndefined, device);
  W_t_.CopyFromHost(w);
}

void OnlineNaturalGradient::Init(const MatrixView &x0) {
  // Kaldi's start: from the fixed R_0 above, iterate the update a few times
  // on the first minibatch (a cheap substitute for an eigendecomposition of
  // its scatter matrix). One iteration if there are no more rows than the
  // rank (the subspace is then the row space of X_0 after one step anyway).
  OnlineNaturalGradient copy(*this);
  copy.InitDefault(x0.NumCols(), x0.device());
  copy.t_ = 1;  // initialized, and still within the initial updates
  copy.frozen_ = false;
  int32_t num_iters = (x0.NumRows() <= copy.rank_) ? 1 : 3;
  for (int32_t i = 0; i < num_iters; i++) {
    Matrix x(x0);
    float scale;
    copy.PreconditionDirections(&x, &scale);
  }
  rank_ = copy.rank_;
  W_t_ = std::move(copy.W_t_);
  d_t_ = copy.d_t_;
  rho_t_ = copy.rho_t_;
}

bool OnlineNaturalGradient::Updating() const {
  return !frozen_ && (t_ <= kNumInitialUpdates ||
                      (t_ - kNumInitialUpdates) % update_period_ == 0);
}

double OnlineNaturalGradient::Eta(int32_t num_rows) const {
  if (num_minibatches_history_ > 0.0f) return 1.0 / num_minibatches_history_;
  // Capped so that an all-zero minibatch cannot drive the estimate to 0.
  double eta = 1.0 - std::exp(-num_rows / double(num_samples_history_));
  return std::min(eta, 0.9);
}

void OnlineNaturalGradient::PreconditionDirections(MatrixView *x,
                                                   float *scale) {
  *scale = 1.0f;
  // With D = 1, X G⁻¹ rescaled to the input norm is X itself.
  if (x->NumCols() == 1 || x->NumRows() == 0) return;
  if (t_ == 0) Init(*x);
  if (W_t_.NumCols() != x->NumCols())
    NNET3_ERR << "Natural-gradient preconditioner of dimension "
              << W_t_.NumCols() << " called with " << x->NumCols()
              << " columns";
  if (&W_t_.device() != &x->device()) {
    Matrix moved(W_t_, x->device());
    W_t_ = std::move(moved);
  }
  bool updating = Updating();
  double initial = DotProduct(*x, *x);  // tr(X Xᵀ)
  PreconditionInternal(updating, initial, x);
  double final_product = DotProduct(*x, *x);
  // γ = ||X|| / ||X̂|| (1 when either is zero).
  if (initial > 0.0 && final_product > 0.0)
    *scale = static_cast<float>(std::sqrt(initial / final_product));
  t_++;
}

void OnlineNaturalGradient::PreconditionInternal(bool updating, double tr_x_xt,
                                                 MatrixView *x) {
  const int32_t n = x->NumRows(), dim = x->NumCols(), rank = rank_;
  NNET3_ASSERT(rank > 0 && rank < dim);
  Device &dev = x->device();
  Matrix h(n, rank, ResizeType::kUndefined, dev);
  h.AddMatMat(1.0f, *x, Trans::kNo, W_t_, Trans::kYes, 0.0f);  // H = X Wᵀ
  if (!updating) {
    x->AddMatMat(-1.0f, h, Trans::kNo, W_t_, Trans::kNo, 1.0f);  // X̂
    return;
  }
  Matrix j(rank, dim, ResizeType::kUndefined, dev);
  j.AddMatMat(1.0f, h, Trans::kYes, *x, Trans::kNo, 0.0f);  // J = Hᵀ X
  Matrix k(rank, rank, ResizeType::kUndefined, dev),
      l(rank, rank, ResizeType::kUndefined, dev);
  k.AddMatMat(1.0f, j, Trans::kNo, j, Trans::kYes, 0.0f);      // K = J Jᵀ
  l.AddMatMat(1.0f, h, Trans::kYes, h, Trans::kNo, 0.0f);      // L = Hᵀ H
  x->AddMatMat(-1.0f, h, Trans::kNo, W_t_, Trans::kNo, 1.0f);  // X̂ = X - H W
  UpdateEstimate(n, tr_x_xt, ToDouble(k), ToDouble(l), &j);
}

std::vector<double> OnlineNaturalGradient::ComputeZ(
    int32_t n, const std::vector<double> &k,
    const std::vector<double> &l) const {
  // Z_t (top of the file), with K and L symmetrized against rounding.
  const int32_t rank = rank_;
  const double eta = Eta(n), eta_n = eta / n, eta1 = 1.0 - eta;
  std::vector<double> e =
      ComputeE(d_t_, Beta(d_t_, rho_t_, alpha_, W_t_.NumCols()));
  std::vector<double> z(static_cast<size_t>(rank) * rank);
  for (int32_t a = 0; a < rank; a++) {
    double dr_a = d_t_[a] + rho_t_;  // diag(D_t + ρ_t I)
    for (int32_t b = 0; b < rank; b++) {
      double dr_b = d_t_[b] + rho_t_, s = 1.0 / std::sqrt(e[a] * e[b]);
      double kab = 0.5 * (k[a * rank + b] + k[b * rank + a]);
      double lab = 0.5 * (l[a * rank + b] + l[b * rank + a]);
      z[a * rank + b] = eta_n * eta_n * s * kab +
                        eta_n * eta1 * s * lab * (dr_a + dr_b) +
                        (a == b ? eta1 * eta1 * dr_a * dr_a : 0.0);
    }
  }
  return z;
}

void OnlineNaturalGradient::UpdateEstimate(int32_t n, double tr_x_xt,
                                           const std::vector<double> &k,
                                           const std::vector<double> &l,
                                           Matrix *j) {
  const int32_t rank = rank_, dim = W_t_.NumCols();
  const double eta = Eta(n), eta1 = 1.0 - eta, rho = rho_t_;
  bool finite_input = std::isfinite(tr_x_xt);
  for (double v : k) finite_input = finite_input && std::isfinite(v);
  if (!finite_input) {
    NNET3_WARN << "Natural gradient: inf or NaN in the data; not updating "
               << "the Fisher estimate";
    return;
  }
  std::vector<double> z = ComputeZ(n, k, l);
  // Z_t scales as the 4th power of the data: solve a normalized copy.
  double z_scale = 0.0;
  for (int32_t a = 0; a < rank; a++) z_scale += z[a * rank + a];
  z_scale = std::max(1.0, z_scale);
  for (double &v : z) v /= z_scale;
  std::vector<double> c, u;
  SymmetricEigen(rank, z, &c, &u);
  for (double &v : c) v *= z_scale;
  bool must_reorthogonalize = !(c[0] <= kConditionThreshold * c[rank - 1]);
  // In exact arithmetic Z_t ≥ ((1-η) ρ_t)² I, since T_t ≥ (1-η) ρ_t I.
  double c_floor = (rho * eta1) * (rho * eta1), sum_d = 0.0;
  for (double &v : c) {
    if (v < c_floor) {
      v = c_floor;
      must_reorthogonalize = true;
    }
  }
  for (double v : d_t_) sum_d += v;
  std::vector<double> sqrt_c(rank);
  double sum_sqrt_c = 0.0, max_sqrt_c = 0.0;
  for (int32_t i = 0; i < rank; i++) {
    sqrt_c[i] = std::sqrt(c[i]);
    sum_sqrt_c += sqrt_c[i];
    max_sqrt_c = std::max(max_sqrt_c, sqrt_c[i]);
  }
  // ρ_{t+1} = (tr T_t - Σ √c) / (D - R); d_{t+1} = √c - ρ_{t+1}; floors.
  double rho1 = (eta / n * tr_x_xt + eta1 * (dim * rho + sum_d) - sum_sqrt_c) /
                (dim - rank);
  double floor_val = std::max(epsilon_, delta_ * max_sqrt_c);
  std::vector<double> d1(rank);
  for (int32_t i = 0; i < rank; i++)
    d1[i] = std::max(sqrt_c[i] - rho1, floor_val);
  rho1 = std::max(rho1, floor_val);
  Matrix w1 = ComputeWt1(n, d1, rho1, u, sqrt_c, j);
  if (must_reorthogonalize || updates_ % kOrthonormalCheckPeriod == 0)
    Reorthogonalize(d1, rho1, &w1);
  bool finite = std::isfinite(rho1) && w1.IsFinite();
  for (double v : d1) finite = finite && std::isfinite(v);
  if (!finite) {
    NNET3_WARN << "Natural-gradient update produced non-finite values "
               << "(bad input data?); keeping the previous estimate";
    return;
  }
  W_t_ = std::move(w1);
  d_t_ = d1;
  rho_t_ = rho1;
  updates_++;
}

Matrix OnlineNaturalGradient::ComputeWt1(int32_t n,
                                         const std::vector<double> &d1,
                                         double rho1,
                                         const std::vector<double> &u,
                                         const std::vector<double> &sqrt_c,
                                         Matrix *j) const {
  // W_{t+1} = A_t B_t (top of the file); B_t overwrites J_t.
  const int32_t rank = rank_, dim = W_t_.NumCols();
  const double eta = Eta(n), eta_n = eta / n, eta1 = 1.0 - eta;
  Device &dev = W_t_.device();
  std::vector<float> w_coeff(rank);
  for (int32_t i = 0; i < rank; i++)
    w_coeff[i] = static_cast<float>(eta1 / eta_n * (d_t_[i] + rho_t_));
  j->AddDiagVecMat(1.0f, Vector(w_coeff, dev), W_t_, Trans::kNo, 1.0f);
  std::vector<double> e = ComputeE(d_t_, Beta(d_t_, rho_t_, alpha_, dim));
  std::vector<double> e1 = ComputeE(d1, Beta(d1, rho1, alpha_, dim));
  std::vector<double> a_t(static_cast<size_t>(rank) * rank);
  for (int32_t a = 0; a < rank; a++)
    for (int32_t b = 0; b < rank; b++)  // (η/N) √e1_a c_a^{-1/2} U_ba e_b^{-½}
      a_t[a * rank + b] = eta_n * std::sqrt(e1[a]) / sqrt_c[a] *
                          u[b * rank + a] / std::sqrt(e[b]);
  Matrix w1(rank, dim, ResizeType::kUndefined, dev);
  w1.AddMatMat(1.0f, FromHost(rank, rank, a_t, dev), Trans::kNo, *j, Trans::kNo,
               0.0f);
  return w1;
}

void OnlineNaturalGradient::Reorthogonalize(const std::vector<double> &d,
                                            double rho, Matrix *w) const {
  const int32_t rank = w->NumRows(), dim = w->NumCols();
  std::vector<double> e = ComputeE(d, Beta(d, rho, alpha_, dim));
  Matrix o_dev(rank, rank, ResizeType::kUndefined, w->device());
  o_dev.AddMatMat(1.0f, *w, Trans::kNo, *w, Trans::kYes, 0.0f);
  // O = R Rᵀ = E^{-1/2} W Wᵀ E^{-1/2}.
  std::vector<double> o = ToDouble(o_dev);
  double worst = 0.0;
  for (int32_t a = 0; a < rank; a++)
    for (int32_t b = 0; b < rank; b++) {
      double &v = o[a * rank + b];
      v /= std::sqrt(e[a] * e[b]);
      worst = std::max(worst, std::fabs(v - (a == b ? 1.0 : 0.0)));
    }
  if (worst < kOrthonormalTolerance) return;
  if (!w->IsFinite()) return;  // the caller rejects the update
  // Rows far from unit length are no reason to give up: with fewer data
  // rows than the rank, the directions the data do not span come out of
  // the update as rounding noise over ~ε, rows of norm 1e5 and more (O
  // even overflows in float); left alone, they make X̂ 1e7 times X.
  std::vector<double> lambda, v;
  bool o_finite = true;
  for (double x : o) o_finite = o_finite && std::isfinite(x);
  if (o_finite) SymmetricEigen(rank, o, &lambda, &v);
  if (o_finite && lambda[rank - 1] > 1e-4 * lambda[0]) {
    // Symmetric orthogonalization, R' = O^{-1/2} R (R' R'ᵀ = I, the nearest
    // orthonormal rows to R), i.e. W' = E^{1/2} O^{-1/2} E^{-1/2} W.
    std::vector<double> m(static_cast<size_t>(rank) * rank, 0.0);
    for (int32_t a = 0; a < rank; a++)
      for (int32_t b = 0; b < rank; b++) {
        double sum = 0.0;
        for (int32_t q = 0; q < rank; q++)
          sum += v[a * rank + q] * v[b * rank + q] / std::sqrt(lambda[q]);
        m[a * rank + b] = std::sqrt(e[a]) * sum / std::sqrt(e[b]);
      }
    Matrix w_old(*w);
    w->AddMatMat(1.0f, FromHost(rank, rank, m, w->device()), Trans::kNo, w_old,
                 Trans::kNo, 0.0f);
    return;
  }
  // Nearly dependent rows: Gram-Schmidt on the host (rare, so speed does not
  // matter), replacing collapsed rows by unit vectors.
  NNET3_VLOG(1) << "Natural gradient: re-orthogonalizing with Gram-Schmidt";
  std::vector<double> r = ToDouble(*w);
  for (int32_t a = 0; a < rank; a++)
    for (int32_t b = 0; b < dim; b++) r[a * dim + b] /= std::sqrt(e[a]);
  OrthonormalizeRows(rank, dim, &r);
  for (int32_t a = 0; a < rank; a++)
    for (int32_t b = 0; b < dim; b++) r[a * dim + b] *= std::sqrt(e[a]);
  *w = FromHost(rank, dim, r, w->device());
}

}  // namespace nnet3
