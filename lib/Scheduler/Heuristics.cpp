//===- Heuristics.cpp - DFS, list and least-peak-first schedulers ---------===//
//
// The three published heuristics the pass chooses from. Each one returns a
// valid topological order; none of them is optimal in general (finding the
// order of least peak is NP-hard), which is why schedule() keeps the best.
//
//===----------------------------------------------------------------------===//

#include "GraphIndex.h"

#include <algorithm>
#include <tuple>

namespace cs349::scheduler {

using detail::GraphIndex;
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

namespace {

/// The state both greedy schedulers share: which nodes are ready, how many
/// unscheduled readers each buffer still has, and the bytes live right now.
class GreedyState {
public:
  GreedyState(const Graph &graph, const GraphIndex &index)
      : graph(graph), index(index), waitingPreds(graph.numNodes),
        unscheduledReaders(graph.buffers.size()) {
    for (int64_t v = 0; v < graph.numNodes; ++v) {
      waitingPreds[v] = index.preds[v].size();
      if (waitingPreds[v] == 0)
        ready.push_back(v);
    }
    for (size_t b = 0; b < graph.buffers.size(); ++b)
      unscheduledReaders[b] = index.readers[b].size();
  }

  /// Bytes that are no longer live once `v` has run: the inputs `v` reads
  /// last, and its own outputs that nothing reads.
  uint64_t bytesFreedBy(int64_t v) const {
    uint64_t freed = 0;
    for (int64_t b : index.inputs[v])
      if (!graph.buffers[b].liveOut && unscheduledReaders[b] == 1)
        freed = saturatingAdd(freed, graph.buffers[b].size);
    for (int64_t b : index.outputs[v])
      if (!graph.buffers[b].liveOut && index.readers[b].empty())
        freed = saturatingAdd(freed, graph.buffers[b].size);
    return freed;
  }

  /// Runs ready[slot]: updates live bytes, readers and the ready list.
  void run(size_t slot, Order &order) {
    int64_t v = ready[slot];
    ready.erase(ready.begin() + slot);
    order.push_back(v);
    uint64_t freed = bytesFreedBy(v);
    live = saturatingAdd(live, index.outBytes[v]);
    live -= std::min(live, freed);
    for (int64_t b : index.inputs[v])
      --unscheduledReaders[b];
    for (int64_t s : index.succs[v])
      if (--waitingPreds[s] == 0)
        ready.insert(std::lower_bound(ready.begin(), ready.end(), s), s);
  }

  const Graph &graph;
  const GraphIndex &index;
  /// Ready nodes, kept sorted so that ties go to the input order.
  std::vector<int64_t> ready;
  std::vector<size_t> waitingPreds;
  std::vector<size_t> unscheduledReaders;
  uint64_t live = 0;
};

} // namespace

Order listOrder(const Graph &graph) {
  GraphIndex index(graph);
  GreedyState state(graph, index);
  Order order;
  order.reserve(graph.numNodes);
  while (!state.ready.empty()) {
    size_t bestSlot = 0;
    // (freed - written, readers): compared without signed overflow by
    // comparing freed + other's written.
    auto better = [&](size_t a, size_t b) {
      int64_t va = state.ready[a], vb = state.ready[b];
      uint64_t lhs = saturatingAdd(state.bytesFreedBy(va), index.outBytes[vb]);
      uint64_t rhs = saturatingAdd(state.bytesFreedBy(vb), index.outBytes[va]);
      if (lhs != rhs)
        return lhs > rhs;
      return index.succs[va].size() > index.succs[vb].size();
    };
    for (size_t slot = 1; slot < state.ready.size(); ++slot)
      if (better(slot, bestSlot))
        bestSlot = slot;
    state.run(bestSlot, order);
  }
  return order;
}

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
