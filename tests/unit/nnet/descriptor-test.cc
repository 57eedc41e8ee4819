// Descriptors: tokenizer, parser errors, normalization (reference 2.5),
// written form (2.6), index mapping and computability (2.3), and random
// descriptors checked for round trips and against a reference evaluator.
#include "nnet/descriptor.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <functional>
#include <map>
#include <random>
#include <sstream>

#include "base/error.h"

using namespace nnet3;

namespace {

// Node 6 stands for a node that descriptors may not reference.
const std::vector<std::string> kNames = {"a",     "b",       "c", "d",
                                         "input", "ivector", "**"};
enum { kA, kB, kC, kD, kInput, kIvector };

std::string Write(const Descriptor &d) {
  std::ostringstream os;
  d.WriteConfig(os, kNames);
  return os.str();
}

std::string Normalized(const std::string &text) {
  Descriptor d;
  d.Parse(kNames, text);
  return Write(d);
}

Descriptor Parsed(const std::string &text) {
  Descriptor d;
  d.Parse(kNames, text);
  return d;
}

// The UserError message for `text`, or "<no error>".
std::string ErrorOf(const std::string &text) {
  try {
    Normalized(text);
  } catch (const UserError &e) {
    return e.what();
  }
  return "<no error>";
}

class FunctionSet : public CindexSet {
 public:
  explicit FunctionSet(std::function<bool(const Cindex &)> f)
      : f_(std::move(f)) {}
  bool operator()(const Cindex &c) const override { return f_(c); }

 private:
  std::function<bool(const Cindex &)> f_;
};

const ForwardingDescriptor &Fwd(const Descriptor &d, int part = 0) {
  return dynamic_cast<const SimpleSumDescriptor &>(d.Part(part)).Src();
}

int32_t Dim10(int32_t) { return 10; }

}  // namespace

TEST_CASE("tokenizer", "[descriptor]") {
  std::vector<std::string> tokens;
  std::string error;
  REQUIRE(
      DescriptorTokenize("Append(Offset(input,\t-1), input)", &tokens, &error));
  CHECK(tokens == std::vector<std::string>{"Append", "(", "Offset", "(",
                                           "input", ",", "-1", ")", ",",
                                           "input", ")"});
  REQUIRE(DescriptorTokenize("Scale(1.5e-3,x.y-z_1)", &tokens));
  CHECK(tokens.size() == 6);
  CHECK(tokens[2] == "1.5e-3");
  CHECK(tokens[4] == "x.y-z_1");
  CHECK_FALSE(DescriptorTokenize("Sum(a$b, c)", &tokens, &error));
  CHECK(error.find("'a$b'") != std::string::npos);
  CHECK(error.find("character 5") != std::string::npos);
  CHECK_FALSE(DescriptorTokenize("Sum(a, **)", &tokens, &error));
  REQUIRE(DescriptorTokenize("  ", &tokens));
  CHECK(tokens.empty());
}

TEST_CASE("normalization examples of reference 2.5", "[descriptor]") {
  // Verified examples.
  CHECK(Normalized("Scale(-1.0, Scale(-2.0, a))") == "Scale(2, a)");
  CHECK(Normalized("Scale(2.0, Sum(Scale(2.0, a), b, c))") ==
        "Sum(Scale(4, a), Sum(Scale(2, b), Scale(2, c)))");
  CHECK(Normalized("Const(1.0, 512)") == "Const(1, 512)");
  CHECK(Normalized("Offset(Offset(a, 3, 5), 2, 1)") == "Offset(a, 5, 6)");
  CHECK(Normalized("Sum(a, b, c, d)") == "Sum(a, Sum(b, Sum(c, d)))");
  CHECK(Normalized("Sum(a)") == "a");
  CHECK(Normalized("Offset(a, 0)") == "a");
  // Examples in the rules.
  CHECK(Normalized("Sum(Append(a,b), Append(c,d))") ==
        "Append(Sum(a, c), Sum(b, d))");
  CHECK(Normalized("Append(Append(a,b),Append(c,d))") == "Append(a, b, c, d)");
  CHECK(Normalized("Offset(a, 0, 0)") == "a");
  CHECK(Normalized("Offset(Sum(a,b),2,1)") ==
        "Sum(Offset(a, 2, 1), Offset(b, 2, 1))");
  CHECK(Normalized("Scale(2, Sum(a,b))") == "Sum(Scale(2, a), Scale(2, b))");
  CHECK(Normalized("Scale(2, Offset(a,1))") == "Offset(Scale(2, a), 1)");
}

TEST_CASE("further normalization cases", "[descriptor]") {
  CHECK(Normalized("Offset(Failover(a, b), -1)") ==
        "Failover(Offset(a, -1), Offset(b, -1))");
  CHECK(Normalized("Round(IfDefined(a), 3)") == "IfDefined(Round(a, 3))");
  CHECK(Normalized("Switch(Sum(a, b))") == "Sum(Switch(a), Switch(b))");
  CHECK(Normalized("ReplaceIndex(Sum(a, b), t, 0)") ==
        "Sum(ReplaceIndex(a, t, 0), ReplaceIndex(b, t, 0))");
  CHECK(Normalized("Scale(0.5, ReplaceIndex(Round(a, 2), x, 1))") ==
        "ReplaceIndex(Round(Scale(0.5, a), 2), x, 1)");
  CHECK(Normalized("Scale(1.0, a)") == "a");
  CHECK(Normalized("Offset(Append(a, b), 1)") ==
        "Append(Offset(a, 1), Offset(b, 1))");
  CHECK(Normalized("Append(a)") == "a");
  CHECK(Normalized("Offset(Offset(a, 1), -1)") == "a");
  CHECK(Normalized("Offset(Offset(a, 1), -1, 2)") == "Offset(a, 0, 2)");
  CHECK(Normalized("Scale(2, Append(a, Offset(b, 1)))") ==
        "Append(Scale(2, a), Offset(Scale(2, b), 1))");
  CHECK(Normalized("Scale(2, Offset(Sum(a, b), 1))") ==
        "Sum(Offset(Scale(2, a), 1), Offset(Scale(2, b), 1))");
  CHECK(Normalized("Offset(IfDefined(Sum(a, Offset(b, 2))), -2)") ==
        "IfDefined(Sum(Offset(a, -2), b))");
  CHECK(Normalized("Sum(Const(1, 10), IfDefined(Offset(a, -1)))") ==
        "Sum(Const(1, 10), IfDefined(Offset(a, -1)))");
  CHECK(Normalized("Append(Switch(a, b), Const(0.5, 3))") ==
        "Append(Switch(a, b), Const(0.5, 3))");

  // The normalized GeneralDescriptor prints the same way; the parse tree
  // prints as written (Scale stays where it was).
  auto general = GeneralDescriptor::Parse(kNames, "Scale(2.0,Offset( a ,1))");
  std::ostringstream before, after;
  general->Print(kNames, before);
  CHECK(before.str() == "Scale(2, Offset(a, 1))");
  general->GetNormalizedDescriptor()->Print(kNames, after);
  CHECK(after.str() == "Offset(Scale(2, a), 1)");
  CHECK(general->Type() == GeneralDescriptor::kScale);
  CHECK(general->Child(0).Type() == GeneralDescriptor::kOffset);
}

TEST_CASE("written form", "[descriptor]") {
  CHECK(Normalized("Append(Offset(input,-1),input,Offset(input,1))") ==
        "Append(Offset(input, -1), input, Offset(input, 1))");
  CHECK(Normalized("Offset(a, 0, 2)") == "Offset(a, 0, 2)");
  CHECK(Normalized("Offset(a, 3, 0)") == "Offset(a, 3)");
  CHECK(Normalized("ReplaceIndex( ivector ,t,0)") ==
        "ReplaceIndex(ivector, t, 0)");
  CHECK(Normalized("ReplaceIndex(a, x, -1)") == "ReplaceIndex(a, x, -1)");
  CHECK(Normalized("Switch(a,b,\tc)") == "Switch(a, b, c)");
  CHECK(Normalized("Round(a, 3)") == "Round(a, 3)");
  CHECK(Normalized("Failover(Offset(a, -1), b)") ==
        "Failover(Offset(a, -1), b)");
  CHECK(Normalized("IfDefined(Offset(a, -3))") == "IfDefined(Offset(a, -3))");
  CHECK(Normalized("Const(0.5, 10)") == "Const(0.5, 10)");
  CHECK(Normalized("Scale(0.333333333, a)") == "Scale(0.333333, a)");
  CHECK(Normalized("Scale(-1, a)") == "Scale(-1, a)");
  CHECK(Normalized("Scale(1e-07, a)") == "Scale(1e-07, a)");
  // The caller's stream settings do not leak into the text.
  std::ostringstream os;
  os.precision(12);
  os.setf(std::ios::fixed);
  Parsed("Scale(0.5, a)").WriteConfig(os, kNames);
  CHECK(os.str() == "Scale(0.5, a)");
}

TEST_CASE("hand-written round trips", "[descriptor]") {
  const char *texts[] = {
      "input",
      "Append(Offset(input, -2), input, Offset(input, 2), "
      "ReplaceIndex(ivector, t, 0))",
      "Sum(Scale(0.5, a), IfDefined(Offset(Scale(-2, b), -3)))",
      "Failover(Offset(a, -1), Const(0, 10))",
      "Append(Switch(Offset(a, -1), Round(b, 2)), Const(-0.25, 4))",
      "Sum(Offset(a, 1, -1), Sum(Failover(b, c), IfDefined(d)))",
      "Round(Switch(a, Offset(b, 1)), 4)",
  };
  for (const char *text : texts) {
    INFO(text);
    std::string once = Normalized(text);
    CHECK(Normalized(once) == once);
    CHECK(once == text);  // all of these are already in written form
  }
}

TEST_CASE("MapToInput semantics", "[descriptor]") {
  Descriptor sw = Parsed("Switch(a, b, c)");
  CHECK(Fwd(sw).MapToInput(Index(0, -1)) == Cindex(kC, Index(0, -1)));
  CHECK(Fwd(sw).MapToInput(Index(0, -3)) == Cindex(kA, Index(0, -3)));
  CHECK(Fwd(sw).MapToInput(Index(0, -5)) == Cindex(kB, Index(0, -5)));
  CHECK(Fwd(sw).MapToInput(Index(1, 4)) == Cindex(kB, Index(1, 4)));

  Descriptor round = Parsed("Round(a, 3)");
  CHECK(Fwd(round).MapToInput(Index(0, -1)) == Cindex(kA, Index(0, -3)));
  CHECK(Fwd(round).MapToInput(Index(0, -3)) == Cindex(kA, Index(0, -3)));
  CHECK(Fwd(round).MapToInput(Index(0, -4)) == Cindex(kA, Index(0, -6)));
  CHECK(Fwd(round).MapToInput(Index(0, 5)) == Cindex(kA, Index(0, 3)));
  CHECK(Fwd(round).MapToInput(Index(0, 2)) == Cindex(kA, Index(0, 0)));

  Descriptor rep = Parsed("ReplaceIndex(ivector, t, 0)");
  CHECK(Fwd(rep).MapToInput(Index(2, 7, 1)) ==
        Cindex(kIvector, Index(2, 0, 1)));
  Descriptor repx = Parsed("ReplaceIndex(a, x, 3)");
  CHECK(Fwd(repx).MapToInput(Index(1, 5)) == Cindex(kA, Index(1, 5, 3)));

  Descriptor off = Parsed("Offset(Switch(a, b), 2, 1)");
  CHECK(Fwd(off).MapToInput(Index(0, 3)) == Cindex(kB, Index(0, 5, 1)));
  CHECK(Fwd(off).MapToInput(Index(0, -2)) == Cindex(kA, Index(0, 0, 1)));

  Descriptor nested = Parsed("Offset(Round(Offset(a, 1), 2), -1)");
  // t=4: -1 -> 3, round to 2, +1 -> 3.
  CHECK(Fwd(nested).MapToInput(Index(0, 4)) == Cindex(kA, Index(0, 3)));
}

TEST_CASE("dependencies and computability", "[descriptor]") {
  // a exists for t >= 0, b for t < 3, c never, everything else always.
  FunctionSet set([](const Cindex &c) {
    if (c.first == kA) return c.second.t >= 0;
    if (c.first == kB) return c.second.t < 3;
    if (c.first == kC) return false;
    return true;
  });
  std::vector<Cindex> used, deps;
  auto A = [](int t) { return Cindex(kA, Index(0, t)); };
  auto B = [](int t) { return Cindex(kB, Index(0, t)); };

  Descriptor fo = Parsed("Failover(Offset(a, -1), b)");
  CHECK(fo.IsComputable(Index(0, 0), set, &used));
  CHECK(used == std::vector<Cindex>{B(0)});  // A not computable: uses B
  CHECK(fo.IsComputable(Index(0, 1), set, &used));
  CHECK(used == std::vector<Cindex>{A(0)});
  CHECK(fo.IsComputable(Index(0, -1), set, nullptr));
  CHECK_FALSE(fo.IsComputable(Index(0, 3), FunctionSet([](const Cindex &c) {
                                return c.first == kA && c.second.t < 0;
                              }),
                              &used));
  CHECK(used.empty());
  fo.GetDependencies(Index(0, 0), &deps);
  CHECK(deps == std::vector<Cindex>{A(-1), B(0)});

  Descriptor ifdef = Parsed("Append(b, IfDefined(Offset(a, -1)))");
  CHECK(ifdef.IsComputable(Index(0, 0), set, &used));
  CHECK(used == std::vector<Cindex>{B(0)});  // IfDefined adds nothing
  CHECK(ifdef.IsComputable(Index(0, 2), set, &used));
  CHECK(used == std::vector<Cindex>{B(2), A(1)});
  CHECK_FALSE(ifdef.IsComputable(Index(0, 5), set, &used));  // b missing
  CHECK(used.empty());
  ifdef.GetDependencies(Index(0, 0), &deps);
  CHECK(deps == std::vector<Cindex>{B(0), A(-1)});

  Descriptor sum = Parsed("Sum(a, Offset(b, 5))");
  CHECK_FALSE(sum.IsComputable(Index(0, 0), set, &used));  // b(5) missing
  CHECK(used.empty());
  CHECK_FALSE(sum.IsComputable(Index(0, -3), set, &used));  // a(-3) missing
  Descriptor sum2 = Parsed("Sum(Offset(a, 3), Offset(b, -1))");
  CHECK(sum2.IsComputable(Index(0, -3), set, &used));
  CHECK(used == std::vector<Cindex>{A(0), B(-4)});
  CHECK(sum2.IsComputable(Index(0, -3), set, nullptr));

  // Inside a Sum, a part that fails leaves nothing behind.
  const SumDescriptor &part = sum.Part(0);
  used = {A(100)};
  CHECK_FALSE(part.IsComputable(Index(0, 0), set, &used));
  CHECK(used == std::vector<Cindex>{A(100)});

  Descriptor cst = Parsed("Const(1, 10)");
  FunctionSet empty([](const Cindex &) { return false; });
  CHECK(cst.IsComputable(Index(0, 0), empty, &used));
  CHECK(used.empty());
  cst.GetDependencies(Index(0, 0), &deps);
  CHECK(deps.empty());
  CHECK_FALSE(Parsed("Append(Const(1, 10), a)")
                  .IsComputable(Index(0, 0), empty, &used));

  Descriptor ivec = Parsed("Append(input, ReplaceIndex(ivector, t, 0))");
  CHECK(ivec.IsComputable(Index(1, 7), set, &used));
  CHECK(used == std::vector<Cindex>{Cindex(kInput, Index(1, 7)),
                                    Cindex(kIvector, Index(1, 0))});

  std::vector<int32_t> nodes = {99};
  Parsed("Append(Sum(c, a), Offset(a, 1), Const(1, 3))")
      .GetNodeDependencies(&nodes);
  CHECK(nodes == std::vector<int32_t>{kA, kC});
}

TEST_CASE("Dim and Modulus", "[descriptor]") {
  std::map<int32_t, int32_t> dims = {{kA, 10}, {kB, 10},     {kC, 20},
                                     {kD, 10}, {kInput, 40}, {kIvector, 100}};
  NodeDimFunction dim = [&dims](int32_t n) { return dims.at(n); };
  CHECK(Parsed("Append(input, ReplaceIndex(ivector, t, 0))").Dim(dim) == 140);
  CHECK(Parsed("Append(Const(1, 7), a)").Dim(dim) == 17);
  CHECK(Parsed("IfDefined(Offset(c, 1))").Dim(dim) == 20);
  CHECK(Parsed("Sum(a, Failover(b, d))").Dim(dim) == 10);
  CHECK(Parsed("Switch(a, b)").Dim(dim) == 10);
  CHECK_THROWS_AS(Parsed("Sum(a, c)").Dim(dim), UserError);
  CHECK_THROWS_WITH(Parsed("Failover(a, c)").Dim(dim),
                    Catch::Contains("Failover") && Catch::Contains("10") &&
                        Catch::Contains("20"));
  CHECK_THROWS_WITH(Parsed("Switch(a, c)").Dim(dim), Catch::Contains("Switch"));
  CHECK_THROWS_AS(Parsed("Sum(a, Const(1, 7))").Dim(dim), UserError);

  CHECK(Parsed("Append(Offset(a, -1), a)").Modulus() == 1);
  CHECK(Parsed("Switch(a, b, c)").Modulus() == 3);
  CHECK(Parsed("Round(a, 4)").Modulus() == 4);
  CHECK(Parsed("Append(Switch(a, b), Round(a, 3))").Modulus() == 6);
  CHECK(Parsed("Sum(Switch(a, b), Switch(a, b, c, d))").Modulus() == 4);
  CHECK(Parsed("Switch(Round(a, 2), b, c)").Modulus() == 6);
  CHECK(Parsed("Offset(Switch(a, b), 1)").Modulus() == 2);
  CHECK(Parsed("IfDefined(ReplaceIndex(Switch(a, b), x, 0))").Modulus() == 2);
}

TEST_CASE("GetScaleForNode", "[descriptor]") {
  Descriptor d = Parsed("Sum(Scale(2, a), Offset(Scale(2, a), 1))");
  CHECK(d.Part(0).GetScaleForNode(kA) == 2.0f);
  CHECK(d.Part(0).GetScaleForNode(kB) == 0.0f);
  CHECK_FALSE(d.Part(0).FindScaleForNode(kB).has_value());
  CHECK(d.Part(0).GetScaleForNode(-1) == 0.0f);
  CHECK(Parsed("a").Part(0).GetScaleForNode(-1) == 0.0f);
  CHECK(Fwd(Parsed("Scale(-3, b)")).GetScaleForNode(kB) == -3.0f);

  // The same node with two scales: parses, fails when asked.
  Descriptor bad = Parsed("Sum(Scale(2, a), a)");
  CHECK_THROWS_WITH(bad.Part(0).GetScaleForNode(kA),
                    Catch::Contains("different scales"));
  CHECK(bad.Part(0).GetScaleForNode(kB) == 0.0f);
  CHECK_THROWS_AS(
      Parsed("Switch(Scale(2, a), Scale(3, a))").Part(0).GetScaleForNode(kA),
      UserError);
  Descriptor sw = Parsed("Switch(Scale(2, a), b)");
  CHECK(sw.Part(0).GetScaleForNode(kA) == 2.0f);
  CHECK(sw.Part(0).GetScaleForNode(kB) == 1.0f);

  // Constants: node -1.
  CHECK(Parsed("Sum(a, Const(3, 10))").Part(0).GetScaleForNode(-1) == 3.0f);
  CHECK(Parsed("Sum(Const(1, 10), Const(2, 10))").Part(0).GetScaleForNode(-1) ==
        3.0f);
  Descriptor opt = Parsed("IfDefined(Sum(a, Const(1, 10)))");
  CHECK(opt.Part(0).GetScaleForNode(kA) == 1.0f);
  CHECK_THROWS_WITH(opt.Part(0).GetScaleForNode(-1),
                    Catch::Contains("IfDefined"));
  CHECK(Parsed("IfDefined(Sum(a, Const(0, 10)))").Part(0).GetScaleForNode(-1) ==
        0.0f);
  CHECK_THROWS_WITH(Parsed("Failover(Sum(a, Const(1, 10)), Const(2, 10))")
                        .Part(0)
                        .GetScaleForNode(-1),
                    Catch::Contains("Failover"));
  CHECK(Parsed("Failover(Sum(a, Const(1, 10)), Sum(b, Const(1, 10)))")
            .Part(0)
            .GetScaleForNode(-1) == 1.0f);
}

TEST_CASE("parse errors are one-line UserErrors naming the token",
          "[descriptor]") {
  struct Case {
    const char *text;
    std::vector<const char *> contains;
  };
  std::vector<Case> cases = {
      {"Sum(a, foo)", {"unknown node 'foo'", "after 'Sum(a,'"}},
      {"Sum(a, b", {"expected ',' or ')' after 'b' but got end of input"}},
      {"Offset(a, 1", {"after 'Offset(a, 1' but got end of input"}},
      {"Sum(a, b) c", {"expected end of input after 'Sum(a, b)' but got 'c'"}},
      {"a b", {"expected end of input after 'a' but got 'b'"}},
      {"Offset(a, 1.5)", {"integer t-offset", "got '1.5'"}},
      {"Offset(a, 1, x)", {"integer x-offset", "got 'x'"}},
      {"Round(a, 0)", {"positive integer t-modulus", "got '0'"}},
      {"Const(abc, 10)", {"number", "got 'abc'"}},
      {"Const(1, -2)", {"positive integer dimension", "got '-2'"}},
      {"Scale(b, a)", {"number (the scale)", "got 'b'"}},
      {"ReplaceIndex(a, n, 0)",
       {"expected 't' or 'x' after 'ReplaceIndex(a,' but got 'n'"}},
      {"ReplaceIndex(a, t, q)", {"integer value", "got 'q'"}},
      {"Scale(2, Failover(a, b))",
       {"Unhandled case", "pushing Scale() inside other expressions",
        "Failover()"}},
      {"Scale(2, IfDefined(a))", {"Unhandled case", "IfDefined()"}},
      {"Scale(2, Switch(a, b))", {"Unhandled case", "Switch()"}},
      {"Scale(2, Const(1, 10))", {"Unhandled case", "Const()"}},
      {"Offset(Const(1, 10), 1)", {"Const() appeared too deep", "Offset()"}},
      {"Switch(a, Const(1, 10))", {"Const() appeared too deep", "Switch()"}},
      {"Switch(Sum(a, b), c)", {"can't currently normalize", "Sum()"}},
      {"Switch(a, IfDefined(b))", {"can't currently normalize", "IfDefined()"}},
      {"Sum(Append(a, b), c)", {"Sum()", "different numbers of Append()"}},
      {"Sum(a$b)", {"bad token 'a$b'"}},
      {"", {"expected a descriptor at the start but got end of input"}},
      {")", {"expected a descriptor at the start but got ')'"}},
      {"Sum()", {"expected a descriptor after 'Sum(' but got ')'"}},
      {"Offset a", {"expected '(' after 'Offset' but got 'a'"}},
      {"Failover(a)", {"expected ',' after 'a' but got ')'"}},
      {"Failover(a, b, c)", {"expected ')' after 'b' but got ','"}},
      {"IfDefined(a, b)", {"expected ')' after 'a' but got ','"}},
      {"Append(a,, b)",
       {"expected a descriptor after 'Append(a,' but got ','"}},
      {"Sum(a, 3)", {"expected a descriptor after 'Sum(a,' but got '3'"}},
  };
  for (const Case &c : cases) {
    std::string msg = ErrorOf(c.text);
    INFO("text: " << c.text << "\nmessage: " << msg);
    CHECK(msg.find('\n') == std::string::npos);
    CHECK(msg.rfind(std::string("In descriptor '") + c.text + "': ", 0) == 0);
    for (const char *piece : c.contains)
      CHECK(msg.find(piece) != std::string::npos);
  }
  CHECK(ErrorOf("Append(Offset(input, -1) input)") ==
        "In descriptor 'Append(Offset(input, -1) input)': expected ',' or ')' "
        "after 'Offset(input, -1)' but got 'input'");

  // A failed Parse leaves the descriptor unchanged.
  Descriptor d = Parsed("Offset(a, 1)");
  CHECK_THROWS_AS(d.Parse(kNames, "Offset(a, "), UserError);
  CHECK(Write(d) == "Offset(a, 1)");
  // Copies are deep and independent.
  Descriptor copy(d);
  d = Parsed("b");
  CHECK(Write(copy) == "Offset(a, 1)");
  copy = d;
  CHECK(Write(copy) == "b");
}

// ----------------------- random descriptors ---------------------------------

namespace {

// A test-side expression tree: rendered to text for the parser, and
// evaluated directly as the reference for the normalized Descriptor.
struct Expr {
  enum Kind {
    kName,
    kConst,
    kAppend,
    kSum,
    kFailover,
    kIfDefined,
    kOffset,
    kSwitch,
    kRound,
    kReplaceIndex,
    kScale
  };
  Kind kind = kName;
  int node = 0;
  int v1 = 0, v2 = 0;  // offsets, modulus, (variable, value)
  bool show_x = false;
  float f = 1.0f;  // scale or constant
  std::vector<Expr> kids;
};

// What normalization can handle below a given position.
struct Context {
  bool sum_ops = true;  // Sum / Failover / IfDefined allowed
  bool consts = true;   // Const allowed
  bool scaled = false;  // inside a Scale()
};

class Generator {
 public:
  explicit Generator(std::mt19937 *rng) : rng_(*rng) {}

  Expr Make(int depth, int terms, Context ctx) {
    std::vector<Expr::Kind> kinds;
    if (terms == 1) {
      kinds.insert(kinds.end(), 3, Expr::kName);
      if (ctx.consts && !ctx.scaled) kinds.push_back(Expr::kConst);
    }
    if (depth > 0) {
      kinds.push_back(Expr::kAppend);
      if (ctx.sum_ops) kinds.push_back(Expr::kSum);
      if (ctx.sum_ops && !ctx.scaled) {
        kinds.push_back(Expr::kFailover);
        kinds.push_back(Expr::kIfDefined);
      }
      kinds.insert(kinds.end(), {Expr::kOffset, Expr::kRound,
                                 Expr::kReplaceIndex, Expr::kScale});
      if (!ctx.scaled) kinds.push_back(Expr::kSwitch);
    }
    if (kinds.empty()) kinds.push_back(Expr::kAppend);  // depth 0, terms > 1
    Expr e;
    e.kind = kinds[Uniform(0, kinds.size() - 1)];
    Context child = ctx;
    switch (e.kind) {
      case Expr::kName:
        e.node = Uniform(0, 4);
        break;
      case Expr::kConst:
        e.f = Pick<float>({0.0f, 1.0f, -2.5f, 0.1f});
        break;
      case Expr::kAppend:
        MakeAppend(depth, terms, ctx, &e);
        break;
      case Expr::kSum:
        AddKids(Uniform(1, 3), depth, terms, ctx, &e);
        break;
      case Expr::kFailover:
        AddKids(2, depth, terms, ctx, &e);
        break;
      case Expr::kIfDefined:
        AddKids(1, depth, terms, ctx, &e);
        break;
      case Expr::kSwitch: {
        int n = Uniform(1, 3);
        child.consts = false;
        if (n > 1) child.sum_ops = false;
        AddKids(n, depth, terms, child, &e);
        break;
      }
      case Expr::kScale:
        e.f = Pick<float>({2.0f, -1.0f, 0.5f, 3.0f, 1.0f, -0.25f});
        child.consts = false;
        child.scaled = true;
        AddKids(1, depth, terms, child, &e);
        break;
      default:  // Offset, Round, ReplaceIndex
        MakeForwarding(depth, terms, ctx, &e);
    }
    return e;
  }

  std::string Render(const Expr &e) {
    std::ostringstream os;
    RenderTo(e, os);
    return os.str();
  }

 private:
  int Uniform(int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, hi)(rng_);
  }
  template <class T>
  T Pick(std::initializer_list<T> values) {
    return *(values.begin() + Uniform(0, static_cast<int>(values.size()) - 1));
  }

  void AddKids(int n, int depth, int terms, Context ctx, Expr *e) {
    for (int i = 0; i < n; i++) e->kids.push_back(Make(depth - 1, terms, ctx));
  }

  void MakeAppend(int depth, int terms, Context ctx, Expr *e) {
    // Split `terms` into pieces; Append(x) with one piece is legal too.
    int remaining = terms;
    while (remaining > 0) {
      int piece = depth == 0 ? 1 : Uniform(1, remaining);
      e->kids.push_back(Make(std::max(depth - 1, 0), piece, ctx));
      remaining -= piece;
    }
  }

  void MakeForwarding(int depth, int terms, Context ctx, Expr *e) {
    ctx.consts = false;
    if (e->kind == Expr::kOffset) {
      e->v1 = Uniform(-3, 3);
      e->show_x = Uniform(0, 2) == 0;
      if (e->show_x) e->v2 = Uniform(-1, 1);
    } else if (e->kind == Expr::kRound) {
      e->v1 = Uniform(1, 4);
    } else {
      e->v1 = Uniform(0, 1);  // 0 = t, 1 = x
      e->v2 = Uniform(-2, 2);
    }
    AddKids(1, depth, terms, ctx, e);
  }

  std::string Sep() { return Pick<const char *>({", ", ",", " , ", ",\t"}); }

  void RenderTo(const Expr &e, std::ostream &os) {
    static const char *kNodes[] = {"a", "b", "c", "d", "input"};
    static const char *kOps[] = {
        "",       "",       "Append", "Sum",          "Failover", "IfDefined",
        "Offset", "Switch", "Round",  "ReplaceIndex", "Scale"};
    if (e.kind == Expr::kName) {
      os << kNodes[e.node];
      return;
    }
    if (e.kind == Expr::kConst) {
      os << "Const(" << e.f << Sep() << "10)";
      return;
    }
    os << kOps[e.kind] << "(";
    if (e.kind == Expr::kScale) {
      bool integral = std::floor(e.f) == e.f;
      os << e.f << (integral && Uniform(0, 1) ? ".0" : "") << Sep();
    }
    for (size_t i = 0; i < e.kids.size(); i++) {
      if (i > 0) os << Sep();
      RenderTo(e.kids[i], os);
    }
    if (e.kind == Expr::kOffset) {
      os << Sep() << e.v1;
      if (e.show_x) os << Sep() << e.v2;
    } else if (e.kind == Expr::kRound) {
      os << Sep() << e.v1;
    } else if (e.kind == Expr::kReplaceIndex) {
      os << Sep() << (e.v1 == 0 ? "t" : "x") << Sep() << e.v2;
    }
    os << ")";
  }

  std::mt19937 &rng_;
};

int NumTerms(const Expr &e) {
  if (e.kind == Expr::kName || e.kind == Expr::kConst) return 1;
  if (e.kind != Expr::kAppend) return NumTerms(e.kids[0]);
  int n = 0;
  for (const Expr &k : e.kids) n += NumTerms(k);
  return n;
}

// The value of one Append term: which inputs, with what coefficients.
struct Value {
  bool ok = false;
  std::map<Cindex, double> coef;
  double constant = 0.0;
};

int Mod(int t, int m) { return ((t % m) + m) % m; }

Value Evaluate(const Expr &e, int term, const Index &index,
               const CindexSet &set) {
  Value v;
  switch (e.kind) {
    case Expr::kName: {
      Cindex c(e.node == 4 ? kInput : e.node, index);
      v.ok = set(c);
      if (v.ok) v.coef[c] = 1.0;
      return v;
    }
    case Expr::kConst:
      v.ok = true;
      v.constant = e.f;
      return v;
    case Expr::kAppend:
      for (const Expr &k : e.kids) {
        int n = NumTerms(k);
        if (term < n) return Evaluate(k, term, index, set);
        term -= n;
      }
      FAIL("bad term");
      return v;
    case Expr::kSum:
      v.ok = true;
      for (const Expr &k : e.kids) {
        Value kv = Evaluate(k, term, index, set);
        if (!kv.ok) return Value();
        for (auto &p : kv.coef) v.coef[p.first] += p.second;
        v.constant += kv.constant;
      }
      return v;
    case Expr::kFailover:
      v = Evaluate(e.kids[0], term, index, set);
      return v.ok ? v : Evaluate(e.kids[1], term, index, set);
    case Expr::kIfDefined:
      v = Evaluate(e.kids[0], term, index, set);
      if (!v.ok) v = Value(), v.ok = true;
      return v;
    case Expr::kOffset:
      return Evaluate(e.kids[0], term, index + Index(0, e.v1, e.v2), set);
    case Expr::kSwitch: {
      int k = static_cast<int>(e.kids.size());
      return Evaluate(e.kids[Mod(index.t, k)], term, index, set);
    }
    case Expr::kRound: {
      Index i(index);
      i.t -= Mod(i.t, e.v1);
      return Evaluate(e.kids[0], term, i, set);
    }
    case Expr::kReplaceIndex: {
      Index i(index);
      (e.v1 == 0 ? i.t : i.x) = e.v2;
      return Evaluate(e.kids[0], term, i, set);
    }
    case Expr::kScale:
      v = Evaluate(e.kids[0], term, index, set);
      for (auto &p : v.coef) p.second *= e.f;
      v.constant *= e.f;
      return v;
  }
  return v;
}

// The same from the Descriptor; false if scales are inconsistent (an error
// that Kaldi also only reports when the scales are asked for).
bool EvaluatePart(const SumDescriptor &part, const Index &index,
                  const CindexSet &set, Value *v) {
  std::vector<Cindex> used, deps;
  v->ok = part.IsComputable(index, set, &used);
  part.GetDependencies(index, &deps);
  for (const Cindex &c : used)
    CHECK(std::find(deps.begin(), deps.end(), c) != deps.end());
  if (!v->ok) {
    CHECK(used.empty());
    return true;
  }
  try {
    for (const Cindex &c : used) v->coef[c] += part.GetScaleForNode(c.first);
    v->constant = part.GetScaleForNode(-1);
  } catch (const UserError &) {
    return false;
  }
  return true;
}

bool SameValue(const Value &a, const Value &b) {
  if (a.ok != b.ok) return false;
  if (!a.ok) return true;
  if (std::abs(a.constant - b.constant) > 1e-5) return false;
  std::map<Cindex, double> diff = a.coef;
  for (auto &p : b.coef) diff[p.first] -= p.second;
  for (auto &p : diff)
    if (std::abs(p.second) > 1e-5) return false;
  return true;
}

}  // namespace

TEST_CASE("random descriptors: round trip and reference semantics",
          "[descriptor]") {
  const uint32_t seed = 20240611;
  INFO("seed " << seed);
  std::mt19937 rng(seed);
  Generator gen(&rng);
  // d is never computable; the others have holes.
  FunctionSet set([](const Cindex &c) {
    if (c.first == kD) return false;
    return Mod(c.second.t * 7 + c.second.x * 3 + c.first, 5) != 0;
  });
  std::map<std::string, int> keyword_count;
  int semantic_checks = 0;
  for (int iter = 0; iter < 200; iter++) {
    int terms = std::uniform_int_distribution<int>(1, 3)(rng);
    int depth = std::uniform_int_distribution<int>(1, 4)(rng);
    Expr e = gen.Make(depth, terms, Context());
    std::string text = gen.Render(e);
    INFO("iteration " << iter << ": " << text);
    for (const char *k : {"Append", "Sum", "Failover", "IfDefined", "Offset",
                          "Switch", "Round", "ReplaceIndex", "Scale", "Const"})
      if (text.find(k) != std::string::npos) keyword_count[k]++;

    Descriptor d;
    REQUIRE_NOTHROW(d.Parse(kNames, text));
    std::string once = Write(d);
    INFO("written: " << once);
    CHECK(Normalized(once) == once);
    std::ostringstream printed, reprinted;
    auto general = GeneralDescriptor::Parse(kNames, text);
    general->Print(kNames, printed);
    GeneralDescriptor::Parse(kNames, printed.str())->Print(kNames, reprinted);
    CHECK(printed.str() == reprinted.str());

    REQUIRE(d.NumParts() == NumTerms(e));
    CHECK(d.Dim(Dim10) == 10 * terms);
    CHECK(d.Modulus() >= 1);
    bool consistent = true;
    for (int t = -6; t <= 6 && consistent; t++) {
      for (int x = 0; x <= 1; x++) {
        Index index(t & 1, t, x);
        for (int p = 0; p < d.NumParts(); p++) {
          Value expected = Evaluate(e, p, index, set), got;
          if (!EvaluatePart(d.Part(p), index, set, &got)) {
            consistent = false;
            break;
          }
          INFO("part " << p << " at t=" << t << " x=" << x);
          CHECK(SameValue(expected, got));
        }
      }
    }
    if (consistent) semantic_checks++;
  }
  for (const auto &k : keyword_count) {
    INFO(k.first);
    CHECK(k.second >= 5);
  }
  CHECK(keyword_count.size() == 10);
  CHECK(semantic_checks >= 100);
}
