// nnet-get-feature-transform: the preconditioning transform of nnet inputs
// from LDA statistics (Kaldi's tool of the same name;
// lib/train/feature-transform-estimate.h).
#include <string>

#include "base/error.h"
#include "base/log.h"
#include "base/options.h"
#include "base/program.h"
#include "matrix/double-matrix.h"
#include "train/feature-transform-estimate.h"
#include "train/lda-estimate.h"
#include "util/kaldi-io.h"

namespace {

const char *const kUsage =
    "Get feature-projection transform using stats obtained with acc-lda.\n"
    "See comments in lib/train/feature-transform-estimate.h for more\n"
    "information.\n"
    "\n"
    "Usage:  nnet-get-feature-transform [options] <matrix-out> <lda-acc-1> "
    "<lda-acc-2> ...\n"
    "e.g.: nnet-get-feature-transform lda.mat lda_stats\n"
    "See also: nnet3-acc-lda-stats, sum-lda-accs\n";

using namespace nnet3;

// Writes a host object atomically with the given binary mode.
template <class T>
void WriteHost(const T &obj, const std::string &wxfilename, bool binary) {
  Output ko(wxfilename, binary, /*write_header=*/true, /*atomic=*/true);
  obj.Write(ko.Stream(), binary, WritePrecision::kFloat);
  ko.Close();
}

}  // namespace

int main(int argc, char *argv[]) {
  return RunProgram(argc, argv, [&]() -> int {
    OptionsRegistry po(kUsage);
    bool binary = true;
    std::string write_cholesky, write_within_covar;
    FeatureTransformEstimateOptions opts;
    po.Register("binary", &binary, "Write outputs in binary mode.");
    po.Register("write-cholesky", &write_cholesky,
                "If supplied, write to this wxfilename the Cholesky factor "
                "of the within-class covariance. E.g. "
                "--write-cholesky=exp/nnet5/cholesky.tpmat");
    po.Register("write-within-covar", &write_within_covar,
                "If supplied, write to this wxfilename the within-class "
                "covariance (as a symmetric matrix). E.g. "
                "--write-within-covar=exp/nnet5/within_covar.mat");
    opts.Register(&po);
    po.Read(argc, argv);
    if (po.NumArgs() < 2) {
      po.PrintUsage();
      return 1;
    }
    LdaEstimate stats;
    for (int i = 2; i <= po.NumArgs(); i++) {
      bool binary_in = false;
      Input ki(po.GetArg(i), &binary_in);
      try {
        stats.Read(ki.Stream(), binary_in, /*add=*/true);
      } catch (const UserError &e) {
        RethrowWithContext(
            e, "Reading '" + PrintableRxfilename(po.GetArg(i)) + "'");
      }
      ki.Close();
    }
    DoubleMatrix transform, cholesky;
    EstimateFeatureTransform(stats, opts, &transform, &cholesky);
    WriteHost(transform, po.GetArg(1), binary);
    const int32_t n = cholesky.rows;
    if (!write_cholesky.empty()) {  // Kaldi's TpMatrix: the lower triangle
      DoubleSpMatrix tp(n);
      for (int32_t i = 0; i < n; i++)
        for (int32_t j = 0; j <= i; j++) tp(i, j) = cholesky(i, j);
      WriteHost(tp, write_cholesky, binary);
    }
    if (!write_within_covar.empty()) {  // L L^T as an SpMatrix
      DoubleSpMatrix covar(n);
      for (int32_t i = 0; i < n; i++)
        for (int32_t j = 0; j <= i; j++)
          for (int32_t k = 0; k <= j; k++)
            covar(i, j) += cholesky(i, k) * cholesky(j, k);
      WriteHost(covar, write_within_covar, binary);
    }
    NNET3_LOG << "Wrote the " << transform.rows << " x " << transform.cols
              << " transform to " << PrintableWxfilename(po.GetArg(1));
    return 0;
  });
}
