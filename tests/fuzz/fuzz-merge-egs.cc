// Fuzz target: the egs merger (nnet3-merge-egs): an archive of egs is read
// and merged into minibatches by structure. The first byte picks the
// --minibatch-size rule and --compress; the rest is the archive. Egs that
// cannot be merged (inconsistent dimensions for one name) must give a
// UserError; merged egs must write.
#include <sstream>
#include <string>

#include "fuzz-common.h"
#include "train/nnet-example-utils.h"
#include "train/nnet-example.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  using namespace nnet3;
  fuzz::QuietLogs();
  if (size < 1) return 0;
  const char *rules[] = {"1",   "2",         "3",  "1:4",
                         "2,3", "4=2/8=1:3", "64", "2:3,5"};
  const std::string rule = rules[data[0] & 7];
  const bool compress = (data[0] & 8) != 0;
  fuzz::MemFile file(data + 1, size - 1);
  fuzz::RunExpectingUserError([&]() {
    ExampleMergingConfig config;
    config.minibatch_size = rule;
    config.compress = compress;
    config.ComputeDerived();
    std::ostringstream out;
    ExampleMerger merger(config,
                         [&out](const std::string &key, const NnetExample &eg) {
                           out << key << ' ';
                           eg.Write(out, true);
                         });
    SequentialNnetExampleReader reader("ark:" + file.Path());
    for (; !reader.Done(); reader.Next()) merger.AcceptExample(reader.Value());
    reader.Close();
    merger.Finish();
  });
  return 0;
}
