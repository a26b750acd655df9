//===- TimeFit.cpp - Greedy placement that fits lifetimes as well as bytes ===//
//
// First-fit and best-fit look at memory only: a buffer takes the lowest (or
// the tightest) gap that is free for its whole life, whatever happens there
// before and after it.  Where most buffers live at once, what keeps a plan
// above the lower bound is the buffers placed last (small and long-lived in
// a size-class order) finding no gap that stays free long enough: the large
// ones placed earlier took the memory that was free for a long time though
// they needed it only briefly.
//
// Time-fit places like first-fit among the first gaps free for the buffer's
// life (the lowest kGaps of them, each at its bottom and at its top, and
// the open space above the blocks live with it), and takes the position at
// which it leaves the least free time unused around it: at each of its
// bytes, the steps between the nearest block placed there that ends before
// the buffer starts (or the problem's first step) and its start, plus the
// steps between its end and the nearest block placed there that starts
// after it (or the problem's last step), summed over its bytes.  A buffer
// that goes where the memory was just freed and is needed again right after
// it leaves the long-free memory to the buffers that need it.  A position
// that raises the arena is taken only when no other holds the buffer.
//
// The placed blocks are kept in arrays sorted by offset, their lifetimes
// as ranks of the distinct steps: a placement scans the blocks below its
// first kGaps gaps (all of them where it goes on top), O(n) per buffer.  On
// the measured problems of 60,000 buffers that is 4-5 s a pass, 2-3.5
// times the indexed first-fit pass in the same order, and it is quadratic
// however the buffers overlap: `best` gives it a share of its time and
// drops it when it does not finish.
//
//===----------------------------------------------------------------------===//

#include "PlannerImpl.h"

#include <algorithm>
#include <limits>
#include <queue>
#include <utility>
#include <vector>

namespace cs349::planner::detail {

namespace {

/// How many of the lowest gaps a placement weighs.  Fewer leave it too
/// little choice, more cost a longer scan and do not pay (long-62k-log:
/// +0.41 % over the bound at 8, +0.26 % at 16 and 32, +0.31 % at 64).
constexpr size_t kGaps = 16;

/// The placed blocks, ordered by offset.
struct PlacedBlocks {
  std::vector<uint64_t> offset, size;
  /// Lifetimes as ranks into `steps`, the distinct steps in order: half
  /// the bytes to scan of the steps themselves.
  std::vector<uint32_t> firstRank, endRank;
  const std::vector<int64_t> &steps;
  uint64_t largest = 0;

  explicit PlacedBlocks(const std::vector<int64_t> &steps) : steps(steps) {}
  int64_t start(size_t k) const { return steps[firstRank[k]]; }
  int64_t end(size_t k) const { return steps[endRank[k]]; }

  size_t lowerBound(uint64_t off) const {
    return std::lower_bound(offset.begin(), offset.end(), off) - offset.begin();
  }
  void insert(uint64_t off, uint64_t bytes, uint32_t lo, uint32_t hi) {
    size_t at =
        std::upper_bound(offset.begin(), offset.end(), off) - offset.begin();
    offset.insert(offset.begin() + at, off);
    size.insert(size.begin() + at, bytes);
    firstRank.insert(firstRank.begin() + at, lo);
    endRank.insert(endRank.begin() + at, hi);
    largest = std::max(largest, bytes);
  }
};

/// to - from, in a double: steps may be any int64 (the score needs no
/// exactness, and the difference of two of them may not fit).
double stepsBetween(int64_t from, int64_t to) {
  return (double)to - (double)from;
}

/// The free time a buffer on [start, end) at bytes [off, off + bytes) leaves
/// unused, in step-bytes: every placed block there lives before or after it
/// (the position is free for its life).  A sweep over the blocks by address
/// keeps the latest end before it and the earliest start after it among the
/// blocks covering each stretch of its bytes.
double unusedTime(const PlacedBlocks &placed, uint64_t off, uint64_t bytes,
                  int64_t start, int64_t end, int64_t firstStep,
                  int64_t lastStep) {
  struct Edge {
    uint64_t at;
    size_t block;
  };
  std::vector<Edge> opens;
  const uint64_t top = off + bytes;
  for (size_t k =
           placed.lowerBound(off > placed.largest ? off - placed.largest : 0);
       k < placed.offset.size() && placed.offset[k] < top; ++k)
    if (placed.offset[k] + placed.size[k] > off)
      opens.push_back({std::max(placed.offset[k], off), k});
  if (opens.empty())
    return (double)bytes *
           (stepsBetween(firstStep, start) + stepsBetween(end, lastStep));
  // Blocks are sorted by offset, so `opens` is sorted by where they open.
  // Heaps keyed by the step nearest to the buffer; a block whose bytes
  // ended below the current stretch is popped when it reaches the top.
  using Entry = std::pair<int64_t, uint64_t>; // step, where its bytes end
  std::priority_queue<Entry> before;          // latest end first
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> after;
  std::vector<uint64_t> cuts{off, top};
  for (const Edge &o : opens) {
    cuts.push_back(o.at);
    cuts.push_back(
        std::min(top, placed.offset[o.block] + placed.size[o.block]));
  }
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  double unused = 0;
  size_t next = 0;
  for (size_t c = 0; c + 1 < cuts.size(); ++c) {
    const uint64_t lo = cuts[c], hi = cuts[c + 1];
    for (; next < opens.size() && opens[next].at <= lo; ++next) {
      size_t k = opens[next].block;
      uint64_t bytesEnd = placed.offset[k] + placed.size[k];
      if (placed.end(k) <= start)
        before.push({placed.end(k), bytesEnd});
      else
        after.push({placed.start(k), bytesEnd});
    }
    while (!before.empty() && before.top().second <= lo)
      before.pop();
    while (!after.empty() && after.top().second <= lo)
      after.pop();
    int64_t freeSince = before.empty() ? firstStep : before.top().first;
    int64_t freeUntil = after.empty() ? lastStep : after.top().first;
    unused += (double)(hi - lo) *
              (stepsBetween(freeSince, start) + stepsBetween(end, freeUntil));
  }
  return unused;
}

} // namespace

Plan placeByTimeFit(const Problem &problem, const std::vector<uint32_t> &order,
                    const Deadline &deadline, bool *complete,
                    bool giveUpOffPace) {
  const auto began = Clock::now();
  const std::vector<Buffer> &buffers = problem.buffers;
  const uint64_t align = effectiveAlignment(problem);
  std::vector<int64_t> steps;
  for (const Buffer &b : buffers)
    if (isActive(b)) {
      steps.push_back(b.start);
      steps.push_back(b.end);
    }
  const size_t active = steps.size() / 2;
  std::sort(steps.begin(), steps.end());
  steps.erase(std::unique(steps.begin(), steps.end()), steps.end());
  const int64_t firstStep = steps.empty() ? 0 : steps.front(),
                lastStep = steps.empty() ? 0 : steps.back();
  auto rank = [&](int64_t step) {
    return (uint32_t)(std::lower_bound(steps.begin(), steps.end(), step) -
                      steps.begin());
  };

  Plan plan;
  plan.offsets.assign(buffers.size(), 0);
  PlacedBlocks placed(steps);
  uint64_t arena = 0;
  std::vector<std::pair<uint64_t, uint64_t>> gaps; // [lowest offset, end)
  size_t count = 0, next = 0;
  for (; next < order.size(); ++next) {
    const uint32_t i = order[next];
    const Buffer &b = buffers[i];
    if (!isActive(b))
      continue;
    // The clock is cheap next to a placement's scan of the placed blocks.
    if ((++count & 15) == 0) {
      const auto now = Clock::now();
      // Off pace: at the mean time per buffer so far, the rest would not
      // be placed by the deadline.  Later placements scan more placed
      // blocks, but in a size-class order the first ones, large and
      // placed on top, scan them all: a linear extrapolation, which gives
      // up only passes that are clearly too slow.
      using Seconds = std::chrono::duration<double>;
      const double spent = Seconds(now - began).count(),
                   allowed = Seconds(deadline.at - began).count(),
                   fraction = (double)count / (double)active;
      if (now >= deadline.at ||
          (giveUpOffPace && spent * 8 > allowed && spent > fraction * allowed))
        break;
    }
    const uint32_t lo = rank(b.start), hi = rank(b.end);
    // The gaps between the blocks live with the buffer, lowest first.
    gaps.clear();
    uint64_t reached = 0; // top of the live blocks seen so far
    const uint32_t *firstRank = placed.firstRank.data(),
                   *endRank = placed.endRank.data();
    const uint64_t *offsets = placed.offset.data(), *sizes = placed.size.data();
    const uint64_t bytes = b.size;
    for (size_t k = 0, n = placed.offset.size(); k < n; ++k) {
      if (firstRank[k] >= hi || endRank[k] <= lo)
        continue;
      // Aligning (a division) only where the unaligned gap would hold it.
      if (offsets[k] >= reached && offsets[k] - reached >= bytes) {
        uint64_t from = alignUp(reached, align);
        if (offsets[k] >= from && offsets[k] - from >= bytes) {
          gaps.push_back({from, offsets[k]});
          if (gaps.size() == kGaps)
            break;
        }
      }
      reached = std::max(reached, offsets[k] + sizes[k]);
    }
    if (gaps.size() < kGaps)
      gaps.push_back({alignUp(reached, align), UINT64_MAX});
    uint64_t offset = gaps.front().first;
    if (gaps.size() > 1) {
      double fewest = std::numeric_limits<double>::infinity();
      for (const auto &[from, to] : gaps) {
        // The open space above the live blocks comes last, after at least
        // one gap below: it is weighed only when it does not raise the
        // arena.
        if (to == UINT64_MAX && from + b.size > arena)
          break;
        const uint64_t highest =
            to == UINT64_MAX ? from : (to - b.size) / align * align;
        const uint64_t positions[2] = {from, highest};
        for (size_t p = 0; p < (highest == from ? 1 : 2); ++p) {
          const uint64_t off = positions[p];
          double unused = unusedTime(placed, off, b.size, b.start, b.end,
                                     firstStep, lastStep);
          if (unused < fewest) {
            fewest = unused;
            offset = off;
          }
        }
      }
    }
    plan.offsets[i] = offset;
    placed.insert(offset, b.size, lo, hi);
    arena = std::max(arena, offset + b.size);
  }
  // Interrupted: the rest end to end above the arena.
  uint64_t top = arena;
  for (size_t k = next; k < order.size(); ++k) {
    const Buffer &b = buffers[order[k]];
    if (!isActive(b))
      continue;
    top = alignUp(top, align);
    plan.offsets[order[k]] = top;
    top += b.size;
  }
  if (complete)
    *complete = next == order.size();
  plan.arenaSize = arenaOf(problem, plan.offsets);
  return plan;
}

} // namespace cs349::planner::detail
