// Tests of compile/descriptor-terms.h: terms and their scales.
#include "compile/descriptor-terms.h"

#include <catch2/catch.hpp>
#include <set>

#include "compile/compiler.h"
#include "compile/computation-checker.h"
#include "compiler-test-utils.h"

namespace nnet3 {

namespace {

// Node 0 is "a", node 1 is "b"; every cindex with t >= 0 is computable.
class NonNegativeT : public CindexSet {
 public:
  bool operator()(const Cindex &c) const override { return c.second.t >= 0; }
};

std::vector<std::pair<int32_t, float>> Terms(const std::string &text, int32_t t,
                                             bool *ok) {
  Descriptor d;
  d.Parse({"a", "b"}, text);
  REQUIRE(d.NumParts() == 1);
  std::vector<DescriptorTerm> terms;
  *ok = GetDescriptorTerms(d.Part(0), Index(0, t), NonNegativeT(), &terms);
  std::vector<Cindex> used;
  REQUIRE(d.IsComputable(Index(0, t), NonNegativeT(), &used) == *ok);
  REQUIRE(used.size() == terms.size());
  std::vector<std::pair<int32_t, float>> ans;  // (t of the input, scale)
  for (size_t i = 0; i < terms.size(); i++) {
    REQUIRE(terms[i].cindex == used[i]);
    ans.emplace_back(terms[i].cindex.second.t, terms[i].scale);
  }
  return ans;
}

using TermList = std::vector<std::pair<int32_t, float>>;

}  // namespace

TEST_CASE("GetDescriptorTerms gives each term its own scale", "[compiler]") {
  bool ok;
  REQUIRE(Terms("Sum(a, Scale(0.5, Offset(a, 1)))", 3, &ok) ==
          TermList{{3, 1.0f}, {4, 0.5f}});
  REQUIRE(ok);
  REQUIRE(Terms("Sum(a, Scale(0.5, Offset(a, -1)))", 0, &ok).empty());
  REQUIRE_FALSE(ok);
  REQUIRE(Terms("Sum(a, IfDefined(Scale(2, Offset(a, -1))))", 0, &ok) ==
          TermList{{0, 1.0f}});
  REQUIRE(ok);
  REQUIRE(Terms("Failover(Scale(3, Offset(a, -2)), Scale(-1, b))", 1, &ok) ==
          TermList{{1, -1.0f}});
  REQUIRE(Terms("Failover(Scale(3, Offset(a, -2)), Scale(-1, b))", 2, &ok) ==
          TermList{{0, 3.0f}});
  // Switch picks the branch by t mod 2, Round rounds down.
  REQUIRE(Terms("Switch(Scale(2, a), Scale(4, Offset(a, -1)))", 5, &ok) ==
          TermList{{4, 4.0f}});
  REQUIRE(Terms("Switch(Scale(2, a), Scale(4, Offset(a, -1)))", 6, &ok) ==
          TermList{{6, 2.0f}});
  REQUIRE(Terms("Round(Switch(Scale(2, a), Scale(4, a)), 3)", 7, &ok) ==
          TermList{{6, 2.0f}});
  REQUIRE(Terms("Sum(Const(1, 4), ReplaceIndex(Scale(7, a), t, 0))", 9, &ok) ==
          TermList{{0, 7.0f}});
}

TEST_CASE("Compiler: a node with two scales in one Sum", "[compiler]") {
  Nnet nnet = CompilerTestNnet(R"(
input-node name=input dim=2
component name=a type=AffineComponent input-dim=2 output-dim=2
component-node name=a component=a input=input
output-node name=output input=Sum(a, Scale(0.5, Offset(a, 1)))
)");
  ComputationRequest r = SimpleRequest(0, 4, 0, 3);
  r.inputs[0].has_deriv = true;
  r.outputs[0].has_deriv = true;
  NnetComputation c;
  Compiler(r, nnet).CreateComputation(CompilerOptions(), &c);
  ComputationChecker(CheckComputationOptions(), nnet, c).Check();
  std::set<float> alphas;
  for (const auto &cmd : c.commands)
    if (cmd.command_type == kCopyRows || cmd.command_type == kAddRows ||
        cmd.command_type == kMatrixCopy || cmd.command_type == kMatrixAdd)
      alphas.insert(cmd.alpha);
  REQUIRE(alphas == std::set<float>{0.5f, 1.0f});
}

}  // namespace nnet3
