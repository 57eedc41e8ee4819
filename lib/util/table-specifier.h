// Parsing of Kaldi table specifiers: where a table (a set of key → object
// pairs) is read from or written to.
//
//   wspecifier: "ark:foo.ark", "ark,t:-", "scp:foo.scp",
//               "ark,scp,f:foo.ark,foo.scp"  (archive and script together)
//     options: b (binary, default), t (text), f / nf (flush after each
//     entry / don't), p (permissive: scp only, skip keys not in the scp).
//   rspecifier: "ark:foo.ark", "scp:foo.scp", "o,s,cs,p,ark:gunzip -c x.gz|"
//     options: o (each key requested once), s (archive sorted), cs (keys
//     requested in sorted order), p (permissive), bg (read ahead in a
//     background thread), their negations no, ns, ncs, np; b and t are
//     accepted and ignored.
//
// Options are separated by commas or spaces ("ark, t:-" works). A specifier
// with a trailing space, an unknown option, no ark/scp, or both ark and scp
// in the wrong order ("scp,ark:...") classifies as kNo*specifier.
//
//   WspecifierOptions opts; std::string ark, scp;
//   if (ClassifyWspecifier(ws, &ark, &scp, &opts) ==
//   WspecifierType::kNoWspecifier)
//     NNET3_ERR << "Invalid wspecifier '" << ws << "'";
//
// Programs that take either a table or a single object
// (copy-matrix <in-rspecifier> <out-wspecifier> or <in-rxfilename>
// <out-wxfilename>) decide with IsRspecifier() / IsWspecifier().
#ifndef NNET3_UTIL_TABLE_SPECIFIER_H_
#define NNET3_UTIL_TABLE_SPECIFIER_H_

#include <string>

namespace nnet3 {

enum class WspecifierType {
  kNoWspecifier,
  kArchiveWspecifier,
  kScriptWspecifier,
  kBothWspecifier,
};

struct WspecifierOptions {
  bool binary = true;
  bool flush = false;
  bool permissive = false;
};

enum class RspecifierType {
  kNoRspecifier,
  kArchiveRspecifier,
  kScriptRspecifier,
};

struct RspecifierOptions {
  bool once = false;
  bool sorted = false;
  bool called_sorted = false;
  bool permissive = false;
  bool background = false;
};

// Any output pointer may be null. For kBothWspecifier the target is split at
// its first comma into archive and script wxfilenames; for kArchive only
// *archive_wxfilename is set, for kScript only *script_rxfilename (the scp
// file that lists where each key goes).
WspecifierType ClassifyWspecifier(const std::string &wspecifier,
                                  std::string *archive_wxfilename,
                                  std::string *script_rxfilename,
                                  WspecifierOptions *opts);

RspecifierType ClassifyRspecifier(const std::string &rspecifier,
                                  std::string *rxfilename,
                                  RspecifierOptions *opts);

// Whether `arg` is a valid rspecifier / wspecifier (as opposed to an
// rxfilename / wxfilename, which cannot look like one).
bool IsRspecifier(const std::string &arg);
bool IsWspecifier(const std::string &arg);

// For programs that copy either a table or one object (copy-matrix,
// copy-feats): true if `in` is an rspecifier and `out` a wspecifier, false
// if both are plain rx/wxfilenames; a UserError naming both if mixed.
bool IsTableCopy(const std::string &in, const std::string &out);

}  // namespace nnet3

#endif  // NNET3_UTIL_TABLE_SPECIFIER_H_
