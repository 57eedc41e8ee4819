#include "train/lda-estimate.h"

#include <string>

#include "base/error.h"
#include "base/io-funcs.h"

namespace nnet3 {

void LdaEstimate::Init(int32_t num_classes, int32_t dim) {
  zero_acc_.assign(num_classes, 0.0);
  first_acc_.Resize(num_classes, dim);
  total_second_acc_.Resize(dim);
}

double LdaEstimate::TotCount() const {
  double sum = 0.0;
  for (double n : zero_acc_) sum += n;
  return sum;
}

void LdaEstimate::AccumulateMatrix(const MatrixView &features,
                                   const MatrixView &weights) {
  const int32_t dim = Dim(), num_classes = NumClasses();
  NNET3_ASSERT(features.NumCols() == dim && weights.NumCols() == num_classes &&
               features.NumRows() == weights.NumRows());
  Device &device = features.device();
  // The weight of each row over all classes scales its x x^T.
  Vector row_weight(weights.NumRows(), ResizeType::kSetZero, device);
  row_weight.AddColSumMat(1.0f, weights, 0.0f);
  Matrix scaled(features);
  scaled.MulRowsVec(row_weight);
  Matrix second(dim, dim, ResizeType::kSetZero, device);
  second.AddMatMat(1.0f, features, Trans::kYes, scaled, Trans::kNo, 0.0f);
  Matrix first(num_classes, dim, ResizeType::kSetZero, device);
  first.AddMatMat(1.0f, weights, Trans::kYes, features, Trans::kNo, 0.0f);
  Vector zero(num_classes, ResizeType::kSetZero, device);
  zero.AddRowSumMat(1.0f, weights, 0.0f);

  const std::vector<float> second_host = second.ToHost(),
                           first_host = first.ToHost(),
                           zero_host = zero.ToHost();
  for (int32_t i = 0; i < dim; i++)
    for (int32_t j = 0; j <= i; j++)
      total_second_acc_(i, j) += second_host[static_cast<size_t>(i) * dim + j];
  for (size_t k = 0; k < first_host.size(); k++)
    first_acc_.data[k] += first_host[k];
  for (int32_t c = 0; c < num_classes; c++) zero_acc_[c] += zero_host[c];
}

void LdaEstimate::GetStats(DoubleSpMatrix *total_covar,
                           DoubleSpMatrix *between_covar,
                           std::vector<double> *total_mean,
                           double *count) const {
  const int32_t dim = Dim();
  const double sum = TotCount();
  if (!(sum > 0.0))
    NNET3_ERR << "The LDA statistics have no data (total count " << sum << ")";
  *count = sum;
  total_mean->assign(dim, 0.0);
  for (int32_t c = 0; c < NumClasses(); c++)
    for (int32_t d = 0; d < dim; d++) (*total_mean)[d] += first_acc_(c, d);
  for (double &m : *total_mean) m /= sum;
  const std::vector<double> &mean = *total_mean;
  *total_covar = total_second_acc_;
  between_covar->Resize(dim);
  std::vector<double> class_mean(dim);
  for (int32_t c = 0; c < NumClasses(); c++) {
    if (zero_acc_[c] == 0.0) continue;
    for (int32_t d = 0; d < dim; d++)
      class_mean[d] = first_acc_(c, d) / zero_acc_[c];
    const double w = zero_acc_[c] / sum;
    for (int32_t i = 0; i < dim; i++)
      for (int32_t j = 0; j <= i; j++)
        (*between_covar)(i, j) += w * class_mean[i] * class_mean[j];
  }
  for (int32_t i = 0; i < dim; i++)
    for (int32_t j = 0; j <= i; j++) {
      (*total_covar)(i, j) = (*total_covar)(i, j) / sum - mean[i] * mean[j];
      (*between_covar)(i, j) -= mean[i] * mean[j];
    }
}

namespace {

// second += sign * sum_c s_c s_c^T / n_c over classes with n_c != 0.
void AddClassTerms(const std::vector<double> &zero, const DoubleMatrix &first,
                   double sign, DoubleSpMatrix *second) {
  for (int32_t c = 0; c < first.rows; c++) {
    if (zero[c] == 0.0) continue;
    const double scale = sign / zero[c];
    for (int32_t i = 0; i < first.cols; i++)
      for (int32_t j = 0; j <= i; j++)
        (*second)(i, j) += scale * first(c, i) * first(c, j);
  }
}

}  // namespace

void LdaEstimate::Read(std::istream &is, bool binary, bool add) {
  ExpectToken(is, binary, "<LDAACCS>");
  ExpectToken(is, binary, "<VECSIZE>");
  int32_t dim = 0, num_classes = 0;
  ReadBasicType(is, binary, &dim);
  ExpectToken(is, binary, "<NUMCLASSES>");
  ReadBasicType(is, binary, &num_classes);
  if (dim < 0 || num_classes < 0)
    NNET3_ERR << "LDA stats with dimension " << dim << " and " << num_classes
              << " classes";
  const bool adding = add && (NumClasses() != 0 || Dim() != 0);
  if (adding && (num_classes != NumClasses() || dim != Dim()))
    NNET3_ERR << "LdaEstimate::Read, dimension or classes count mismatch, "
              << NumClasses() << ", " << Dim() << ", vs. " << num_classes
              << ", " << dim << " (are these stats from the same setup?)";
  // The stats hold num_classes x dim and dim x (dim + 1) / 2 values: a
  // file too short for them is corrupted, however large the sizes claim.
  if (!adding)
    CheckCountFits(is,
                   static_cast<int64_t>(dim) * num_classes +
                       static_cast<int64_t>(dim) * (dim + 1) / 2,
                   1, "The number of LDA statistics");
  if (!adding) Init(num_classes, dim);
  std::vector<double> zero;
  DoubleMatrix first;
  DoubleSpMatrix second;
  std::string token;
  ReadToken(is, binary, &token);
  for (; token != "</LDAACCS>"; ReadToken(is, binary, &token)) {
    if (token == "<ZERO_ACCS>") {
      ReadDoubleVector(is, binary, &zero);
    } else if (token == "<FIRST_ACCS>") {
      first.Read(is, binary);
    } else if (token == "<SECOND_ACCS>") {
      second.Read(is, binary);
    } else {
      NNET3_ERR << "Unexpected token '" << token << "' in LDA stats";
    }
  }
  if (static_cast<int32_t>(zero.size()) != num_classes ||
      first.rows != num_classes || first.cols != dim || second.dim != dim)
    NNET3_ERR << "LDA stats for " << num_classes << " classes of dimension "
              << dim << " have pieces of the wrong size (zero " << zero.size()
              << ", first " << first.rows << "x" << first.cols << ", second "
              << second.dim << ")";
  AddClassTerms(zero, first, 1.0, &second);
  for (int32_t c = 0; c < num_classes; c++) zero_acc_[c] += zero[c];
  for (size_t k = 0; k < first.data.size(); k++)
    first_acc_.data[k] += first.data[k];
  for (size_t k = 0; k < second.data.size(); k++)
    total_second_acc_.data[k] += second.data[k];
}

void LdaEstimate::Write(std::ostream &os, bool binary) const {
  WriteToken(os, binary, "<LDAACCS>");
  WriteToken(os, binary, "<VECSIZE>");
  WriteBasicType(os, binary, Dim());
  WriteToken(os, binary, "<NUMCLASSES>");
  WriteBasicType(os, binary, NumClasses());
  WriteToken(os, binary, "<ZERO_ACCS>");
  WriteDoubleVector(os, binary, zero_acc_, WritePrecision::kFloat);
  WriteToken(os, binary, "<FIRST_ACCS>");
  first_acc_.Write(os, binary, WritePrecision::kFloat);
  WriteToken(os, binary, "<SECOND_ACCS>");
  DoubleSpMatrix second = total_second_acc_;
  AddClassTerms(zero_acc_, first_acc_, -1.0, &second);
  second.Write(os, binary, WritePrecision::kFloat);
  WriteToken(os, binary, "</LDAACCS>");
}

}  // namespace nnet3
