// Fuzz target: raw nnet3 model files, text and binary (reference 4.3;
// "\0B" at the start means binary, as for every Kaldi object). An accepted
// model must pass Check(), print its Info(), and its binary form must read
// back to the same bytes.
#include <sstream>
#include <string>

#include "base/io-funcs.h"
#include "fuzz-common.h"
#include "nnet/nnet.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  using namespace nnet3;
  fuzz::QuietLogs();
  std::istringstream is(fuzz::AsString(data, size));
  fuzz::RunExpectingUserError([&]() {
    bool binary = false;
    if (!InitKaldiInputStream(is, &binary)) return;
    Nnet nnet;
    nnet.Read(is, binary);
    nnet.Check(false);
    (void)nnet.Info();
    std::ostringstream os1;
    nnet.Write(os1, true);
    Nnet again;
    std::istringstream is2(os1.str());
    try {
      again.Read(is2, true);
    } catch (const UserError &e) {
      fuzz::Fail(std::string("reading back an accepted model: ") + e.what());
    }
    std::ostringstream os2;
    again.Write(os2, true);
    if (os1.str() != os2.str())
      fuzz::Fail("binary round trip of an accepted model differs");
  });
  return 0;
}
