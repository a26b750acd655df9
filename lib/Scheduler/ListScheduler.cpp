//===- ListScheduler.cpp - XLA's list scheduler ---------------------------===//
//
// A course exercise (exercises/list-scheduler) builds a student's file in
// place of this one: the contract is listOrder in MemoryScheduler.h, and
// unittests/Scheduler/ListOrderTest.cpp grades it.
//
//===----------------------------------------------------------------------===//

#include "GraphIndex.h"
#include "GreedyState.h"

namespace cs349::scheduler {

using detail::GraphIndex;
using detail::GreedyState;
using detail::saturatingAdd;

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

} // namespace cs349::scheduler
