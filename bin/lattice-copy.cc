// lattice-copy: copies lattices, converting between compact and state-level
// form and text and binary, optionally only those whose keys a list names
// (Kaldi's tool of the same name).
#include <cstdint>
#include <string>

#include "base/error.h"
#include "base/log.h"
#include "base/options.h"
#include "base/program.h"
#include "lat/kaldi-lattice.h"
#include "util/table-specifier.h"
#include "util/table-subset.h"

namespace {

const char *const kUsage =
    "Copy lattices (e.g. useful for changing to text mode or changing\n"
    "format to standard from compact lattice.)\n"
    "The --include and --exclude options can be used to copy only a subset "
    "of lattices, where are the --include option specifies the "
    "whitelisted utterances that would be copied and --exclude option "
    "specifies the blacklisted utterances that would not be copied.\n"
    "Only one of --include and --exclude can be supplied.\n"
    "Usage: lattice-copy [options] lattice-rspecifier lattice-wspecifier\n"
    " e.g.: lattice-copy --write-compact=false ark:1.lats ark,t:text.lats\n"
    "See also: lattice-scale, lattice-prune\n";

struct CopyOptions {
  std::string include, exclude;
  bool ignore_missing = false;
  bool sorted = false;  // the rspecifier's "s"
};

// `log_prefix`: Kaldi's line for compact lattices starts with a space.
template <class Reader, class Writer>
int CopyLattices(const CopyOptions &opts, const std::string &rspecifier,
                 const std::string &wspecifier, const char *log_prefix) {
  using namespace nnet3;
  Reader reader(rspecifier);
  Writer writer(wspecifier);
  if (opts.include.empty() && opts.exclude.empty()) {
    int64_t n_done = 0;
    for (; !reader.Done(); reader.Next(), ++n_done)
      writer.Write(reader.Key(), reader.Value());
    reader.Close();
    writer.Close();
    NNET3_LOG << "Done copying " << n_done << " lattices.";
    return opts.ignore_missing || n_done != 0 ? 0 : 1;
  }
  const bool include = !opts.include.empty();
  const KeyList list = ReadKeyList(include ? opts.include : opts.exclude);
  const SubsetCopyCounts counts =
      CopyTableSubset(list, include, include && opts.sorted, &reader, &writer);
  writer.Close();
  if (counts.stopped_early) {
    NNET3_LOG << "The utterance " << reader.Key() << " is larger than "
              << "the last key in the include list. Not reading further.";
    NNET3_LOG << log_prefix << "Wrote " << counts.num_written << " utterances";
    return 0;
  }
  reader.Close();
  NNET3_LOG << log_prefix << "Wrote " << counts.num_written << " out of "
            << counts.num_read << " utterances.";
  return opts.ignore_missing || counts.num_written != 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char *argv[]) {
  return nnet3::RunProgram(argc, argv, [&]() -> int {
    using namespace nnet3;
    OptionsRegistry po(kUsage);
    bool write_compact = true;
    CopyOptions opts;
    po.Register("write-compact", &write_compact,
                "If true, write in normal (compact) form.");
    po.Register("include", &opts.include,
                "Text file, the first field of each line being interpreted "
                "as the utterance-id whose lattices will be included");
    po.Register("exclude", &opts.exclude,
                "Text file, the first field of each line being interpreted "
                "as an utterance-id whose lattices will be excluded");
    po.Register("ignore-missing", &opts.ignore_missing,
                "Exit with status 0 even if no lattices are copied");
    po.Read(argc, argv);
    if (po.NumArgs() != 2) {
      po.PrintUsage();
      return 1;
    }
    const std::string rspecifier = po.GetArg(1), wspecifier = po.GetArg(2);
    RspecifierOptions ropts;
    ClassifyRspecifier(rspecifier, nullptr, &ropts);
    opts.sorted = ropts.sorted;
    if (!opts.include.empty() && !opts.exclude.empty())
      NNET3_ERR << "should not have both --exclude and --include option!";
    return write_compact ? CopyLattices<SequentialCompactLatticeReader,
                                        CompactLatticeWriter>(opts, rspecifier,
                                                              wspecifier, " ")
                         : CopyLattices<SequentialLatticeReader, LatticeWriter>(
                               opts, rspecifier, wspecifier, "");
  });
}
