//===- TestGraphs.h - graphs for the scheduler's unit tests -----*- C++ -*-===//

#ifndef CS349_UNITTESTS_SCHEDULER_TESTGRAPHS_H
#define CS349_UNITTESTS_SCHEDULER_TESTGRAPHS_H

#include "cs349/Scheduler/MemoryScheduler.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace cs349::scheduler::testing {

/// A tiny deterministic PRNG (same sequence everywhere).
struct Rng {
  uint64_t s;
  uint64_t next() {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return s;
  }
  uint64_t below(uint64_t n) { return next() % n; }
};

/// A graph built node by node; add() returns the buffer written.
struct Builder {
  Graph graph;
  int64_t add(uint64_t size, std::vector<int64_t> reads = {},
              bool liveOut = false) {
    int64_t node = graph.numNodes++;
    for (int64_t b : reads)
      graph.buffers[b].consumers.push_back(node);
    graph.buffers.push_back({node, size, {}, liveOut});
    return static_cast<int64_t>(graph.buffers.size()) - 1;
  }
};

/// Random DAG: each node writes one buffer (sizes spread over three orders of
/// magnitude, as activations are), reads one to three earlier buffers, and a
/// few sinks are function results.
inline Graph randomGraph(Rng &rng, int64_t nodes) {
  Builder b;
  for (int64_t v = 0; v < nodes; ++v) {
    std::vector<int64_t> reads;
    if (v > 0) {
      uint64_t count = 1 + rng.below(std::min<uint64_t>(3, v));
      for (uint64_t i = 0; i < count; ++i)
        reads.push_back(static_cast<int64_t>(rng.below(v)));
    }
    static const uint64_t kScale[] = {1, 10, 100, 1000};
    b.add((1 + rng.below(9)) * kScale[rng.below(4)], reads);
  }
  for (Buffer &buffer : b.graph.buffers)
    if (buffer.consumers.empty() && rng.below(2))
      buffer.liveOut = true;
  return b.graph;
}

} // namespace cs349::scheduler::testing

#endif // CS349_UNITTESTS_SCHEDULER_TESTGRAPHS_H
