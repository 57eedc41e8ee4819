// Where outputs go: devices, FIFOs and /proc paths are written in place and
// never replaced; regular files and symlink targets are replaced atomically.
#include "util/output-target.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <string>
#include <thread>

#include "util-test-common.h"
#include "util/kaldi-io.h"

using namespace nnet3;
using namespace nnet3::test;

namespace {

bool IsCharDevice(const std::string &path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISCHR(st.st_mode);
}

bool IsLink(const std::string &path) {
  struct stat st;
  return lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode);
}

void WriteAtomically(const std::string &path, const std::string &text) {
  Output ko(path, false, false, /*atomic=*/true);
  ko.Stream() << text;
  ko.Close();
}

size_t CountEntries(const std::string &dir) {
  std::string cmd = "test $(ls -A '" + dir + "' | wc -l) -eq ";
  for (size_t n = 0; n < 10; n++)
    if (system((cmd + std::to_string(n)).c_str()) == 0) return n;
  return 10;
}

}  // namespace

TEST_CASE("plans: new and regular files are replaced", "[output-target]") {
  TempDir dir;
  OutputPlan fresh = PlanOutputFile(dir / "new.raw");
  CHECK(fresh.replace);
  CHECK_FALSE(fresh.existed);
  CHECK(fresh.file == dir / "new.raw");
  WriteFile(dir / "old.raw", "x");
  chmod((dir / "old.raw").c_str(), 0640);
  OutputPlan old = PlanOutputFile(dir / "old.raw");
  CHECK(old.replace);
  CHECK(old.existed);
  CHECK(old.mode == 0640);
}

TEST_CASE("plans: devices, FIFOs and /proc paths are in place",
          "[output-target]") {
  TempDir dir;
  for (const char *path : {"/dev/null", "/dev/stdout", "/dev/stderr",
                           "/dev/fd/1", "/proc/self/fd/2"}) {
    INFO(path);
    OutputPlan plan = PlanOutputFile(path);
    CHECK_FALSE(plan.replace);
    CHECK(plan.file == path);
  }
  REQUIRE(mkfifo((dir / "fifo").c_str(), 0600) == 0);
  CHECK_FALSE(PlanOutputFile(dir / "fifo").replace);
  // A link to a device is a device.
  REQUIRE(symlink("/dev/null", (dir / "null-link").c_str()) == 0);
  CHECK_FALSE(PlanOutputFile(dir / "null-link").replace);
  // A path we cannot examine is opened as given, so open() names it.
  WriteFile(dir / "plain", "x");
  CHECK_FALSE(PlanOutputFile(dir / "plain/below").replace);
}

TEST_CASE("plans: symlink chains end at their target", "[output-target]") {
  TempDir dir;
  REQUIRE(mkdir((dir / "sub").c_str(), 0755) == 0);
  WriteFile(dir / "sub/30.mdl", "model");
  // final.mdl -> sub/link.mdl -> 30.mdl (relative to sub/).
  REQUIRE(symlink("30.mdl", (dir / "sub/link.mdl").c_str()) == 0);
  REQUIRE(symlink("sub/link.mdl", (dir / "final.mdl").c_str()) == 0);
  OutputPlan plan = PlanOutputFile(dir / "final.mdl");
  CHECK(plan.replace);
  CHECK(plan.file == dir / "sub/30.mdl");
  // A dangling link creates its target.
  REQUIRE(symlink("missing.mdl", (dir / "dangling").c_str()) == 0);
  OutputPlan dangling = PlanOutputFile(dir / "dangling");
  CHECK(dangling.replace);
  CHECK(dangling.file == dir / "missing.mdl");
  // A loop is opened in place and fails there.
  REQUIRE(symlink("b", (dir / "a").c_str()) == 0);
  REQUIRE(symlink("a", (dir / "b").c_str()) == 0);
  CHECK_FALSE(PlanOutputFile(dir / "a").replace);
  ExpectUserError([&] { WriteAtomically(dir / "a", "x"); },
                  {"Cannot open", dir / "a"});
}

TEST_CASE("writing to /dev/null leaves it a character device",
          "[output-target]") {
  REQUIRE(IsCharDevice("/dev/null"));
  WriteAtomically("/dev/null", "some model bytes");
  bool still_device = IsCharDevice("/dev/null");
  CHECK(still_device);
  if (!still_device && geteuid() == 0) {  // put the machine right
    unlink("/dev/null");
    CHECK(mknod("/dev/null", S_IFCHR | 0666, makedev(1, 3)) == 0);
    chmod("/dev/null", 0666);
  }
}

TEST_CASE("a FIFO with a reader gets the bytes and stays a FIFO",
          "[output-target]") {
  TempDir dir;
  std::string fifo = dir / "p";
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  std::string received;
  std::thread reader([&] {
    int fd = open(fifo.c_str(), O_RDONLY);
    char buf[256];
    ssize_t n;
    while (fd >= 0 && (n = read(fd, buf, sizeof buf)) > 0)
      received.append(buf, static_cast<size_t>(n));
    if (fd >= 0) close(fd);
  });
  WriteAtomically(fifo, "through the pipe");
  reader.join();
  CHECK(received == "through the pipe");
  struct stat st;
  REQUIRE(lstat(fifo.c_str(), &st) == 0);
  CHECK(S_ISFIFO(st.st_mode));
  CHECK(CountEntries(dir.path()) == 1);
}

TEST_CASE("a symlinked output replaces its target and stays a link",
          "[output-target]") {
  TempDir dir;
  WriteFile(dir / "30.mdl", "old");
  chmod((dir / "30.mdl").c_str(), 0600);
  REQUIRE(symlink("30.mdl", (dir / "final.mdl").c_str()) == 0);
  struct stat before;
  REQUIRE(stat((dir / "30.mdl").c_str(), &before) == 0);
  WriteAtomically(dir / "final.mdl", "new");
  CHECK(IsLink(dir / "final.mdl"));
  CHECK(ReadFile(dir / "30.mdl") == "new");
  struct stat after;
  REQUIRE(stat((dir / "30.mdl").c_str(), &after) == 0);
  CHECK(after.st_ino != before.st_ino);  // replaced by rename, not rewritten
  CHECK((after.st_mode & 07777) == 0600);
  CHECK(CountEntries(dir.path()) == 2);  // no temporary file left
  // A failed write leaves the target as it was.
  try {
    Output ko(dir / "final.mdl", false, false, /*atomic=*/true);
    ko.Stream() << "half";
    throw UserError("simulated failure", SourceLocation());
  } catch (const UserError &) {
  }
  CHECK(ReadFile(dir / "30.mdl") == "new");
  CHECK(CountEntries(dir.path()) == 2);
}

TEST_CASE("/dev/stdout is written in place like '-'", "[output-target]") {
  TempDir dir;
  std::string file = dir / "captured";
  int saved = dup(1);
  int fd = open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  REQUIRE(fd >= 0);
  dup2(fd, 1);
  close(fd);
  struct stat before;
  REQUIRE(stat(file.c_str(), &before) == 0);
  WriteAtomically("/dev/stdout", "to stdout");
  dup2(saved, 1);
  close(saved);
  bool still_link = IsLink("/dev/stdout");
  CHECK(still_link);
  // Put the machine right if the check failed, so that nothing after us
  // inherits a regular file at /dev/stdout.
  if (!still_link && geteuid() == 0) {
    unlink("/dev/stdout");
    CHECK(symlink("/proc/self/fd/1", "/dev/stdout") == 0);
  }
  struct stat after;
  REQUIRE(stat(file.c_str(), &after) == 0);
  CHECK(after.st_ino == before.st_ino);  // the same file, not a replacement
  CHECK(ReadFile(file) == "to stdout");
  CHECK(CountEntries(dir.path()) == 1);
}
