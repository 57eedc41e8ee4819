// Tests of compile/computation-graph.h: building the computation graph on
// feed-forward, spliced, recurrent and clockwork networks, pruning, and the
// explanation of outputs that cannot be computed.
#include "compile/computation-graph.h"

#include <catch2/catch.hpp>
#include <sstream>

#include "base/error.h"
#include "compiler-test-utils.h"

namespace nnet3 {

namespace {

// The t values of request output 0 that are computable.
std::vector<int32_t> ComputableTimes(const Nnet &nnet,
                                     const ComputationRequest &request) {
  ComputationGraph graph;
  ComputationGraphBuilder builder(nnet, request, &graph);
  builder.Compute();
  std::vector<std::vector<bool>> computable;
  builder.GetComputableInfo(&computable);
  std::vector<int32_t> ans;
  for (size_t j = 0; j < computable[0].size(); j++)
    if (computable[0][j]) ans.push_back(request.outputs[0].indexes[j].t);
  return ans;
}

std::vector<int32_t> Range(int32_t begin, int32_t end) {
  std::vector<int32_t> v;
  for (int32_t t = begin; t < end; t++) v.push_back(t);
  return v;
}

// Builds and prunes; checks the pruned graph's invariants.
void BuildAndPrune(const Nnet &nnet, const ComputationRequest &request,
                   ComputationGraph *graph) {
  ComputationGraphBuilder builder(nnet, request, graph);
  builder.Compute();
  REQUIRE(builder.AllOutputsAreComputable());
  builder.Prune();
  for (size_t c = 0; c < graph->cindexes.size(); c++) {
    REQUIRE(graph->GetCindexId(graph->cindexes[c]) == static_cast<int32_t>(c));
    for (int32_t d : graph->dependencies[c])
      REQUIRE((d >= 0 && d < static_cast<int32_t>(graph->cindexes.size())));
    if (graph->is_input[c]) REQUIRE(graph->dependencies[c].empty());
  }
}

}  // namespace

TEST_CASE("ComputationGraph maps cindexes to ids and renumbers", "[compiler]") {
  ComputationGraph graph;
  bool is_new;
  int32_t a = graph.GetCindexId(Cindex(0, Index(0, 1)), true, &is_new);
  REQUIRE((a == 0 && is_new));
  int32_t b = graph.GetCindexId(Cindex(1, Index(0, 1)), false, &is_new);
  REQUIRE((b == 1 && is_new));
  REQUIRE(graph.GetCindexId(Cindex(0, Index(0, 1)), false, &is_new) == 0);
  REQUIRE_FALSE(is_new);
  REQUIRE(graph.GetCindexId(Cindex(2, Index())) == -1);
  int32_t c = graph.GetCindexId(Cindex(2, Index(0, 1)), false, &is_new);
  graph.dependencies[c] = {a};
  graph.Renumber({true, false, true});
  REQUIRE(graph.cindexes.size() == 2);
  REQUIRE(graph.GetCindexId(Cindex(2, Index(0, 1))) == 1);
  REQUIRE(graph.GetCindexId(Cindex(1, Index(0, 1))) == -1);
  REQUIRE(graph.dependencies[1] == std::vector<int32_t>{0});
  REQUIRE(graph.is_input == std::vector<bool>{true, false});
  std::ostringstream os;
  graph.Print(os, {"input", "x", "output"});
  REQUIRE(os.str() ==
          "input(0, 1) [input] -> [ ]\noutput(0, 1) -> [ input(0, 1) ]\n");
}

TEST_CASE("Builder: feed-forward network", "[compiler]") {
  Nnet nnet = CompilerTestNnet(kFeedForwardConfig);
  ComputationRequest request = SimpleRequest(0, 10, 0, 10, 2);
  ComputationGraph graph;
  BuildAndPrune(nnet, request, &graph);
  // 20 Indexes at each of the 8 nodes.
  REQUIRE(graph.cindexes.size() == 8 * 20);
  REQUIRE(ComputableTimes(nnet, SimpleRequest(0, 10, 0, 12)) == Range(0, 10));
}

TEST_CASE("Builder: spliced network needs its context", "[compiler]") {
  Nnet nnet = CompilerTestNnet(kTdnnConfig);
  // Context 4 on each side: outputs 4..15 from inputs 0..19.
  REQUIRE(ComputableTimes(nnet, SimpleRequest(0, 20, 0, 20)) == Range(4, 16));
  ComputationGraph graph;
  BuildAndPrune(nnet, SimpleRequest(0, 20, 4, 16), &graph);
  // The first layer is needed at t = 2..17 only.
  int32_t relu1 = nnet.GetNodeIndex("relu1");
  REQUIRE(graph.GetCindexId(Cindex(relu1, Index(0, 2))) != -1);
  REQUIRE(graph.GetCindexId(Cindex(relu1, Index(0, 1))) == -1);
  REQUIRE(graph.GetCindexId(Cindex(relu1, Index(0, 18))) == -1);
  // Unused inputs are kept.
  REQUIRE(graph.GetCindexId(Cindex(0, Index(0, 0))) != -1);
}

TEST_CASE("Builder: recurrent networks terminate", "[compiler]") {
  for (const char *config : {kRnnConfig, kFailoverConfig}) {
    Nnet nnet = CompilerTestNnet(config);
    ComputationRequest request = SimpleRequest(0, 30, 0, 30);
    ComputationGraph graph;
    ComputationGraphBuilder builder(nnet, request, &graph);
    builder.Compute();
    REQUIRE(builder.AllOutputsAreComputable());
    // The walk towards t = -infinity stops after a few frames.
    REQUIRE(graph.cindexes.size() < 12 * 40);
    builder.Prune();
    int32_t relu1 = nnet.GetNodeIndex("relu1");
    REQUIRE(graph.GetCindexId(Cindex(relu1, Index(0, 0))) != -1);
    REQUIRE(graph.GetCindexId(Cindex(relu1, Index(0, -1))) == -1);
    // relu1 at t = 0 (the descriptor at t = 0) no longer depends on t = -1.
    int32_t affine1_input = nnet.GetNodeIndex("affine1_input");
    int32_t id = graph.GetCindexId(Cindex(affine1_input, Index(0, 0)));
    REQUIRE(id != -1);
    for (int32_t d : graph.dependencies[id])
      REQUIRE(graph.cindexes[d].first != relu1);
    id = graph.GetCindexId(Cindex(affine1_input, Index(0, 5)));
    bool uses_previous = false;
    for (int32_t d : graph.dependencies[id])
      uses_previous |= (graph.cindexes[d] == Cindex(relu1, Index(0, 4)));
    REQUIRE(uses_previous);
  }
  // Failover falls back to Offset(input, 1): the last frame is then not
  // computable at t = 0 if input t = 1 is missing.
  Nnet failover = CompilerTestNnet(kFailoverConfig);
  REQUIRE(ComputableTimes(failover, SimpleRequest(0, 1, 0, 1)).empty());
  REQUIRE(ComputableTimes(failover, SimpleRequest(0, 2, 0, 2)) == Range(0, 2));
}

TEST_CASE("Builder: clockwork network (Round, Switch)", "[compiler]") {
  Nnet nnet = CompilerTestNnet(kClockworkConfig);
  // From input t >= 1, fast is computable from t = 1, slow needs
  // Round(fast, 3) = fast(0) at t = 1, 2: outputs from t = 3.
  REQUIRE(ComputableTimes(nnet, SimpleRequest(0, 12, 0, 12)) == Range(0, 12));
  REQUIRE(ComputableTimes(nnet, SimpleRequest(1, 12, 0, 12)) == Range(3, 12));
  ComputationGraph graph;
  BuildAndPrune(nnet, SimpleRequest(0, 12, 0, 12), &graph);
  int32_t slow = nnet.GetNodeIndex("slow");
  // slow at t = 6 reads Round(fast, 3) = fast(6) and slow(3).
  int32_t id = graph.GetCindexId(Cindex(slow - 1, Index(0, 7)));
  REQUIRE(id != -1);
  std::vector<Cindex> deps;
  for (int32_t d : graph.dependencies[id]) deps.push_back(graph.cindexes[d]);
  REQUIRE(deps ==
          std::vector<Cindex>{Cindex(nnet.GetNodeIndex("fast"), Index(0, 6)),
                              Cindex(slow, Index(0, 4))});
}

TEST_CASE("Builder: request errors are one-line UserErrors", "[compiler]") {
  Nnet nnet = CompilerTestNnet(kFeedForwardConfig);
  auto error = [&nnet](const ComputationRequest &request) {
    ComputationGraph graph;
    ComputationGraphBuilder builder(nnet, request, &graph);
    try {
      builder.Compute();
    } catch (const UserError &e) {
      std::string msg = e.what();
      REQUIRE(msg.find('\n') == std::string::npos);
      return msg;
    }
    return std::string("<no error>");
  };
  ComputationRequest r = SimpleRequest(0, 3, 0, 3);
  r.inputs[0].name = "feats";
  REQUIRE_THAT(error(r), Catch::Contains("no node called 'feats'"));
  r = SimpleRequest(0, 3, 0, 3);
  r.outputs[0].name = "relu1";
  REQUIRE_THAT(error(r), Catch::Contains("not an output node"));
  r = SimpleRequest(0, 3, 0, 3);
  r.inputs[0].indexes.push_back(Index(0, 1));
  REQUIRE_THAT(error(r), Catch::Contains("twice"));
  r = SimpleRequest(0, 3, 0, 0);
  REQUIRE_THAT(error(r), Catch::Contains("no output"));
}

TEST_CASE("ExplainNotComputable names frames and what to supply",
          "[compiler]") {
  Nnet nnet = CompilerTestNnet(kTdnnConfig);
  // A 6-frame utterance, all frames requested: the model needs 4 frames of
  // context on each side.
  ComputationRequest request = SimpleRequest(0, 6, 0, 6);
  ComputationGraph graph;
  ComputationGraphBuilder builder(nnet, request, &graph);
  builder.Compute();
  REQUIRE_FALSE(builder.AllOutputsAreComputable());
  std::ostringstream dump;
  std::string msg = builder.ExplainNotComputable(&dump);
  INFO(msg);
  REQUIRE(msg.find('\n') == std::string::npos);
  REQUIRE_THAT(msg, Catch::Contains("output 'output' at t=0..5"));
  REQUIRE_THAT(msg, Catch::Contains("input 'input' at t=-4..-1,6..9"));
  REQUIRE_THAT(msg, Catch::Contains("Supply frames t=-4..9 of 'input'"));
  REQUIRE_THAT(msg, Catch::Contains("pad the utterance"));
  REQUIRE(!dump.str().empty());

  // Only some frames missing; the recurrence (IfDefined) is not blamed.
  Nnet rnn = CompilerTestNnet(kRnnConfig);
  ComputationRequest r2 = SimpleRequest(0, 5, 0, 8);
  ComputationGraph g2;
  ComputationGraphBuilder b2(rnn, r2, &g2);
  b2.Compute();
  msg = b2.ExplainNotComputable();
  INFO(msg);
  REQUIRE_THAT(msg, Catch::StartsWith(
                        "Cannot compute output 'output' at t=5..7 (of "
                        "t=0..7 requested): it needs input 'input' at "
                        "t=5..7, which the request does not supply. Supply "
                        "frames t=0..7 of 'input', or pad the utterance."));
}

}  // namespace nnet3
