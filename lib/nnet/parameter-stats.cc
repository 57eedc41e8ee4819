#include "nnet/parameter-stats.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>
#include <vector>

namespace nnet3 {

namespace {

// Kaldi's PrintFloatSuccinctly: 0 decimals for [10, 10000), 1 for larger or
// >= 0.995, 2 for >= 0.01, else one significant digit.
void PrintFloatSuccinctly(std::ostream &os, float f) {
  std::ostringstream s;
  float a = std::fabs(f);
  if (a < 10000.0f && a >= 10.0f)
    s << std::fixed << std::setprecision(0) << f;
  else if (a >= 0.995f)
    s << std::fixed << std::setprecision(1) << f;
  else if (a >= 0.01f)
    s << std::fixed << std::setprecision(2) << f;
  else
    s << std::setprecision(1) << f;
  os << s.str();
}

// mean and (population) stddev of n values with the given sums.
void MeanStddev(double sum, double sumsq, double n, float *mean,
                float *stddev) {
  double m = sum / n;
  *mean = static_cast<float>(m);
  *stddev = static_cast<float>(std::sqrt(std::max(0.0, sumsq / n - m * m)));
}

void PrintStats(std::ostream &os, const std::string &name,
                const std::vector<float> &values, bool include_mean) {
  double sum = 0.0, sumsq = 0.0;
  for (float v : values) {
    sum += v;
    sumsq += double(v) * v;
  }
  double n = static_cast<double>(values.size());
  std::ostringstream s;
  s << std::setprecision(4) << ", " << name << '-';
  if (include_mean) {
    float mean, stddev;
    MeanStddev(sum, sumsq, n, &mean, &stddev);
    s << "{mean,stddev}=" << mean << ',' << stddev;
  } else {
    s << "rms=" << static_cast<float>(std::sqrt(sumsq / n));
  }
  os << s.str();
}

}  // namespace

std::string SummarizeVector(const std::vector<float> &v) {
  std::ostringstream os;
  if (v.size() < 10) {
    os << "[ ";
    for (float f : v) {
      PrintFloatSuccinctly(os, f);
      os << ' ';
    }
    os << "]";
    return os.str();
  }
  double sum = 0.0, sumsq = 0.0;
  for (float f : v) {
    sum += f;
    sumsq += double(f) * f;
  }
  float mean, stddev;
  MeanStddev(sum, sumsq, static_cast<double>(v.size()), &mean, &stddev);
  static const int kPercentiles[] = {0,  1,  2,  5,  10, 20, 50,
                                     80, 90, 95, 98, 99, 100};
  std::vector<float> sorted(v);
  std::sort(sorted.begin(), sorted.end());
  int32_t n = static_cast<int32_t>(v.size()) - 1;
  os << "[percentiles(0,1,2,5 10,20,50,80,90 95,98,99,100)=(";
  for (int i = 0; i < 13; i++) {
    PrintFloatSuccinctly(os, sorted[(n * kPercentiles[i]) / 100]);
    if (i + 1 < 13) os << ((i == 3 || i == 8) ? ' ' : ',');
  }
  os << std::setprecision(3) << "), mean=" << mean << ", stddev=" << stddev
     << "]";
  return os.str();
}

void PrintParameterStats(std::ostream &os, const std::string &name,
                         const VectorView &params, bool include_mean) {
  PrintStats(os, name, params.ToHost(), include_mean);
}

void PrintParameterStats(std::ostream &os, const std::string &name,
                         const MatrixView &params, bool include_mean,
                         bool include_row_norms, bool include_column_norms) {
  std::vector<float> values = params.ToHost();
  PrintStats(os, name, values, include_mean);
  int32_t rows = params.NumRows(), cols = params.NumCols();
  if (include_row_norms) {
    std::vector<float> norms(rows);
    for (int32_t r = 0; r < rows; r++) {
      double s = 0.0;
      for (int32_t c = 0; c < cols; c++)
        s += double(values[r * cols + c]) * values[r * cols + c];
      norms[r] = static_cast<float>(std::sqrt(s));
    }
    os << ", " << name << "-row-norms=" << SummarizeVector(norms);
  }
  if (include_column_norms) {
    std::vector<double> sums(cols, 0.0);
    for (int32_t r = 0; r < rows; r++)
      for (int32_t c = 0; c < cols; c++)
        sums[c] += double(values[r * cols + c]) * values[r * cols + c];
    std::vector<float> norms(cols);
    for (int32_t c = 0; c < cols; c++)
      norms[c] = static_cast<float>(std::sqrt(sums[c]));
    os << ", " << name << "-col-norms=" << SummarizeVector(norms);
  }
}

}  // namespace nnet3
