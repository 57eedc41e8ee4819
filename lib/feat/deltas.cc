#include "feat/deltas.h"

#include <algorithm>

#include "base/error.h"
#include "base/options.h"

namespace nnet3 {

void DeltaFeaturesOptions::Register(OptionsRegistry *po) {
  po->Register("delta-order", &order, "Order of delta computation");
  po->Register("delta-window", &window,
               "Parameter controlling window for delta computation (actual "
               "window size for each delta order is 1 + 2*delta-window-size)");
}

std::vector<std::vector<float>> DeltaFilters(const DeltaFeaturesOptions &opts) {
  if (opts.order < 0 || opts.window < 1)
    NNET3_ERR << "--delta-order=" << opts.order << " must be >= 0 and "
              << "--delta-window=" << opts.window << " >= 1";
  const int32_t n = opts.window;
  float norm = 0.0f;
  for (int32_t j = -n; j <= n; j++) norm += j * j;
  std::vector<std::vector<float>> filters(1, std::vector<float>(1, 1.0f));
  for (int32_t i = 1; i <= opts.order; i++) {
    const std::vector<float> &prev = filters.back();
    const int32_t half = static_cast<int32_t>(prev.size() - 1) / 2;
    std::vector<float> cur(prev.size() + 2 * n, 0.0f);
    for (int32_t j = -n; j <= n; j++)
      for (int32_t k = -half; k <= half; k++)
        cur[j + k + half + n] += j * prev[k + half];
    for (float &x : cur) x *= 1.0f / norm;
    filters.push_back(cur);
  }
  return filters;
}

void ComputeDeltas(const DeltaFeaturesOptions &opts, int32_t rows, int32_t dim,
                   const float *in, std::vector<float> *out) {
  const std::vector<std::vector<float>> filters = DeltaFilters(opts);
  const int32_t out_dim = dim * (opts.order + 1);
  out->assign(static_cast<size_t>(rows) * out_dim, 0.0f);
  for (int32_t t = 0; t < rows; t++) {
    float *row = out->data() + static_cast<size_t>(t) * out_dim;
    for (int32_t i = 0; i <= opts.order; i++) {
      const std::vector<float> &f = filters[i];
      const int32_t half = static_cast<int32_t>(f.size() - 1) / 2;
      for (int32_t j = -half; j <= half; j++) {
        const float scale = f[j + half];
        if (scale == 0.0f) continue;
        const int32_t s = std::clamp(t + j, 0, rows - 1);
        const float *src = in + static_cast<size_t>(s) * dim;
        for (int32_t d = 0; d < dim; d++) row[i * dim + d] += scale * src[d];
      }
    }
  }
}

}  // namespace nnet3
