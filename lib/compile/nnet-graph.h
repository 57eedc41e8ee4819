// Graph utilities on the network's nodes, used to order the computation
// (seed nnet3-compilation, "Creating the sequence of steps"): strongly
// connected components (SCCs), the graph of SCCs, topological orders, and
// the "epochs" of the nodes.
//
// A graph is a `std::vector<std::vector<int32_t>>`: graph[i] lists the nodes
// j with an arc i -> j. NnetToDirectedGraph (nnet/nnet-utils.h) makes the
// network's graph: an arc A -> B when node B refers to A (B's descriptor
// names A, B is the component node of descriptor node A, or B is a
// dim-range node of A).
//
//   std::vector<int32_t> node_to_epoch;
//   ComputeNnetComputationEpochs(nnet, &node_to_epoch);
//
// Epochs guarantee: if node B refers to node A, epoch(A) <= epoch(B), with
// equality exactly when A and B are in the same SCC (a recurrence), or when
// A is B's component-input descriptor node. Our rule for the latter: a
// component-input node always shares its component node's epoch (Kaldi
// gives it an epoch of its own just before the component's; the steps
// code ignores component-input cindexes when grouping phases into steps, so
// merging them is equivalent and keeps "one layer = one epoch"). Epochs are
// numbered 0, 1, 2, ... without gaps, in the order of the network's nodes
// where the dependencies allow it.
#ifndef NNET3_COMPILE_NNET_GRAPH_H_
#define NNET3_COMPILE_NNET_GRAPH_H_

#include <cstdint>
#include <string>
#include <vector>

#include "nnet/nnet-utils.h"
#include "nnet/nnet.h"

namespace nnet3 {

using DirectedGraph = std::vector<std::vector<int32_t>>;

// Strongly connected components (Tarjan's algorithm, iterative so that
// long chains cannot overflow the stack). Each SCC lists its nodes in
// increasing order; SCCs are listed in increasing order of their smallest
// node. Arcs to nodes outside [0, graph.size()) are an InternalError.
void FindSccs(const DirectedGraph &graph,
              std::vector<std::vector<int32_t>> *sccs);

// The graph whose nodes are the SCCs: an arc i -> j (i != j, no duplicates)
// when some node of sccs[i] has an arc to a node of sccs[j]. Acyclic.
void MakeSccGraph(const DirectedGraph &graph,
                  const std::vector<std::vector<int32_t>> &sccs,
                  DirectedGraph *scc_graph);

// node_to_order[i] is node i's position in a topological order of an
// acyclic graph (every arc i -> j has order(i) < order(j)); among the nodes
// that are ready, the lowest-numbered comes first, so an already sorted
// graph gets the identity. InternalError if the graph has a cycle.
void ComputeTopSortOrder(const DirectedGraph &graph,
                         std::vector<int32_t> *node_to_order);

// The graph with every arc reversed.
void ComputeGraphTranspose(const DirectedGraph &graph,
                           DirectedGraph *graph_transpose);

// True if the graph has a cycle (a self-loop counts).
bool GraphHasCycles(const DirectedGraph &graph);

// The epoch of each node (see the file comment).
void ComputeNnetComputationEpochs(const Nnet &nnet,
                                  std::vector<int32_t> *node_to_epoch);

// "0 -> 1 2; 1 -> ; 2 -> 0" style, for logs and tests.
std::string PrintGraphToString(const DirectedGraph &graph);

}  // namespace nnet3

#endif  // NNET3_COMPILE_NNET_GRAPH_H_
