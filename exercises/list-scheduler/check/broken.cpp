// A deliberately wrong answer for CI (scripts/grade.sh --check): it runs the
// node that frees the *least*, so the tests on the choice rule must fail.
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
  while (!state.ready.empty()) {
    size_t best = 0;
    for (size_t slot = 1; slot < state.ready.size(); ++slot) {
      int64_t a = state.ready[slot], b = state.ready[best];
      if (saturatingAdd(state.bytesFreedBy(a), index.outBytes[b]) <
          saturatingAdd(state.bytesFreedBy(b), index.outBytes[a]))
        best = slot;
    }
    state.run(best, order);
  }
  return order;
}

} // namespace cs349::scheduler
