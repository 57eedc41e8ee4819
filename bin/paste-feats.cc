// paste-feats: features of several inputs side by side, frame by frame, as
// unix paste (Kaldi's tool of the same name; lib/feat/feature-columns.h).
#include <memory>
#include <string>
#include <vector>

#include "base/error.h"
#include "base/log.h"
#include "base/options.h"
#include "base/program.h"
#include "feat/feature-columns.h"
#include "feat/feature-program.h"
#include "util/kaldi-io.h"
#include "util/table-specifier.h"
#include "util/table-types.h"

namespace {

const char *const kUsage =
    "Paste feature files (assuming they have about the same durations,\n"
    "see --length-tolerance), appending the features on each frame;\n"
    "think of the unix command 'paste'.\n"
    "Usage: paste-feats <in-rspecifier1> <in-rspecifier2> "
    "[<in-rspecifier3> ...] <out-wspecifier>\n"
    " or: paste-feats <in-rxfilename1> <in-rxfilename2> "
    "[<in-rxfilename3> ...] <out-wxfilename>\n"
    " e.g. paste-feats ark:feats1.ark \"ark:select-feats 0-3 ark:feats2.ark "
    "ark:- |\" ark:feats-out.ark\n"
    "  or: paste-feats foo.mat bar.mat baz.mat\n"
    "See also: copy-feats, copy-matrix, select-feats\n";

using namespace nnet3;

HostFeatures ToHostFeatures(const Matrix &m) {
  return HostFeatures{m.NumRows(), m.NumCols(), m.ToHost()};
}

// Pastes `in` or warns (naming `utt` if not empty) and returns false.
bool Paste(const std::vector<HostFeatures> &in, const std::string &utt,
           int32_t tolerance, HostFeatures *out) {
  int32_t min_len, max_len;
  if (PasteFeatures(in, tolerance, out, &min_len, &max_len)) return true;
  NNET3_WARN << "Length mismatch " << max_len << " vs. " << min_len
             << (utt.empty() ? "" : " for utt ") << utt << " exceeds tolerance "
             << tolerance;
  return false;
}

int PasteTables(const OptionsRegistry &po, int32_t tolerance) {
  const int n = po.NumArgs();
  BaseFloatMatrixWriter writer(po.GetArg(n));
  SequentialBaseFloatMatrixReader first(po.GetArg(1));
  std::vector<std::unique_ptr<RandomAccessBaseFloatMatrixReader>> others;
  for (int i = 2; i < n; i++)
    others.push_back(
        std::make_unique<RandomAccessBaseFloatMatrixReader>(po.GetArg(i)));
  int64_t num_done = 0, num_err = 0;
  for (; !first.Done(); first.Next()) {
    const std::string utt = first.Key();
    std::vector<HostFeatures> in{ToHostFeatures(first.Value())};
    for (int i = 0; i < static_cast<int>(others.size()); i++) {
      if (!others[i]->HasKey(utt)) {
        NNET3_WARN << "Missing utt " << utt << " from input "
                   << po.GetArg(i + 2);
        break;
      }
      in.push_back(ToHostFeatures(others[i]->Value(utt)));
    }
    HostFeatures out;
    if (in.size() != others.size() + 1 || !Paste(in, utt, tolerance, &out)) {
      num_err++;
      continue;
    }
    writer.Write(utt, HostToMatrix(out.rows, out.cols, out.data));
    num_done++;
  }
  writer.Close();
  NNET3_LOG << "Done " << num_done << " utts, errors on " << num_err;
  return num_done == 0 ? 1 : 0;
}

}  // namespace

int main(int argc, char *argv[]) {
  return RunProgram(argc, argv, [&]() -> int {
    OptionsRegistry po(kUsage);
    int32_t length_tolerance = 0;
    bool binary = true;
    po.Register("length-tolerance", &length_tolerance,
                "If length is different, trim as shortest up to a frame  "
                "difference of length-tolerance, otherwise exclude segment.");
    po.Register("binary", &binary,
                "If true, output files in binary (only relevant for "
                "single-file operation, i.e. no tables)");
    po.Read(argc, argv);
    if (po.NumArgs() < 3) {
      po.PrintUsage();
      return 1;
    }
    if (IsRspecifier(po.GetArg(1))) return PasteTables(po, length_tolerance);
    std::vector<HostFeatures> in;
    for (int i = 1; i < po.NumArgs(); i++) {
      Matrix m;
      ReadKaldiObject(po.GetArg(i), &m);
      in.push_back(ToHostFeatures(m));
    }
    HostFeatures out;
    if (!Paste(in, "", length_tolerance, &out)) return 1;
    const std::string wxfilename = po.GetArg(po.NumArgs());
    WriteKaldiObject(HostToMatrix(out.rows, out.cols, out.data), wxfilename,
                     binary);
    NNET3_LOG << "Wrote appended features to " << wxfilename;
    return 0;
  });
}
