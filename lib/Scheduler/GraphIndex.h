//===- GraphIndex.h - Adjacency of a scheduling graph ------------*- C++ -*-===//
//
// The per-node and per-buffer lists every algorithm needs, derived once from a
// validated Graph. Internal to lib/Scheduler.
//
//===----------------------------------------------------------------------===//

#ifndef CS349_LIB_SCHEDULER_GRAPHINDEX_H
#define CS349_LIB_SCHEDULER_GRAPHINDEX_H

#include "cs349/Scheduler/MemoryScheduler.h"

#include <cstdint>
#include <vector>

namespace cs349::scheduler::detail {

struct GraphIndex {
  explicit GraphIndex(const Graph &graph);

  int64_t numNodes = 0;
  /// Distinct predecessor / successor nodes (through buffers and edges).
  std::vector<std::vector<int64_t>> preds, succs;
  /// Buffers each node writes / reads (distinct).
  std::vector<std::vector<int64_t>> outputs, inputs;
  /// Distinct readers of each buffer.
  std::vector<std::vector<int64_t>> readers;
  /// Bytes each node writes.
  std::vector<uint64_t> outBytes;
};

/// a + b, clamped at UINT64_MAX: sizes come from user IR and may be huge.
inline uint64_t saturatingAdd(uint64_t a, uint64_t b) {
  return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

} // namespace cs349::scheduler::detail

#endif // CS349_LIB_SCHEDULER_GRAPHINDEX_H
