// A direct, one-output-row-at-a-time implementation of restricted
// attention, written from the definition (Kaldi's attention.h) with plain
// loops in double precision: the oracle for RestrictedAttentionComponent in
// its unit test and in the reference evaluator.
//
//   naive_attention::Params p = naive_attention::FromComponent(component);
//   std::vector<const std::vector<float> *> window(p.ContextDim());
//   // window[k]: the input row at t + (k - num_left) * stride, or nullptr
//   // (not available: zero)
//   std::vector<float> row = naive_attention::OutputRow(p, window);
#ifndef NNET3_TESTS_UNIT_NNET_COMPONENTS_NAIVE_ATTENTION_H_
#define NNET3_TESTS_UNIT_NNET_COMPONENTS_NAIVE_ATTENTION_H_

#include <algorithm>
#include <cmath>
#include <vector>

#include "nnet/components/attention-components.h"

namespace nnet3 {
namespace naive_attention {

struct Params {
  int num_heads = 1, key_dim = 0, value_dim = 0, num_left = 0, num_right = 0,
      stride = 1;
  bool output_context = true;
  double key_scale = 1.0;
  int ContextDim() const { return num_left + 1 + num_right; }
  int InPerHead() const { return 2 * key_dim + value_dim + ContextDim(); }
  int OutPerHead() const {
    return value_dim + (output_context ? ContextDim() : 0);
  }
};

inline Params FromComponent(const RestrictedAttentionComponent &c) {
  Params p;
  p.num_heads = c.NumHeads();
  p.key_dim = c.KeyDim();
  p.value_dim = c.ValueDim();
  p.num_left = c.NumLeftInputs();
  p.num_right = c.NumRightInputs();
  p.stride = c.TimeStride();
  p.output_context = c.OutputContext();
  p.key_scale = c.KeyScale();
  return p;
}

// window[num_left] (the frame itself) must be present: it holds the query.
inline std::vector<float> OutputRow(
    const Params &p, const std::vector<const std::vector<float> *> &window) {
  const int C = p.ContextDim();
  const std::vector<float> &self = *window[p.num_left];
  std::vector<float> out;
  for (int h = 0; h < p.num_heads; h++) {
    const int base = h * p.InPerHead();
    // input row per head: [key | value | query key part | query context]
    auto at = [&](int k, int col) -> double {
      return window[k] == nullptr ? 0.0 : (*window[k])[base + col];
    };
    std::vector<double> b(C);
    for (int k = 0; k < C; k++) {
      double dot = 0.0;
      for (int d = 0; d < p.key_dim; d++)
        dot += self[base + p.key_dim + p.value_dim + d] * at(k, d);
      b[k] = p.key_scale * dot + self[base + 2 * p.key_dim + p.value_dim + k];
    }
    const double max = *std::max_element(b.begin(), b.end());
    double sum = 0.0;
    for (double &x : b) sum += (x = std::exp(x - max));
    for (double &x : b) x /= sum;
    for (int d = 0; d < p.value_dim; d++) {
      double v = 0.0;
      for (int k = 0; k < C; k++) v += b[k] * at(k, p.key_dim + d);
      out.push_back(static_cast<float>(v));
    }
    if (p.output_context)
      for (int k = 0; k < C; k++) out.push_back(static_cast<float>(b[k]));
  }
  return out;
}

}  // namespace naive_attention
}  // namespace nnet3

#endif  // NNET3_TESTS_UNIT_NNET_COMPONENTS_NAIVE_ATTENTION_H_
