#include "nnet-test-utils.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <sstream>

#include "base/error.h"
#include "base/io-funcs.h"
#include "nnet/component-registry.h"

namespace nnet3 {

Nnet NnetFromConfig(const std::string &config) {
  Nnet nnet;
  ApplyConfig(config, &nnet);
  return nnet;
}

void ApplyConfig(const std::string &config, Nnet *nnet) {
  std::istringstream is(config);
  nnet->ReadConfig(is, "nnet.config");
}

std::string ConfigError(const std::string &config, const Nnet *nnet) {
  Nnet tmp;
  if (nnet != nullptr) tmp = *nnet;
  try {
    ApplyConfig(config, &tmp);
  } catch (const UserError &e) {
    std::string msg = e.what();
    INFO(msg);
    CHECK(msg.find('\n') == std::string::npos);
    return msg;
  }
  return "<no error>";
}

std::string WriteToString(const Nnet &nnet, bool binary) {
  std::ostringstream os;
  InitKaldiOutputStream(os, binary);
  nnet.Write(os, binary);
  return os.str();
}

Nnet ReadFromString(const std::string &bytes) {
  std::istringstream is(bytes);
  bool binary;
  if (!InitKaldiInputStream(is, &binary))
    throw UserError("bad binary header", SourceLocation());
  Nnet nnet;
  nnet.Read(is, binary);
  return nnet;
}

bool HaveComponentTypes(const std::vector<std::string> &types) {
  std::vector<std::string> have = RegisteredComponentTypes(), missing;
  for (const std::string &t : types)
    if (std::find(have.begin(), have.end(), t) == have.end())
      missing.push_back(t);
  for (const std::string &t : missing)
    WARN("skipping: component type " << t << " is not registered yet");
  return missing.empty();
}

}  // namespace nnet3
