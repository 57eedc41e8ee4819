// Fuzz target: training examples (egs, reference 6.1/6.2): one NnetExample
// (text or binary) and archives of them. An accepted eg must write and read
// back to the same bytes (binary) and compile into a computation request's
// shape (its SameStructure with itself holds).
#include <sstream>
#include <string>

#include "base/io-funcs.h"
#include "fuzz-common.h"
#include "train/nnet-example.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  using namespace nnet3;
  fuzz::QuietLogs();
  std::string bytes = fuzz::AsString(data, size);
  fuzz::RunExpectingUserError([&]() {
    std::istringstream is(bytes);
    bool binary = false;
    if (!InitKaldiInputStream(is, &binary)) return;
    NnetExample eg;
    eg.Read(is, binary);
    std::ostringstream os1;
    eg.Write(os1, true);
    NnetExample again;
    std::istringstream is2(os1.str());
    try {
      again.Read(is2, true);
    } catch (const UserError &e) {
      fuzz::Fail(std::string("reading back an accepted eg: ") + e.what());
    }
    std::ostringstream os2;
    again.Write(os2, true);
    if (os1.str() != os2.str())
      fuzz::Fail("binary round trip of an accepted eg differs");
    if (!SameStructure(eg, again)) fuzz::Fail("eg differs from its copy");
  });
  fuzz::MemFile file(bytes);
  fuzz::RunExpectingUserError([&]() {
    SequentialNnetExampleReader reader("ark:" + file.Path());
    for (; !reader.Done(); reader.Next()) {
      NnetExample eg = reader.Value();
      eg.Compress();
    }
    reader.Close();
  });
  return 0;
}
