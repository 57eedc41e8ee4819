// Fuzz target: acoustic-model files (.mdl, reference 4.4), text and binary:
// a TransitionModel then an AmNnetSimple (the nnet and its priors), as
// ReadAmNnet reads them. An accepted model must print its Info() and its
// binary form must read back to the same bytes.
#include <sstream>
#include <string>

#include "base/io-funcs.h"
#include "fuzz-common.h"
#include "compute/am-nnet-simple.h"
#include "hmm/transition-model.h"

namespace {

std::string WriteBinary(const nnet3::TransitionModel &trans,
                        const nnet3::AmNnetSimple &am) {
  std::ostringstream os;
  trans.Write(os, true);
  am.Write(os, true);
  return os.str();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  using namespace nnet3;
  fuzz::QuietLogs();
  std::istringstream is(fuzz::AsString(data, size));
  fuzz::RunExpectingUserError([&]() {
    bool binary = false;
    if (!InitKaldiInputStream(is, &binary)) return;
    TransitionModel trans;
    trans.Read(is, binary);
    AmNnetSimple am;
    am.Read(is, binary);
    (void)am.Info();
    const std::string first = WriteBinary(trans, am);
    TransitionModel trans2;
    AmNnetSimple am2;
    std::istringstream is2(first);
    try {
      trans2.Read(is2, true);
      am2.Read(is2, true);
    } catch (const UserError &e) {
      fuzz::Fail(std::string("reading back an accepted .mdl: ") + e.what());
    }
    if (WriteBinary(trans2, am2) != first)
      fuzz::Fail("binary round trip of an accepted .mdl differs");
  });
  return 0;
}
