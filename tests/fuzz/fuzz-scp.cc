// Fuzz target: scp files ("key rxfilename[range]" lines, reference 5.5) read
// sequentially and by key, as matrices through their [range]s.
//
// Input: the scp text, then optionally a '\0' byte and an archive. In the
// scp text the word ARK stands for the archive (ARK:5, ARK:5[0:1,2:3]);
// lines whose filename is anything else are dropped before reading, so that
// the fuzzer never opens the files, devices or shell commands ("cmd |") it
// might invent. Every line, dropped or not, first goes through the
// rxfilename and range parsers.
#include <sstream>
#include <string>

#include "base/text-utils.h"
#include "fuzz-common.h"
#include "matrix/matrix.h"
#include "util/kaldi-io.h"
#include "util/matrix-range.h"
#include "util/table-reader.h"
#include "util/table-types.h"

namespace {

// The scp text with ARK replaced by `archive`, and lines naming anything
// else dropped (blank lines and lines without a filename are kept, so that
// their errors are fuzzed too).
std::string Sandbox(const std::string &scp, const std::string &archive) {
  std::istringstream is(scp);
  std::string line, out;
  while (std::getline(is, line)) {
    std::string trimmed = nnet3::Trim(line);
    size_t space = trimmed.find_first_of(" \t");
    if (space != std::string::npos) {
      std::string name = nnet3::Trim(trimmed.substr(space + 1));
      std::string file, range;
      try {  // a bad range is the reader's error too: keep such lines
        nnet3::ClassifyRxfilename(name);
        nnet3::SplitRangeSuffix(name, &file, &range);
      } catch (const nnet3::UserError &) {
      }
      if (name.compare(0, 3, "ARK") != 0) continue;
      std::string rest = name.substr(3);
      if (!rest.empty() && rest[0] != ':' && rest[0] != '[') continue;
      if (rest.find('|') != std::string::npos) continue;
      line = trimmed.substr(0, space) + " " + archive + rest;
    }
    out += line + "\n";
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  using namespace nnet3;
  fuzz::QuietLogs();
  std::string bytes = fuzz::AsString(data, size);
  size_t zero = bytes.find('\0');
  std::string scp_text = bytes.substr(0, zero);
  std::string archive_bytes =
      zero == std::string::npos ? std::string() : bytes.substr(zero + 1);
  fuzz::MemFile archive(archive_bytes);
  fuzz::MemFile scp(Sandbox(scp_text, archive.Path()));
  for (const char *opts : {"scp:", "scp,p:"}) {
    fuzz::RunExpectingUserError([&]() {
      SequentialBaseFloatMatrixReader reader(opts + scp.Path());
      for (; !reader.Done(); reader.Next()) (void)reader.Value();
      reader.Close();
    });
  }
  fuzz::RunExpectingUserError([&]() {
    RandomAccessBaseFloatMatrixReader reader("scp:" + scp.Path());
    for (const char *key : {"mat1", "utt-2", "a", "zzz"})
      if (reader.HasKey(key)) (void)reader.Value(key);
    reader.Close();
  });
  return 0;
}
