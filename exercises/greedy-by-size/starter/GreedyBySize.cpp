//===- GreedyBySize.cpp - your greedy-by-size -----------------------------===//
//
// Exercise: see exercises/greedy-by-size/README.md. Replace the body of
// greedyBySize; grade with
//     scripts/grade.sh greedy-by-size exercises/greedy-by-size/starter/GreedyBySize.cpp
//
//===----------------------------------------------------------------------===//

#include "PlannerImpl.h"

namespace cs349::planner::detail {

Plan greedyBySize(const Problem &problem) {
  // TODO: largest buffer first (ties: earlier start, then smaller id, then
  // input position), each at the lowest aligned offset where it overlaps in
  // memory no placed buffer whose lifetime overlaps its own.
  // This starter puts every buffer after the previous one (no reuse): a valid
  // plan, the naive arena.
  Plan plan;
  uint64_t alignment = effectiveAlignment(problem);
  uint64_t next = 0;
  for (const Buffer &buffer : problem.buffers) {
    if (buffer.start >= buffer.end || buffer.size == 0) {
      plan.offsets.push_back(0);
      continue;
    }
    plan.offsets.push_back(next);
    next = alignUp(next + buffer.size, alignment);
  }
  plan.arenaSize = arenaOf(problem, plan.offsets);
  return plan;
}

} // namespace cs349::planner::detail
