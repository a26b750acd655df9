//===- Search.cpp - Branch and bound over canonical solutions -------------===//
//
// An exact search in the spirit of MiniMalloc (Moffitt, ASPLOS 2023); our own
// implementation.  The decision problem "is there a plan with arena <= C?" is
// answered by a depth-first search over *canonical* solutions:
//
//  * Buffers are placed in non-decreasing offset order, each at its minimum
//    offset: the aligned top of the highest placed buffer it conflicts with.
//    Every feasible plan can be pushed down into such a canonical one, so
//    gaps below are never tried and the branching factor is "which buffer is
//    next", not "which offset".
//  * Time is cut into sections (the maximal cliques of the interval graph).
//    Each section keeps a floor (no unplaced buffer of it can go lower) and
//    the total size of its unplaced buffers, each rounded up to the
//    alignment; if max(floor, last offset), aligned, + total - the largest
//    rounding > C the node is pruned (section inference + monotonic floor).
//  * Release bound: each unplaced buffer of a section can only go at or
//    above its own minimum offset, so the lowest top of the section is that
//    of stacking its buffers in order of minimum offset (one machine with
//    release dates); prunes above the lower bound, where the totals leave
//    room.  Computed for the sections a placement changed only.
//  * A buffer whose minimum offset is at or above the top of another
//    candidate placed at its minimum is not branched on (dominance: that
//    other buffer could be slid under it).
//  * When no unplaced buffer spans a section boundary any more the remaining
//    problem splits in time and the parts are solved independently.
//  * Static preorders (lifetime width, area, section total) break ties; the
//    three orders are tried round-robin with a node limit.
//
// Optimisation wraps the decision procedure (an anytime search).  Every
// round first tries the capacity "proven lower bound" with the round's node
// limit, then bisects between it and the best plan found with half of that
// limit per attempt; limits double every round.  The lower bound gets the
// most because where it is the optimum nothing else finds a plan; the
// targets above it get half because the release bound prunes there too.
// A proof of infeasibility raises the lower bound.  It stops at the
// deadline or when a plan reaches the lower bound.
//
// Data layout: each partition keeps one array of its buffers sorted by
// (minimum offset, preorder), rebuilt in O(k) after each placement and
// undo (small partitions restore it from a per-depth copy instead), so a
// dive costs O(n * (k + sections)) time and O(n) extra memory.  Each
// section keeps its members with the unplaced ones first, so the floor
// rescan after a placement skips the placed ones.
//
//===----------------------------------------------------------------------===//

#include "PlannerImpl.h"

#include <algorithm>
#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <limits>
#include <numeric>

#include <pthread.h>

namespace cs349::planner::detail {

namespace {

constexpr uint64_t kNone = std::numeric_limits<uint64_t>::max();

enum class Status { Found, NotFound, Aborted, Timeout };

/// The search's view of a problem: active buffers only, with sections.
struct Instance {
  uint64_t align = 1;
  std::vector<uint32_t> orig; // index into Problem::buffers
  std::vector<uint64_t> size;
  std::vector<uint64_t> pitch; // size rounded up to the alignment
  std::vector<int64_t> start, end;
  std::vector<std::vector<uint32_t>> sections; // maximal cliques, in time
  std::vector<uint32_t> secLo, secHi;          // per buffer: [lo, hi)
  std::vector<std::vector<uint32_t>> overlaps; // conflicting buffers
  std::vector<uint64_t> total0; // per section: sum of pitches
  std::vector<uint64_t> slack;  // per section: largest pitch - size
  std::vector<uint32_t> flat, flatStart; // sections, flattened
  const uint32_t *secBegin(size_t s) const { return flat.data() + flatStart[s]; }
  const uint32_t *secEnd(size_t s) const {
    return flat.data() + flatStart[s + 1];
  }
  std::vector<uint32_t> cuts0; // per boundary s|s+1: buffers spanning it
  bool tooLarge = false;

  size_t n() const { return size.size(); }
};

/// Budget of the preprocessing (clique members + overlap pairs) beyond which
/// the exact search is not attempted.
constexpr size_t kMaxWork = 40'000'000;
/// Limits on the size of problems given to the exact search.
constexpr size_t kMaxSearchBuffers = 20'000;
constexpr double kMaxDiveWork = 1e9;
/// Most section members rescanned for the unallocated floor per placement.
constexpr uint32_t kMaxFloorRescan = 1 << 16;

Instance buildInstance(const Problem &problem, const Deadline &deadline) {
  Instance I;
  I.align = effectiveAlignment(problem);
  for (size_t i = 0; i < problem.buffers.size(); ++i) {
    const Buffer &b = problem.buffers[i];
    if (!isActive(b))
      continue;
    I.orig.push_back((uint32_t)i);
    I.size.push_back(b.size);
    I.pitch.push_back(alignUp(b.size, I.align));
    I.start.push_back(b.start);
    I.end.push_back(b.end);
  }
  const uint32_t n = (uint32_t)I.n();
  struct Event {
    int64_t time;
    bool isStart;
    uint32_t idx;
  };
  std::vector<Event> ev;
  ev.reserve(2 * n);
  for (uint32_t i = 0; i < n; ++i) {
    ev.push_back({I.start[i], true, i});
    ev.push_back({I.end[i], false, i});
  }
  std::sort(ev.begin(), ev.end(), [](const Event &x, const Event &y) {
    if (x.time != y.time)
      return x.time < y.time;
    if (x.isStart != y.isStart)
      return x.isStart < y.isStart;
    return x.idx < y.idx;
  });
  I.secLo.assign(n, 0);
  I.secHi.assign(n, 0);
  I.overlaps.assign(n, {});
  std::vector<uint32_t> activeList, pos(n, 0);
  bool dirty = false;
  // The clock is read every kWorkPerClockCheck units of work (an overlap
  // pair or a section member), however they fall between events: with
  // thousands of buffers live at once, a thousand events are millions of
  // pairs.
  constexpr size_t kWorkPerClockCheck = size_t(1) << 16;
  size_t work = 0, events = 0, checkedAt = 0;
  auto outOfTime = [&] {
    if ((++events & 1023) != 0 && work - checkedAt < kWorkPerClockCheck)
      return false;
    checkedAt = work;
    return deadline.passed();
  };
  for (const Event &e : ev) {
    if (outOfTime()) {
      I.tooLarge = true; // out of time: no search
      return I;
    }
    if (e.isStart) {
      work += activeList.size();
      if (work > kMaxWork) {
        I.tooLarge = true;
        return I;
      }
      for (uint32_t j : activeList) {
        I.overlaps[e.idx].push_back(j);
        I.overlaps[j].push_back(e.idx);
      }
      pos[e.idx] = (uint32_t)activeList.size();
      activeList.push_back(e.idx);
      I.secLo[e.idx] = (uint32_t)I.sections.size();
      dirty = true;
    } else {
      if (dirty) {
        work += activeList.size();
        if (work > kMaxWork) {
          I.tooLarge = true;
          return I;
        }
        I.sections.push_back(activeList);
        std::sort(I.sections.back().begin(), I.sections.back().end());
        dirty = false;
      }
      I.secHi[e.idx] = (uint32_t)I.sections.size();
      uint32_t p = pos[e.idx];
      activeList[p] = activeList.back();
      pos[activeList[p]] = p;
      activeList.pop_back();
    }
  }
  const size_t m = I.sections.size();
  I.flatStart.push_back(0);
  for (const auto &sec : I.sections) {
    work += sec.size();
    if (outOfTime()) {
      I.tooLarge = true;
      return I;
    }
    I.flat.insert(I.flat.end(), sec.begin(), sec.end());
    I.flatStart.push_back((uint32_t)I.flat.size());
  }
  I.total0.assign(m, 0);
  I.slack.assign(m, 0);
  for (size_t s = 0; s < m; ++s) {
    work += I.sections[s].size();
    if (outOfTime()) {
      I.tooLarge = true;
      return I;
    }
    for (uint32_t b : I.sections[s]) {
      I.total0[s] += I.pitch[b];
      I.slack[s] = std::max(I.slack[s], I.pitch[b] - I.size[b]);
    }
  }
  I.cuts0.assign(m > 0 ? m - 1 : 0, 0);
  for (uint32_t b = 0; b < n; ++b) {
    assert(I.secLo[b] < I.secHi[b]);
    work += I.secHi[b] - I.secLo[b];
    if (outOfTime()) {
      I.tooLarge = true;
      return I;
    }
    for (uint32_t s = I.secLo[b]; s + 1 < I.secHi[b]; ++s)
      ++I.cuts0[s];
  }
  return I;
}

/// Static preorders, as sequences of keys compared in descending order:
/// W = lifetime width, A = area, T = max section total.
enum class Heuristic { WAT, TAW, TWA };
constexpr Heuristic kHeuristics[] = {Heuristic::WAT, Heuristic::TAW,
                                     Heuristic::TWA};

class Solver {
public:
  Solver(const Instance &inst, size_t maxDepth)
      : I(inst), maxDepth(maxDepth) {
    const uint32_t n = (uint32_t)I.n();
    unplacedOf = I.flat;
    firstSlot.resize(n + 1, 0);
    for (uint32_t b = 0; b < n; ++b)
      firstSlot[b + 1] = firstSlot[b] + (I.secHi[b] - I.secLo[b]);
    slotIndex.resize(firstSlot[n]);
    for (uint32_t s = 0; s < I.sections.size(); ++s)
      for (uint32_t k = I.flatStart[s]; k < I.flatStart[s + 1]; ++k)
        slotIndex[slot(unplacedOf[k], s)] = k;
  }

  Status run(uint64_t capacity, Heuristic heuristic, int64_t nodeLimit,
             const Deadline &deadline) {
    cap = capacity;
    heur = heuristic;
    nodesLeft = nodeLimit;
    this->deadline = &deadline;
    const uint32_t n = (uint32_t)I.n();
    assigned.assign(n, kNone);
    solution.assign(n, 0);
    minOff.assign(n, 0);
    floor.assign(I.sections.size(), 0);
    floorWitness.resize(I.sections.size());
    unplacedEnd.resize(I.sections.size());
    for (size_t s = 0; s < I.sections.size(); ++s) {
      floorWitness[s] = *I.secBegin(s);
      unplacedEnd[s] = I.flatStart[s + 1];
    }
    total = I.total0;
    cuts = I.cuts0;
    offUndo.clear();
    floorUndo.clear();
    searchDepth = 0;

    for (uint32_t b = 0; b < n; ++b)
      if (I.size[b] > cap)
        return Status::NotFound;
    // Initial partitions: split where no buffer spans a boundary.
    const uint32_t m = (uint32_t)I.sections.size();
    std::vector<std::vector<uint32_t>> parts;
    std::vector<uint32_t> partOfSection(m, 0);
    std::vector<std::pair<uint32_t, uint32_t>> ranges;
    uint32_t lo = 0;
    for (uint32_t s = 0; s < m; ++s) {
      partOfSection[s] = (uint32_t)ranges.size();
      if (s + 1 == m || cuts[s] == 0) {
        ranges.push_back({lo, s + 1});
        lo = s + 1;
      }
    }
    parts.resize(ranges.size());
    for (uint32_t b = 0; b < n; ++b)
      parts[partOfSection[I.secLo[b]]].push_back(b);
    for (size_t k = 0; k < ranges.size(); ++k) {
      if (parts[k].empty())
        continue;
      Partition part{std::move(parts[k]), ranges[k].first, ranges[k].second,
                     {}, {}};
      Status st = subSolve(part);
      if (st != Status::Found)
        return st;
    }
    return Status::Found;
  }

  const std::vector<uint64_t> &offsets() const { return solution; }
  uint64_t nodes() const { return nodeCount; }

private:
  struct Entry {
    uint64_t off;
    uint32_t pre;
  };
  struct Partition {
    std::vector<uint32_t> bufs;
    uint32_t lo, hi;          // section range
    std::vector<uint32_t> pre; // preorder index -> buffer
    // All buffers of the partition sorted by (minimum offset, preorder
    // index), placed ones last (key kNone).  Kept in step with the search
    // state by rebuild(): the order is total, so restoring the state and
    // rebuilding restores the array exactly.
    std::vector<Entry> ord;
  };

  const Instance &I;
  uint64_t cap = 0;
  Heuristic heur = Heuristic::WAT;
  int64_t nodesLeft = 0;
  uint64_t nodeCount = 0;
  const Deadline *deadline = nullptr;

  std::vector<uint64_t> assigned, solution, minOff, floor, total;
  std::vector<uint32_t> cuts;
  std::vector<uint32_t> floorWitness; // per section, see place()
  // Sections whose unplaced buffers or their minimum offsets the last
  // placement changed: [changedLo, changedHi).
  uint32_t changedLo = 0, changedHi = 0;
  std::vector<uint64_t> releaseTop; // scratch of releaseFits()
  // The members of each section (at I.flatStart) with the unplaced ones
  // first, up to unplacedEnd[s], so that the floor rescan skips the placed
  // ones.  A placement swaps its buffer to the end of the unplaced run of
  // each of its sections; undos come in reverse order, so an undo only
  // moves the end back (an attempt that stops without undoing leaves some
  // order of the members, and run() moves the ends back to the full
  // sections).  slotIndex[slot(b, s)] is b's position in s.
  std::vector<uint32_t> unplacedOf, unplacedEnd, firstSlot, slotIndex;
  uint32_t slot(uint32_t b, uint32_t s) const {
    return firstSlot[b] + (s - I.secLo[b]);
  }
  std::vector<std::pair<uint32_t, uint64_t>> offUndo, floorUndo;
  std::vector<Entry> kept, changed; // scratch of rebuild()
  // Copies of ord per search depth (a deque: growing keeps references).
  std::deque<std::vector<Entry>> saved;
  size_t searchDepth = 0;
  const size_t maxDepth; // recursion limit (stack)
  static constexpr size_t kMaxCopiedOrder = 1024;

  uint64_t width(uint32_t b) const {
    // In uint64: end > start, but their int64 difference can overflow.
    return (uint64_t)I.end[b] - (uint64_t)I.start[b];
  }
  unsigned __int128 area(uint32_t b) const {
    return (unsigned __int128)I.size[b] * width(b);
  }

  Status subSolve(Partition &part) {
    // Static preorder of the partition's buffers.
    const size_t k = part.bufs.size();
    std::vector<uint64_t> tot(k, 0);
    std::vector<uint32_t> idx(k);
    std::iota(idx.begin(), idx.end(), 0);
    for (size_t i = 0; i < k; ++i) {
      uint32_t b = part.bufs[i];
      uint64_t t = 0;
      for (uint32_t s = I.secLo[b]; s < I.secHi[b]; ++s)
        t = std::max(t, total[s]);
      tot[i] = t;
    }
    auto cmp = [&](uint32_t x, uint32_t y) {
      uint32_t a = part.bufs[x], b = part.bufs[y];
      auto W = [&]() -> int {
        if (width(a) != width(b))
          return width(a) > width(b) ? 1 : -1;
        return 0;
      };
      auto A = [&]() -> int {
        if (area(a) != area(b))
          return area(a) > area(b) ? 1 : -1;
        return 0;
      };
      auto T = [&]() -> int {
        if (tot[x] != tot[y])
          return tot[x] > tot[y] ? 1 : -1;
        return 0;
      };
      int r = 0;
      switch (heur) {
      case Heuristic::WAT:
        (r = W()) || (r = A()) || (r = T());
        break;
      case Heuristic::TAW:
        (r = T()) || (r = A()) || (r = W());
        break;
      case Heuristic::TWA:
        (r = T()) || (r = W()) || (r = A());
        break;
      }
      if (r != 0)
        return r > 0;
      return a < b;
    };
    std::sort(idx.begin(), idx.end(), cmp);
    part.pre.resize(k);
    for (size_t i = 0; i < k; ++i)
      part.pre[i] = part.bufs[idx[i]];
    part.ord.resize(k);
    for (uint32_t i = 0; i < k; ++i)
      part.ord[i] = {minOff[part.pre[i]], i};
    std::sort(part.ord.begin(), part.ord.end(), entryLess);
    return search(part, 0, 0);
  }

  static bool entryLess(const Entry &x, const Entry &y) {
    if (x.off != y.off)
      return x.off < y.off;
    return x.pre < y.pre;
  }

  /// Re-sorts part.ord after minimum offsets or placements changed: entries
  /// whose key is unchanged keep their order, the others are sorted and
  /// merged in.  O(k) without allocation.
  void rebuild(Partition &part) {
    kept.clear();
    changed.clear();
    for (const Entry &e : part.ord) {
      uint32_t b = part.pre[e.pre];
      uint64_t key = assigned[b] != kNone ? kNone : minOff[b];
      if (key == e.off)
        kept.push_back(e);
      else
        changed.push_back({key, e.pre});
    }
    if (changed.empty())
      return;
    std::sort(changed.begin(), changed.end(), entryLess);
    std::merge(kept.begin(), kept.end(), changed.begin(), changed.end(),
               part.ord.begin(), entryLess);
  }

  /// Places buffer b at off, recording undo information.
  void place(uint32_t b, uint64_t off) {
    assigned[b] = off;
    const uint64_t top = off + I.size[b];
    const uint64_t alignedTop = alignUp(top, I.align);
    // Every buffer conflicting with b shares a section with b, so the
    // sections of the buffers whose minimum offset rises form (up to holes
    // inside b's own range, harmless to revisit) one contiguous range.
    uint32_t affLo = std::numeric_limits<uint32_t>::max(), affHi = 0;
    for (uint32_t o : I.overlaps[b]) {
      if (assigned[o] != kNone || minOff[o] >= alignedTop)
        continue;
      offUndo.push_back({o, minOff[o]});
      minOff[o] = alignedTop;
      affLo = std::min(affLo, I.secLo[o]);
      affHi = std::max(affHi, I.secHi[o]);
    }
    for (uint32_t s = I.secLo[b]; s < I.secHi[b]; ++s) {
      if (floor[s] < top) {
        floorUndo.push_back({s, floor[s]});
        floor[s] = top;
      }
      total[s] -= I.pitch[b];
      const uint32_t from = slotIndex[slot(b, s)], to = --unplacedEnd[s];
      const uint32_t other = unplacedOf[to];
      unplacedOf[from] = other;
      slotIndex[slot(other, s)] = from;
      unplacedOf[to] = b;
      slotIndex[slot(b, s)] = to;
    }
    changedLo = std::min(affLo, I.secLo[b]);
    changedHi = std::max(affHi, I.secHi[b]);
    // The floor of a section is at least the lowest minimum offset of its
    // unplaced buffers.  (An optional inference: skipped when the sections
    // to rescan hold too many buffers, as on very long-lived problems.)
    if (affLo < affHi &&
        I.flatStart[affHi] - I.flatStart[affLo] > kMaxFloorRescan)
      affHi = affLo;
    for (uint32_t s = affLo; s < affHi; ++s) {
      const uint64_t f = floor[s];
      // Most rescans end at an unplaced buffer at or below the floor: the
      // one that ended the last rescan of s usually still is, and checking
      // it first spares the scan.  (A hint, checked before use, so
      // backtracking need not restore it.)
      const uint32_t w = floorWitness[s];
      if (assigned[w] == kNone && minOff[w] <= f)
        continue;
      uint64_t lowest = kNone;
      uint32_t lowestAt = w;
      for (const uint32_t *x = unplacedOf.data() + I.flatStart[s],
                          *e = unplacedOf.data() + unplacedEnd[s];
           x != e; ++x) {
        if (minOff[*x] >= lowest)
          continue;
        lowest = minOff[*x];
        lowestAt = *x;
        if (lowest <= f)
          break; // cannot raise the floor
      }
      floorWitness[s] = lowestAt;
      if (lowest != kNone && f < lowest) {
        floorUndo.push_back({s, floor[s]});
        floor[s] = lowest;
      }
    }
  }

  void unplace(uint32_t b, size_t offMark, size_t floorMark) {
    while (floorUndo.size() > floorMark) {
      floor[floorUndo.back().first] = floorUndo.back().second;
      floorUndo.pop_back();
    }
    while (offUndo.size() > offMark) {
      minOff[offUndo.back().first] = offUndo.back().second;
      offUndo.pop_back();
    }
    for (uint32_t s = I.secLo[b]; s < I.secHi[b]; ++s) {
      total[s] += I.pitch[b];
      ++unplacedEnd[s];
    }
    assigned[b] = kNone;
  }

  /// False if some section cannot hold its unplaced buffers under cap.
  /// They go at aligned offsets at or above max(off, floor) (canonical
  /// order), one above the other: each but the highest takes its pitch.
  /// (pitch >= alignment > slack, so the difference does not wrap.)
  bool check(const Partition &part, uint64_t off) const {
    for (uint32_t s = part.lo; s < part.hi; ++s) {
      const uint64_t base = std::max(off, floor[s]);
      const uint64_t need =
          total[s] == 0 ? base
                        : alignUp(base, I.align) + total[s] - I.slack[s];
      if (need > cap)
        return false;
    }
    return true;
  }

  /// False if some section cannot hold its unplaced buffers under cap
  /// given their minimum offsets.  check() lets them all start at the
  /// lowest; here each starts at its own (they only rise) and the lowest
  /// top of stacking them is that of stacking them in order of minimum
  /// offset (one machine with release dates), which part.ord already is.
  /// This prunes where capacities leave room, as above the lower bound:
  /// there a buffer lifted high by its placed neighbours is only counted
  /// from where it can go.  Only the sections the last placement changed
  /// are computed: every other one passed at an ancestor with the same
  /// buffers and minimum offsets, and what grows with off is check()'s.
  bool releaseFits(const Partition &part, uint64_t off) {
    const uint32_t lo = std::max(part.lo, changedLo),
                   hi = std::min(part.hi, changedHi);
    if (lo >= hi || I.flatStart[hi] - I.flatStart[lo] > kMaxFloorRescan)
      return true;
    releaseTop.resize(I.sections.size());
    for (uint32_t s = lo; s < hi; ++s)
      releaseTop[s] = alignUp(std::max(off, floor[s]), I.align);
    for (const Entry &e : part.ord) {
      if (e.off == kNone)
        break; // placed ones sort last
      const uint32_t x = part.pre[e.pre];
      for (uint32_t s = std::max(I.secLo[x], lo),
                    end = std::min(I.secHi[x], hi);
           s < end; ++s)
        releaseTop[s] = std::max(releaseTop[s], e.off) + I.pitch[x];
    }
    // As in check(), the highest buffer takes its size, not its pitch.
    for (uint32_t s = lo; s < hi; ++s)
      if (total[s] != 0 && releaseTop[s] - I.slack[s] > cap)
        return false;
    return true;
  }

  Status search(Partition &part, uint64_t minOffset, uint32_t minPre) {
    if (nodesLeft-- <= 0)
      return Status::Aborted;
    ++nodeCount;
    if (deadline->passed()) // ~20 ns, negligible next to a node
      return Status::Timeout;
    const std::vector<Entry> &ord = part.ord;
    if (ord.empty() || ord.front().off == kNone) {
      for (uint32_t b : part.bufs)
        solution[b] = assigned[b];
      return Status::Found; // every buffer placed
    }
    // Lowest top of an unplaced buffer at its minimum offset (entries past
    // it cannot lower it: their offsets are already at least as high).
    uint64_t minHeight = kNone;
    for (const Entry &e : ord) {
      if (e.off >= minHeight)
        break;
      minHeight = std::min(minHeight, e.off + I.size[part.pre[e.pre]]);
    }
    // Candidates: canonical (not below the last placement) and not
    // dominated (below minHeight).  Copied: children rebuild ord and
    // restore it only on return.
    std::vector<Entry> cands;
    for (const Entry &e : ord) {
      if (e.off >= minHeight)
        break; // dominated: some buffer fits entirely below
      if (e.off < minOffset || (e.off == minOffset && e.pre < minPre))
        continue; // not canonical
      cands.push_back(e);
    }
    // Small partitions restore ord from a per-depth copy (cheaper than a
    // second rebuild); large ones rebuild (copies would cost O(k^2) memory
    // along a dive).
    if (searchDepth >= maxDepth)
      return Status::Aborted; // no stack for a deeper dive
    const bool copy = ord.size() <= kMaxCopiedOrder;
    const size_t depth = searchDepth++;
    if (copy && saved.size() <= depth)
      saved.resize(depth + 1);
    bool isSaved = false;
    Status result = Status::NotFound;
    for (const Entry &e : cands) {
      // Rejected candidates cost work too (place + check): poll the clock.
      if (deadline->passed()) {
        result = Status::Timeout;
        break;
      }
      const uint32_t b = part.pre[e.pre];
      const size_t offMark = offUndo.size(), floorMark = floorUndo.size();
      place(b, e.off);
      Status st = Status::NotFound;
      if (check(part, e.off)) {
        if (copy && !isSaved) {
          saved[depth] = part.ord;
          isSaved = true;
        }
        rebuild(part);
        if (releaseFits(part, e.off))
          st = decompose(part, e.off, e.pre, b);
        if (st == Status::Aborted || st == Status::Timeout) {
          // The attempt is over and run() resets the state: skip the
          // O(depth * k) unwinding.  (A found sub-partition must unwind: its
          // siblings are solved next on the restored state.)
          result = st;
          break;
        }
        unplace(b, offMark, floorMark);
        if (copy)
          part.ord = saved[depth];
        else
          rebuild(part);
      } else {
        unplace(b, offMark, floorMark);
      }
      if (st != Status::NotFound) {
        result = st;
        break;
      }
    }
    --searchDepth;
    return result;
  }

  Status decompose(Partition &part, uint64_t off, uint32_t preIdx,
                   uint32_t b) {
    solution[b] = off;
    std::vector<uint32_t> cutpoints;
    for (uint32_t s = I.secLo[b]; s + 1 < I.secHi[b]; ++s)
      if (--cuts[s] == 0)
        cutpoints.push_back(s + 1);
    Status st = Status::Found;
    if (cutpoints.empty()) {
      st = search(part, off, preIdx);
    } else {
      cutpoints.insert(cutpoints.begin(), part.lo);
      cutpoints.push_back(part.hi);
      // Each unplaced buffer lies within one sub-range (no unplaced buffer
      // spans a zero cut): find it by binary search on its first section.
      const size_t numSubs = cutpoints.size() - 1;
      std::vector<std::vector<uint32_t>> members(numSubs);
      for (uint32_t x : part.bufs) {
        if (assigned[x] != kNone)
          continue;
        size_t c = std::upper_bound(cutpoints.begin(), cutpoints.end(),
                                    I.secLo[x]) -
                   cutpoints.begin() - 1;
        assert(c < numSubs && I.secHi[x] <= cutpoints[c + 1]);
        members[c].push_back(x);
      }
      for (size_t c = 0; c < numSubs; ++c) {
        if (members[c].empty())
          continue;
        Partition sub{std::move(members[c]), cutpoints[c], cutpoints[c + 1],
                      {}, {}};
        st = subSolve(sub);
        if (st != Status::Found)
          break;
      }
    }
    for (uint32_t s = I.secLo[b]; s + 1 < I.secHi[b]; ++s)
      ++cuts[s];
    return st;
  }
};

uint64_t gcd64(uint64_t a, uint64_t b) {
  while (b) {
    uint64_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

} // namespace

bool searchMayRun(const Problem &problem) {
  size_t active = 0;
  for (const Buffer &b : problem.buffers)
    active += isActive(b);
  return active > 0 && active <= kMaxSearchBuffers &&
         (double)active * (double)active <= kMaxDiveWork;
}

static Plan planSearchImpl(const Problem &problem, const Plan &start,
                           uint64_t lower, Deadline deadline,
                           size_t maxDepth) {
  Plan best = start;
  if (best.arenaSize <= lower || deadline.passed())
    return best;
  const auto t0 = Clock::now();
  const bool trace = std::getenv("CS349_PLANNER_TRACE") != nullptr;
  // A dive of the search costs about n * (n + sections): beyond a few 1e8
  // the exact search cannot even reach a leaf in useful time, so large
  // problems keep the greedy plans (which are within a few per cent there).
  size_t active = 0;
  for (const Buffer &b : problem.buffers)
    active += isActive(b);
  if (active == 0 || active > kMaxSearchBuffers ||
      (double)active * (double)active > kMaxDiveWork)
    return best;
  Instance I = buildInstance(problem, deadline);
  if (I.tooLarge ||
      (double)I.n() * (double)(I.n() + I.sections.size()) > kMaxDiveWork)
    return best;

  // Every canonical offset is 0 or the aligned top of another buffer, so
  // every arena is a multiple of g: gcd of the sizes, and of the alignment
  // when there is one.
  uint64_t g = 0;
  for (uint64_t s : I.size)
    g = gcd64(g, s);
  if (I.align > 1)
    g = gcd64(g, I.align);
  if (g == 0)
    g = 1;
  uint64_t lo = (lower + g - 1) / g * g; // no plan below lo
  uint64_t hi = best.arenaSize;          // a plan of this size is known

  if (trace)
    std::fprintf(stderr,
                 "search: %.3fs instance: %zu buffers, %zu sections; %.3fs "
                 "left at entry\n",
                 std::chrono::duration<double>(Clock::now() - t0).count(),
                 I.n(), I.sections.size(),
                 std::chrono::duration<double>(deadline.at - t0).count());
  Solver solver(I, maxDepth);
  auto adopt = [&](const std::vector<uint64_t> &offsets) {
    Plan p;
    p.offsets.assign(problem.buffers.size(), 0);
    for (size_t i = 0; i < I.n(); ++i)
      p.offsets[I.orig[i]] = offsets[i];
    p.arenaSize = arenaOf(problem, p.offsets);
    if (p.arenaSize < best.arenaSize) {
      best = std::move(p);
      hi = best.arenaSize;
    }
  };

  // One decision attempt, round-robin over the preorders.
  auto attempt = [&](uint64_t capacity, int64_t limit) {
    for (Heuristic h : kHeuristics) {
      Status st = solver.run(capacity, h, limit, deadline);
      if (st == Status::Found)
        adopt(solver.offsets());
      if (st != Status::Aborted)
        return st;
    }
    return Status::Aborted;
  };

  // The proven lower bound gets the full node limit of the round: where it
  // is the optimum (most of the MiniMalloc suite) no plan is found
  // anywhere else.  The bisection targets above it get half: the section
  // totals of check() prune well only near the lower bound, but the
  // release bound of releaseFits() prunes above it too, so an attempt
  // there is worth more of the round than when only the totals pruned.
  const int64_t minLimit = std::max<int64_t>(256, 2 * (int64_t)I.n());
  int64_t limit = minLimit;
  while (lo < hi) {
    // One round: try the proven lower bound first, then bisect upwards
    // between what this round could not settle and the best plan found.
    uint64_t softLo = lo;
    bool first = true;
    while (softLo < hi) {
      uint64_t target;
      int64_t budget = limit;
      if (first) {
        target = softLo;
        first = false;
      } else {
        budget = std::max(minLimit, limit / 2);
        // Bisection targets: a strictly better plan, by at least ~0.2 %
        // (attempts just below the best plan rarely pay for themselves).
        uint64_t step = std::max(g, hi / 512 / g * g);
        if (hi < softLo + step)
          break;
        uint64_t top = hi - step;
        target = softLo + (top - softLo) / 2;
        target = target / g * g;
        if (target < softLo)
          target = softLo;
      }
      uint64_t before = solver.nodes();
      Status st = attempt(target, budget);
      if (trace)
        std::fprintf(stderr,
                     "search: %.3fs limit %lld target %llu -> %s (nodes "
                     "%llu) lo %llu hi %llu\n",
                     std::chrono::duration<double>(Clock::now() - t0).count(),
                     (long long)budget, (unsigned long long)target,
                     st == Status::Found      ? "found"
                     : st == Status::NotFound ? "infeasible"
                     : st == Status::Aborted  ? "aborted"
                                              : "timeout",
                     (unsigned long long)(solver.nodes() - before),
                     (unsigned long long)lo, (unsigned long long)hi);
      if (st == Status::Timeout)
        return best;
      if (st == Status::NotFound) { // proven infeasible
        lo = std::max(lo, target + g);
        softLo = std::max(softLo, lo);
      } else if (st == Status::Aborted) {
        softLo = target + g;
      }
      // Found: hi shrank; keep bisecting above softLo.
    }
    if (limit > std::numeric_limits<int64_t>::max() / 4)
      break;
    limit *= 2;
    if (deadline.passed())
      break;
  }
  return best;
}

namespace {
/// Runs f on a thread with a stack of `bytes` (reserved, committed only as
/// touched).  Returns false if no such thread could be made.
template <typename F> bool runWithStack(size_t bytes, F &f) {
  pthread_attr_t attr;
  if (pthread_attr_init(&attr) != 0)
    return false;
  bool ok = pthread_attr_setstacksize(&attr, bytes) == 0;
  pthread_t thread;
  ok = ok && pthread_create(
                 &thread, &attr,
                 [](void *arg) -> void * {
                   (*static_cast<F *>(arg))();
                   return nullptr;
                 },
                 &f) == 0;
  pthread_attr_destroy(&attr);
  if (ok)
    pthread_join(thread, nullptr);
  return ok;
}
} // namespace

Plan planSearch(const Problem &problem, const Plan &start, uint64_t lower,
                Deadline deadline) {
  // The search recurses once per placement (a few hundred bytes of stack per
  // level, more under sanitizers): run it on a thread whose stack fits a
  // dive through every buffer.  If no thread can be made, search on this
  // stack with a depth limit that fits in ~1 MB.
  const size_t n = problem.buffers.size();
  Plan result;
  auto body = [&] {
    result = planSearchImpl(problem, start, lower, deadline, n + 2);
  };
  if (!runWithStack((size_t(64) << 20) + n * 4096, body))
    result = planSearchImpl(problem, start, lower, deadline, 2000);
  return result;
}

} // namespace cs349::planner::detail
