//===- GreedyPlacer.cpp - Greedy placement with a memory index over time ---===//
//
// Greedy placement: buffers are placed one at a time; each goes to the lowest
// (first-fit) or tightest (best-fit) aligned gap between the already placed
// blocks whose lifetimes overlap its own.
//
// The placed blocks are indexed by a segment tree over the compressed time
// axis whose nodes hold *memory unions*: sorted, merged byte ranges.  A block
// living on slots [lo, hi) is added
//   * to `cover` of the O(log T) nodes of the canonical decomposition of
//     [lo, hi) (it is live during all of their range), and
//   * to `any` of those nodes and of their ancestors (it is live during part
//     of their range).
// The blocks overlapping [lo, hi) are then exactly those in `any` of the
// query's canonical nodes plus those in `cover` of their ancestors: O(log T)
// unions.  Placement walks these unions together, so a buffer costs O(log T)
// lookups per jump instead of a scan (and sort) of every lifetime-overlapping
// block: when most buffers are live at once, the placed blocks merge into a
// few ranges and a pass stays O(n log T log n) where scanning them would be
// quadratic.  First-fit jumps, in each union, straight to its first free run
// long enough for the buffer (each union keeps the longest free run per
// subtree), and asks the union that blocked last first: on fragmented
// unions, where most gaps are too small, a jump passes all of them at once.
//
// Where nearly every placed block overlaps the buffer (results that all live
// to the end) a second index answers instead: how many placed blocks cover
// each byte, kept as a treap of change points in which every free run is one
// segment, so that a query is one descent after taking out the few placed
// blocks that do not overlap (CoverCounts).  Blocks no later buffer of the
// pass can overlap leave it for good, which makes a pass in start order (or
// in end order, backwards) a sweep: O(n log n) for both fits, whatever the
// overlap.
//
// Where the order goes forward in time for a long stretch (each size class
// of the size-class orders, in start order) a third index answers: the
// blocks live at the buffer's start, kept by a sweep along the stretch, and
// unions of the blocks by their start slot for those that start later in
// the buffer's lifetime.  The memory at one time is then one union instead
// of pieces spread over the time tree's nodes, and the walk over the unions
// takes a fraction of the steps.  Backwards in time (the size classes in
// end order) the same with the blocks live at the buffer's last step and
// unions by end slot.
//
// Block tops are rounded up to the alignment before they enter a union:
// every candidate offset is aligned, so an aligned x is below top exactly
// when it is below alignUp(top), and the slivers between aligned blocks
// (sizes that are not multiples of the alignment) do not fragment the unions.
//
//===----------------------------------------------------------------------===//

#include "CoverCounts.h"
#include "MemoryUnion.h"
#include "NodeArena.h"
#include "PlannerImpl.h"
#include "ScanList.h"

#include <algorithm>
#include <cassert>
#include <cstring>
#include <iterator>
#include <limits>
#include <memory>
#include <numeric>
#include <optional>
#include <type_traits>

namespace cs349::planner::detail {

namespace {
using u128 = unsigned __int128;

/// Up to this many lifetime-overlapping placed blocks a placement scans and
/// sorts them; beyond, it walks the memory unions (built on first need).
constexpr uint32_t kScanLimit = 256;
/// Scanned blocks per placed block and tree level at which keeping the
/// unions becomes the cheaper way (measured with callgrind).
constexpr uint32_t kUnionCostPerBlock = 16;

/// A first-fit scan of many blocks gathers first those beginning below
/// 1/2^kScanFirstShift of the highest top placed, then, while the answer
/// may lie higher, the next ones up to twice as far each time (measured on
/// greedy-by-size of the `long` problems: 1/64 fastest of 1/8 to 1/1024,
/// all within 4 %).
constexpr uint32_t kScanFirstShift = 6;

/// A first-fit query goes to the count index when at most one placed block
/// in this many does not overlap it: taking out and putting back such a
/// block costs tens of scanned ones, and on the training-step problems a
/// lower ratio measured slower than walking the unions.
constexpr uint32_t kCountsRatio = 64;
/// What one update of the count index costs in steps of a walk or a scan
/// (measured on greedy-by-size, `long` 16,000 buffers: 4.4 k instructions
/// an update, 240 a walk step).
constexpr uint32_t kCountUpdateSteps = 16;
/// Walks each of the run index and the point index must have made before
/// their average steps decide between them.
constexpr size_t kWalksToCompare = 16;

/// Placement steps (a placement, a scanned block, a step of a walk) between
/// two looks at the clock of a pass with a deadline: a few microseconds of
/// work, so a pass overruns its deadline by no more than that.  A pass
/// cheaper than this never looks, so small problems always complete.
constexpr size_t kStepsPerClockCheck = 1024;

/// The run index builds its sweep anew where a stretch of the order that
/// goes one way in time begins only when at least this many placements are
/// left in it (and as many as the blocks the sweep will count).
constexpr uint32_t kRunToRebuild = 64;
/// Nor does the sweep follow a stretch when it would pass more than this
/// many placed blocks (each entering or leaving it) per placement left in
/// the stretch: a walk of the sweep saves a few hundred steps at most
/// where one of the points would walk, and a block passed costs a few
/// steps.  Greedy-by-size's stretches (the buffers of one size, by start)
/// are short but can span the whole time axis; the size classes' are long.
constexpr uint32_t kSweepMovesPerPlacement = 16;

/// The point index keeps the blocks live at the midpoints of the nodes of
/// this many top levels of the time tree (63 points; a block is live at
/// about 15 of them on the `long` problems).  Measured with 4 to 9 levels:
/// 5 and 6 about equal, 4 and 7 slower, 8 and 9 slower still (a block goes
/// into more unions).
constexpr uint32_t kPointLevels = 6;

/// The unions of blocks keyed by their start (or end) slot, for the run and
/// point indexes, form a tree with 2^kKeyedFanBits children per node: a
/// placed block goes into one node per level, and a range of slots asks up
/// to 2^kKeyedFanBits - 1 nodes per side and level.  Measured on
/// greedy-by-size of the `long` problems: 8 children fastest (a binary
/// tree puts each block into 2.4 times as many unions), 4 and 16 close.
constexpr uint32_t kKeyedFanBits = 3;

/// The levels of a tree over keys [0, keys) with 2^kKeyedFanBits children
/// per node, its nodes numbered level by level: the first node of each
/// level (level l has a node per 2^(l * kKeyedFanBits) keys), then the
/// number of nodes.  The last level is the root.
std::vector<uint32_t> fanLevels(uint32_t keys) {
  std::vector<uint32_t> base{0};
  for (uint64_t width = 1;; width <<= kKeyedFanBits) {
    base.push_back(base.back() + (uint32_t)((keys + width - 1) / width));
    if (width >= keys)
      return base;
  }
}
} // namespace

struct GreedyPlacer::Impl {
  const Problem &problem;
  uint64_t align;
  std::vector<uint32_t> active;       // indices of active buffers
  std::vector<uint32_t> slotLo, slotHi; // per buffer, compressed [lo, hi)
  uint32_t numSlots = 0;
  uint32_t leaves = 1; // power of two >= numSlots
  uint32_t depth = 0;  // leaves == 1 << depth
  Index index;

  std::vector<uint64_t> offsets;
  std::vector<uint32_t> placed; // in placement order

  // How many placed blocks overlap a lifetime: Fenwick trees counting the
  // placed blocks by start slot and by end slot.
  std::vector<uint32_t> startCount, endCount;

  // The scan index (few overlapping blocks): a segment tree whose nodes list
  // the blocks of their canonical decomposition -- the blocks containing slot
  // q are those on q's root-to-leaf path -- and, per start slot, the blocks
  // starting there with a bitmap of the non-empty slots.  A query reports
  // each of the k overlapping blocks once, then sorts them; a first-fit
  // query, only those below its bound (ScanList).
  std::vector<ScanList> items;                 // per tree node
  std::vector<std::vector<uint32_t>> startsAt; // per slot
  std::vector<uint64_t> startBits;             // non-empty startsAt slots
  std::vector<std::vector<uint32_t>> endsAt;   // per end slot
  std::vector<uint64_t> endBits;               // non-empty endsAt slots
  std::vector<uint32_t> touchedItems;          // tree nodes to clear
  std::vector<std::pair<uint64_t, uint64_t>> blocks; // (offset, top)
  std::vector<ScanList::Block> startBlocks;  // of a first-fit scan
  std::vector<ScanList::Block> mergeScratch; // ScanList::settle's

  // The union index (many overlapping blocks), built from the placed blocks
  // when a query first needs it and kept up to date from then on.
  bool unionsBuilt = false;
  size_t scanned = 0; // blocks the scan queries have visited this pass
  uint64_t scanTop = 0; // the highest top in the scan index
  size_t steps = 0;   // work since the clock was last read
  NodeArena arena;
  std::vector<uint32_t> coverOf, anyOf; // per node, index into unions or 0
  // Constructed in `unionStore`, never destroyed: their nodes live in
  // `arena`, which is released as a whole.
  std::vector<MemoryUnion *> unions; // [0] unused
  std::vector<std::unique_ptr<std::aligned_storage_t<
      sizeof(MemoryUnion), alignof(MemoryUnion)>[]>>
      unionStore;
  size_t unionsInUse = 1;
  std::vector<uint32_t> touchedUnions; // nodes with a union
  std::vector<const MemoryUnion *> query; // scratch of gather()
  /// A union of a first-fit query and the end of the free run its last
  /// answer lay in (0 before it is asked): x never goes below that answer,
  /// so while x + size stays within the run the union agrees.
  struct Asked {
    const MemoryUnion *memory;
    uint64_t freeEnd;
  };
  std::vector<Asked> asked;         // scratch of firstFit()
  std::vector<uint32_t> askedOrder; // positions in `asked`, asking order

  // The count index (nearly every placed block overlaps): how many placed
  // blocks cover each byte, built when a query first needs it.  A query
  // takes out the few placed blocks that do not overlap it, asks for the
  // first free run and puts them back.
  NodeArena countArena;
  std::optional<CoverCounts> counts;
  std::vector<uint32_t> apart; // scratch: placed blocks not overlapping
  // Keeping the counts costs a treap update per block placed or retired,
  // which only pays where queries ask them often (every placement, as when
  // all results live to the end, or a sweep). Where they are asked seldom
  // (greedy-by-size on the `long` problems: every few hundred placements)
  // the updates between two queries cost more than the other indexes
  // answering. An update costs about kCountUpdateSteps steps of a walk or
  // a scan. So the counts are dropped once the updates since the last query
  // (`countsUpkeep`, at least kScanLimit of them) have cost more than the
  // walks may spend on such a query before they scan (half the blocks it
  // overlapped), and, dropped, built again only when the other indexes
  // have spent as much on the queries the counts would have answered
  // (`countsForgone`, in steps) as building them takes (one update per
  // block they would hold: the placed blocks not retired).
  size_t countsUpkeep = 0, countsForgone = 0;
  size_t countsLastOverlap = 0; // blocks the last counts query overlapped
  bool countsDropped = false;
  size_t countsBuilds = 0;

  // Placed blocks no later buffer of the pass can overlap (they end by the
  // lowest start, or start at or after the highest end, of the buffers
  // still to place) are retired from the counts for good: in start order
  // (or end order), a sweep, no query has any block to take out.
  std::vector<uint32_t> futureLo, futureHi; // per order position
  std::vector<char> retired;
  size_t retiredCount = 0;
  uint32_t liveLo = 0, liveHi = 0; // slots a later buffer may touch

  // The run index, for a stretch of the order whose starts do not decrease
  // (each size class of the size-class orders in start order): the placed
  // blocks overlapping slots [lo, hi) are those live at slot lo plus those
  // that start in (lo, hi).  The first are the ranges of `sweep` (they do
  // not meet, so each is kept apart and can leave again), which follows the
  // stretch forward, each block entering and leaving once, and is built
  // anew from the blocks containing lo where a stretch begins; the second
  // are the unions of `byStart` (a node's: the placed blocks starting in
  // its slot range) over the nodes that make up [lo + 1, hi) in the tree of
  // `keyedBase` (kKeyedFanBits).  A first-fit
  // walk asks `sweep` and those unions.  `sweep` shows the memory at lo
  // whole, where the time tree's unions split it between nodes: on the
  // `long` problems in size-class order a walk takes 50-230 steps instead
  // of 400-500.  Time running backwards, for a stretch whose ends do not
  // increase (the size classes in end order): the blocks live at slot
  // hi - 1 plus those that end in [lo + 1, hi), from `byEnd`.
  struct SlotUnions {
    std::vector<uint32_t> of; // per node, index into unions or 0
    std::vector<uint32_t> touched;
    size_t hold = 0; // placed blocks in them
  };
  SlotUnions byStart, byEnd;
  std::vector<uint32_t> keyedBase; // their tree's levels (fanLevels)
  NodeArena sweepArena;
  std::optional<MemoryUnion> sweep;
  bool sweepBackward = false;
  uint32_t sweepAt = 0; // the slot `sweep` describes
  // Walks and their steps: through the sweep since it was built, through
  // the points in this pass. Along a stretch the sweep's walks can take
  // more steps than the points' (greedy-by-size's last stretches, hundreds
  // of tiny buffers of one size in fragmented memory): once both have
  // walked kWalksToCompare times and the sweep's average is the higher, a
  // placement whose lifetime holds a point goes to the points.
  size_t sweepWalks = 0, sweepSteps = 0, pointWalks = 0, pointSteps = 0;
  // Per order position, the length from there on of its stretch of
  // non-decreasing starts, and of non-increasing ends, and the sweep slot
  // of the stretch's last buffer.
  std::vector<uint32_t> forwardRun, backwardRun;
  std::vector<uint32_t> forwardEnd, backwardEnd;

  // The point index, for any order: the blocks live at fixed slots (the
  // midpoints of the top levels of the time tree).  A lifetime [lo, hi)
  // containing points p1 < ... < pm is overlapped by the blocks live at one
  // of them, those ending in [lo + 1, p1] (byEnd) and those starting after
  // p1 (byStart).  The points have a tree of their own, whose node holds
  // the blocks live at one of its points, so that the blocks live at one of
  // p1..pm are the unions of O(log m) nodes: the memory of several steps
  // merged, where one union per point would leave it in m pieces.
  std::vector<uint32_t> points;     // sorted slots
  size_t pointLeaves = 1;           // leaves of the points' tree
  std::vector<uint32_t> pointUnion; // per node of it, index into unions or 0
  size_t pointsHold = 0;            // placed blocks in the point unions

  explicit Impl(const Problem &p, Index index)
      : problem(p), align(effectiveAlignment(p)), index(index) {
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
    while (leaves < numSlots) {
      leaves *= 2;
      ++depth;
    }
    for (uint32_t level = 0; level < std::min(depth, kPointLevels); ++level) {
      const uint32_t width = leaves >> level;
      for (uint32_t from = 0; from + width / 2 < numSlots; from += width)
        points.push_back(from + width / 2);
    }
    std::sort(points.begin(), points.end());
    while (pointLeaves < points.size())
      pointLeaves *= 2;
    pointUnion.assign(2 * pointLeaves, 0);
    keyedBase = fanLevels(numSlots + 1);
    offsets.assign(n, 0);
    startCount.assign(numSlots + 2, 0);
    endCount.assign(numSlots + 2, 0);
    items.resize(2 * leaves);
    startsAt.resize(numSlots);
    startBits.assign(numSlots / 64 + 1, 0);
    endsAt.resize(numSlots + 1);
    endBits.assign(numSlots / 64 + 1, 0);
    retired.assign(n, 0);
    liveHi = numSlots;
    unions.push_back(nullptr);
  }

  void reset() {
    for (uint32_t node : touchedItems)
      items[node].clear();
    touchedItems.clear();
    for (uint32_t i : placed) {
      startsAt[slotLo[i]].clear();
      endsAt[slotHi[i]].clear();
    }
    std::fill(startBits.begin(), startBits.end(), 0);
    std::fill(endBits.begin(), endBits.end(), 0);
    dropCounts();
    countsDropped = false;
    for (uint32_t i : placed)
      retired[i] = 0;
    retiredCount = 0;
    liveLo = 0;
    liveHi = numSlots;
    std::fill(startCount.begin(), startCount.end(), 0);
    std::fill(endCount.begin(), endCount.end(), 0);
    for (uint32_t node : touchedUnions)
      coverOf[node] = anyOf[node] = 0;
    touchedUnions.clear();
    for (SlotUnions *u : {&byStart, &byEnd}) {
      for (uint32_t node : u->touched)
        u->of[node] = 0;
      u->touched.clear();
      u->hold = 0;
    }
    std::fill(pointUnion.begin(), pointUnion.end(), 0);
    pointsHold = 0;
    pointWalks = pointSteps = 0;
    sweep.reset();
    sweepArena.releaseAll();
    unions.resize(1);
    unionStore.clear();
    arena.releaseAll();
    unionsInUse = 1;
    scanned = 0;
    scanTop = 0;
    steps = 0;
    unionsBuilt = false;
    placed.clear();
    std::fill(offsets.begin(), offsets.end(), 0);
  }

  //--- counting ---------------------------------------------------------------

  static void bump(std::vector<uint32_t> &tree, uint32_t slot) {
    for (uint32_t k = slot + 1; k < tree.size(); k += k & -k)
      ++tree[k];
  }
  /// Placed blocks counted at slots < slot.
  static uint32_t countBelow(const std::vector<uint32_t> &tree, uint32_t slot) {
    uint32_t sum = 0;
    for (uint32_t k = slot; k > 0; k -= k & -k)
      sum += tree[k];
    return sum;
  }
  /// Placed blocks overlapping slots [lo, hi): started before hi, minus
  /// those ended by lo.
  uint32_t overlapping(uint32_t lo, uint32_t hi) const {
    return countBelow(startCount, hi) - countBelow(endCount, lo + 1);
  }

  //--- the scan index ---------------------------------------------------------

  /// The memory of placed buffer j: (offset, top).
  ScanList::Block placedBlock(uint32_t j) const {
    return {offsets[j], offsets[j] + problem.buffers[j].size};
  }

  void insertScan(uint32_t i) {
    const ScanList::Block block = placedBlock(i);
    scanTop = std::max(scanTop, block.second);
    for (uint32_t l = slotLo[i] + leaves, r = slotHi[i] + leaves; l < r;
         l /= 2, r /= 2) {
      if (l & 1) {
        if (items[l].empty())
          touchedItems.push_back(l);
        items[l++].push(block);
      }
      if (r & 1) {
        --r;
        if (items[r].empty())
          touchedItems.push_back(r);
        items[r].push(block);
      }
    }
    uint32_t s = slotLo[i];
    startsAt[s].push_back(i);
    startBits[s / 64] |= uint64_t(1) << (s % 64);
    uint32_t e = slotHi[i];
    endsAt[e].push_back(i);
    endBits[e / 64] |= uint64_t(1) << (e % 64);
  }

  /// Calls f(j) for the blocks of lists[s] for the slots s in [from, to)
  /// whose bit is set.
  template <typename F>
  static void forListed(const std::vector<std::vector<uint32_t>> &lists,
                        const std::vector<uint64_t> &bits, uint32_t from,
                        uint32_t to, F f) {
    for (uint32_t s = from; s < to;) {
      uint64_t word = bits[s / 64] >> (s % 64);
      if (word == 0) {
        s = (s / 64 + 1) * 64;
        continue;
      }
      s += (uint32_t)__builtin_ctzll(word);
      if (s >= to)
        break;
      for (uint32_t j : lists[s])
        f(j);
      ++s;
    }
  }

  // Collects the placed buffers whose slots intersect [lo, hi), in no
  // particular order.
  void collect(uint32_t lo, uint32_t hi) {
    blocks.clear();
    for (uint32_t node = lo + leaves; node >= 1; node /= 2)
      blocks.insert(blocks.end(), items[node].all().begin(),
                    items[node].all().end());
    // Starts in (lo, hi).
    forListed(startsAt, startBits, lo + 1, hi,
              [&](uint32_t j) { blocks.push_back(placedBlock(j)); });
  }

  /// The placement among the collected blocks (reordering them).
  uint64_t scanFit(uint64_t size, Fit fit) {
    std::sort(blocks.begin(), blocks.end());
    uint64_t cur = 0;
    uint64_t bestOffset = 0, bestGap = kNoEnd;
    bool haveBest = false;
    for (const auto &[off, top] : blocks) {
      uint64_t cand = alignUp(cur, align);
      if (cand + size <= off) {
        if (fit == Fit::First)
          return cand;
        if (off - cand < bestGap) {
          bestGap = off - cand;
          bestOffset = cand;
          haveBest = true;
        }
      }
      cur = std::max(cur, top);
    }
    return haveBest ? bestOffset : alignUp(cur, align);
  }

  /// First fit among the placed blocks overlapping slots [lo, hi), read
  /// from the scan index in offset order only up to the answer.  Where
  /// there are many (a walk gave up, or the lifetime holds none of the
  /// points), the answer mostly lies below nearly all (greedy-by-size on
  /// the `long` problems: at the 23rd of 1,740 blocks on average at 16,000
  /// buffers, the 269th of 5,970 at 60,000), so only the blocks beginning
  /// below a bound are gathered and sorted: an answer that leaves its buffer
  /// below the bound is the answer, as every other block begins above it;
  /// else the next blocks, up to twice the bound, are.  The first bound is
  /// set by kScanFirstShift from the highest top placed so far; the blocks
  /// that contain slot lo (most of them) come from sorted lists, which
  /// yield those in a range of offsets without reading the rest.
  uint64_t scanFirstFit(uint32_t lo, uint32_t hi, uint64_t size) {
    // Blocks starting in (lo, hi): few, as the lifetime holds no point or
    // the walk failed within its budget; read once.
    startBlocks.clear();
    forListed(startsAt, startBits, lo + 1, hi,
              [&](uint32_t j) { startBlocks.push_back(placedBlock(j)); });
    size_t overlap = startBlocks.size();
    for (uint32_t node = lo + leaves; node >= 1; node /= 2) {
      items[node].settle(mergeScratch);
      overlap += items[node].size();
    }
    scanned += overlap;
    steps += overlap;
    uint64_t from = 0;
    uint64_t bound = overlap > kScanLimit
                         ? std::max<uint64_t>(scanTop >> kScanFirstShift, 1)
                         : kNoEnd;
    uint64_t cur = 0;
    size_t seen = 0;
    for (;;) {
      blocks.clear();
      auto take = [&](const ScanList::Block &block) { blocks.push_back(block); };
      for (uint32_t node = lo + leaves; node >= 1; node /= 2)
        items[node].forBeginIn(from, bound, take);
      for (const auto &block : startBlocks)
        if (block.first >= from && block.first < bound)
          take(block);
      seen += blocks.size();
      std::sort(blocks.begin(), blocks.end());
      for (const auto &[begin, top] : blocks) {
        const uint64_t cand = alignUp(cur, align);
        if (cand + size <= begin)
          return cand;
        cur = std::max(cur, top);
      }
      const uint64_t cand = alignUp(cur, align);
      if (seen == overlap || cand + size <= bound)
        return cand;
      from = bound;
      bound = bound > scanTop ? kNoEnd : std::max(2 * bound, cand + size);
    }
  }

  //--- the union index --------------------------------------------------------

  /// A new empty union, by its index into `unions`.
  uint32_t newUnion() {
    constexpr size_t kPerBlock = 1024;
    if (unionsInUse % kPerBlock == 0 || unionStore.empty())
      unionStore.emplace_back(new std::aligned_storage_t<
                              sizeof(MemoryUnion), alignof(MemoryUnion)>[kPerBlock]);
    void *slot = &unionStore.back()[unionsInUse % kPerBlock];
    unions.push_back(new (slot) MemoryUnion(&arena));
    return (uint32_t)unionsInUse++;
  }

  MemoryUnion &unionAt(std::vector<uint32_t> &of, uint32_t node) {
    if (of[node] == 0) {
      if (coverOf[node] == 0 && anyOf[node] == 0)
        touchedUnions.push_back(node);
      of[node] = newUnion();
    }
    return *unions[of[node]];
  }

  /// Calls f(node, isCanonical) for the canonical nodes of slots [lo, hi)
  /// and for their strict ancestors (the nodes on the paths from the leaves
  /// of lo and hi - 1 to the root whose range is not inside [lo, hi)), each
  /// once.
  template <typename F> void forNodes(uint32_t lo, uint32_t hi, F f) const {
    for (uint32_t l = lo + leaves, r = hi + leaves; l < r; l /= 2, r /= 2) {
      if (l & 1)
        f(l++, true);
      if (r & 1)
        f(--r, true);
    }
    // Walk both paths upwards; a node at height h spans
    // [(node << h) - leaves, ((node + 1) << h) - leaves).
    uint32_t a = lo + leaves, b = hi - 1 + leaves;
    for (uint32_t h = 0; h <= depth; ++h, a /= 2, b /= 2) {
      uint64_t aLo = ((uint64_t)a << h) - leaves,
               aHi = ((uint64_t)(a + 1) << h) - leaves;
      if (aLo < lo || aHi > hi)
        f(a, false);
      if (b != a) {
        uint64_t bLo = ((uint64_t)b << h) - leaves,
                 bHi = ((uint64_t)(b + 1) << h) - leaves;
        if (bLo < lo || bHi > hi)
          f(b, false);
      }
    }
  }

  void insertUnion(uint32_t i) {
    const uint64_t begin = offsets[i];
    const uint64_t end = alignUp(begin + problem.buffers[i].size, align);
    forNodes(slotLo[i], slotHi[i], [&](uint32_t node, bool canonical) {
      if (canonical)
        unionAt(coverOf, node).add(begin, end);
      unionAt(anyOf, node).add(begin, end);
    });
  }

  /// The unions holding exactly the placed blocks that overlap [lo, hi).
  void gather(uint32_t lo, uint32_t hi) {
    query.clear();
    forNodes(lo, hi, [&](uint32_t node, bool canonical) {
      uint32_t u = canonical ? anyOf[node] : coverOf[node];
      if (u != 0 && !unions[u]->empty())
        query.push_back(unions[u]);
    });
  }

  /// The lowest aligned x such that [x, x + size) meets no gathered block:
  /// each union moves x up to its own lowest fit above x until all of them
  /// accept it (no union moves x past a position every union accepts).
  uint64_t firstFit(uint64_t size, size_t &budget) {
    // The union that moved x last goes to the front (the unions that block
    // most are asked first); x is found when all agree in one pass.  Each
    // union remembers the free run its last answer lay in: while x stays in
    // it with room for the buffer, the union agrees without a descent (x
    // only grows, and most unions are free far above the one that moved it).
    const size_t count = query.size();
    asked.clear();
    askedOrder.clear();
    for (const MemoryUnion *u : query) {
      askedOrder.push_back((uint32_t)asked.size());
      asked.push_back({u, 0});
    }
    // Offsets and sizes are below 2^63 (checkProblem): x + size does not
    // wrap.
    uint64_t x = 0;
    for (size_t k = 0; k < count;) {
      Asked &a = asked[askedOrder[k]];
      if (x + size <= a.freeEnd) {
        ++k;
        continue;
      }
      if (budget-- == 0)
        return kNoEnd;
      uint64_t moved = a.memory->skipToFit(x, size, a.freeEnd);
      if (moved == x) {
        ++k;
        continue;
      }
      x = moved;
      // To the front, the others keeping their order (the order of the
      // positions moves, not the entries).
      const uint32_t front = askedOrder[k];
      std::memmove(askedOrder.data() + 1, askedOrder.data(),
                   k * sizeof(uint32_t));
      askedOrder[0] = front;
      k = 1;
    }
    return x;
  }

  /// The lowest start of the tightest gap of the gathered blocks' union that
  /// holds `size` bytes, else the top of the union.
  uint64_t bestFit(uint64_t size, size_t &budget) const {
    const size_t count = query.size();
    uint64_t cur = 0;
    uint64_t bestOffset = 0, bestGap = kNoEnd;
    bool haveBest = false;
    while (true) {
      if (budget < count)
        return kNoEnd;
      budget -= count;
      // Move cur past the ranges covering it.
      for (size_t idx = 0, quiet = 0; quiet < count;) {
        if (budget-- == 0)
          return kNoEnd;
        uint64_t moved = query[idx]->skipCovered(cur);
        quiet = moved != cur ? 1 : quiet + 1;
        cur = moved;
        idx = idx + 1 == count ? 0 : idx + 1;
      }
      uint64_t gapEnd = kNoEnd;
      for (const MemoryUnion *u : query)
        gapEnd = std::min(gapEnd, u->nextBegin(cur));
      if (gapEnd == kNoEnd)
        break;
      if (cur + size <= gapEnd && gapEnd - cur < bestGap) {
        bestGap = gapEnd - cur;
        bestOffset = cur;
        haveBest = true;
      }
      cur = gapEnd;
    }
    return haveBest ? bestOffset : cur;
  }

  //--- the count index --------------------------------------------------------

  void addCount(uint32_t j, int32_t delta) {
    const uint64_t begin = offsets[j];
    counts->add(begin, alignUp(begin + problem.buffers[j].size, align), delta);
  }

  /// Adds a placed block to the counts (+1) or retires it (-1), or drops
  /// the counts (see `countsUpkeep`).
  void keepCount(uint32_t j, int32_t delta) {
    if (!counts)
      return;
    if (++countsUpkeep > kScanLimit &&
        countsUpkeep * kCountUpdateSteps > countsLastOverlap / 2) {
      dropCounts();
      countsDropped = true;
      return;
    }
    addCount(j, delta);
  }

  void dropCounts() {
    counts.reset();
    countArena.releaseAll();
    countsWorkSeen = 0;
    countsUpkeep = countsForgone = 0;
  }

  /// Whether a query the count index would answer goes to it: always while
  /// the counts are kept, and once the other indexes have spent as many
  /// steps on such queries as building them again takes, after a drop.
  bool askCounts() const {
    return counts || !countsDropped ||
           countsForgone >= (placed.size() - retiredCount) * kCountUpdateSteps;
  }

  /// First-fit among the placed blocks overlapping slots [lo, hi): all of
  /// them but those that end by lo or start at or after hi, which are taken
  /// out of the counts for the query.
  uint64_t countsFit(uint32_t lo, uint32_t hi, uint64_t size, Fit fit) {
    if (!counts) {
      counts.emplace(&countArena, fit == Fit::Best);
      ++countsBuilds;
      for (uint32_t j : placed)
        if (!retired[j])
          addCount(j, 1);
      // A rebuild, after a drop, can come late in a pass.
      steps += placed.size() - retiredCount;
    }
    countsUpkeep = 0;
    apart.clear();
    // Retired blocks are out of the counts already; below liveLo and from
    // liveHi on there are no others.  The Fenwick counts say whether there
    // may be one to find before the slot bitmaps are read.
    auto take = [&](uint32_t j) {
      if (!retired[j])
        apart.push_back(j);
    };
    if (lo > liveLo &&
        countBelow(endCount, lo + 1) != countBelow(endCount, liveLo + 1))
      forListed(endsAt, endBits, liveLo + 1, lo + 1, take);
    if (hi < liveHi &&
        countBelow(startCount, liveHi) != countBelow(startCount, hi))
      forListed(startsAt, startBits, hi, liveHi, take);
    for (uint32_t j : apart)
      addCount(j, -1);
    const uint64_t offset =
        fit == Fit::First ? counts->firstFree(size)
                          : counts->bestFreeTracked(size);
    for (uint32_t j : apart)
      addCount(j, 1);
    steps += 2 * apart.size();
    return offset;
  }

  void retire(uint32_t j) {
    if (retired[j])
      return;
    retired[j] = 1;
    ++retiredCount;
    keepCount(j, -1);
  }

  /// Moves the live window to the slots the buffers of order[k..] touch.
  void retireUpTo(size_t k) {
    const uint32_t lo = futureLo[k], hi = futureHi[k];
    if (lo > liveLo)
      forListed(endsAt, endBits, liveLo + 1, lo + 1,
                [&](uint32_t j) { retire(j); });
    if (hi < liveHi)
      forListed(startsAt, startBits, hi, liveHi,
                [&](uint32_t j) { retire(j); });
    liveLo = std::max(liveLo, lo);
    liveHi = std::min(liveHi, hi);
  }

  /// Puts the placed blocks into the unions; false when the pass's
  /// deadline passes first (building costs about as much as the scans so
  /// far, too long to go unchecked).  Adding a block to a union twice
  /// changes nothing, so a build cut short is simply started again.
  bool buildUnions() {
    if (coverOf.empty()) {
      coverOf.assign(2 * leaves, 0);
      anyOf.assign(2 * leaves, 0);
    }
    size_t built = 0;
    if (!catchUp(built, [&](uint32_t i) { insertUnion(i); }))
      return false;
    unionsBuilt = true;
    return true;
  }

  /// Calls insert(i) for the placed blocks from placed[hold] on, moving
  /// `hold` past them; false when the pass's deadline passes first (the
  /// clock is read every kStepsPerClockCheck blocks: a build costs about as
  /// much as the placements so far, too long to go unchecked).
  template <typename Insert> bool catchUp(size_t &hold, Insert insert) {
    for (; hold < placed.size(); ++hold) {
      if (passDeadline && (hold + 1) % kStepsPerClockCheck == 0 &&
          passDeadline->passed())
        return false;
      insert(placed[hold]);
    }
    return true;
  }

  //--- the run index ----------------------------------------------------------

  /// Puts the blocks placed since `u` was last asked into its unions, at
  /// the nodes above their start (or end) slot; where the run index does
  /// not answer, placements do not pay for keeping them.  False when the
  /// pass's deadline passes first.
  bool updateSlotUnions(SlotUnions &u, const std::vector<uint32_t> &slotOf) {
    if (u.of.empty())
      u.of.assign(keyedBase.back(), 0);
    return catchUp(u.hold, [&](uint32_t i) {
      const uint64_t begin = offsets[i];
      const uint64_t end = alignUp(begin + problem.buffers[i].size, align);
      for (size_t level = 0; level + 1 < keyedBase.size(); ++level) {
        const uint32_t node =
            keyedBase[level] + (slotOf[i] >> (kKeyedFanBits * level));
        if (u.of[node] == 0) {
          u.touched.push_back(node);
          u.of[node] = newUnion();
        }
        unions[u.of[node]]->add(begin, end);
      }
    });
  }

  void enterSweep(const ScanList::Block &block) {
    sweep->addApart(block.first, alignUp(block.second, align));
    ++steps;
  }
  void leaveSweep(uint32_t j) {
    sweep->removeApart(offsets[j]);
    ++steps;
  }

  /// Makes `sweep` hold the placed blocks live at slot q: along its
  /// direction, by the blocks that end or start on the way; else anew from
  /// the blocks containing q (those on q's root-to-leaf path of the scan
  /// index).
  void moveSweep(uint32_t q, bool backward) {
    if (sweep && sweepBackward == backward && q == sweepAt)
      return;
    if (sweep && !backward && !sweepBackward && q > sweepAt) {
      forListed(endsAt, endBits, sweepAt + 1, q + 1, [&](uint32_t j) {
        if (slotLo[j] <= sweepAt)
          leaveSweep(j);
      });
      forListed(startsAt, startBits, sweepAt + 1, q + 1, [&](uint32_t j) {
        if (slotHi[j] > q)
          enterSweep(placedBlock(j));
      });
      sweepAt = q;
      return;
    }
    if (sweep && backward && sweepBackward && q < sweepAt) {
      forListed(startsAt, startBits, q + 1, sweepAt + 1, [&](uint32_t j) {
        if (slotHi[j] > sweepAt)
          leaveSweep(j);
      });
      forListed(endsAt, endBits, q + 1, sweepAt + 1, [&](uint32_t j) {
        if (slotLo[j] <= q)
          enterSweep(placedBlock(j));
      });
      sweepAt = q;
      return;
    }
    sweep.reset();
    sweepArena.releaseAll();
    sweep.emplace(&sweepArena);
    sweepBackward = backward;
    sweepAt = q;
    sweepWalks = sweepSteps = 0;
    for (uint32_t node = q + leaves; node >= 1; node /= 2)
      for (const ScanList::Block &block : items[node].all())
        enterSweep(block);
  }

  /// The sweep slot of a buffer on slots [lo, hi) in a direction.
  static uint32_t sweepSlot(uint32_t lo, uint32_t hi, bool backward) {
    return backward ? hi - 1 : lo;
  }

  /// Whether the run index answers for the buffer at order position k,
  /// living on slots [lo, hi), and in which direction: the sweep goes on
  /// along its direction from its slot, or what is left of the stretch
  /// pays for building the sweep anew (at most one block counted per
  /// placement).  Elsewhere the time tree's unions walk fewer steps: where
  /// the stretches are short (greedy-by-size orders buffers of one size by
  /// start, but there are few of each), or where most of the blocks
  /// overlapping a lifetime start during it (weights live throughout a
  /// training step).  Along a stretch, the points take over once the
  /// sweep's walks have averaged more steps than theirs (see sweepWalks).
  std::optional<bool> runDirection(size_t k, uint32_t lo, uint32_t hi) const {
    if (sweep && (sweepBackward ? hi - 1 <= sweepAt : lo >= sweepAt)) {
      if (hasPoint(lo, hi) && sweepWalks >= kWalksToCompare &&
          pointWalks >= kWalksToCompare &&
          sweepSteps * pointWalks > pointSteps * sweepWalks)
        return std::nullopt; // the points have walked fewer steps
      if (!sweepPays(k, sweepAt, sweepBackward))
        return std::nullopt;
      return sweepBackward;
    }
    const uint32_t needed = std::max(kRunToRebuild, overlapping(lo, hi));
    if (std::max(forwardRun[k], backwardRun[k]) < needed)
      return std::nullopt;
    const bool backward = backwardRun[k] > forwardRun[k];
    if (!sweepPays(k, sweepSlot(lo, hi, backward), backward))
      return std::nullopt;
    return backward;
  }

  /// Whether the placements left in the stretch of order position k pay for
  /// moving a sweep from slot `from` to the stretch's last buffer: the
  /// placed blocks that start or end on the way (kSweepMovesPerPlacement).
  bool sweepPays(size_t k, uint32_t from, bool backward) const {
    const uint32_t to = backward ? backwardEnd[k] : forwardEnd[k];
    const uint32_t lo = std::min(from, to), hi = std::max(from, to);
    const uint64_t passed =
        (countBelow(startCount, hi + 1) - countBelow(startCount, lo + 1)) +
        (countBelow(endCount, hi + 1) - countBelow(endCount, lo + 1));
    const uint64_t left = backward ? backwardRun[k] : forwardRun[k];
    return passed <= left * kSweepMovesPerPlacement;
  }

  /// Adds to the query the unions of `keyed` over the fewest nodes that
  /// make up slots [from, to), lowest level first: the blocks whose start
  /// (or end) slot is in there.
  void gatherKeyed(const SlotUnions &keyed, uint32_t from, uint32_t to) {
    constexpr uint32_t fan = 1u << kKeyedFanBits;
    for (size_t level = 0; from < to; ++level) {
      auto ask = [&](uint32_t k) {
        const uint32_t node = keyedBase[level] + k;
        if (keyed.of[node] != 0)
          query.push_back(unions[keyed.of[node]]);
      };
      while (from < to && from % fan != 0)
        ask(from++);
      while (from < to && to % fan != 0)
        ask(--to);
      from /= fan;
      to /= fan;
    }
  }

  /// Puts the blocks placed since the point unions were last asked into
  /// them; false when the pass's deadline passes first.
  bool updatePointUnions() {
    return catchUp(pointsHold, [&](uint32_t i) {
      const uint64_t begin = offsets[i];
      const uint64_t end = alignUp(begin + problem.buffers[i].size, align);
      const auto [first, last] = pointsIn(slotLo[i], slotHi[i]);
      if (first == last)
        return;
      // Every node with one of the points first..last-1 below it.
      for (size_t l = first + pointLeaves, r = last - 1 + pointLeaves; l >= 1;
           l /= 2, r /= 2)
        for (size_t node = l; node <= r; ++node) {
          if (pointUnion[node] == 0)
            pointUnion[node] = newUnion();
          unions[pointUnion[node]]->add(begin, end);
        }
    });
  }

  bool hasPoint(uint32_t lo, uint32_t hi) const {
    auto [first, last] = pointsIn(lo, hi);
    return first != last;
  }

  /// The points in slots [lo, hi), as a range of `points`.
  std::pair<size_t, size_t> pointsIn(uint32_t lo, uint32_t hi) const {
    return {std::lower_bound(points.begin(), points.end(), lo) - points.begin(),
            std::lower_bound(points.begin(), points.end(), hi) - points.begin()};
  }

  /// First-fit through the point index (the lifetime contains a point),
  /// kNoEnd when the walk takes more than `budget` steps or the unions
  /// could not be brought up to date in time.
  uint64_t pointFit(uint32_t lo, uint32_t hi, uint64_t size, size_t &budget) {
    if (!updatePointUnions() || !updateSlotUnions(byStart, slotLo) ||
        !updateSlotUnions(byEnd, slotHi))
      return kNoEnd;
    const auto [first, last] = pointsIn(lo, hi);
    query.clear();
    // The points' unions first: each holds the memory at its steps whole,
    // and the walk moves x far with them before the sparse ones agree.  The
    // blocks that start after p1 and are live at a later point are in both:
    // one range of byStart asks fewer unions than one between each two
    // points.
    auto ask = [&](size_t node) {
      if (pointUnion[node] != 0 && !unions[pointUnion[node]]->empty())
        query.push_back(unions[pointUnion[node]]);
    };
    for (size_t l = first + pointLeaves, r = last + pointLeaves; l < r;
         l /= 2, r /= 2) {
      if (l & 1)
        ask(l++);
      if (r & 1)
        ask(--r);
    }
    gatherKeyed(byEnd, lo + 1, points[first] + 1);
    gatherKeyed(byStart, points[first] + 1, hi);
    return firstFit(size, budget);
  }

  /// First-fit through the run index, kNoEnd when the walk takes more than
  /// `budget` steps or the unions could not be brought up to date in time.
  uint64_t runFit(uint32_t lo, uint32_t hi, uint64_t size, size_t &budget,
                  bool backward) {
    SlotUnions &keyed = backward ? byEnd : byStart;
    if (!updateSlotUnions(keyed, backward ? slotHi : slotLo))
      return kNoEnd;
    moveSweep(sweepSlot(lo, hi, backward), backward);
    query.clear();
    query.push_back(&*sweep);
    gatherKeyed(keyed, lo + 1, hi);
    return firstFit(size, budget);
  }

  /// `offset` when a walk found one, else the scan's answer (the walk took
  /// more than its budget, or its unions could not be updated in time).
  uint64_t scanIfNotFound(uint64_t offset, uint32_t lo, uint32_t hi,
                          uint64_t size, Fit fit) {
    if (offset != kNoEnd)
      return offset;
    if (fit == Fit::First)
      return scanFirstFit(lo, hi, size);
    collect(lo, hi);
    scanned += blocks.size();
    steps += blocks.size();
    return scanFit(size, fit);
  }

  uint64_t placeOne(uint32_t i, Fit fit) {
    const uint64_t size = problem.buffers[i].size;
    const uint32_t lo = slotLo[i], hi = slotHi[i];
    size_t budget = std::numeric_limits<size_t>::max();
    if (index == Index::Counts)
      return countsFit(lo, hi, size, fit);
    if (index == Index::Runs || index == Index::Points) {
      uint64_t offset = kNoEnd;
      if (fit == Fit::First && index == Index::Runs)
        offset = runFit(lo, hi, size, budget,
                        backwardRun[next] > forwardRun[next]);
      else if (fit == Fit::First && hasPoint(lo, hi))
        offset = pointFit(lo, hi, size, budget);
      else
        return scanIfNotFound(kNoEnd, lo, hi, size, fit);
      if (offset == kNoEnd)
        steps = kStepsPerClockCheck; // out of time building the unions
      return scanIfNotFound(offset, lo, hi, size, fit);
    }
    const uint32_t overlap = index == Index::Auto ? overlapping(lo, hi) : 0;
    if (overlap > kScanLimit &&
        (placed.size() - retiredCount - overlap) * kCountsRatio <= overlap) {
      if (askCounts()) {
        // Counted as the scan it replaces: where other placements still
        // need the unions, they are built as early as without the counts.
        scanned += overlap;
        countsLastOverlap = overlap;
        return countsFit(lo, hi, size, fit);
      }
      const size_t before = steps;
      const uint64_t offset = placeWithoutCounts(lo, hi, overlap, size, fit);
      countsForgone += steps > before ? steps - before : 0;
      return offset;
    }
    return placeWithoutCounts(lo, hi, overlap, size, fit);
  }

  /// A placement by the union index (forced, or Auto's choice), the run or
  /// point index (Auto), or a scan.
  /// `overlap`: the placed blocks overlapping [lo, hi), under Auto.
  uint64_t placeWithoutCounts(uint32_t lo, uint32_t hi, uint32_t overlap,
                              uint64_t size, Fit fit) {
    bool viaUnions = index == Index::Unions;
    size_t budget = std::numeric_limits<size_t>::max();
    if (index == Index::Auto && overlap > kScanLimit) {
      // Where the unions are fragmented a walk takes many steps: past half
      // the scan's length, scanning is cheaper.
      budget = overlap / 2;
      if (fit == Fit::First) {
        const std::optional<bool> backward = runDirection(next, lo, hi);
        if (backward || hasPoint(lo, hi)) {
          const size_t before = budget;
          uint64_t offset = backward
                                ? runFit(lo, hi, size, budget, *backward)
                                : pointFit(lo, hi, size, budget);
          const size_t walked = before - budget;
          steps += walked;
          (backward ? sweepWalks : pointWalks) += 1;
          (backward ? sweepSteps : pointSteps) += walked;
          return scanIfNotFound(offset, lo, hi, size, fit);
        }
      }
      // Keeping the unions costs O(log T) insertions per block: worth it
      // once the scans have cost more than that for every placed block.
      viaUnions = unionsBuilt ||
                  scanned > (size_t)kUnionCostPerBlock * (depth + 1) * placed.size();
    }
    ++steps;
    if (viaUnions) {
      if (!unionsBuilt && !buildUnions()) {
        // Out of time: this placement scans, the pass stops at the next.
        steps = kStepsPerClockCheck;
        collect(lo, hi);
        return scanFit(size, fit);
      }
      gather(lo, hi);
      const size_t before = budget;
      uint64_t offset =
          fit == Fit::First ? firstFit(size, budget) : bestFit(size, budget);
      steps += before - budget;
      return scanIfNotFound(offset, lo, hi, size, fit);
    }
    return scanIfNotFound(kNoEnd, lo, hi, size, fit);
  }

  /// Gives the active buffers of order[from..] offsets end to end above
  /// every placed block: a valid plan whatever was placed before, and no
  /// larger than the naive one (the placed blocks' plan is not).
  void stackRest(const std::vector<uint32_t> &order, size_t from) {
    uint64_t top = 0;
    for (uint32_t j : placed)
      top = std::max(top, alignUp(offsets[j] + problem.buffers[j].size, align));
    for (size_t k = from; k < order.size(); ++k) {
      const uint32_t i = order[k];
      if (!isActive(problem.buffers[i]))
        continue;
      offsets[i] = top;
      top = alignUp(top + problem.buffers[i].size, align);
    }
  }

  // The pass in progress: its order, fit and next position.
  std::vector<uint32_t> passOrder;
  Fit passFit = Fit::First;
  const Deadline *passDeadline = nullptr;
  size_t countsWorkSeen = 0; // CoverCounts::work already counted in steps
  size_t next = 0, placedActive = 0, activeInPass = 0;

  /// run[k]: how many active buffers from order position k on keep
  /// `inOrder(previous, next)` without a break.
  /// end[k]: the sweep slot (`slotOf`) of the last buffer of that stretch.
  template <typename InOrder, typename SlotOf>
  void stretches(const std::vector<uint32_t> &order,
                 std::vector<uint32_t> &run, std::vector<uint32_t> &end,
                 InOrder inOrder, SlotOf slotOf) const {
    run.assign(order.size() + 1, 0);
    end.assign(order.size() + 1, 0);
    uint32_t following = 0, followingRun = 0, followingEnd = 0;
    for (size_t k = order.size(); k-- > 0;) {
      const uint32_t i = order[k];
      if (!isActive(problem.buffers[i])) {
        run[k] = followingRun;
        end[k] = followingEnd;
        continue;
      }
      const bool extends = followingRun > 0 && inOrder(i, following);
      run[k] = extends ? followingRun + 1 : 1;
      end[k] = extends ? followingEnd : slotOf(i);
      following = i;
      followingRun = run[k];
      followingEnd = end[k];
    }
  }

  void begin(const std::vector<uint32_t> &order, Fit fit) {
    reset();
    passOrder = order;
    passFit = fit;
    next = 0;
    placedActive = 0;
    activeInPass = 0;
    for (uint32_t i : order)
      activeInPass += isActive(problem.buffers[i]);
    stretches(
        order, forwardRun, forwardEnd,
        [&](uint32_t i, uint32_t j) { return slotLo[i] <= slotLo[j]; },
        [&](uint32_t i) { return slotLo[i]; });
    stretches(
        order, backwardRun, backwardEnd,
        [&](uint32_t i, uint32_t j) { return slotHi[i] >= slotHi[j]; },
        [&](uint32_t i) { return slotHi[i] - 1; });
    if (index != Index::Unions) {
      futureLo.assign(order.size() + 1, numSlots);
      futureHi.assign(order.size() + 1, 0);
      for (size_t k = order.size(); k-- > 0;) {
        futureLo[k] = futureLo[k + 1];
        futureHi[k] = futureHi[k + 1];
        if (isActive(problem.buffers[order[k]])) {
          futureLo[k] = std::min(futureLo[k], slotLo[order[k]]);
          futureHi[k] = std::max(futureHi[k], slotHi[order[k]]);
        }
      }
    }
  }

  /// Places the rest of the pass, or stops when `deadline` passes (the clock
  /// is read every kStepsPerClockCheck steps).  True when all are placed.
  bool resume(const Deadline *deadline) {
    passDeadline = deadline;
    const std::vector<uint32_t> &order = passOrder;
    for (; next < order.size(); ++next) {
      const uint32_t i = order[next];
      if (!isActive(problem.buffers[i]))
        continue;
      if (index != Index::Unions)
        retireUpTo(next);
      if (deadline && steps >= kStepsPerClockCheck) {
        steps = 0;
        if (deadline->passed())
          return false;
      }
      offsets[i] = placeOne(i, passFit);
      placed.push_back(i);
      ++placedActive;
      if (index != Index::Unions) {
        insertScan(i);
        bump(startCount, slotLo[i]);
        bump(endCount, slotHi[i]);
      }
      if (unionsBuilt)
        insertUnion(i);
      if (sweep && slotLo[i] <= sweepAt && sweepAt < slotHi[i])
        enterSweep(placedBlock(i));
      keepCount(i, 1);
      if (counts) {
        steps += counts->work - countsWorkSeen;
        countsWorkSeen = counts->work;
      }
    }
    return true;
  }

  /// The plan of the pass; the buffers not placed yet go end to end above
  /// the placed ones.
  Plan finish() {
    if (next < passOrder.size())
      stackRest(passOrder, next);
    Plan result;
    result.offsets = offsets;
    result.arenaSize = arenaOf(problem, result.offsets);
    return result;
  }

  /// With a deadline that passes during the pass: nothing, or with
  /// `stackWhenLate` the placements so far and the rest stacked above them.
  std::optional<Plan> place(const std::vector<uint32_t> &order, Fit fit,
                            const Deadline *deadline, bool stackWhenLate) {
    begin(order, fit);
    if (!resume(deadline) && !stackWhenLate)
      return std::nullopt;
    return finish();
  }

  /// The largest size class first, each ordered by `less`; buffer i
  /// counts `promotion[i]` classes above its own when given.
  template <typename Less>
  std::vector<uint32_t>
  bySizeClass(Less less, const std::vector<int> *promotion = nullptr) const;

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

GreedyPlacer::GreedyPlacer(const Problem &problem, Index index)
    : impl(new Impl(problem, index)) {}
GreedyPlacer::~GreedyPlacer() { delete impl; }

Plan GreedyPlacer::place(const std::vector<uint32_t> &order, Fit fit) {
  if (fit == Fit::Time)
    return placeByTimeFit(impl->problem, order,
                          Deadline{Clock::time_point::max()});
  return *impl->place(order, fit, nullptr, false);
}

std::optional<Plan> GreedyPlacer::place(const std::vector<uint32_t> &order,
                                        Fit fit, const Deadline &deadline) {
  if (fit == Fit::Time) {
    bool complete = false;
    Plan plan = placeByTimeFit(impl->problem, order, deadline, &complete);
    if (!complete)
      return std::nullopt;
    return plan;
  }
  return impl->place(order, fit, &deadline, false);
}

Plan GreedyPlacer::placeWithin(const std::vector<uint32_t> &order, Fit fit,
                               const Deadline &deadline) {
  if (fit == Fit::Time)
    return placeByTimeFit(impl->problem, order, deadline);
  return *impl->place(order, fit, &deadline, true);
}

void GreedyPlacer::begin(const std::vector<uint32_t> &order, Fit fit) {
  impl->begin(order, fit);
}

bool GreedyPlacer::resume(const Deadline &deadline) {
  return impl->resume(&deadline);
}

size_t GreedyPlacer::countIndexBuilds() const { return impl->countsBuilds; }

double GreedyPlacer::progress() const {
  return impl->activeInPass == 0
             ? 1.0
             : (double)impl->placedActive / (double)impl->activeInPass;
}

Plan GreedyPlacer::finish() { return impl->finish(); }

bool placeOnPace(GreedyPlacer &placer, const std::vector<uint32_t> &order,
                 Fit fit, const Deadline &deadline) {
  using Seconds = std::chrono::duration<double>;
  placer.begin(order, fit);
  const auto began = Clock::now();
  const auto eighth = (deadline.at - began) / 8;
  if (placer.resume(Deadline{began + eighth}))
    return true;
  const double f1 = placer.progress();
  const double t1 = Seconds(Clock::now() - began).count();
  if (placer.resume(Deadline{began + 2 * eighth}))
    return true;
  const double f2 = placer.progress();
  const double t2 = Seconds(Clock::now() - began).count();
  if (f1 <= 0 || f2 <= f1)
    return false;
  // The time per buffer as a + b * (fraction placed), fitted to the mean
  // costs of the two eighths: later placements meet more placed blocks,
  // and where that makes the pass quadratic a linear extrapolation would
  // keep a pass that cannot finish.
  const double c1 = t1 / f1, c2 = (t2 - t1) / (f2 - f1);
  const double b = std::max(0.0, (c2 - c1) / (f2 / 2));
  const double a = c1 - b * f1 / 2;
  const double needed = a * (1 - f2) + b * (1 - f2 * f2) / 2;
  if (needed > Seconds(deadline.at - Clock::now()).count())
    return false;
  return placer.resume(deadline);
}

Plan greedyBySizeWithin(const Problem &problem, const Deadline &deadline) {
  GreedyPlacer placer(problem);
  return placer.placeWithin(placer.orderBySize(), Fit::First, deadline);
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

namespace {
/// Start order, and end order with time running backwards.
struct StartsEarlier {
  const std::vector<Buffer> &buffers;
  bool operator()(uint32_t x, uint32_t y) const {
    return buffers[x].start < buffers[y].start;
  }
};
struct EndsLater {
  const std::vector<Buffer> &buffers;
  bool operator()(uint32_t x, uint32_t y) const {
    return buffers[x].end > buffers[y].end;
  }
};
} // namespace

std::vector<uint32_t> GreedyPlacer::orderByStart() const {
  return impl->sorted(StartsEarlier{impl->problem.buffers});
}

std::vector<uint32_t> GreedyPlacer::orderByEnd() const {
  return impl->sorted(EndsLater{impl->problem.buffers});
}

namespace {
/// The bit width of a size: sizes of one class lie within a factor of two.
int sizeClass(uint64_t size) { return 64 - __builtin_clzll(size | 1); }
} // namespace

template <typename Less>
std::vector<uint32_t>
GreedyPlacer::Impl::bySizeClass(Less less,
                                const std::vector<int> *promotion) const {
  return sorted([&](uint32_t x, uint32_t y) {
    int cx = sizeClass(problem.buffers[x].size),
        cy = sizeClass(problem.buffers[y].size);
    if (promotion) {
      cx += (*promotion)[x];
      cy += (*promotion)[y];
    }
    if (cx != cy)
      return cx > cy;
    return less(x, y);
  });
}

std::vector<uint32_t> GreedyPlacer::orderBySizeClassStart() const {
  return impl->bySizeClass(StartsEarlier{impl->problem.buffers});
}

std::vector<uint32_t> GreedyPlacer::orderBySizeClassEnd() const {
  return impl->bySizeClass(EndsLater{impl->problem.buffers});
}

std::vector<uint32_t> GreedyPlacer::orderByPromotedClassStart(
    const std::vector<int> &promotion) const {
  return impl->bySizeClass(StartsEarlier{impl->problem.buffers}, &promotion);
}

std::vector<uint32_t> GreedyPlacer::orderByPromotedClassEnd(
    const std::vector<int> &promotion) const {
  return impl->bySizeClass(EndsLater{impl->problem.buffers}, &promotion);
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

} // namespace cs349::planner::detail
