// Where an output file really goes, and whether it may be replaced.
//
// Every writer in the toolkit (models, archives and their scp files, compile
// caches, --write-num-frames, ...) opens its plain-file outputs through
// Output (util/kaldi-io.h), which asks PlanOutputFile() how to write:
//
//   OutputPlan plan = PlanOutputFile("exp/final.mdl");
//   if (plan.replace)  write "<plan.file>.tmp.<pid>.<n>", rename onto plan.file
//   else               open plan.file and write in place
// (Output keeps that temporary file unnamed, O_TMPFILE, until it is
// complete, so a killed writer leaves no temporary behind.)
//
// The rules (DESIGN.md, "Errors and bad input"):
//   - a regular file, or a path that does not exist yet, is replaced
//     atomically: a temporary file beside it, renamed on success;
//   - a symbolic link is followed (to any depth) and its final target is
//     replaced that way, so the link itself stays a link (Kaldi recipes keep
//     final.mdl -> 30.mdl);
//   - anything else is written in place, never replaced: character and block
//     devices (/dev/null), FIFOs, sockets, and every path that resolves
//     through /proc (/dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N,
//     whose "target" is the process's descriptor, not a file to rename over);
//   - a path that cannot be examined (permission denied, a component that is
//     not a directory, a link loop) is opened in place, so that the error the
//     user sees names their path and the system's reason.
#ifndef NNET3_UTIL_OUTPUT_TARGET_H_
#define NNET3_UTIL_OUTPUT_TARGET_H_

#include <sys/types.h>

#include <string>

namespace nnet3 {

struct OutputPlan {
  // The path to open (in place) or to replace (the end of a symlink chain).
  std::string file;
  // True: write a temporary file beside `file` and rename it over `file`.
  bool replace = false;
  // When replacing an existing file: its permission bits, which the
  // temporary file takes so that the replacement keeps them.
  bool existed = false;
  mode_t mode = 0;
};

OutputPlan PlanOutputFile(const std::string &filename);

}  // namespace nnet3

#endif  // NNET3_UTIL_OUTPUT_TARGET_H_
