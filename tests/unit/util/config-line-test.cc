// Config lines (reference 1.1): first token, values with spaces, quotes,
// first-wins duplicates, unused keys, typed getters, comments and line
// numbers.
#include "util/config-line.h"

#include <catch2/catch.hpp>
#include <sstream>

#include "util-test-common.h"

using namespace nnet3;
using namespace nnet3::test;

TEST_CASE("first token and plain values", "[config-line]") {
  ConfigLine cfl;
  REQUIRE(cfl.ParseLine(
      "component name=affine1 type=NaturalGradientAffineComponent "
      "input-dim=10 output-dim=20"));
  CHECK(cfl.FirstToken() == "component");
  std::string name, type;
  int32_t in = 0, out = 0;
  CHECK(cfl.GetValue("name", &name));
  CHECK(name == "affine1");
  CHECK(cfl.GetValue("type", &type));
  CHECK(cfl.GetValue("input-dim", &in));
  CHECK(in == 10);
  CHECK(cfl.HasUnusedValues());
  CHECK(cfl.UnusedValues() == "output-dim=20");
  CHECK(cfl.GetValue("output-dim", &out));
  CHECK(out == 20);
  CHECK(!cfl.HasUnusedValues());
  CHECK(cfl.UnusedValues().empty());
  int32_t missing = 7;
  CHECK(!cfl.GetValue("missing", &missing));
  CHECK(missing == 7);

  // No first token when the first word has '='.
  REQUIRE(cfl.ParseLine("  a=1 b=2  "));
  CHECK(cfl.FirstToken().empty());
  CHECK(cfl.HasKey("a"));
  CHECK(cfl.WholeLine() == "  a=1 b=2  ");
}

TEST_CASE("values with spaces, quotes and empty values", "[config-line]") {
  ConfigLine cfl;
  REQUIRE(cfl.ParseLine(
      "component-node name=x component=c input=Append(Offset(a, -1), b)  "
      "q1='hello world=3' q2=\"x y\" empty= last=z"));
  std::string v;
  CHECK(cfl.GetValue("input", &v));
  CHECK(v == "Append(Offset(a, -1), b)");
  CHECK(cfl.GetValue("q1", &v));
  CHECK(v == "hello world=3");
  CHECK(cfl.GetValue("q2", &v));
  CHECK(v == "x y");
  CHECK(cfl.GetValue("empty", &v));
  CHECK(v.empty());
  CHECK(cfl.GetValue("last", &v));
  CHECK(v == "z");
}

TEST_CASE("duplicate keys: the first wins, silently", "[config-line]") {
  ConfigLine cfl;
  REQUIRE(cfl.ParseLine("component name=a dim=3 dim=4 name=b"));
  int32_t dim;
  std::string name;
  CHECK(cfl.GetValue("dim", &dim));
  CHECK(dim == 3);
  CHECK(cfl.GetValue("name", &name));
  CHECK(name == "a");
  CHECK(!cfl.HasUnusedValues());  // dropped duplicates are never "unused"
}

TEST_CASE("malformed lines", "[config-line]") {
  ConfigLine cfl;
  CHECK(!cfl.ParseLine(""));
  CHECK(!cfl.ParseLine("   "));
  CHECK(!cfl.ParseLine("1component a=b"));  // bad first token
  CHECK(cfl.ParseLine("component a=b c"));  // the value is "b c"
  std::string value;
  CHECK(cfl.GetValue("a", &value));
  CHECK(value == "b c");
  CHECK(!cfl.ParseLine("component =b"));
  CHECK(!cfl.ParseLine("component a b=c"));
  CHECK(!cfl.ParseLine("component 9a=b"));     // bad key
  CHECK(!cfl.ParseLine("component a='open"));  // unmatched quote
  CHECK(cfl.ParseLine("input-node"));
  CHECK(cfl.FirstToken() == "input-node");
}

TEST_CASE("typed getters", "[config-line]") {
  ConfigLine cfl;
  REQUIRE(
      cfl.ParseLine("x i=-5 f=0.25 d=1e-3 b1=true b2=F b3=yes "
                    "v=1:2,,3 bad=1.5 inf=-inf"));
  int32_t i;
  float f;
  double d;
  bool b;
  std::vector<int32_t> v;
  CHECK(cfl.GetValue("i", &i));
  CHECK(i == -5);
  CHECK(cfl.GetValue("f", &f));
  CHECK(f == Approx(0.25f));
  CHECK(cfl.GetValue("d", &d));
  CHECK(d == Approx(1e-3));
  CHECK(cfl.GetValue("b1", &b));
  CHECK(b);
  CHECK(cfl.GetValue("b2", &b));
  CHECK(!b);
  CHECK(cfl.GetValue("v", &v));
  CHECK(v == std::vector<int32_t>{1, 2, 3});
  CHECK(cfl.GetValue("inf", &d));
  CHECK(std::isinf(d));
  ExpectUserError([&] { cfl.GetValue("b3", &b); },
                  {"'yes'", "b3", "true or false"});
  ExpectUserError([&] { cfl.GetValue("bad", &i); },
                  {"'1.5'", "bad", "an integer", "config line"});
}

TEST_CASE("ReadConfigLines: comments, trimming, line numbers",
          "[config-line]") {
  std::istringstream is(
      "# a comment line\n"
      "input-node name=input dim=10   # trailing comment\n"
      "\n"
      "   \t  \n"
      "\tcomponent name=a s='x # y'\n"
      "output-node name=output input=a\n");
  std::vector<NumberedLine> lines;
  ReadConfigLines(is, &lines);
  REQUIRE(lines.size() == 3);
  CHECK(lines[0].text == "input-node name=input dim=10");
  CHECK(lines[0].line_number == 2);
  // '#' starts a comment even inside quotes (so the quote is unmatched).
  CHECK(lines[1].text == "component name=a s='x");
  CHECK(lines[1].line_number == 5);
  CHECK(lines[2].line_number == 6);
  ConfigLine cfl;
  CHECK(!cfl.ParseLine(lines[1].text));

  std::istringstream again("a b=1\n#x\nc d=2");
  std::vector<std::string> plain;
  ReadConfigLines(again, &plain);
  CHECK(plain == std::vector<std::string>{"a b=1", "c d=2"});
}
