// Tests of compile/nnet-graph.h: SCCs, SCC graph, topological order,
// cycles and epochs.
#include "compile/nnet-graph.h"

#include <catch2/catch.hpp>

#include "base/error.h"
#include "compiler-test-utils.h"

namespace nnet3 {

TEST_CASE("FindSccs finds the strongly connected components", "[compiler]") {
  // 0 -> 1 -> 2 -> 0 is a cycle, 3 <-> 4 another, 5 alone.
  DirectedGraph graph = {{1}, {2}, {0, 3}, {4}, {3}, {}};
  std::vector<std::vector<int32_t>> sccs;
  FindSccs(graph, &sccs);
  REQUIRE(sccs == std::vector<std::vector<int32_t>>{{0, 1, 2}, {3, 4}, {5}});
  DirectedGraph scc_graph;
  MakeSccGraph(graph, sccs, &scc_graph);
  REQUIRE(scc_graph == DirectedGraph{{1}, {}, {}});
  REQUIRE(GraphHasCycles(graph));
  REQUIRE_FALSE(GraphHasCycles(scc_graph));
  REQUIRE(GraphHasCycles(DirectedGraph{{}, {1}}));  // a self-loop
}

TEST_CASE("FindSccs handles a long chain without recursion", "[compiler]") {
  const int32_t n = 200000;
  DirectedGraph graph(n);
  for (int32_t i = 0; i + 1 < n; i++) graph[i].push_back(i + 1);
  graph[n - 1].push_back(0);  // one big cycle
  std::vector<std::vector<int32_t>> sccs;
  FindSccs(graph, &sccs);
  REQUIRE(sccs.size() == 1);
  REQUIRE(sccs[0].size() == static_cast<size_t>(n));
}

TEST_CASE("ComputeTopSortOrder orders a DAG, stably", "[compiler]") {
  DirectedGraph graph = {{2}, {0}, {}, {1, 2}};
  std::vector<int32_t> order;
  ComputeTopSortOrder(graph, &order);
  REQUIRE(order == std::vector<int32_t>{2, 1, 3, 0});
  DirectedGraph sorted = {{1, 2}, {2}, {}};
  ComputeTopSortOrder(sorted, &order);
  REQUIRE(order == std::vector<int32_t>{0, 1, 2});
  REQUIRE_THROWS_AS(ComputeTopSortOrder(DirectedGraph{{1}, {0}}, &order),
                    InternalError);
  DirectedGraph transpose;
  ComputeGraphTranspose(graph, &transpose);
  REQUIRE(transpose == DirectedGraph{{1}, {3}, {0, 3}, {}});
  REQUIRE(PrintGraphToString(DirectedGraph{{1}, {}}) == "0 -> 1; 1 ->");
}

TEST_CASE("Epochs of a feed-forward network follow its layers", "[compiler]") {
  Nnet nnet = CompilerTestNnet(kFeedForwardConfig);
  // input, affine1_input, affine1, relu1_input, relu1, affine2_input,
  // affine2, output.
  std::vector<int32_t> epochs;
  ComputeNnetComputationEpochs(nnet, &epochs);
  REQUIRE(epochs == std::vector<int32_t>{0, 1, 1, 2, 2, 3, 3, 4});
}

TEST_CASE("Epochs put a recurrence in one epoch", "[compiler]") {
  Nnet nnet = CompilerTestNnet(kRnnConfig);
  // input, affine1_input, affine1, relu1_input, relu1, final_input, final,
  // output: the loop affine1 -> relu1 -> affine1 is one epoch.
  std::vector<int32_t> epochs;
  ComputeNnetComputationEpochs(nnet, &epochs);
  REQUIRE(epochs == std::vector<int32_t>{0, 1, 1, 1, 1, 2, 2, 3});

  Nnet clockwork = CompilerTestNnet(kClockworkConfig);
  ComputeNnetComputationEpochs(clockwork, &epochs);
  // input; fast (self-recurrent); slow (self-recurrent); final; output.
  REQUIRE(epochs == std::vector<int32_t>{0, 1, 1, 2, 2, 3, 3, 4});
}

}  // namespace nnet3
