// Fuzz target: --config option files (reference 7.1): lines of --name=value
// read into a registry holding every option type. Bad lines and bad values
// end in ExitRequest(1) after one ERROR line, as for a bad command line.
#include <iostream>
#include <string>

#include "base/log.h"
#include "base/options.h"
#include "fuzz-common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  using namespace nnet3;
  fuzz::QuietLogs();
  static bool once = [] {
    std::cerr.rdbuf(nullptr);  // the usage text printed on every bad line
    return true;
  }();
  (void)once;
  fuzz::MemFile file(data, size);
  bool flag = false;
  int32_t count = 1;
  uint32_t seed = 0;
  float scale = 1.0f;
  double rate = 0.5;
  std::string name;
  OptionsRegistry po("fuzz-options: --config files");
  po.Register("binary", &flag, "a bool");
  po.Register("num-epochs", &count, "an int");
  po.Register("srand", &seed, "an unsigned");
  po.Register("scale", &scale, "a float");
  po.Register("learning-rate", &rate, "a double");
  po.Register("use-gpu", &name, "a string");
  OptionsRegistry sub("optimization", &po);
  bool sub_flag = true;
  sub.Register("consolidate-model-update", &sub_flag, "a prefixed bool");
  const std::string config = "--config=" + file.Path();
  const char *argv[] = {"fuzz-options", config.c_str(), "in", "out"};
  try {
    fuzz::RunExpectingUserError([&]() { po.Read(4, argv); });
  } catch (const ExitRequest &) {
  }
  SetVerboseLevel(0);
  return 0;
}
