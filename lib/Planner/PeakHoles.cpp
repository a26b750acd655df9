//===- PeakHoles.cpp - The buffers in the holes of a plan's peak ----------===//
//
// Plain C++17.
//
// A greedy plan above the lower bound reaches its arena at some step while
// memory below the top is free there: holes between the buffers live at that
// step. At other steps that memory is used, and its users are what kept the
// buffers above the hole from dropping into it when the greedy pass placed
// them. Placed first, a user takes the bottom of its own span, and the
// buffers that sat above the hole are placed around it instead (on
// pangu_2.6B: two 20 MiB buffers living seven steps each, whose 40 MiB band
// was the whole excess over the lower bound).
//
//===----------------------------------------------------------------------===//

#include "PlannerImpl.h"

#include <algorithm>

namespace cs349::planner::detail {

std::vector<uint32_t> peakHoleUsers(const Problem &problem, const Plan &plan) {
  const std::vector<Buffer> &buffers = problem.buffers;
  std::vector<uint32_t> active;
  for (uint32_t i = 0; i < buffers.size(); ++i)
    if (isActive(buffers[i]))
      active.push_back(i);
  if (active.empty() || plan.offsets.size() != buffers.size())
    return {};

  // Time compressed to the elementary intervals between lifetime ends.
  std::vector<int64_t> points;
  points.reserve(2 * active.size());
  for (uint32_t i : active) {
    points.push_back(buffers[i].start);
    points.push_back(buffers[i].end);
  }
  std::sort(points.begin(), points.end());
  points.erase(std::unique(points.begin(), points.end()), points.end());
  auto stepOf = [&](int64_t t) {
    return (size_t)(std::lower_bound(points.begin(), points.end(), t) -
                    points.begin());
  };
  const size_t steps = points.size() - 1;

  // Bytes live per step, and the steps where a buffer reaches the arena.
  std::vector<int64_t> liveDelta(steps + 1, 0), topDelta(steps + 1, 0);
  for (uint32_t i : active) {
    const Buffer &b = buffers[i];
    size_t first = stepOf(b.start), last = stepOf(b.end);
    liveDelta[first] += (int64_t)b.size;
    liveDelta[last] -= (int64_t)b.size;
    if (plan.offsets[i] + b.size == plan.arenaSize) {
      ++topDelta[first];
      --topDelta[last];
    }
  }
  // Among the steps at the arena, the one with the most bytes live: its
  // holes are the least free memory that must go for the arena to shrink.
  size_t critical = steps;
  int64_t live = 0, atTop = 0, bestLive = -1;
  for (size_t s = 0; s < steps; ++s) {
    live += liveDelta[s];
    atTop += topDelta[s];
    if (atTop > 0 && live > bestLive) {
      bestLive = live;
      critical = s;
    }
  }
  if (critical == steps)
    return {};

  const int64_t when = points[critical];
  auto liveAt = [&](const Buffer &b) {
    return b.start <= when && when < b.end;
  };
  std::vector<std::pair<uint64_t, uint64_t>> occupied;
  for (uint32_t i : active)
    if (liveAt(buffers[i]))
      occupied.push_back({plan.offsets[i], plan.offsets[i] + buffers[i].size});
  std::sort(occupied.begin(), occupied.end());
  std::vector<std::pair<uint64_t, uint64_t>> holes;
  uint64_t reached = 0;
  for (const auto &[begin, end] : occupied) {
    if (begin > reached)
      holes.push_back({reached, begin});
    reached = std::max(reached, end);
  }
  if (holes.empty())
    return {};

  std::vector<uint32_t> users;
  for (uint32_t i : active) {
    const Buffer &b = buffers[i];
    if (liveAt(b))
      continue;
    uint64_t begin = plan.offsets[i], end = begin + b.size;
    // The first hole ending after `begin`; holes are sorted and disjoint.
    auto hole = std::upper_bound(
        holes.begin(), holes.end(), begin,
        [](uint64_t value, const std::pair<uint64_t, uint64_t> &h) {
          return value < h.second;
        });
    if (hole != holes.end() && hole->first < end)
      users.push_back(i);
  }
  return users;
}

std::vector<uint32_t> peakHoleUsersFirst(const Problem &problem,
                                         const Plan &plan,
                                         const std::vector<uint32_t> &order) {
  std::vector<uint32_t> users = peakHoleUsers(problem, plan);
  if (users.empty())
    return {};
  std::vector<char> isUser(problem.buffers.size(), 0);
  for (uint32_t i : users)
    isUser[i] = 1;
  std::vector<uint32_t> result;
  result.reserve(order.size());
  for (uint32_t i : order)
    if (isUser[i])
      result.push_back(i);
  for (uint32_t i : order)
    if (!isUser[i])
      result.push_back(i);
  return result;
}

} // namespace cs349::planner::detail
