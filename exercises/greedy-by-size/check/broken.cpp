// A deliberately wrong answer for CI (scripts/grade.sh --check): a correct
// greedy-by-size that ignores the alignment.
#include "PlannerImpl.h"

#include <algorithm>
#include <numeric>

namespace cs349::planner::detail {

Plan greedyBySize(const Problem &problem) {
  const std::vector<Buffer> &buffers = problem.buffers;
  std::vector<size_t> order(buffers.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const Buffer &x = buffers[a], &y = buffers[b];
    if (x.size != y.size)
      return x.size > y.size;
    if (x.start != y.start)
      return x.start < y.start;
    return x.id < y.id;
  });
  Plan plan;
  plan.offsets.assign(buffers.size(), 0);
  std::vector<size_t> placed;
  for (size_t i : order) {
    const Buffer &buffer = buffers[i];
    if (buffer.start >= buffer.end || buffer.size == 0)
      continue;
    uint64_t offset = 0;
    for (bool moved = true; moved;) {
      moved = false;
      for (size_t j : placed)
        if (lifetimesOverlap(buffer, buffers[j]) &&
            offset < plan.offsets[j] + buffers[j].size &&
            plan.offsets[j] < offset + buffer.size) {
          offset = plan.offsets[j] + buffers[j].size;
          moved = true;
        }
    }
    plan.offsets[i] = offset;
    placed.push_back(i);
  }
  plan.arenaSize = arenaOf(problem, plan.offsets);
  return plan;
}

} // namespace cs349::planner::detail
