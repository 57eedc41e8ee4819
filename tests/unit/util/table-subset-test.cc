// Key lists and CopyTableSubset (lattice-copy --include / --exclude), and
// the pair-vector holder (ali-to-phones --write-lengths), on small
// archives written by hand.
#include "util/table-subset.h"

#include <catch2/catch.hpp>
#include <string>
#include <utility>
#include <vector>

#include "util-test-common.h"
#include "util/pair-vector-holder.h"
#include "util/table-types.h"

namespace nnet3 {
namespace {

using test::ExpectUserError;

TEST_CASE("ReadKeyList", "[util]") {
  test::TempDir dir;
  test::WriteFile(dir / "list", "b x y\nc\n\ta\t1\n");
  const KeyList list = ReadKeyList(dir / "list");
  CHECK(list.keys.size() == 3);
  CHECK(list.keys.count("a") == 1);
  CHECK(list.largest == "c");
  test::WriteFile(dir / "bad", "a\n\nb\n");
  ExpectUserError([&] { ReadKeyList(dir / "bad"); },
                  {"Line 2 of the key list", "is empty"});
}

// Copies ark:in with the list "b d" and returns the keys written.
std::vector<std::string> Copy(const test::TempDir &dir, bool include, bool stop,
                              SubsetCopyCounts *counts) {
  SequentialInt32VectorReader reader("ark:" + (dir / "in"));
  Int32VectorWriter writer("ark,t:" + (dir / "out"));
  KeyList list;
  list.keys = {"b", "d"};
  list.largest = "d";
  *counts = CopyTableSubset(list, include, stop, &reader, &writer);
  writer.Close();
  std::vector<std::string> keys;
  SequentialInt32VectorReader out("ark:" + (dir / "out"));
  for (; !out.Done(); out.Next()) keys.push_back(out.Key());
  return keys;
}

TEST_CASE("CopyTableSubset", "[util]") {
  test::TempDir dir;
  test::WriteFile(dir / "in", "a 1\nb 2\nc 3\nd 4\ne 5\nf 6\n");
  using K = std::vector<std::string>;
  SubsetCopyCounts counts;
  CHECK(Copy(dir, true, false, &counts) == (K{"b", "d"}));
  CHECK(counts.num_read == 6);
  CHECK(counts.num_written == 2);
  CHECK_FALSE(counts.stopped_early);
  CHECK(Copy(dir, false, false, &counts) == (K{"a", "c", "e", "f"}));
  // Sorted input: stops at "e", past the list's largest key.
  CHECK(Copy(dir, true, true, &counts) == (K{"b", "d"}));
  CHECK(counts.stopped_early);
  CHECK(counts.num_read == 4);
}

TEST_CASE("BasicPairVectorHolder", "[util]") {
  test::TempDir dir;
  using P = std::vector<std::pair<int32_t, int32_t>>;
  const P lengths{{10, 7}, {12, 3}};
  for (const std::string form : {"ark,t:", "ark:"}) {
    {
      Int32PairVectorWriter writer(form + (dir / "p"));
      writer.Write("utt1", lengths);
      writer.Write("utt2", P());
    }
    SequentialInt32PairVectorReader reader("ark:" + (dir / "p"));
    REQUIRE(!reader.Done());
    CHECK(reader.Value() == lengths);
    reader.Next();
    REQUIRE(!reader.Done());
    CHECK(reader.Value().empty());
  }
  {
    Int32PairVectorWriter writer("ark,t:" + (dir / "p"));
    writer.Write("utt1", lengths);
  }
  CHECK(test::ReadFile(dir / "p") == "utt1 10 7 ; 12 3 \n");
  test::WriteFile(dir / "bad", "utt1 1 2 ; 3\n");
  ExpectUserError(
      [&] {
        SequentialInt32PairVectorReader bad("ark:" + (dir / "bad"));
        bad.Value();
      },
      {"pairs of numbers", "key 'utt1'"});
}

}  // namespace
}  // namespace nnet3
