// Fuzz target: network config files (nnet3-init's input, reference 1.3),
// including every descriptor and component config line in them. A config
// that is accepted must give a network that passes Check(), prints its
// Info(), and survives a binary write/read round trip byte for byte.
//
// Config files legitimately ask for memory in proportion to their dims, so
// inputs with a number above kMaxNumber are skipped: the fuzzing time goes
// to parsing, not to allocating large matrices (what happens when a config
// asks for more memory than the machine has is the ulimit -v fault test in
// tests/cli/faults.sh).
#include <cctype>
#include <sstream>
#include <string>

#include "fuzz-common.h"
#include "nnet/nnet.h"

namespace {

constexpr long kMaxNumber = 512;

bool HasLargeNumber(const std::string &text) {
  long value = 0;
  int digits = 0;
  for (char c : text) {
    if (std::isdigit(static_cast<unsigned char>(c))) {
      if (++digits > 4) return true;
      value = value * 10 + (c - '0');
      if (value > kMaxNumber) return true;
    } else {
      value = 0;
      digits = 0;
    }
  }
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  using namespace nnet3;
  fuzz::QuietLogs();
  std::string text = fuzz::AsString(data, size);
  if (HasLargeNumber(text)) return 0;
  fuzz::RunExpectingUserError([&]() {
    Nnet nnet;
    std::istringstream is(text);
    nnet.ReadConfig(is, "fuzz.config");
    nnet.Check(false);
    (void)nnet.Info();
    std::ostringstream os1;
    nnet.Write(os1, true);
    Nnet again;
    std::istringstream is2(os1.str());
    try {
      again.Read(is2, true);
    } catch (const UserError &e) {
      fuzz::Fail(std::string("reading back an accepted config's model: ") +
                 e.what());
    }
    std::ostringstream os2;
    again.Write(os2, true);
    if (os1.str() != os2.str())
      fuzz::Fail("binary model round trip differs for an accepted config");
  });
  return 0;
}
