#include "compile/nnet-graph.h"

#include <algorithm>
#include <functional>
#include <queue>
#include <sstream>
#include <utility>

#include "base/error.h"

namespace nnet3 {

namespace {

void CheckArcs(const DirectedGraph &graph) {
  const int32_t n = static_cast<int32_t>(graph.size());
  for (const auto &arcs : graph)
    for (int32_t j : arcs) NNET3_ASSERT(j >= 0 && j < n);
}

// State of Tarjan's algorithm, run with an explicit stack of (node, next
// arc) frames instead of recursion.
class TarjanSccFinder {
 public:
  explicit TarjanSccFinder(const DirectedGraph &graph)
      : graph_(graph),
        index_(graph.size(), -1),
        lowlink_(graph.size(), 0),
        on_stack_(graph.size(), false) {}

  void Run(std::vector<std::vector<int32_t>> *sccs) {
    for (int32_t v = 0; v < static_cast<int32_t>(graph_.size()); v++)
      if (index_[v] == -1) Visit(v, sccs);
  }

 private:
  void Push(int32_t v) {
    index_[v] = lowlink_[v] = next_index_++;
    stack_.push_back(v);
    on_stack_[v] = true;
    frames_.emplace_back(v, 0);
  }

  void Visit(int32_t root, std::vector<std::vector<int32_t>> *sccs) {
    Push(root);
    while (!frames_.empty()) {
      int32_t v = frames_.back().first;
      size_t &arc = frames_.back().second;
      if (arc < graph_[v].size()) {
        int32_t w = graph_[v][arc++];
        if (index_[w] == -1) {
          Push(w);  // invalidates `arc`; the loop re-reads the frame.
        } else if (on_stack_[w]) {
          lowlink_[v] = std::min(lowlink_[v], index_[w]);
        }
        continue;
      }
      frames_.pop_back();
      if (!frames_.empty()) {
        int32_t parent = frames_.back().first;
        lowlink_[parent] = std::min(lowlink_[parent], lowlink_[v]);
      }
      if (lowlink_[v] == index_[v]) {
        std::vector<int32_t> scc;
        int32_t w;
        do {
          w = stack_.back();
          stack_.pop_back();
          on_stack_[w] = false;
          scc.push_back(w);
        } while (w != v);
        std::sort(scc.begin(), scc.end());
        sccs->push_back(std::move(scc));
      }
    }
  }

  const DirectedGraph &graph_;
  std::vector<int32_t> index_, lowlink_;
  std::vector<bool> on_stack_;
  std::vector<int32_t> stack_;
  std::vector<std::pair<int32_t, size_t>> frames_;
  int32_t next_index_ = 0;
};

}  // namespace

void FindSccs(const DirectedGraph &graph,
              std::vector<std::vector<int32_t>> *sccs) {
  CheckArcs(graph);
  sccs->clear();
  TarjanSccFinder(graph).Run(sccs);
  std::sort(sccs->begin(), sccs->end(),
            [](const std::vector<int32_t> &a, const std::vector<int32_t> &b) {
              return a.front() < b.front();
            });
}

void MakeSccGraph(const DirectedGraph &graph,
                  const std::vector<std::vector<int32_t>> &sccs,
                  DirectedGraph *scc_graph) {
  std::vector<int32_t> node_to_scc(graph.size(), -1);
  for (size_t s = 0; s < sccs.size(); s++)
    for (int32_t n : sccs[s]) node_to_scc[n] = static_cast<int32_t>(s);
  scc_graph->clear();
  scc_graph->resize(sccs.size());
  for (size_t s = 0; s < sccs.size(); s++) {
    std::vector<int32_t> &out = (*scc_graph)[s];
    for (int32_t n : sccs[s])
      for (int32_t m : graph[n]) {
        int32_t t = node_to_scc[m];
        NNET3_ASSERT(t >= 0);
        if (t != static_cast<int32_t>(s)) out.push_back(t);
      }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
  }
}

void ComputeTopSortOrder(const DirectedGraph &graph,
                         std::vector<int32_t> *node_to_order) {
  CheckArcs(graph);
  const int32_t n = static_cast<int32_t>(graph.size());
  std::vector<int32_t> in_degree(n, 0);
  for (const auto &arcs : graph)
    for (int32_t j : arcs) in_degree[j]++;
  std::priority_queue<int32_t, std::vector<int32_t>, std::greater<int32_t>>
      ready;
  for (int32_t i = 0; i < n; i++)
    if (in_degree[i] == 0) ready.push(i);
  node_to_order->assign(n, -1);
  int32_t next = 0;
  while (!ready.empty()) {
    int32_t i = ready.top();
    ready.pop();
    (*node_to_order)[i] = next++;
    for (int32_t j : graph[i])
      if (--in_degree[j] == 0) ready.push(j);
  }
  if (next != n)
    NNET3_INTERNAL_ERR << "ComputeTopSortOrder: the graph has a cycle";
}

void ComputeGraphTranspose(const DirectedGraph &graph,
                           DirectedGraph *graph_transpose) {
  CheckArcs(graph);
  graph_transpose->clear();
  graph_transpose->resize(graph.size());
  for (size_t i = 0; i < graph.size(); i++)
    for (int32_t j : graph[i])
      (*graph_transpose)[j].push_back(static_cast<int32_t>(i));
}

bool GraphHasCycles(const DirectedGraph &graph) {
  std::vector<std::vector<int32_t>> sccs;
  FindSccs(graph, &sccs);
  for (const auto &scc : sccs) {
    if (scc.size() > 1) return true;
    int32_t n = scc[0];
    if (std::find(graph[n].begin(), graph[n].end(), n) != graph[n].end())
      return true;
  }
  return false;
}

void ComputeNnetComputationEpochs(const Nnet &nnet,
                                  std::vector<int32_t> *node_to_epoch) {
  DirectedGraph graph;
  NnetToDirectedGraph(nnet, &graph);
  const int32_t num_nodes = nnet.NumNodes();
  // Each component-input node is represented by its component node, so
  // that the two always land in the same SCC and hence the same epoch.
  std::vector<int32_t> rep(num_nodes);
  for (int32_t n = 0; n < num_nodes; n++)
    rep[n] = nnet.IsComponentInputNode(n) ? n + 1 : n;
  DirectedGraph merged(num_nodes);
  for (int32_t a = 0; a < num_nodes; a++)
    for (int32_t b : graph[a])
      if (rep[a] != rep[b]) merged[rep[a]].push_back(rep[b]);

  std::vector<std::vector<int32_t>> sccs;
  FindSccs(merged, &sccs);
  DirectedGraph scc_graph;
  MakeSccGraph(merged, sccs, &scc_graph);
  std::vector<int32_t> scc_order;
  ComputeTopSortOrder(scc_graph, &scc_order);
  std::vector<int32_t> node_to_scc(num_nodes);
  for (size_t s = 0; s < sccs.size(); s++)
    for (int32_t n : sccs[s]) node_to_scc[n] = static_cast<int32_t>(s);

  // The component-input nodes' own (empty) SCCs leave gaps in the order;
  // renumber the orders actually used to 0, 1, 2, ...
  std::vector<int32_t> raw(num_nodes);
  for (int32_t n = 0; n < num_nodes; n++)
    raw[n] = scc_order[node_to_scc[rep[n]]];
  std::vector<int32_t> used(raw);
  std::sort(used.begin(), used.end());
  used.erase(std::unique(used.begin(), used.end()), used.end());
  node_to_epoch->resize(num_nodes);
  for (int32_t n = 0; n < num_nodes; n++)
    (*node_to_epoch)[n] = static_cast<int32_t>(
        std::lower_bound(used.begin(), used.end(), raw[n]) - used.begin());
}

std::string PrintGraphToString(const DirectedGraph &graph) {
  std::ostringstream os;
  for (size_t i = 0; i < graph.size(); i++) {
    if (i > 0) os << "; ";
    os << i << " ->";
    for (int32_t j : graph[i]) os << ' ' << j;
  }
  return os.str();
}

}  // namespace nnet3
