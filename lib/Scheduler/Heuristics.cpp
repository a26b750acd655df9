//===- Heuristics.cpp - DFS, list and least-peak-first schedulers ---------===//
//
// Two of the three published heuristics the pass chooses from (the list
// scheduler is in ListScheduler.cpp, a course exercise on its own). Each one
// returns a valid topological order; none of them is optimal in general
// (finding the order of least peak is NP-hard), which is why schedule()
// keeps the best.
//
//===----------------------------------------------------------------------===//

#include "GraphIndex.h"
#include "GreedyState.h"

#include <algorithm>
#include <tuple>

namespace cs349::scheduler {

using detail::GraphIndex;
using detail::GreedyState;
using detail::saturatingAdd;

//===----------------------------------------------------------------------===//
// XLA's DFS memory scheduler
//===----------------------------------------------------------------------===//

Order dfsOrder(const Graph &graph, bool sortSinks) {
  GraphIndex index(graph);
  const int64_t n = graph.numNodes;
  // XLA's statistics, accumulated over the (distinct) operands, double
  // counting shared subtrees as XLA does: a cheap proxy for "how much of the
  // graph hangs below this node". Every diamond doubles the shared part, so
  // on a stack of layers the sums grow like 2^layers: doubles keep the local
  // differences that decide the order where saturating integers would make
  // every operand tie.
  std::vector<double> extraUsers(n, 0), totalSizes(n, 0);
  for (int64_t v = 0; v < n; ++v) {
    extraUsers[v] = index.succs[v].empty() ? 0 : index.succs[v].size() - 1;
    totalSizes[v] = static_cast<double>(index.outBytes[v]);
    for (int64_t p : index.preds[v]) {
      extraUsers[v] += extraUsers[p];
      totalSizes[v] += totalSizes[p];
    }
  }
  auto visitFirst = [&](int64_t a, int64_t b) {
    return std::make_tuple(extraUsers[b], totalSizes[b], a) <
           std::make_tuple(extraUsers[a], totalSizes[a], b);
  };

  std::vector<std::vector<int64_t>> operands = index.preds;
  for (auto &list : operands)
    std::stable_sort(list.begin(), list.end(), visitFirst);
  std::vector<int64_t> sinks;
  for (int64_t v = 0; v < n; ++v)
    if (index.succs[v].empty())
      sinks.push_back(v);
  if (sortSinks)
    std::stable_sort(sinks.begin(), sinks.end(), visitFirst);

  // Iterative post-order: deep graphs (a 32-layer model) must not overflow
  // the stack.
  Order order;
  order.reserve(n);
  std::vector<char> visited(n, 0);
  std::vector<std::pair<int64_t, size_t>> stack;
  for (int64_t sink : sinks) {
    if (visited[sink])
      continue;
    visited[sink] = 1;
    stack.push_back({sink, 0});
    while (!stack.empty()) {
      auto &[node, next] = stack.back();
      if (next < operands[node].size()) {
        int64_t operand = operands[node][next++];
        if (!visited[operand]) {
          visited[operand] = 1;
          stack.push_back({operand, 0});
        }
        continue;
      }
      order.push_back(node);
      stack.pop_back();
    }
  }
  return order;
}

//===----------------------------------------------------------------------===//
// Forward greedy schedulers over the ready set
//===----------------------------------------------------------------------===//


Order lpmfOrder(const Graph &graph) {
  GraphIndex index(graph);
  GreedyState state(graph, index);
  Order order;
  order.reserve(graph.numNodes);
  uint64_t peakSoFar = 0;
  while (!state.ready.empty()) {
    // during = live while the node runs; after = live once it has run.
    size_t bestSlot = 0;
    uint64_t bestDuring = UINT64_MAX, bestAfter = UINT64_MAX;
    bool bestUnderPeak = false;
    for (size_t slot = 0; slot < state.ready.size(); ++slot) {
      int64_t v = state.ready[slot];
      uint64_t during = saturatingAdd(state.live, index.outBytes[v]);
      uint64_t after = during - std::min(during, state.bytesFreedBy(v));
      bool underPeak = during <= peakSoFar;
      bool better;
      if (underPeak != bestUnderPeak)
        better = underPeak;
      else if (underPeak)
        better = after < bestAfter;
      else
        better = std::tie(during, after) < std::tie(bestDuring, bestAfter);
      if (slot == 0 || better) {
        bestSlot = slot;
        bestDuring = during;
        bestAfter = after;
        bestUnderPeak = underPeak;
      }
    }
    peakSoFar = std::max(peakSoFar, bestDuring);
    state.run(bestSlot, order);
  }
  return order;
}

} // namespace cs349::scheduler
