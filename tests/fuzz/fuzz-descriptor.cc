// Fuzz target: descriptor text (the input= of a config line, reference 2).
// An accepted descriptor must write a canonical form that parses again to
// the same canonical form, and answer Dim / GetDependencies / IsComputable
// with a value or a UserError.
#include <sstream>
#include <string>
#include <vector>

#include "fuzz-common.h"
#include "nnet/descriptor.h"

namespace {

class EvenTimes : public nnet3::CindexSet {
 public:
  bool operator()(const nnet3::Cindex &cindex) const override {
    return cindex.second.t % 2 == 0;
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  using namespace nnet3;
  fuzz::QuietLogs();
  if (size > 4096) return 0;  // deep nesting is tested well below this
  const std::vector<std::string> names = {
      "input", "ivector", "**",    "tdnn1",        "lstm1",          "x",
      "relu1", "affine1", "relu0", "tdnn1.affine", "tdnn2.batchnorm"};
  std::string text = fuzz::AsString(data, size);
  fuzz::RunExpectingUserError([&]() {
    Descriptor d;
    d.Parse(names, text);
    std::ostringstream os1;
    d.WriteConfig(os1, names);
    Descriptor again;
    try {
      again.Parse(names, os1.str());
    } catch (const UserError &e) {
      fuzz::Fail("the canonical form '" + os1.str() +
                 "' does not parse: " + e.what());
    }
    std::ostringstream os2;
    again.WriteConfig(os2, names);
    if (os1.str() != os2.str())
      fuzz::Fail("canonical form not stable: '" + os1.str() + "' then '" +
                 os2.str() + "'");
    std::vector<int32_t> nodes;
    d.GetNodeDependencies(&nodes);
    std::vector<Cindex> deps;
    for (int32_t t = -2; t <= 2; t++) {
      d.GetDependencies(Index(0, t, 0), &deps);
      d.IsComputable(Index(0, t, 0), EvenTimes(), &deps);
    }
    (void)d.Modulus();
    (void)d.Dim([](int32_t node) { return 3 + node; });
  });
  return 0;
}
