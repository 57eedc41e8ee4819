// LdaEstimate: the statistics for an LDA-like feature transform (Kaldi's
// transform/lda-estimate, the format of acc-lda, sum-lda-accs,
// nnet3-acc-lda-stats and nnet-get-feature-transform), and their
// accumulation from a minibatch.
//
//   LdaEstimate lda;  lda.Init(num_classes, dim);
//   lda.AccumulateMatrix(features, weights);  // rows x dim, rows x classes
//   WriteKaldiObject(lda, "1.lda_stats", binary);
//   LdaEstimate sum;  sum.Read(is, binary, /*add=*/true);   // sums files
//   double count;  DoubleSpMatrix total, between;  std::vector<double> mean;
//   lda.GetStats(&total, &between, &mean, &count);
//
// The statistics (double): per class c the weight n_c and the weighted sum
// of the features s_c; over all classes the weighted sum of x x^T.
// Format (Kaldi's LdaEstimate::Write, always single precision):
//   <LDAACCS> <VECSIZE> dim <NUMCLASSES> num_classes
//   <ZERO_ACCS> FV(n) <FIRST_ACCS> FM(s) <SECOND_ACCS> FP(S)
//   </LDAACCS>
// where S is the second-order sum minus sum_c s_c s_c^T / n_c (classes with
// n_c != 0), which keeps it well-conditioned in single precision; reading
// adds those terms back. Reading with add=true sums into the stats already
// there (UserError on a dimension or class-count mismatch).
#ifndef NNET3_TRAIN_LDA_ESTIMATE_H_
#define NNET3_TRAIN_LDA_ESTIMATE_H_

#include <cstdint>
#include <istream>
#include <ostream>
#include <vector>

#include "matrix/double-matrix.h"
#include "matrix/matrix.h"

namespace nnet3 {

class LdaEstimate {
 public:
  LdaEstimate() = default;
  // Zero stats for num_classes classes of dim-dimensional features.
  void Init(int32_t num_classes, int32_t dim);
  int32_t NumClasses() const { return first_acc_.rows; }
  int32_t Dim() const { return first_acc_.cols; }
  double TotCount() const;

  // Adds features (rows x Dim()) with weights (rows x NumClasses(): the
  // weight of each row for each class; zeros contribute nothing). Computed
  // on the features' device, summed in double on the host.
  void AccumulateMatrix(const MatrixView &features, const MatrixView &weights);

  // Total covariance, between-class covariance, total mean and count, as
  // Kaldi's GetStats. UserError if the count is not positive.
  void GetStats(DoubleSpMatrix *total_covar, DoubleSpMatrix *between_covar,
                std::vector<double> *total_mean, double *count) const;

  void Read(std::istream &is, bool binary, bool add);
  void Read(std::istream &is, bool binary) { Read(is, binary, false); }
  void Write(std::ostream &os, bool binary) const;

 private:
  std::vector<double> zero_acc_;
  DoubleMatrix first_acc_;
  DoubleSpMatrix total_second_acc_;
};

}  // namespace nnet3

#endif  // NNET3_TRAIN_LDA_ESTIMATE_H_
