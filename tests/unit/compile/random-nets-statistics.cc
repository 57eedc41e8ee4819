// Random statistics-pooling networks for the generator (after Kaldi's
// GenerateConfigSequenceStatistics, nnet-test-utils.cc; our own code): a
// StatisticsExtractionComponent every `stats period` frames, a
// StatisticsPoolingComponent over a window around it (log-count features,
// standard deviations and the variance floor at random), added through
// Round() to an affine of the input. The window is at most 5 stats periods
// each side (Kaldi's: up to 10) and the input dim 2-6 (Kaldi's 10-30), to
// keep the reference evaluator fast.
#include <sstream>

#include "nnet-test-utils.h"

namespace nnet3 {

bool GenerateStatisticsConfigs(const NnetGenerationOptions &opts,
                               RandomState *rng,
                               std::vector<std::string> *configs) {
  if (!opts.allow_statistics_pooling || !opts.allow_context ||
      rng->Int(0, 11) != 0)
    return false;
  const int32_t input_dim = rng->Int(2, 6), input_period = rng->Int(1, 3),
                stats_period = input_period * rng->Int(1, 3),
                left_context = stats_period * rng->Int(1, 5),
                right_context = stats_period * rng->Int(1, 5),
                log_count_features = rng->Int(0, 3);
  const float variance_floor = rng->Int(1, 10) * 1.0e-10f;
  const bool output_stddevs = rng->Int(0, 1) == 0;
  const int32_t raw_dim = 1 + input_dim + (output_stddevs ? input_dim : 0),
                pooled_dim = log_count_features + input_dim +
                             (output_stddevs ? input_dim : 0);
  const int32_t output_dim = opts.output_dim > 0 ? opts.output_dim : pooled_dim;
  std::ostringstream os;
  os << "input-node name=input dim=" << input_dim << "\n"
     << "component name=statistics-extraction "
        "type=StatisticsExtractionComponent input-dim="
     << input_dim << " input-period=" << input_period
     << " output-period=" << stats_period
     << " include-variance=" << (output_stddevs ? "true" : "false") << "\n"
     << "component name=statistics-pooling type=StatisticsPoolingComponent "
        "input-dim="
     << raw_dim << " input-period=" << stats_period
     << " left-context=" << left_context << " right-context=" << right_context
     << " num-log-count-features=" << log_count_features
     << " output-stddevs=" << (output_stddevs ? "true" : "false")
     << " variance-floor=" << variance_floor << "\n"
     << "component name=affine type=AffineComponent input-dim=" << input_dim
     << " output-dim=" << output_dim << "\n"
     << "component-node name=statistics-extraction "
        "component=statistics-extraction input=input\n"
     << "component-node name=statistics-pooling component=statistics-pooling "
        "input=statistics-extraction\n"
     << "component-node name=affine component=affine input=input\n";
  if (output_dim == pooled_dim) {
    os << "output-node name=output input=Sum(affine, Round(statistics-pooling, "
       << stats_period << "))\n";
  } else {
    os << "component name=final_affine type=AffineComponent input-dim="
       << output_dim + pooled_dim << " output-dim=" << output_dim << "\n"
       << "component-node name=final_affine component=final_affine "
          "input=Append(affine, Round(statistics-pooling, "
       << stats_period << "))\n"
       << "output-node name=output input=final_affine\n";
  }
  configs->push_back(os.str());
  return true;
}

namespace {

// The family's component types, for the generator's type test (the final
// AffineComponent, made only when opts.output_dim is set, is declared by
// other families).
[[maybe_unused]] const bool kStatisticsRegistered = RegisterRandomNetFamily(
    {"statistics",
     {"AffineComponent", "StatisticsExtractionComponent",
      "StatisticsPoolingComponent"},
     GenerateStatisticsConfigs});

}  // namespace

}  // namespace nnet3
