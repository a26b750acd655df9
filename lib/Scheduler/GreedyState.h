//===- GreedyState.h - the ready set of a forward list scheduler -*- C++ -*-===//
//
// What every forward greedy scheduler tracks while it builds an order: the
// nodes whose inputs are all computed (ready), how many readers of each
// buffer are still to run, and the bytes live right now. The schedulers
// differ only in which ready node they run next. Internal to lib/Scheduler.
//
//===----------------------------------------------------------------------===//

#ifndef CS349_LIB_SCHEDULER_GREEDYSTATE_H
#define CS349_LIB_SCHEDULER_GREEDYSTATE_H

#include "GraphIndex.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace cs349::scheduler::detail {

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

} // namespace cs349::scheduler::detail

#endif // CS349_LIB_SCHEDULER_GREEDYSTATE_H
