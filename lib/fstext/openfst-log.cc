#include "fstext/openfst-log.h"

#include <iostream>

#include "base/text-utils.h"

namespace nnet3 {
namespace {
std::mutex capture_mutex;
}  // namespace

OpenFstLogCapture::OpenFstLogCapture(std::string *text)
    : lock_(capture_mutex), saved_(std::cerr.rdbuf()), text_(text) {
  std::cerr.rdbuf(buffer_.rdbuf());
}

OpenFstLogCapture::~OpenFstLogCapture() {
  std::cerr.rdbuf(saved_);
  std::string joined;
  for (const std::string &line : SplitString(buffer_.str(), "\n", true)) {
    std::string text = Trim(line);
    for (const char *prefix : {"ERROR: ", "WARNING: ", "FATAL: "}) {
      const std::string p(prefix);
      if (text.compare(0, p.size(), p) == 0) text = text.substr(p.size());
    }
    if (text.empty()) continue;
    if (!joined.empty()) joined += "; ";
    joined += text;
  }
  *text_ = joined;
}

}  // namespace nnet3
