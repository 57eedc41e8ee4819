#include "util/wer-bootstrap.h"

#include <cmath>
#include <ios>

#include "base/error.h"

namespace nnet3 {

BootstrapWer BootstrapWerInterval(
    const std::vector<std::pair<int32_t, int32_t>> &edits, int32_t replications,
    GlibcRandom *rng) {
  const int32_t n = static_cast<int32_t>(edits.size());
  float sum = 0.0f, sum_squares = 0.0f;
  for (int32_t i = 0; i < replications; ++i) {
    int32_t errors = 0, words = 0;
    for (int32_t j = 0; j < n; ++j) {
      const std::pair<int32_t, int32_t> &e = edits[rng->RandInt(0, n - 1)];
      errors += e.first;
      words += e.second;
    }
    const float wer = static_cast<float>(errors) / words;
    sum += wer;
    sum_squares += wer * wer;
  }
  BootstrapWer result;
  result.mean = sum / replications;
  result.interval = static_cast<float>(
      1.96 * std::sqrt(sum_squares / replications - result.mean * result.mean));
  return result;
}

float BootstrapImprovementProbability(
    const std::vector<std::pair<int32_t, int32_t>> &edits,
    const std::vector<std::pair<int32_t, int32_t>> &edits2,
    int32_t replications, GlibcRandom *rng) {
  NNET3_ASSERT(edits.size() == edits2.size());
  const int32_t n = static_cast<int32_t>(edits.size());
  int32_t improved = 0;
  for (int32_t i = 0; i < replications; ++i) {
    int32_t difference = 0;
    for (int32_t j = 0; j < n; ++j) {
      const int32_t k = rng->RandInt(0, n - 1);
      difference += edits[k].first - edits2[k].first;
    }
    if (difference > 0) ++improved;
  }
  return static_cast<float>(improved) / replications;
}

void PrintBootstrapWer(int set, const BootstrapWer &wer, std::ostream &os) {
  const std::streamsize precision = os.precision(2);
  const std::ios_base::fmtflags flags = os.flags();
  os << "Set" << set << ": %WER " << std::fixed << 100 * wer.mean
     << " 95% Conf Interval [ " << 100 * wer.mean - 100 * wer.interval << ", "
     << 100 * wer.mean + 100 * wer.interval << " ]" << '\n';
  os.precision(precision);
  os.flags(flags);
}

}  // namespace nnet3
