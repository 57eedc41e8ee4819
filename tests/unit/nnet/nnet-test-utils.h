// Helpers for the Nnet tests: building networks from config text, checking
// one-line errors, and skipping tests whose component types are not
// registered yet.
#ifndef NNET3_TESTS_UNIT_NNET_NNET_TEST_UTILS_H_
#define NNET3_TESTS_UNIT_NNET_NNET_TEST_UTILS_H_

#include <string>
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

}  // namespace nnet3

#endif  // NNET3_TESTS_UNIT_NNET_NNET_TEST_UTILS_H_
