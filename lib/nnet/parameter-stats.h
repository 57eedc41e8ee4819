// Summaries of parameter matrices and vectors for Component::Info() lines,
// in Kaldi's format (PrintParameterStats / SummarizeVector, nnet-parse.cc):
//
//   std::ostringstream os;
//   os << UpdatableComponent::Info();
//   PrintParameterStats(os, "linear-params", linear_params_);
//   //   appends ", linear-params-rms=0.1234"
//   PrintParameterStats(os, "bias", bias_params_, /*include_mean=*/true);
//   //   appends ", bias-{mean,stddev}=-0.013,0.196"
//
// The numbers are copied to the host (Info is not a hot path). Statistics
// are printed with 4 significant digits; row/column norms are summarized as
// Kaldi's SummarizeVector does: all values for fewer than 10 elements
// ("[ 0.98 1.0 ]"), else "[percentiles(0,1,2,5 10,20,50,80,90
// 95,98,99,100)=(...), mean=0.0745, stddev=0.0611]".
#ifndef NNET3_NNET_PARAMETER_STATS_H_
#define NNET3_NNET_PARAMETER_STATS_H_

#include <ostream>
#include <string>
#include <vector>

#include "matrix/matrix.h"
#include "matrix/vector.h"

namespace nnet3 {

// ", <name>-rms=R" or, with include_mean, ", <name>-{mean,stddev}=M,S".
void PrintParameterStats(std::ostream &os, const std::string &name,
                         const VectorView &params, bool include_mean = false);
// The same for a matrix, optionally followed by ", <name>-row-norms=..." and
// ", <name>-col-norms=..." (SummarizeVector of the row / column 2-norms).
void PrintParameterStats(std::ostream &os, const std::string &name,
                         const MatrixView &params, bool include_mean = false,
                         bool include_row_norms = false,
                         bool include_column_norms = false);

// Kaldi's SummarizeVector: "[ 0.1 2.3 ]" for fewer than 10 elements, else
// percentiles, mean and stddev (see the file comment).
std::string SummarizeVector(const std::vector<float> &v);

}  // namespace nnet3

#endif  // NNET3_NNET_PARAMETER_STATS_H_
