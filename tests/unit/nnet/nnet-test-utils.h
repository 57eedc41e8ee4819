// Helpers for the Nnet tests: building networks from config text, checking
// one-line errors, skipping tests whose component types are not registered
// yet, and evaluating a network frame by frame to compare two of them.
#ifndef NNET3_TESTS_UNIT_NNET_NNET_TEST_UTILS_H_
#define NNET3_TESTS_UNIT_NNET_NNET_TEST_UTILS_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "nnet/nnet.h"

namespace nnet3 {

// Reads `config` (named "nnet.config" in errors) into a new network.
Nnet NnetFromConfig(const std::string &config);
// Applies `config` to `nnet`.
void ApplyConfig(const std::string &config, Nnet *nnet);
// The one-line UserError message ReadConfig gives for `config` applied to
// `nnet` (a new network if null), or "<no error>". Fails the test if the
// message has a newline.
std::string ConfigError(const std::string &config, const Nnet *nnet = nullptr);
// Write then return the bytes.
std::string WriteToString(const Nnet &nnet, bool binary);
// Reads bytes produced by WriteToString (or a model file's contents).
Nnet ReadFromString(const std::string &bytes);
// True if all the types are registered; otherwise prints which are not.
bool HaveComponentTypes(const std::vector<std::string> &types);

// Evaluates a network of simple components one frame at a time (n = 0) by
// recursion over Cindexes, with each input node defined for t in
// [t_begin, t_end) as a fixed function of its name, t and the dimension.
// Used to check that a rewrite keeps every output.
class FrameEvaluator {
 public:
  FrameEvaluator(const Nnet &nnet, int32_t t_begin, int32_t t_end)
      : nnet_(nnet), t_begin_(t_begin), t_end_(t_end) {}

  // nullopt when the node cannot be computed at (t, x).
  std::optional<std::vector<float>> Value(int32_t node, int32_t t,
                                          int32_t x = 0);

 private:
  std::optional<std::vector<float>> Compute(int32_t node, const Index &index);
  std::optional<std::vector<float>> PartValue(const SumDescriptor &part,
                                              const Index &index);

  const Nnet &nnet_;
  int32_t t_begin_, t_end_;
  std::map<std::tuple<int32_t, int32_t, int32_t>,
           std::optional<std::vector<float>>>
      cache_;
};

// Every output of `a` and `b` agrees (computability, and values within
// `tolerance`, relative with a margin of the same size) at every t in
// [-8, 8) with inputs over [-6, 6). Returns the largest difference seen.
float CheckSameOutputs(const Nnet &a, const Nnet &b, float tolerance = 1e-4f);

}  // namespace nnet3

#endif  // NNET3_TESTS_UNIT_NNET_NNET_TEST_UTILS_H_
