// Tables with int32 vectors (only lib/base needed): archive and scp round
// trips in binary and text, ark,scp offsets, random access in every mode,
// streaming memory, pipes, and bad input.
#include <fcntl.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <map>
#include <string>
#include <vector>

#include "util-test-common.h"
#include "util/table-holders.h"
#include "util/table-reader.h"
#include "util/table-writer.h"

using namespace nnet3;
using namespace nnet3::test;

namespace {

using IntVec = std::vector<int32_t>;
using Holder = BasicVectorHolder<int32_t>;
using Reader = SequentialTableReader<Holder>;
using RandomReader = RandomAccessTableReader<Holder>;
using Writer = TableWriter<Holder>;

// Counts live holders, to check how many entries a reader keeps.
class TrackedHolder : public BasicVectorHolder<int32_t> {
 public:
  TrackedHolder() { Bump(1); }
  ~TrackedHolder() { Bump(-1); }
  static int live, max_live;
  static void Reset() { max_live = live; }

 private:
  static void Bump(int d) {
    live += d;
    if (live > max_live) max_live = live;
  }
};
int TrackedHolder::live = 0;
int TrackedHolder::max_live = 0;

std::map<std::string, IntVec> SampleData() {
  return {{"utt1", {1, 2, 3}},
          {"utt2", {}},
          {"utt3", {-7, 100000}},
          {"utt4", {42}}};
}

void WriteTable(const std::string &wspecifier,
                const std::map<std::string, IntVec> &data) {
  Writer writer(wspecifier);
  for (const auto &kv : data) writer.Write(kv.first, kv.second);
  writer.Close();
}

std::map<std::string, IntVec> ReadTable(
    const std::string &rspecifier, std::vector<std::string> *keys = nullptr) {
  std::map<std::string, IntVec> ans;
  Reader reader(rspecifier);
  for (; !reader.Done(); reader.Next()) {
    if (keys) keys->push_back(reader.Key());
    ans[reader.Key()] = reader.Value();
  }
  reader.Close();
  return ans;
}

// "a" followed by the binary encoding of {5, 6} (Kaldi's BasicVectorHolder
// layout: int32 count and each value with a size byte).
const std::string kBinaryEntry =
    std::string("a \0B\x04\x02\0\0\0\x04\x05\0\0\0\x04\x06\0\0\0", 19);

}  // namespace

TEST_CASE("binary archive: exact bytes and round trip", "[table]") {
  TempDir dir;
  {
    Writer writer("ark:" + dir / "a.ark");
    writer.Write("a", IntVec{5, 6});
    writer.Close();
  }
  CHECK(ReadFile(dir / "a.ark") == kBinaryEntry);
  auto data = SampleData();
  WriteTable("ark:" + dir / "b.ark", data);
  std::vector<std::string> keys;
  CHECK(ReadTable("ark:" + dir / "b.ark", &keys) == data);
  CHECK(keys == std::vector<std::string>{"utt1", "utt2", "utt3", "utt4"});
  // Archives can be concatenated.
  WriteFile(dir / "c.ark", ReadFile(dir / "a.ark") + ReadFile(dir / "b.ark"));
  CHECK(ReadTable("ark:" + dir / "c.ark").size() == 5);
}

TEST_CASE("text archive: exact bytes and round trip", "[table]") {
  TempDir dir;
  auto data = SampleData();
  WriteTable("ark,t:" + dir / "t.ark", data);
  CHECK(ReadFile(dir / "t.ark") ==
        "utt1 1 2 3 \nutt2 \nutt3 -7 100000 \nutt4 42 \n");
  CHECK(ReadTable("ark:" + dir / "t.ark") == data);
  CHECK(ReadTable("ark,t:" + dir / "t.ark") == data);
  // Text and binary entries can be mixed in one archive.
  WriteFile(dir / "m.ark", ReadFile(dir / "t.ark") + kBinaryEntry);
  auto mixed = ReadTable("ark:" + dir / "m.ark");
  CHECK(mixed.size() == 5);
  CHECK(mixed["a"] == IntVec{5, 6});
  // A tab after the key is accepted.
  WriteFile(dir / "tab.ark", "x\t1 2\n");
  CHECK(ReadTable("ark:" + dir / "tab.ark")["x"] == IntVec{1, 2});
}

TEST_CASE("ark,scp: offsets point right after 'key '", "[table]") {
  TempDir dir;
  auto data = SampleData();
  for (bool binary : {true, false}) {
    std::string ark = dir / "o.ark", scp = dir / "o.scp";
    WriteTable(
        std::string(binary ? "ark,scp:" : "ark,scp,t:") + ark + "," + scp,
        data);
    std::string archive = ReadFile(ark);
    std::istringstream lines(ReadFile(scp));
    std::string key, location;
    int n = 0;
    while (lines >> key >> location) {
      n++;
      size_t colon = location.rfind(':');
      REQUIRE(colon != std::string::npos);
      CHECK(location.substr(0, colon) == ark);
      size_t offset = std::stoul(location.substr(colon + 1));
      REQUIRE(offset >= key.size() + 1);
      CHECK(archive.substr(offset - key.size() - 1, key.size() + 1) ==
            key + " ");
      if (binary) CHECK(archive.substr(offset, 2) == std::string("\0B", 2));
    }
    CHECK(n == 4);
    CHECK(ReadTable("scp:" + scp) == data);
    RandomReader random("scp:" + scp);
    CHECK(random.Value("utt3") == data["utt3"]);
    CHECK(random.Value("utt1") == data["utt1"]);
    CHECK(!random.HasKey("nope"));
  }
}

TEST_CASE("scp entries: plain files, spaces, blank lines", "[table]") {
  TempDir dir;
  WriteFile(dir / "w.scp",
            "k1 " + dir / "k1.vec" + "\n\nk2   " + dir / "k2.vec" + "  \n");
  WriteTable("scp:" + dir / "w.scp", {{"k1", {1}}, {"k2", {2, 3}}});
  CHECK(ReadFile(dir / "k1.vec") ==
        std::string("\0B\x04\x01\0\0\0\x04\x01\0\0\0", 12));
  auto back = ReadTable("scp:" + dir / "w.scp");
  CHECK(back["k2"] == IntVec{2, 3});
  // An scp-listed rxfilename may be a pipe with spaces.
  WriteFile(dir / "p.scp", "k cat " + dir / "k2.vec" + " |\n");
  CHECK(ReadTable("scp:" + dir / "p.scp")["k"] == IntVec{2, 3});
}

TEST_CASE("scp wspecifier: keys not listed", "[table]") {
  TempDir dir;
  WriteFile(dir / "w.scp", "k1 " + dir / "k1.vec\n");
  Writer writer("scp:" + dir / "w.scp");
  ExpectUserError([&] { writer.Write("k9", IntVec{1}); },
                  {"'k9'", "not in the scp file", dir / "w.scp"});
  Writer permissive("scp,p:" + dir / "w.scp");
  permissive.Write("k9", IntVec{1});  // skipped with a warning
  permissive.Write("k1", IntVec{7});
  permissive.Close();
  CHECK(ReadTable("scp:" + dir / "w.scp")["k1"] == IntVec{7});
}

TEST_CASE("pipes and standard streams as archives", "[table][pipe]") {
  TempDir dir;
  auto data = SampleData();
  WriteTable("ark:| cat > " + dir / "p.ark", data);
  CHECK(ReadTable("ark:cat " + dir / "p.ark" + " |") == data);
  CHECK(ReadTable("ark,bg:cat " + dir / "p.ark" + " |") == data);
  {
    int saved = dup(0);
    int fd = open((dir / "p.ark").c_str(), O_RDONLY);
    dup2(fd, 0);
    close(fd);
    auto back = ReadTable("ark:-");
    dup2(saved, 0);
    close(saved);
    CHECK(back == data);
  }
  ExpectUserError([&] { ReadTable("ark:false |"); },
                  {"'false'", "exit status 1"});
  ExpectUserError([&] { ReadTable("ark:cat " + dir / "p.ark" + "; exit 5 |"); },
                  {"exit status 5"});
  ExpectUserError([&] { WriteTable("ark:| nonexistent-cmd-xyz", data); },
                  {"'nonexistent-cmd-xyz'", "exit status 127"});
}

TEST_CASE("random access: scp and archives in every mode", "[table]") {
  TempDir dir;
  std::map<std::string, IntVec> data;
  for (int i = 0; i < 50; i++) {
    char key[16];
    snprintf(key, sizeof(key), "k%03d", i);
    data[key] = IntVec{i, i * i};
  }
  WriteTable("ark,scp:" + dir / "r.ark," + dir / "r.scp", data);
  for (std::string opts : {"", "s,", "cs,", "s,cs,", "o,", "o,s,cs,", "p,"}) {
    for (std::string kind : {"ark:" + dir / "r.ark", "scp:" + dir / "r.scp"}) {
      std::string rspecifier = opts + kind;
      INFO(rspecifier);
      RandomReader reader(rspecifier);
      // Sorted requests with gaps and a missing key.
      for (int i = 0; i < 50; i += 7) {
        char key[16];
        snprintf(key, sizeof(key), "k%03d", i);
        CHECK(reader.HasKey(key));
        CHECK(reader.Value(key) == data[key]);
        CHECK(!reader.HasKey(std::string(key) + "x"));
      }
      CHECK(!reader.HasKey("zzz"));
      ExpectUserError([&] { reader.Value("zzz"); },
                      {"'zzz'", "not in the table", rspecifier});
    }
  }
  // Unsorted requests work without "cs".
  RandomReader unsorted("s,ark:" + dir / "r.ark");
  CHECK(unsorted.Value("k030") == data["k030"]);
  CHECK(unsorted.Value("k002") == data["k002"]);
  CHECK(!unsorted.HasKey("k0025"));
  // ...and break the promise of "cs".
  RandomReader cs("cs,ark:" + dir / "r.ark");
  CHECK(cs.HasKey("k030"));
  ExpectUserError([&] { cs.HasKey("k002"); }, {"'cs'", "'k002'"});
}

TEST_CASE("random access memory: s,cs keeps only what is needed", "[table]") {
  TempDir dir;
  std::map<std::string, IntVec> data;
  for (int i = 0; i < 200; i++) data["k" + std::to_string(1000 + i)] = {i};
  WriteTable("ark:" + dir / "m.ark", data);
  TrackedHolder::Reset();
  {
    RandomAccessTableReader<TrackedHolder> reader("s,cs,ark:" + dir / "m.ark");
    for (int i = 0; i < 200; i += 3) {
      std::string key = "k" + std::to_string(1000 + i);
      REQUIRE(reader.HasKey(key));
      CHECK(reader.Value(key) == IntVec{i});
    }
  }
  CHECK(TrackedHolder::max_live <= 3);
  // An unsorted archive without "s" may be read whole for a missing key.
  TrackedHolder::Reset();
  {
    RandomAccessTableReader<TrackedHolder> reader("ark:" + dir / "m.ark");
    CHECK(!reader.HasKey("absent"));
    CHECK(reader.Value("k1100") == IntVec{100});
  }
  CHECK(TrackedHolder::max_live >= 200);
  CHECK(TrackedHolder::live == 0);
  // "s" detects an unsorted archive.
  WriteTable("ark:" + dir / "u.ark", {{"b", {1}}});
  WriteFile(dir / "u2.ark", ReadFile(dir / "m.ark") + ReadFile(dir / "u.ark"));
  RandomReader bad("s,ark:" + dir / "u2.ark");
  ExpectUserError([&] { bad.HasKey("zzz"); },
                  {"not sorted", dir / "u2.ark", "key 'b'", "'k1199'"});
}

TEST_CASE("streaming: a sequential reader keeps one entry", "[table]") {
  TempDir dir;
  {
    Writer writer("ark:" + dir / "big.ark");
    for (int i = 0; i < 2000; i++)
      writer.Write("u" + std::to_string(i), IntVec(100, i));
  }
  for (std::string opts : {"", "bg,"}) {
    TrackedHolder::Reset();
    int n = 0;
    SequentialTableReader<TrackedHolder> reader(opts +
                                                "ark:" + dir / "big.ark");
    for (; !reader.Done(); reader.Next(), n++) {
      REQUIRE(reader.Value().size() == 100);
      CHECK(reader.Value()[0] == n);
    }
    CHECK(n == 2000);
    CHECK(TrackedHolder::max_live <= 2);  // bg: the current and the next
  }
}

TEST_CASE("bad input: missing files", "[table][bad-input]") {
  TempDir dir;
  std::string missing = dir / "missing.ark";
  ExpectUserError([&] { Reader r("ark:" + missing); },
                  {"Cannot open '" + missing + "' for reading",
                   "No such file or directory"});
  ExpectUserError([&] { RandomReader r("scp:" + missing); }, {missing});
  WriteFile(dir / "m.scp", "a " + missing + "\n");
  ExpectUserError([&] { Reader r("scp:" + dir / "m.scp"); },
                  {"file '" + dir / "m.scp" + "'", "key 'a'", missing});
  ExpectUserError([&] { Reader r("ark,x:foo"); }, {"Invalid rspecifier"});
  ExpectUserError([&] { Writer w("scp,ark:a,b"); }, {"Invalid wspecifier"});
  ExpectUserError([&] { Writer w("ark,scp:-," + dir / "x.scp"); },
                  {"must be a plain file"});
}

TEST_CASE("bad input: truncated binary archive", "[table][bad-input]") {
  TempDir dir;
  WriteTable("ark:" + dir / "a.ark", SampleData());
  std::string full = ReadFile(dir / "a.ark");
  size_t utt3 = full.find("utt3 ");
  REQUIRE(utt3 != std::string::npos);
  // Mid-header: "utt3 \0" and nothing after.
  WriteFile(dir / "h.ark", full.substr(0, utt3 + 6));
  ExpectUserError([&] { ReadTable("ark:" + dir / "h.ark"); },
                  {"file '" + dir / "h.ark" + "'", "key 'utt3'",
                   "binary header", "truncated"});
  // Mid-data: a few bytes into the object (its length is more than the
  // file still holds).
  WriteFile(dir / "d.ark", full.substr(0, utt3 + 12));
  ExpectUserError(
      [&] { ReadTable("ark:" + dir / "d.ark"); },
      {"file '" + dir / "d.ark" + "'", "key 'utt3'", "truncated"});
  // Right after the key.
  WriteFile(dir / "k.ark", full.substr(0, utt3 + 4));
  ExpectUserError([&] { ReadTable("ark:" + dir / "k.ark"); },
                  {"key 'utt3'", "expected a space"});
  WriteFile(dir / "s.ark", full.substr(0, utt3 + 5));
  ExpectUserError([&] { ReadTable("ark:" + dir / "s.ark"); },
                  {"key 'utt3'", "end of file"});
  // The same through random access.
  RandomReader random("ark:" + dir / "d.ark");
  ExpectUserError([&] { random.HasKey("utt4"); }, {"key 'utt3'"});
}

TEST_CASE("bad input: wrong or missing binary header", "[table][bad-input]") {
  TempDir dir;
  std::string wrong = kBinaryEntry;
  wrong[3] = 'X';  // "\0X" instead of "\0B"
  WriteFile(dir / "w.ark", wrong);
  ExpectUserError([&] { ReadTable("ark:" + dir / "w.ark"); },
                  {"key 'a'", "binary header \\0B", "'X'"});
  // Binary data without the header is read as text, and fails.
  WriteFile(dir / "n.ark", "a " + kBinaryEntry.substr(4));
  ExpectUserError([&] { ReadTable("ark:" + dir / "n.ark"); },
                  {"file '" + dir / "n.ark" + "'", "key 'a'"});
  // Text that is not numbers.
  WriteFile(dir / "t.ark", "a 1 2 x\n");
  ExpectUserError([&] { ReadTable("ark:" + dir / "t.ark"); },
                  {"key 'a'", "'x'"});
}

TEST_CASE("bad input: keys that are not tokens", "[table][bad-input]") {
  TempDir dir;
  Writer writer("ark:" + dir / "a.ark");
  ExpectUserError([&] { writer.Write("two words", IntVec{1}); },
                  {"Invalid key 'two words'", "whitespace"});
  ExpectUserError([&] { writer.Write("", IntVec{1}); }, {"Invalid key ''"});
  ExpectUserError([&] { writer.Write("tab\tkey", IntVec{1}); },
                  {"Invalid key"});
  writer.Write("ok", IntVec{1});
  writer.Close();
  CHECK(ReadTable("ark:" + dir / "a.ark").size() == 1);
}

TEST_CASE("bad input: scp offsets past the end, bad lines",
          "[table][bad-input]") {
  TempDir dir;
  WriteTable("ark,scp:" + dir / "a.ark," + dir / "a.scp", SampleData());
  size_t size = ReadFile(dir / "a.ark").size();
  WriteFile(dir / "bad.scp",
            "utt1 " + dir / "a.ark:" + std::to_string(size + 10) + "\n");
  ExpectUserError([&] { ReadTable("scp:" + dir / "bad.scp"); },
                  {"file '" + dir / "bad.scp" + "'", "key 'utt1'",
                   "past the end", dir / "a.ark"});
  RandomReader random("scp:" + dir / "bad.scp");
  CHECK(random.HasKey("utt1"));  // listed; reading it fails
  ExpectUserError([&] { random.Value("utt1"); },
                  {"key 'utt1'", "past the end"});
  WriteFile(dir / "line.scp", "only-a-key\n");
  ExpectUserError([&] { ReadTable("scp:" + dir / "line.scp"); },
                  {dir / "line.scp", "line 1", "only-a-key"});
  WriteFile(dir / "dup.scp", ReadFile(dir / "a.scp") + ReadFile(dir / "a.scp"));
  ExpectUserError([&] { RandomReader r("scp:" + dir / "dup.scp"); },
                  {"duplicate key", "'utt1'"});
  // Ranges are for matrices only.
  WriteFile(dir / "r.scp", "utt1 " + dir / "a.ark:5[0:1]\n");
  ExpectUserError([&] { ReadTable("scp:" + dir / "r.scp"); },
                  {"key 'utt1'", "only for matrices"});
}

TEST_CASE("permissive: skip bad scp entries, stop at archive errors",
          "[table][bad-input]") {
  TempDir dir;
  auto data = SampleData();
  WriteTable("ark,scp:" + dir / "a.ark," + dir / "a.scp", data);
  WriteFile(dir / "p.scp", "bad1 " + dir / "missing.ark\n" +
                               ReadFile(dir / "a.scp") + "bad2 " +
                               dir / "a.ark:99999\n");
  std::vector<std::string> keys;
  auto back = ReadTable("p,scp:" + dir / "p.scp", &keys);
  CHECK(back == data);
  CHECK(keys == std::vector<std::string>{"utt1", "utt2", "utt3", "utt4"});
  ExpectUserError([&] { ReadTable("scp:" + dir / "p.scp"); }, {"key 'bad1'"});
  RandomReader random("p,scp:" + dir / "p.scp");
  CHECK(!random.HasKey("bad1"));
  CHECK(random.HasKey("utt2"));
  ExpectUserError([&] { random.Value("bad2"); },
                  {"key 'bad2'", "past the end"});

  std::string full = ReadFile(dir / "a.ark");
  WriteFile(dir / "t.ark", full.substr(0, full.find("utt3 ") + 9));
  back = ReadTable("p,ark:" + dir / "t.ark");
  CHECK(back.size() == 2);  // utt1, utt2; utt3 is truncated
  RandomReader random_ark("p,ark:" + dir / "t.ark");
  CHECK(random_ark.HasKey("utt2"));
  CHECK(!random_ark.HasKey("utt4"));
}
