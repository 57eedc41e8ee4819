// Online natural gradient (Povey, Zhang and Khudanpur 2014, "Parallel
// training of DNNs with natural gradient and parameter averaging", appendix
// on the online method; Kaldi's natural-gradient-online.h; reference 10.5): a
// preconditioner for the rows of a matrix of directions X (N x D: the inputs
// or the output derivatives of an affine layer). It keeps an online estimate
// of their Fisher (uncentered covariance) matrix as low rank plus identity,
//   F_t = R_tᵀ D_t R_t + ρ_t I       (R_t: rank x D, orthonormal rows;
//                                      D_t = diag(d_t) > 0, ρ_t > 0),
// smooths it towards the identity,
//   G_t = F_t + (α/D) tr(F_t) I = R_tᵀ D_t R_t + β_t I,
//   β_t = ρ_t + (α/D) tr(F_t) = ρ_t (1 + α) + (α/D) Σ_i d_ti,
// and replaces X by  X̂ = β_t X G_t⁻¹  (the β_t makes X̂ ≈ X when the
// estimate is close to a multiple of I).
//
//   OnlineNaturalGradient precon;
//   precon.SetRank(20); precon.SetUpdatePeriod(4);
//   precon.SetNumSamplesHistory(2000); precon.SetAlpha(4.0);
//   float scale;
//   precon.PreconditionDirections(&x, &scale);   // x ← X̂, unscaled
//   // the caller multiplies by `scale` = ||X||_F / ||X̂||_F, which makes
//   // ||scale·X̂|| equal ||X|| (cheaper than scaling x).
//
// The estimate is initialized from the first minibatch and then updated on
// each of the first 10 calls and after that every update-period calls, with
// forgetting factor η = 1 - exp(-N / num-samples-history) capped at 0.9 (N =
// rows of x), or η = 1 / num-minibatches-history when that is set. The update
// is one step of subspace (power) iteration towards the top-rank eigenspace
// of T_t = η XᵀX/N + (1-η) F_t, done in the rank-dimensional subspace (cost
// O(N·D·rank) on the device plus an O(rank³) host eigenproblem); see the .cc
// file for every formula. Freeze(true) stops the updates (backstitch).
// Objects are copyable; a copy continues from the same estimate. Not
// thread-safe: one object per parameter matrix being updated.
#ifndef NNET3_NNET_NATURAL_GRADIENT_ONLINE_H_
#define NNET3_NNET_NATURAL_GRADIENT_ONLINE_H_

#include <cstdint>
#include <vector>

#include "matrix/matrix.h"

namespace nnet3 {

class OnlineNaturalGradient {
 public:
  OnlineNaturalGradient();

  void SetRank(int32_t rank);
  void SetUpdatePeriod(int32_t update_period);
  void SetNumSamplesHistory(float num_samples_history);
  void SetNumMinibatchesHistory(float num_minibatches_history);
  void SetAlpha(float alpha);
  void Freeze(bool frozen) { frozen_ = frozen; }
  int32_t GetRank() const { return rank_; }
  int32_t GetUpdatePeriod() const { return update_period_; }
  float GetNumSamplesHistory() const { return num_samples_history_; }
  float GetNumMinibatchesHistory() const { return num_minibatches_history_; }
  float GetAlpha() const { return alpha_; }

  // Replaces the rows of *x by their preconditioned values and sets *scale
  // (see the file comment). Updates the Fisher estimate unless frozen.
  // A matrix with one column or no rows is left as it is, with scale 1.
  void PreconditionDirections(MatrixView *x, float *scale);

  // ---- the current estimate, for tests and diagnostics ----
  // Number of PreconditionDirections calls since initialization (0: the
  // estimate does not exist yet).
  int64_t NumCalls() const { return t_; }
  double GetRho() const { return rho_t_; }
  const std::vector<double> &GetD() const { return d_t_; }
  // R_t (rank x D, orthonormal rows), on the host, row-major; empty before
  // initialization.
  std::vector<double> GetR() const;

 private:
  // Sets R_0 to a fixed orthonormal matrix and d_0 = ρ_0 = ε (Kaldi's
  // InitDefault); reduces rank_ to dim - 1 if needed.
  void InitDefault(int32_t dim, Device &device);
  // Initializes the estimate from the first minibatch (Kaldi's Init).
  void Init(const MatrixView &x0);
  // Whether this call updates the estimate (first 10 calls, then every
  // update_period_ calls; never when frozen).
  bool Updating() const;
  double Eta(int32_t num_rows) const;
  // The work of one call: x ← X̂ and, if `updating`, the new estimate.
  // tr_x_xt is tr(X Xᵀ) of the input.
  void PreconditionInternal(bool updating, double tr_x_xt, MatrixView *x);
  // Z_t = Y_t Y_tᵀ (R x R, host) from K_t = J_t J_tᵀ and L_t = H_tᵀ H_t.
  std::vector<double> ComputeZ(int32_t num_rows, const std::vector<double> &k,
                               const std::vector<double> &l) const;
  // The new d, ρ and W from K_t, L_t and J_t (which it overwrites).
  void UpdateEstimate(int32_t num_rows, double tr_x_xt,
                      const std::vector<double> &k,
                      const std::vector<double> &l, Matrix *j);
  // W_{t+1} = A_t B_t, given the eigenvectors U_t (u(i, k) = u[i * R + k])
  // and √c_t of Z_t; J_t is overwritten by B_t.
  Matrix ComputeWt1(int32_t num_rows, const std::vector<double> &d1,
                    double rho1, const std::vector<double> &u,
                    const std::vector<double> &sqrt_c, Matrix *j) const;
  // Makes the rows of R_{t+1} = E_{t+1}^{-1/2} W_{t+1} orthonormal again
  // (they drift through rounding, and the update loses accuracy when C_t is
  // ill-conditioned); does nothing if they are orthonormal to 1e-3.
  void Reorthogonalize(const std::vector<double> &d, double rho,
                       Matrix *w) const;

  int32_t rank_ = 40;
  int32_t update_period_ = 1;
  float num_samples_history_ = 2000.0f;
  float num_minibatches_history_ = 0.0f;
  float alpha_ = 4.0f;
  double epsilon_ = 1e-10;
  double delta_ = 5e-4;
  bool frozen_ = false;
  int64_t t_ = 0;        // calls since initialization
  int64_t updates_ = 0;  // updates done (for the periodic orthonormality check)
  // The estimate: W_t = E_t^{1/2} R_t on the device of the data (rank x D),
  // with e_ti = 1 / (β_t / d_ti + 1); d_t and ρ_t on the host.
  Matrix W_t_;
  std::vector<double> d_t_;
  double rho_t_ = -1.0;
};

}  // namespace nnet3

#endif  // NNET3_NNET_NATURAL_GRADIENT_ONLINE_H_
