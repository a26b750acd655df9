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

  // The placed buffers, indexed two ways so that a query reports each
  // lifetime-overlapping buffer exactly once:
  //  * a segment tree over the slots: a buffer is stored at the O(log T)
  //    nodes of its canonical decomposition, so the buffers containing slot
  //    q are exactly those stored on the root-to-leaf path of q;
  //  * per start slot, the buffers starting there, with a bitmap of the
  //    non-empty slots: the buffers starting inside (q, end) are found by
  //    scanning set bits.
  std::vector<std::vector<uint32_t>> items;    // per tree node
  std::vector<std::vector<uint32_t>> startsAt; // per slot
  std::vector<uint64_t> startBits;             // non-empty startsAt slots
  std::vector<uint32_t> touched;               // tree nodes to clear

  std::vector<uint64_t> offsets;
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
    startsAt.resize(numSlots);
    startBits.assign(numSlots / 64 + 1, 0);
    offsets.assign(n, 0);
  }

  void reset() {
    for (uint32_t node : touched)
      items[node].clear();
    touched.clear();
    for (uint32_t i : active)
      startsAt[slotLo[i]].clear();
    std::fill(startBits.begin(), startBits.end(), 0);
    std::fill(offsets.begin(), offsets.end(), 0);
  }

  void insert(uint32_t i) {
    // Canonical decomposition of [lo, hi) (iterative, bottom-up).
    for (uint32_t l = slotLo[i] + leaves, r = slotHi[i] + leaves; l < r;
         l /= 2, r /= 2) {
      if (l & 1) {
        if (items[l].empty())
          touched.push_back(l);
        items[l++].push_back(i);
      }
      if (r & 1) {
        --r;
        if (items[r].empty())
          touched.push_back(r);
        items[r].push_back(i);
      }
    }
    uint32_t s = slotLo[i];
    startsAt[s].push_back(i);
    startBits[s / 64] |= uint64_t(1) << (s % 64);
  }

  void addBlock(uint32_t j) {
    blocks.push_back({offsets[j], offsets[j] + problem.buffers[j].size});
  }

  // Collects the placed buffers whose slots intersect [lo, hi).
  void collect(uint32_t lo, uint32_t hi) {
    for (uint32_t node = lo + leaves; node >= 1; node /= 2)
      for (uint32_t j : items[node])
        addBlock(j);
    // Starts in (lo, hi).
    uint32_t s = lo + 1;
    while (s < hi) {
      uint64_t word = startBits[s / 64] >> (s % 64);
      if (word == 0) {
        s = (s / 64 + 1) * 64;
        continue;
      }
      s += (uint32_t)__builtin_ctzll(word);
      if (s >= hi)
        break;
      for (uint32_t j : startsAt[s])
        addBlock(j);
      ++s;
    }
  }

  Plan place(const std::vector<uint32_t> &order, Fit fit) {
    reset();
    for (uint32_t i : order) {
      const Buffer &b = problem.buffers[i];
      if (!isActive(b))
        continue;
      blocks.clear();
      collect(slotLo[i], slotHi[i]);
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
      insert(i);
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
    // The width in uint64: end > start, but the int64 difference of
    // lifetimes like [INT64_MIN, INT64_MAX) overflows.
    return (u128)bs[i].size *
           (u128)((uint64_t)bs[i].end - (uint64_t)bs[i].start);
  };
  return impl->sorted(
      [&](uint32_t x, uint32_t y) { return area(x) > area(y); });
}

std::vector<uint32_t> GreedyPlacer::orderByLength() const {
  const auto &bs = impl->problem.buffers;
  auto len = [&](uint32_t i) {
    return (uint64_t)bs[i].end - (uint64_t)bs[i].start;
  };
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

Plan planBestFit(const Problem &problem, const Deadline *deadline) {
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
  Clock::duration lastPass{0};
  for (const auto &order : orders) {
    for (Fit fit : {Fit::Best, Fit::First}) {
      // Do not start a pass that would end past the deadline.
      if (have && deadline && Clock::now() + lastPass >= deadline->at)
        break;
      auto t0 = Clock::now();
      Plan p = placer.place(order, fit);
      lastPass = Clock::now() - t0;
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
