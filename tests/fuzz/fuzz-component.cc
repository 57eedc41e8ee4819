// Fuzz target: one component as stored in a model file ("<AffineComponent>
// ... </AffineComponent>", text or binary), through Component::ReadNew, so
// that every registered component type's Read is fuzzed (new components
// are covered as soon as they are registered; add a seed for each to
// corpus/component/ or tests/data/nnet/components/). An accepted component
// must print its Info() and read back from its binary form to the same
// bytes.
#include <sstream>
#include <string>

#include "base/io-funcs.h"
#include "fuzz-common.h"
#include "nnet/component-itf.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  using namespace nnet3;
  fuzz::QuietLogs();
  std::istringstream is(fuzz::AsString(data, size));
  fuzz::RunExpectingUserError([&]() {
    bool binary = false;
    if (!InitKaldiInputStream(is, &binary)) return;
    std::unique_ptr<Component> c = Component::ReadNew(is, binary);
    (void)c->Info();
    std::ostringstream os1;
    c->Write(os1, true);
    std::istringstream is2(os1.str());
    std::unique_ptr<Component> again;
    try {
      again = Component::ReadNew(is2, true);
    } catch (const UserError &e) {
      fuzz::Fail(std::string("reading back an accepted ") + c->Type() + ": " +
                 e.what());
    }
    std::ostringstream os2;
    again->Write(os2, true);
    if (os1.str() != os2.str())
      fuzz::Fail("binary round trip of an accepted " + c->Type() + " differs");
  });
  return 0;
}
