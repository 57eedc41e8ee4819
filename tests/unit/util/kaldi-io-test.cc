// Extended filenames: classification, files, offsets, pipes (including
// failing commands), standard input/output and atomic output.
#include "util/kaldi-io.h"

#include <fcntl.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "base/io-funcs.h"
#include "util-test-common.h"

using namespace nnet3;
using namespace nnet3::test;

namespace {

// A tiny object with Kaldi's Read/Write, for ReadKaldiObject and friends.
struct IntList {
  std::vector<int32_t> v;
  void Write(std::ostream &os, bool binary) const {
    WriteIntegerVector(os, binary, v);
  }
  void Read(std::istream &is, bool binary) {
    ReadIntegerVector(is, binary, &v);
  }
};

// Points fd `target` (0 or 1) at `path` for the life of the object.
class Redirect {
 public:
  Redirect(int target, const std::string &path, int flags) : target_(target) {
    saved_ = dup(target);
    int fd = open(path.c_str(), flags, 0666);
    REQUIRE(fd >= 0);
    dup2(fd, target);
    close(fd);
  }
  ~Redirect() {
    dup2(saved_, target_);
    close(saved_);
  }

 private:
  int target_, saved_;
};

}  // namespace

TEST_CASE("rxfilename classification", "[kaldi-io]") {
  CHECK(ClassifyRxfilename("") == InputType::kStandardInput);
  CHECK(ClassifyRxfilename("-") == InputType::kStandardInput);
  CHECK(ClassifyRxfilename("gunzip -c foo.gz |") == InputType::kPipeInput);
  CHECK(ClassifyRxfilename("cat foo|") == InputType::kPipeInput);
  CHECK(ClassifyRxfilename("foo.ark:1234") == InputType::kOffsetFileInput);
  CHECK(ClassifyRxfilename("/a/b/foo.ark:0") == InputType::kOffsetFileInput);
  CHECK(ClassifyRxfilename("foo.mat") == InputType::kFileInput);
  CHECK(ClassifyRxfilename("foo:12a") == InputType::kFileInput);
  CHECK(ClassifyRxfilename("a-b_c.1") == InputType::kFileInput);
  // Invalid forms.
  CHECK(ClassifyRxfilename("| gzip -c > x") == InputType::kNoInput);
  CHECK(ClassifyRxfilename(" foo") == InputType::kNoInput);
  CHECK(ClassifyRxfilename("foo ") == InputType::kNoInput);
  CHECK(ClassifyRxfilename("ark:foo.ark") == InputType::kNoInput);
  CHECK(ClassifyRxfilename("scp:foo.scp") == InputType::kNoInput);
  CHECK(ClassifyRxfilename("ark,t:-") == InputType::kNoInput);
  CHECK(ClassifyRxfilename("cat foo | gzip") == InputType::kNoInput);
}

TEST_CASE("wxfilename classification", "[kaldi-io]") {
  CHECK(ClassifyWxfilename("") == OutputType::kStandardOutput);
  CHECK(ClassifyWxfilename("-") == OutputType::kStandardOutput);
  CHECK(ClassifyWxfilename("| gzip -c > x.gz") == OutputType::kPipeOutput);
  CHECK(ClassifyWxfilename("|cat") == OutputType::kPipeOutput);
  CHECK(ClassifyWxfilename("foo.mat") == OutputType::kFileOutput);
  CHECK(ClassifyWxfilename("dir/foo.1.mdl") == OutputType::kFileOutput);
  // Invalid forms.
  CHECK(ClassifyWxfilename("gunzip -c x |") == OutputType::kNoOutput);
  CHECK(ClassifyWxfilename(" foo") == OutputType::kNoOutput);
  CHECK(ClassifyWxfilename("foo\t") == OutputType::kNoOutput);
  CHECK(ClassifyWxfilename("foo.ark:123") == OutputType::kNoOutput);
  CHECK(ClassifyWxfilename("ark:foo.ark") == OutputType::kNoOutput);
  CHECK(ClassifyWxfilename("ark,scp:a,b") == OutputType::kNoOutput);
  CHECK(ClassifyWxfilename("a | b") == OutputType::kNoOutput);
  CHECK(PrintableRxfilename("-") == "standard input");
  CHECK(PrintableWxfilename("") == "standard output");
  CHECK(PrintableRxfilename("x") == "x");
}

TEST_CASE("invalid extended filenames are UserErrors", "[kaldi-io]") {
  Input ki;
  ExpectUserError([&] { ki.Open("ark:foo"); },
                  {"Invalid input filename", "'ark:foo'"});
  Output ko;
  ExpectUserError([&] { ko.Open("foo.ark:12", true, true); },
                  {"Invalid output filename", "'foo.ark:12'"});
  ExpectUserError([&] { ko.Open("cat x |", true, true); },
                  {"Invalid output filename"});
}

TEST_CASE("files: header, round trip, missing file", "[kaldi-io]") {
  TempDir dir;
  IntList a;
  a.v = {1, 2, 3};
  for (bool binary : {true, false}) {
    WriteKaldiObject(a, dir / "a", binary);
    std::string bytes = ReadFile(dir / "a");
    CHECK((bytes.compare(0, 2, std::string("\0B", 2)) == 0) == binary);
    IntList b;
    ReadKaldiObject(dir / "a", &b);
    CHECK(b.v == a.v);
    bool is_binary = !binary;
    Input ki(dir / "a", &is_binary);
    CHECK(is_binary == binary);
    CHECK(ki.Close());
  }
  std::string missing = dir / "missing";
  ExpectUserError([&] { Input ki(missing); },
                  {"Cannot open '" + missing + "' for reading",
                   "No such file or directory"});
  IntList b;
  ExpectUserError([&] { ReadKaldiObject(missing, &b); }, {missing});
  ExpectUserError([&] { ReadKaldiObject(dir.path(), &b); },
                  {dir.path(), "is a directory"});
  ExpectUserError([&] { Output ko(dir / "no-dir/x", true); },
                  {"Cannot open", "for writing"});
}

TEST_CASE("a bad header or truncated object names the file", "[kaldi-io]") {
  TempDir dir;
  WriteFile(dir / "bad", std::string("\0X\x04", 3));
  bool binary;
  ExpectUserError([&] { Input ki(dir / "bad", &binary); },
                  {dir / "bad", "\\0"});
  WriteFile(dir / "trunc", std::string("\0B\x04\x05\0\0\0\1\0", 9));
  IntList b;
  ExpectUserError([&] { ReadKaldiObject(dir / "trunc", &b); },
                  {"Reading '" + dir / "trunc" + "'"});
}

TEST_CASE("file:offset seeks, and re-opening reuses the file", "[kaldi-io]") {
  TempDir dir;
  WriteFile(dir / "f", "0123456789abcdef");
  Input ki(dir / "f:10");
  CHECK(ki.Stream().get() == 'a');
  ki.Open(dir / "f:3");
  CHECK(ki.Stream().get() == '3');
  ki.Open(dir / "f:15");
  CHECK(ki.Stream().get() == 'f');
  ki.Close();
  ExpectUserError([&] { ki.Open(dir / "f:16"); },
                  {"Offset 16", "past the end", dir / "f"});
  ExpectUserError([&] { ki.Open(dir / "f:99999"); }, {"Offset 99999"});
}

TEST_CASE("input pipes", "[kaldi-io][pipe]") {
  Input ki("echo hello world |");
  std::string a, b;
  ki.Stream() >> a >> b;
  CHECK(a == "hello");
  CHECK(b == "world");
  CHECK(ki.Close());
  // Stopping early is fine: the command dies of SIGPIPE.
  Input big("yes |");
  std::string y;
  big.Stream() >> y;
  CHECK(y == "y");
  CHECK(big.Close());
}

TEST_CASE("failing input pipes are UserErrors naming the command",
          "[kaldi-io][pipe]") {
  ExpectUserError([] { Input ki("false |"); }, {"'false'", "exit status 1"});
  ExpectUserError(
      [] { Input ki("nonexistent-cmd-xyz |"); },
      {"'nonexistent-cmd-xyz'", "exit status 127", "command not found"});
  // Output first, then failure: reported by Close().
  Input ki("echo x; exit 3 |");
  std::string x;
  ki.Stream() >> x;
  CHECK(x == "x");
  ExpectUserError([&] { ki.Close(); }, {"exit status 3"});
  Input k2("echo y; exit 4 |");
  std::string error;
  CHECK(!k2.Close(&error));
  CHECK(error.find("exit status 4") != std::string::npos);
}

TEST_CASE("output pipes", "[kaldi-io][pipe]") {
  TempDir dir;
  std::string file = dir / "out";
  Output ko("| cat > " + file, false, false);
  ko.Stream() << "piped text\n";
  CHECK(ko.Close());
  CHECK(ReadFile(file) == "piped text\n");
  // The binary header goes through the pipe too.
  Output kb("| cat > " + file, true, true);
  kb.Stream() << "x";
  kb.Close();
  CHECK(ReadFile(file) == std::string("\0Bx", 3));
}

TEST_CASE("failing output pipes are UserErrors at Close", "[kaldi-io][pipe]") {
  TempDir dir;
  Output ko("| cat > " + dir / "no-dir/x", false, false);
  ko.Stream() << "data\n";
  ExpectUserError(
      [&] { ko.Close(); },
      {"Output pipe command", "cat > " + dir / "no-dir/x", "exit status"});
  Output missing("| nonexistent-cmd-xyz", false, false);
  // More than a pipe buffer, so that writing meets a closed pipe (EPIPE,
  // not SIGPIPE: the process must survive).
  std::string chunk(1 << 16, 'x');
  for (int i = 0; i < 4; i++) missing.Stream() << chunk;
  ExpectUserError(
      [&] { missing.Close(); },
      {"'nonexistent-cmd-xyz'", "exit status 127", "command not found"});
  Output f("| exit 2", false, false);
  std::string error;
  CHECK(!f.Close(&error));
  CHECK(error.find("exit status 2") != std::string::npos);
}

TEST_CASE("standard input and output", "[kaldi-io]") {
  TempDir dir;
  {
    Redirect r(1, dir / "stdout", O_WRONLY | O_CREAT | O_TRUNC);
    Output ko("-", true, true);
    ko.Stream() << "abc";
    ko.Close();
  }
  CHECK(ReadFile(dir / "stdout") == std::string("\0Babc", 5));
  {
    Redirect r(0, dir / "stdout", O_RDONLY);
    bool binary = false;
    Input ki("-", &binary);
    CHECK(binary);
    std::string s;
    ki.Stream() >> s;
    CHECK(s == "abc");
  }
}

TEST_CASE("atomic output is renamed only on success", "[kaldi-io]") {
  TempDir dir;
  std::string file = dir / "model";
  WriteFile(file, "old");
  {
    Output ko(file, false, false, /*atomic=*/true);
    ko.Stream() << "new";
    CHECK(ReadFile(file) == "old");  // not yet
    ko.Close();
  }
  CHECK(ReadFile(file) == "new");
  try {
    Output ko(file, false, false, /*atomic=*/true);
    ko.Stream() << "half-written";
    throw UserError("simulated failure", SourceLocation());
  } catch (const UserError &) {
  }
  CHECK(ReadFile(file) == "new");
  // No temporary file is left behind.
  CHECK(system(("test $(ls '" + dir.path() + "' | wc -l) -eq 1").c_str()) == 0);
}
