//===- Greedy.cpp - Greedy placement with an interval index ---------------===//
//
// Greedy placement: buffers are placed one at a time; each goes to the lowest
// (first-fit) or tightest (best-fit) aligned gap between the already placed
// blocks whose lifetimes overlap its own.  The lifetime-overlapping placed
// blocks are found with a segment tree over the compressed time axis, so a
// pass costs O(sum over buffers of k log k + k log T) where k is the number of
// lifetime-overlapping blocks placed before it -- never a scan of all placed
// blocks.
//
//===----------------------------------------------------------------------===//

#include "PlannerImpl.h"

#include <algorithm>
#include <cassert>
#include <limits>
#include <numeric>

namespace cs349::planner::detail {

namespace {
using u128 = unsigned __int128;
} // namespace

struct GreedyPlacer::Impl {
  const Problem &problem;
  uint64_t align;
  std::vector<uint32_t> active;       // indices of active buffers
  std::vector<uint32_t> slotLo, slotHi; // per buffer, compressed [lo, hi)
  uint32_t numSlots = 0;
  uint32_t leaves = 1; // power of two >= numSlots

  // Segment tree: items[node] holds the placed buffers whose canonical
  // decomposition contains node; count[node] > 0 iff the subtree holds any.
  std::vector<std::vector<uint32_t>> items;
  std::vector<uint32_t> count;
  std::vector<uint32_t> touched; // nodes to clear between passes

  std::vector<uint32_t> mark; // per buffer: epoch of last report
  uint32_t epoch = 0;
  std::vector<uint64_t> offsets;
  std::vector<uint32_t> found;                       // query result
  std::vector<std::pair<uint64_t, uint64_t>> blocks; // (offset, top)

  explicit Impl(const Problem &p) : problem(p), align(effectiveAlignment(p)) {
    const size_t n = p.buffers.size();
    std::vector<int64_t> coords;
    coords.reserve(2 * n);
    for (size_t i = 0; i < n; ++i) {
      const Buffer &b = p.buffers[i];
      if (!isActive(b))
        continue;
      active.push_back((uint32_t)i);
      coords.push_back(b.start);
      coords.push_back(b.end);
    }
    std::sort(coords.begin(), coords.end());
    coords.erase(std::unique(coords.begin(), coords.end()), coords.end());
    slotLo.assign(n, 0);
    slotHi.assign(n, 0);
    for (uint32_t i : active) {
      const Buffer &b = p.buffers[i];
      slotLo[i] = (uint32_t)(std::lower_bound(coords.begin(), coords.end(),
                                              b.start) -
                             coords.begin());
      slotHi[i] = (uint32_t)(std::lower_bound(coords.begin(), coords.end(),
                                              b.end) -
                             coords.begin());
    }
    numSlots = coords.empty() ? 0 : (uint32_t)coords.size() - 1;
    while (leaves < numSlots)
      leaves *= 2;
    items.resize(2 * leaves);
    count.assign(2 * leaves, 0);
    mark.assign(n, 0);
    offsets.assign(n, 0);
  }

  void reset() {
    for (uint32_t node : touched) {
      items[node].clear();
      count[node] = 0;
    }
    touched.clear();
    std::fill(offsets.begin(), offsets.end(), 0);
  }

  void insert(uint32_t node, uint32_t nl, uint32_t nr, uint32_t l, uint32_t r,
              uint32_t id) {
    if (r <= nl || nr <= l)
      return;
    if (count[node]++ == 0 && items[node].empty())
      touched.push_back(node);
    if (l <= nl && nr <= r) {
      items[node].push_back(id);
      return;
    }
    uint32_t mid = nl + (nr - nl) / 2;
    insert(2 * node, nl, mid, l, r, id);
    insert(2 * node + 1, mid, nr, l, r, id);
  }

  void report(uint32_t node) {
    for (uint32_t id : items[node])
      if (mark[id] != epoch) {
        mark[id] = epoch;
        found.push_back(id);
      }
  }

  // Reports every stored buffer whose slots intersect [l, r).
  void collect(uint32_t node, uint32_t nl, uint32_t nr, uint32_t l,
               uint32_t r, bool inside) {
    if (count[node] == 0)
      return;
    if (!inside) {
      if (r <= nl || nr <= l)
        return;
      inside = l <= nl && nr <= r;
    }
    report(node);
    if (nr - nl == 1)
      return;
    uint32_t mid = nl + (nr - nl) / 2;
    collect(2 * node, nl, mid, l, r, inside);
    collect(2 * node + 1, mid, nr, l, r, inside);
  }

  Plan place(const std::vector<uint32_t> &order, Fit fit) {
    reset();
    for (uint32_t i : order) {
      const Buffer &b = problem.buffers[i];
      if (!isActive(b))
        continue;
      if (++epoch == 0) { // wrapped: clear marks
        std::fill(mark.begin(), mark.end(), 0);
        epoch = 1;
      }
      found.clear();
      collect(1, 0, leaves, slotLo[i], slotHi[i], false);
      blocks.clear();
      blocks.reserve(found.size());
      for (uint32_t j : found)
        blocks.push_back({offsets[j], offsets[j] + problem.buffers[j].size});
      std::sort(blocks.begin(), blocks.end());
      uint64_t cur = 0;
      uint64_t bestOffset = 0, bestGap = std::numeric_limits<uint64_t>::max();
      bool haveBest = false;
      for (const auto &[off, top] : blocks) {
        uint64_t cand = alignUp(cur, align);
        if (cand + b.size <= off) {
          if (fit == Fit::First) {
            haveBest = true;
            bestOffset = cand;
            break;
          }
          uint64_t gap = off - cand;
          if (gap < bestGap) {
            bestGap = gap;
            bestOffset = cand;
            haveBest = true;
          }
        }
        cur = std::max(cur, top);
      }
      offsets[i] = haveBest ? bestOffset : alignUp(cur, align);
      insert(1, 0, leaves, slotLo[i], slotHi[i], i);
    }
    Plan result;
    result.offsets = offsets;
    result.arenaSize = arenaOf(problem, result.offsets);
    return result;
  }

  template <typename Less> std::vector<uint32_t> sorted(Less less) const {
    std::vector<uint32_t> order = active;
    std::sort(order.begin(), order.end(), [&](uint32_t x, uint32_t y) {
      if (less(x, y))
        return true;
      if (less(y, x))
        return false;
      const Buffer &a = problem.buffers[x], &b = problem.buffers[y];
      if (a.size != b.size)
        return a.size > b.size;
      if (a.start != b.start)
        return a.start < b.start;
      if (a.id != b.id)
        return a.id < b.id;
      return x < y;
    });
    return order;
  }
};

GreedyPlacer::GreedyPlacer(const Problem &problem)
    : impl(new Impl(problem)) {}
GreedyPlacer::~GreedyPlacer() { delete impl; }

Plan GreedyPlacer::place(const std::vector<uint32_t> &order, Fit fit) {
  return impl->place(order, fit);
}

std::vector<uint32_t> GreedyPlacer::orderBySize() const {
  return impl->sorted([](uint32_t, uint32_t) { return false; });
}

std::vector<uint32_t> GreedyPlacer::orderByArea() const {
  const auto &bs = impl->problem.buffers;
  auto area = [&](uint32_t i) {
    return (u128)bs[i].size * (u128)(uint64_t)(bs[i].end - bs[i].start);
  };
  return impl->sorted(
      [&](uint32_t x, uint32_t y) { return area(x) > area(y); });
}

std::vector<uint32_t> GreedyPlacer::orderByLength() const {
  const auto &bs = impl->problem.buffers;
  auto len = [&](uint32_t i) { return (uint64_t)(bs[i].end - bs[i].start); };
  return impl->sorted([&](uint32_t x, uint32_t y) { return len(x) > len(y); });
}

std::vector<uint32_t> GreedyPlacer::orderByStart() const {
  const auto &bs = impl->problem.buffers;
  return impl->sorted(
      [&](uint32_t x, uint32_t y) { return bs[x].start < bs[y].start; });
}

std::vector<uint32_t> GreedyPlacer::orderByDegree() const {
  const auto &bs = impl->problem.buffers;
  std::vector<int64_t> starts, ends;
  for (uint32_t i : impl->active) {
    starts.push_back(bs[i].start);
    ends.push_back(bs[i].end);
  }
  std::sort(starts.begin(), starts.end());
  std::sort(ends.begin(), ends.end());
  std::vector<uint64_t> degree(bs.size(), 0);
  for (uint32_t i : impl->active) {
    // #{j : start_j < end_i} - #{j : end_j <= start_i} - 1 (itself).
    size_t before =
        std::lower_bound(starts.begin(), starts.end(), bs[i].end) -
        starts.begin();
    size_t gone = std::upper_bound(ends.begin(), ends.end(), bs[i].start) -
                  ends.begin();
    degree[i] = before - gone - 1;
  }
  return impl->sorted(
      [&](uint32_t x, uint32_t y) { return degree[x] > degree[y]; });
}

std::vector<uint32_t> GreedyPlacer::orderBySectionTotal() const {
  // Max live bytes during each buffer's lifetime: a live profile over the
  // compressed slots and an iterative max segment tree.
  const Impl &I = *impl;
  const auto &bs = I.problem.buffers;
  std::vector<uint64_t> live(I.numSlots + 1, 0);
  for (uint32_t i : I.active) {
    live[I.slotLo[i]] += bs[i].size;
    live[I.slotHi[i]] -= bs[i].size;
  }
  uint32_t m = std::max<uint32_t>(I.numSlots, 1);
  std::vector<uint64_t> tree(2 * m, 0);
  uint64_t run = 0;
  for (uint32_t s = 0; s < I.numSlots; ++s) {
    run += live[s];
    tree[m + s] = run;
  }
  for (uint32_t k = m - 1; k >= 1; --k)
    tree[k] = std::max(tree[2 * k], tree[2 * k + 1]);
  std::vector<uint64_t> total(bs.size(), 0);
  for (uint32_t i : I.active) {
    uint64_t best = 0;
    for (uint32_t l = I.slotLo[i] + m, r = I.slotHi[i] + m; l < r;
         l /= 2, r /= 2) {
      if (l & 1)
        best = std::max(best, tree[l++]);
      if (r & 1)
        best = std::max(best, tree[--r]);
    }
    total[i] = best;
  }
  return impl->sorted(
      [&](uint32_t x, uint32_t y) { return total[x] > total[y]; });
}

Plan planBestFit(const Problem &problem) {
  GreedyPlacer placer(problem);
  Plan best;
  bool have = false;
  std::vector<std::vector<uint32_t>> orders;
  orders.push_back(placer.orderBySize());
  orders.push_back(placer.orderBySectionTotal());
  orders.push_back(placer.orderByArea());
  orders.push_back(placer.orderByLength());
  orders.push_back(placer.orderByDegree());
  orders.push_back(placer.orderByStart());
  for (const auto &order : orders) {
    for (Fit fit : {Fit::Best, Fit::First}) {
      Plan p = placer.place(order, fit);
      if (!have || p.arenaSize < best.arenaSize) {
        best = std::move(p);
        have = true;
      }
    }
  }
  if (!have)
    best.offsets.assign(problem.buffers.size(), 0);
  return best;
}

} // namespace cs349::planner::detail
