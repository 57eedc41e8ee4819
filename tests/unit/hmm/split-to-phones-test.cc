// SplitToPhones and CheckAlignment on hand-made alignments for the test
// transition model tests/data/train/hmm.mdl: phones 1 and 2 have three
// emitting states, phone 3 one. Transition-ids: phone 1 state 0 self-loop 1,
// forward 2; state 1: 3, 4; state 2: 5, 6 (6 leaves the phone); phone 2:
// 7..12 likewise; phone 3: self-loop 13, final 14. The splits are the ones
// Kaldi's show-alignments prints for the same alignments.
#include "hmm/split-to-phones.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <string>
#include <vector>

#include "../util/util-test-common.h"
#include "base/io-funcs.h"

namespace nnet3 {
namespace {

using test::ExpectUserError;
using Ali = std::vector<int32_t>;
using Split = std::vector<std::vector<int32_t>>;

TransitionModel TestModel() {
  std::ifstream is(std::string(NNET3_TEST_DATA) + "/train/hmm.mdl",
                   std::ios::binary);
  REQUIRE(is.good());
  bool binary = false;
  REQUIRE(InitKaldiInputStream(is, &binary));
  TransitionModel tm;
  tm.Read(is, binary);  // the front of the .mdl
  return tm;
}

TEST_CASE("SplitToPhones", "[hmm]") {
  const TransitionModel tm = TestModel();
  Split split;
  // Self-loops before the forward transition (not reordered).
  CHECK(SplitToPhones(tm, Ali{1, 2, 4, 5, 6, 13, 14, 8, 10, 12}, &split));
  CHECK(split == (Split{{1, 2, 4, 5, 6}, {13, 14}, {8, 10, 12}}));
  // Reordered: the self-loops after a final transition stay with it.
  CHECK(SplitToPhones(tm, Ali{2, 1, 4, 6, 5, 14, 13, 8, 10, 12}, &split));
  CHECK(split == (Split{{2, 1, 4, 6, 5}, {14, 13}, {8, 10, 12}}));
  // Ends inside phone 1; changes phone without a final transition; starts
  // phone 1 in its second state: one piece each way, not plausible.
  CHECK_FALSE(SplitToPhones(tm, Ali{1, 2, 4}, &split));
  CHECK(split == (Split{{1, 2, 4}}));
  CHECK_FALSE(SplitToPhones(tm, Ali{2, 4, 8, 10, 12}, &split));
  CHECK(split == (Split{{2, 4}, {8, 10, 12}}));
  CHECK_FALSE(SplitToPhones(tm, Ali{4, 6}, &split));
  CHECK(split == (Split{{4, 6}}));
  CHECK(SplitToPhones(tm, Ali{}, &split));
  CHECK(split.empty());
}

TEST_CASE("CheckAlignment", "[hmm]") {
  const TransitionModel tm = TestModel();
  CheckAlignment(tm, Ali{1, 14}, "utt1");
  ExpectUserError(
      [&] {
        CheckAlignment(tm, Ali{1, 15}, "utt1");
      },
      {"alignment of utt1", "transition-id 15 at frame 1", "1..14"});
  ExpectUserError([&] { CheckAlignment(tm, Ali{0}, "utt2"); },
                  {"utt2", "transition-id 0"});
}

}  // namespace
}  // namespace nnet3
