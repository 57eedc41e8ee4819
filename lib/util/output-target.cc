#include "util/output-target.h"

#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <vector>

namespace nnet3 {
namespace {

// Linux gives up on chains longer than 40 links (ELOOP); so do we.
constexpr int kMaxLinkHops = 40;

std::string DirName(const std::string &path) {
  size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

// True when `path` lies in /proc once its directory's links are resolved:
// /dev/stdout, /dev/fd/3 and /proc/self/fd/1 all end there, and their
// "targets" name the process's descriptors, not files we may rename over.
bool InProcFs(const std::string &path) {
  std::vector<char> resolved(PATH_MAX + 1);
  if (realpath(DirName(path).c_str(), resolved.data()) == nullptr) return false;
  std::string dir(resolved.data());
  return dir == "/proc" || dir.compare(0, 6, "/proc/") == 0;
}

// The next path of a link chain: the link's text, relative to its directory.
bool FollowLink(std::string *path) {
  std::vector<char> text(PATH_MAX + 1);
  ssize_t n = readlink(path->c_str(), text.data(), PATH_MAX);
  if (n <= 0) return false;
  std::string target(text.data(), static_cast<size_t>(n));
  if (target[0] != '/') target = DirName(*path) + "/" + target;
  *path = target;
  return true;
}

}  // namespace

OutputPlan PlanOutputFile(const std::string &filename) {
  OutputPlan in_place;
  in_place.file = filename;
  std::string current = filename;
  for (int hop = 0; hop <= kMaxLinkHops; hop++) {
    if (InProcFs(current)) return in_place;
    struct stat st;
    if (lstat(current.c_str(), &st) != 0) {
      if (errno != ENOENT) return in_place;
      OutputPlan create;  // a new file, or a dangling link's target
      create.file = current;
      create.replace = true;
      return create;
    }
    if (S_ISLNK(st.st_mode)) {
      if (!FollowLink(&current)) return in_place;
      continue;
    }
    if (!S_ISREG(st.st_mode)) return in_place;  // device, FIFO, socket, dir
    OutputPlan replace;
    replace.file = current;
    replace.replace = true;
    replace.existed = true;
    replace.mode = st.st_mode & 07777;
    return replace;
  }
  return in_place;  // a link loop: open() reports ELOOP on the user's path
}

}  // namespace nnet3
