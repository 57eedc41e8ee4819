// ArpaFileParser and ArpaLmCompiler on a bigram LM small enough to work out
// G by hand, with and without the disambiguation symbol; a trigram whose
// bigram suffix is missing; and the errors, each naming its line.
#include "lm/arpa-lm-compiler.h"

#include <fst/fstlib.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <memory>
#include <sstream>
#include <string>

#include "../util/util-test-common.h"

namespace nnet3 {
namespace {

using test::ExpectUserError;

const char *const kBigram =
    "some header text\n"
    "\n"
    "\\data\\\n"
    "ngram 1=4\n"
    "ngram 2=3\n"
    "\n"
    "\\1-grams:\n"
    "-1.0\t<s>\t-0.5\n"
    "-0.5\ta\t-0.3\n"
    "-0.7\tb\t-0.2\n"
    "-0.6\t</s>\n"
    "\n"
    "\\2-grams:\n"
    "-0.2\t<s> a\n"
    "-0.3\ta b\n"
    "-0.1\tb </s>\n"
    "\n"
    "\\end\\\n";

// The cost of an ARPA log10 probability, as the compiler computes it.
float Cost(float log10_prob) {
  float ln = log10_prob;
  ln *= M_LN10;
  return -ln;
}

struct Lm {
  fst::SymbolTable words;
  std::unique_ptr<ArpaLmCompiler> compiler;
};

// Compiles `text`; words <eps> 0, a 1, b 2, then #0 3 if `disambig`,
// then <s>, </s>.
std::unique_ptr<Lm> Compile(
    const std::string &text, bool disambig,
    ArpaParseOptions::OovHandling oov = ArpaParseOptions::kSkipNGram) {
  auto lm = std::make_unique<Lm>();
  lm->words.AddSymbol("<eps>", 0);
  lm->words.AddSymbol("a");
  lm->words.AddSymbol("b");
  const int64_t hash0 = disambig ? lm->words.AddSymbol("#0") : 0;
  ArpaParseOptions opts;
  opts.bos_symbol = lm->words.AddSymbol("<s>");
  opts.eos_symbol = lm->words.AddSymbol("</s>");
  opts.oov_handling = oov;
  lm->compiler = std::make_unique<ArpaLmCompiler>(opts, hash0, &lm->words);
  std::istringstream is(text);
  lm->compiler->Read(is, "test.arpa");
  return lm;
}

TEST_CASE("ArpaLmCompiler: a bigram with #0 on back-off arcs", "[lm]") {
  auto lm = Compile(kBigram, true);
  // State 0: no history; 1: <s> (the start); 2: a; 3: b. Back-off arcs
  // #0:<eps> to state 0; </s> becomes final weights.
  fst::StdVectorFst expected;
  for (int i = 0; i < 4; ++i) expected.AddState();
  expected.SetStart(1);
  expected.AddArc(1, fst::StdArc(3, 0, Cost(-0.5), 0));
  expected.AddArc(2, fst::StdArc(3, 0, Cost(-0.3), 0));
  expected.AddArc(0, fst::StdArc(1, 1, Cost(-0.5), 2));
  expected.AddArc(3, fst::StdArc(3, 0, Cost(-0.2), 0));
  expected.AddArc(0, fst::StdArc(2, 2, Cost(-0.7), 3));
  expected.SetFinal(0, Cost(-0.6));
  expected.AddArc(1, fst::StdArc(1, 1, Cost(-0.2), 2));
  expected.AddArc(2, fst::StdArc(2, 2, Cost(-0.3), 3));
  expected.SetFinal(3, Cost(-0.1));
  CHECK(fst::Equal(lm->compiler->Fst(), expected, 1e-6));
  CHECK(lm->compiler->Fst().InputSymbols() != nullptr);
}

TEST_CASE("ArpaLmCompiler: <s> and </s> kept without #0", "[lm]") {
  auto lm = Compile(kBigram, false);
  // 0: no history; 1: after </s> (final); 2: <s>; 3: the start, with a
  // free <s> arc; 4: a; 5: b. Back-off arcs <eps>:<eps>.
  fst::StdVectorFst expected;
  for (int i = 0; i < 6; ++i) expected.AddState();
  expected.SetFinal(1, 0);
  expected.SetStart(3);
  expected.AddArc(2, fst::StdArc(0, 0, Cost(-0.5), 0));
  expected.AddArc(3, fst::StdArc(3, 3, 0, 2));
  expected.AddArc(4, fst::StdArc(0, 0, Cost(-0.3), 0));
  expected.AddArc(0, fst::StdArc(1, 1, Cost(-0.5), 4));
  expected.AddArc(5, fst::StdArc(0, 0, Cost(-0.2), 0));
  expected.AddArc(0, fst::StdArc(2, 2, Cost(-0.7), 5));
  expected.AddArc(0, fst::StdArc(4, 4, Cost(-0.6), 1));
  expected.AddArc(2, fst::StdArc(1, 1, Cost(-0.2), 4));
  expected.AddArc(4, fst::StdArc(2, 2, Cost(-0.3), 5));
  expected.AddArc(5, fst::StdArc(4, 4, Cost(-0.1), 1));
  CHECK(fst::Equal(lm->compiler->Fst(), expected, 1e-6));
}

TEST_CASE("ArpaLmCompiler: a trigram without its bigram suffix", "[lm]") {
  // "a a b" has no bigram "a b": its arc goes to a new state for "a b",
  // whose back-off arc (cost -0: the highest order has no back-off
  // column) goes to b's state. Without #0, so that no state is removed.
  const std::string text =
      "\\data\\\nngram 1=4\nngram 2=2\nngram 3=1\n\\1-grams:\n"
      "-1 <s> -0.5\n-0.5 a -0.3\n-0.7 b -0.2\n-0.6 </s>\n\\2-grams:\n"
      "-0.2 <s> a -0.1\n-0.4 a a -0.1\n\\3-grams:\n-0.3 a a b\n\\end\\\n";
  auto lm = Compile(text, false);
  const fst::StdVectorFst &g = lm->compiler->Fst();
  // 0 none, 1 after </s>, 2 <s>, 3 start, 4 a, 5 b, 6 <s> a, 7 a a, 8 a b.
  REQUIRE(g.NumStates() == 9);
  fst::ArcIterator<fst::StdVectorFst> it(g, 7);
  it.Seek(1);
  CHECK(it.Value().ilabel == 2);
  CHECK(it.Value().nextstate == 8);
  CHECK(it.Value().weight.Value() == Approx(Cost(-0.3)));
  REQUIRE(g.NumArcs(8) == 1);
  fst::ArcIterator<fst::StdVectorFst> backoff(g, 8);
  CHECK(backoff.Value().ilabel == 0);
  CHECK(backoff.Value().nextstate == 5);
  CHECK(backoff.Value().weight.Value() == 0);
  CHECK(std::signbit(backoff.Value().weight.Value()));
}

TEST_CASE("ArpaLmCompiler: unknown words", "[lm]") {
  std::string text = kBigram;
  text.replace(text.find("-0.3\ta b"), 8, "-0.3\ta zz");
  // Skipped (with a warning): no arc 2 -> 3 with b.
  auto lm = Compile(text, true);
  CHECK(lm->compiler->Fst().NumArcs(2) == 1);
  ExpectUserError(
      [&] { Compile(text, true, ArpaParseOptions::kRaiseError); },
      {"'test.arpa' line 15 [-0.3\ta zz]", "word 'zz' not in symbol table"});
}

TEST_CASE("ArpaFileParser errors name the line", "[lm]") {
  auto with = [](const std::string &from, const std::string &to) {
    std::string text = kBigram;
    text.replace(text.find(from), from.size(), to);
    return text;
  };
  ExpectUserError(
      [&] { Compile(with("ngram 2=3", "ngram 2=x"), true); },
      {"'test.arpa' line 5 [ngram 2=x]", "cannot parse ngram count"});
  ExpectUserError(
      [&] { Compile(with("-0.7\tb\t-0.2", "-0.7\tb\t-0.2 c"), true); },
      {"line 10 [-0.7\tb\t-0.2 c]", "Invalid n-gram data line"});
  ExpectUserError([&] { Compile(with("-0.2\t<s> a", "-0.2\t<s> a -1"), true); },
                  {"line 14", "Invalid n-gram data line"});
  ExpectUserError([&] { Compile(with("-0.5\ta", "x\ta"), true); },
                  {"line 9", "invalid n-gram logprob 'x'"});
  ExpectUserError([&] { Compile(with("ngram 2=3", "ngram 2=2"), true); },
                  {"header said there would be 2 n-grams of order 2"});
  ExpectUserError([&] { Compile(with("\\end\\\n", ""), true); },
                  {"expecting \\end\\"});
  ExpectUserError([&] { Compile(with("\\data\\", "data"), true); },
                  {"\\data\\ section missing or empty"});
  // A wrong section header inside a section is taken (as Kaldi takes it)
  // for a data line, after a warning.
  ExpectUserError([&] { Compile(with("\\2-grams:", "\\3-grams:"), true); },
                  {"line 13 [\\3-grams:]", "Invalid n-gram data line"});
  ExpectUserError([&] { Compile(with("\\1-grams:", "\\2-grams:"), true); },
                  {"line 7", "invalid directive, expecting '\\1-grams:'"});
  ExpectUserError([&] { Compile(with("-1.0\t<s>\t-0.5\n", ""), true); },
                  {"did not contain the beginning-of-sentence symbol <s>"});
}

}  // namespace
}  // namespace nnet3
