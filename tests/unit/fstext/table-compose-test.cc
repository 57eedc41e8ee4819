// TableCompose against OpenFst's own composition: on a two-word lexicon and
// a bigram grammar (whose composition is worked out by hand), and on random
// FSTs with states dense enough for the matcher's tables, the result must
// be fst::Compose's, state for state and arc for arc, on either side.
#include "fstext/table-compose.h"

#include <fst/fstlib.h>

#include <catch2/catch.hpp>
#include <string>

#include "../util/util-test-common.h"
#include "fst-test-common.h"

namespace nnet3 {
namespace {

using test::ExpectUserError;
using test::FstFromText;
using test::FstToText;
using test::RandomFst;
using test::RandomFstOptions;

// Phones 1 (a), 2 (b); words 1 (ab), 2 (ba); the loop state 0.
fst::StdVectorFst TwoWordLexicon() {
  fst::StdVectorFst l = FstFromText(
      "0 1 1 1 0.5\n"  // a:ab
      "1 0 2 0\n"      // b
      "0 2 2 2 0.5\n"  // b:ba
      "2 0 1 0\n"      // a
      "0\n");
  fst::ArcSort(&l, fst::OLabelCompare<fst::StdArc>());
  return l;
}

// A bigram over the two words: start 0, after ab 1, after ba 2.
fst::StdVectorFst Bigram() {
  fst::StdVectorFst g = FstFromText(
      "0 1 1 1 1.0\n"
      "0 2 2 2 2.0\n"
      "1 2 2 2 0.25\n"
      "2 1 1 1 0.75\n"
      "1 3.0\n"
      "2 4.0\n");
  fst::ArcSort(&g, fst::ILabelCompare<fst::StdArc>());
  return g;
}

fst::StdVectorFst OpenFstCompose(const fst::StdVectorFst &a,
                                 const fst::StdVectorFst &b) {
  fst::StdVectorFst c;
  fst::ComposeOptions opts;
  opts.filter_type = fst::SEQUENCE_FILTER;
  fst::Compose(a, b, &c, opts);
  return c;
}

TEST_CASE("TableCompose of a lexicon and a bigram, by hand", "[fstext]") {
  fst::StdVectorFst lg;
  TableCompose(TwoWordLexicon(), Bigram(), &lg);
  // Paths: "a b" -> ab (0.5 + 1.0), "b a" -> ba (0.5 + 2.0), then the
  // other word or the end; the composition is the product of the two.
  const std::string expected =
      "0\t1\t1\t1\t1.5\n"
      "0\t2\t2\t2\t2.5\n"
      "1\t3\t2\t0\n"
      "2\t4\t1\t0\n"
      "3\t2\t2\t2\t0.75\n"
      "3\t3\n"
      "4\t1\t1\t1\t1.25\n"
      "4\t4\n";
  CHECK(FstToText(lg) == expected);
  CHECK(fst::Equal(lg, OpenFstCompose(TwoWordLexicon(), Bigram())));
}

TEST_CASE("TableCompose equals fst::Compose on random FSTs", "[fstext]") {
  RandomFstOptions dense;
  dense.num_states = 8;
  dense.arcs_per_state = 7;  // most states get a table (>= 4 arcs)
  dense.num_ilabels = dense.num_olabels = 6;
  dense.output_epsilon_prob = 0.2;
  dense.input_epsilon_prob = 0.2;
  for (uint32_t seed = 1; seed <= 40; ++seed) {
    INFO("seed " << seed);
    fst::StdVectorFst a = RandomFst(seed, dense);
    fst::StdVectorFst b = RandomFst(1000 + seed, dense);
    fst::ArcSort(&a, fst::OLabelCompare<fst::StdArc>());
    fst::ArcSort(&b, fst::ILabelCompare<fst::StdArc>());
    const fst::StdVectorFst expected = OpenFstCompose(a, b);
    fst::StdVectorFst left, right;
    TableCompose(a, b, &left);
    CHECK(fst::Equal(left, expected));
    TableComposeOptions opts;
    opts.table_match_type = fst::MATCH_INPUT;
    TableCompose(a, b, &right, opts);
    CHECK(fst::Equal(right, expected));
    TableComposeCache cache;
    fst::StdVectorFst cached1, cached2;
    TableCompose(a, b, &cached1, &cache);
    TableCompose(a, b, &cached2, &cache);  // tables reused
    CHECK(fst::Equal(cached1, expected));
    CHECK(fst::Equal(cached2, expected));
  }
}

TEST_CASE("TableCompose needs the table side sorted", "[fstext]") {
  fst::StdVectorFst l = FstFromText("0 0 1 2\n0 0 2 1\n0\n");
  fst::StdVectorFst out;
  ExpectUserError([&] { TableCompose(l, l, &out); },
                  {"left FST is not sorted on its output labels",
                   "fstarcsort --sort_type=olabel"});
}

}  // namespace
}  // namespace nnet3
