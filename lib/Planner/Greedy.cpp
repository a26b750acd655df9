//===- Greedy.cpp - Greedy placement with a memory index over time --------===//
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

#include "PlannerImpl.h"

#include "cs349/Support/SplitMix64.h"

#include <algorithm>
#include <cassert>
#include <cstring>
#include <iterator>
#include <limits>
#include <memory_resource>
#include <memory>
#include <numeric>
#include <optional>
#include <set>
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

constexpr uint64_t kNoEnd = std::numeric_limits<uint64_t>::max();

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

/// Split and join of a treap ordered by `begin` and heap-ordered by
/// `priority`, for the two indexes below: `Pull` recomputes a node's subtree
/// summary from its children.
/// A treap node's priority: SplitMix64's finalizer of its key,
/// deterministic and well spread.
uint64_t priorityOf(uint64_t key) { return ::cs349::mixBits(key); }

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

template <typename Node, Node *(*Pull)(Node *)> struct Treap {
  static void split(Node *t, uint64_t key, Node *&below, Node *&rest) {
    if (!t) {
      below = rest = nullptr;
      return;
    }
    if (t->begin < key) {
      split(t->right, key, t->right, rest);
      below = Pull(t);
    } else {
      split(t->left, key, below, t->left);
      rest = Pull(t);
    }
  }
  static Node *join(Node *a, Node *b) {
    if (!a || !b)
      return a ? a : b;
    if (a->priority > b->priority) {
      a->right = join(a->right, b);
      return Pull(a);
    }
    b->left = join(a, b->left);
    return Pull(b);
  }
  /// The node of t with the lowest begin above x, or null.
  static Node *firstAbove(Node *t, uint64_t x) {
    Node *found = nullptr;
    while (t) {
      if (t->begin > x) {
        found = t;
        t = t->left;
      } else {
        t = t->right;
      }
    }
    return found;
  }
  /// The node of t with the highest begin below x, or null.
  static Node *lastBelow(Node *t, uint64_t x) {
    Node *found = nullptr;
    while (t) {
      if (t->begin < x) {
        found = t;
        t = t->right;
      } else {
        t = t->left;
      }
    }
    return found;
  }
};

/// Random priorities keep a treap of millions of nodes under 100 levels
/// deep; the updates that keep their path from the root handle a deeper
/// one the recursive way.
constexpr size_t kPathLimit = 128;

/// Memory for the unions' tree nodes, all of one size: a free list over
/// chunks.  Released all at once when a pass starts again, without visiting
/// the nodes (the unions are dropped, not destroyed: they own nothing else).
class NodeArena : public std::pmr::memory_resource {
public:
  void releaseAll() {
    chunk = 0;
    used = 0;
    freeList = nullptr;
  }

private:
  static constexpr size_t kChunkBytes = 1 << 20;
  struct FreeNode {
    FreeNode *next;
  };
  void *do_allocate(size_t bytes, size_t alignment) override {
    bytes = (bytes + alignof(std::max_align_t) - 1) /
            alignof(std::max_align_t) * alignof(std::max_align_t);
    if (nodeBytes == 0)
      nodeBytes = bytes;
    if (bytes != nodeBytes || alignment > alignof(std::max_align_t))
      return std::pmr::new_delete_resource()->allocate(bytes, alignment);
    if (freeList) {
      void *p = freeList;
      freeList = freeList->next;
      return p;
    }
    if (chunks.empty() || used + bytes > kChunkBytes) {
      if (!chunks.empty())
        ++chunk;
      if (chunk == chunks.size())
        chunks.emplace_back(new std::max_align_t[kChunkBytes /
                                                 sizeof(std::max_align_t)]);
      used = 0;
    }
    void *p = reinterpret_cast<char *>(chunks[chunk].get()) + used;
    used += bytes;
    return p;
  }
  void do_deallocate(void *p, size_t bytes, size_t alignment) override {
    bytes = (bytes + alignof(std::max_align_t) - 1) /
            alignof(std::max_align_t) * alignof(std::max_align_t);
    if (bytes != nodeBytes || alignment > alignof(std::max_align_t)) {
      std::pmr::new_delete_resource()->deallocate(p, bytes, alignment);
      return;
    }
    freeList = new (p) FreeNode{freeList};
  }
  bool do_is_equal(const memory_resource &other) const noexcept override {
    return this == &other;
  }

  std::vector<std::unique_ptr<std::max_align_t[]>> chunks;
  size_t chunk = 0, used = 0, nodeBytes = 0;
  FreeNode *freeList = nullptr;
};

/// The placed blocks (offset, top) of one node of the scan index, sorted by
/// offset up to `sorted`, in placement order after it.  A first-fit scan
/// reads only the blocks beginning below a bound, and the sorted part
/// yields them without reading the others; the unsorted tail is read
/// whole, so it is sorted into the rest when a scan finds it longer than an
/// eighth of it (each block is moved a bounded number of times on average).
class ScanList {
public:
  using Block = std::pair<uint64_t, uint64_t>;

  void push(Block block) { blocks.push_back(block); }
  void clear() {
    blocks.clear();
    sorted = 0;
  }
  bool empty() const { return blocks.empty(); }
  size_t size() const { return blocks.size(); }
  const std::vector<Block> &all() const { return blocks; }

  /// Sorts the tail into the sorted part once it is long enough to cost a
  /// scan more than the sort (`scratch`: any vector, to merge into).
  void settle(std::vector<Block> &scratch) {
    const size_t tail = blocks.size() - sorted;
    if (tail <= std::max<size_t>(kShortTail, sorted / 8))
      return;
    std::sort(blocks.begin() + sorted, blocks.end());
    scratch.clear();
    std::merge(blocks.begin(), blocks.begin() + sorted,
               blocks.begin() + sorted, blocks.end(),
               std::back_inserter(scratch));
    blocks.swap(scratch);
    sorted = blocks.size();
  }

  /// Calls f(block) for the blocks beginning in [from, to).
  template <typename F> void forBeginIn(uint64_t from, uint64_t to, F f) const {
    const auto sortedEnd = blocks.begin() + sorted;
    auto it = std::lower_bound(
        blocks.begin(), sortedEnd, from,
        [](const Block &block, uint64_t x) { return block.first < x; });
    for (; it != sortedEnd && it->first < to; ++it)
      f(*it);
    for (it = sortedEnd; it != blocks.end(); ++it)
      if (it->first >= from && it->first < to)
        f(*it);
  }

private:
  /// A tail this short is read rather than sorted.
  static constexpr size_t kShortTail = 32;

  std::vector<Block> blocks;
  size_t sorted = 0;
};

/// A union of byte ranges [begin, end), kept merged (ranges neither overlap
/// nor touch), as a treap ordered by begin.  Each range also records the
/// free run below it (from the previous range's end, or from 0), and each
/// subtree the longest such run, so that the first free run of a given
/// length above an offset is found in O(log k), skipping every subtree whose
/// runs are all shorter: a fragmented union costs one step, not one per gap.
class MemoryUnion {
public:
  explicit MemoryUnion(std::pmr::memory_resource *pool) : pool(pool) {}
  bool empty() const { return root == nullptr; }

  void add(uint64_t begin, uint64_t end) {
    top = std::max(top, end);
    Node *prev, *next;
    around(begin, prev, next);
    Node *merged;
    if (prev && prev->end >= begin) { // extends prev
      if (prev->end >= end)
        return;
      prev->end = end;
      merged = prev;
    } else {
      merged = new (pool->allocate(sizeof(Node), alignof(Node)))
          Node{begin, end, begin - (prev ? prev->end : 0), 0, nullptr, nullptr,
               priorityOf(begin)};
      merged->longestRun = merged->runBelow;
      root = insert(root, merged);
    }
    // Absorb the ranges that `merged` now reaches (`next` is still the
    // first beginning above it: no range begins between prev and begin);
    // the first one it does not reach gets the free run below it anew.
    while (next && next->begin <= merged->end) {
      merged->end = std::max(merged->end, next->end);
      root = erase(root, next->begin);
      next = firstAbove(merged->begin);
    }
    if (next)
      setRunBelow(root, next->begin, next->begin - merged->end);
  }

  /// Adds a range that meets no other (one of the blocks live at one time)
  /// as a range of its own, even where it touches another, so that
  /// removeApart can take it out again.  Not to be mixed with add(); of the
  /// questions, skipToFit allows touching ranges, skipCovered does not
  /// (best-fit's walk does not ask such a union).
  void addApart(uint64_t begin, uint64_t end) {
    Node *prev, *next;
    around(begin, prev, next);
    Node *n = new (pool->allocate(sizeof(Node), alignof(Node)))
        Node{begin, end, begin - (prev ? prev->end : 0), 0, nullptr, nullptr,
             priorityOf(begin)};
    n->longestRun = n->runBelow;
    root = insert(root, n);
    if (next)
      setRunBelow(root, next->begin, next->begin - end);
    else
      top = end;
  }

  /// Takes out the range addApart added at `begin`.
  void removeApart(uint64_t begin) {
    const Node *prev = begin > 0 ? lastAtOrBelow(begin - 1) : nullptr;
    const uint64_t prevEnd = prev ? prev->end : 0;
    const Node *next = firstAbove(begin);
    root = erase(root, begin);
    if (next)
      setRunBelow(root, next->begin, next->begin - prevEnd);
    else
      top = prevEnd;
  }

  /// The end of the range containing x, or x when none does.
  uint64_t skipCovered(uint64_t x) const {
    const Node *prev = lastAtOrBelow(x);
    return prev && prev->end > x ? prev->end : x;
  }

  /// The lowest y >= x such that [y, y + size) meets no range, where x is
  /// 0 or the end of a range of some union (so that y, a range end, is as
  /// aligned as x).  `freeEnd` is set to the end of the free run starting
  /// at y (the begin of the next range, or kNoEnd): every y' in
  /// [y, freeEnd - size] fits as well.
  uint64_t skipToFit(uint64_t x, uint64_t size, uint64_t &freeEnd) const {
    // x moves to the end of the range covering it, if any; the next range
    // begins above that end too, as ranges do not touch.
    Node *prev, *next;
    around(x, prev, next);
    if (prev && prev->end > x)
      x = prev->end;
    freeEnd = next ? next->begin : kNoEnd;
    if (!next || next->begin - x >= size)
      return x;
    if (const Node *above = firstRunAbove(root, next->begin, size)) {
      freeEnd = above->begin;
      return above->begin - above->runBelow;
    }
    freeEnd = kNoEnd;
    return top;
  }

  /// The begin of the first range starting above x, or kNoEnd.
  uint64_t nextBegin(uint64_t x) const {
    const Node *next = firstAbove(x);
    return next ? next->begin : kNoEnd;
  }

private:
  struct Node {
    uint64_t begin, end;
    uint64_t runBelow;   // free bytes between the previous range and begin
    uint64_t longestRun; // max runBelow in this subtree
    Node *left, *right;
    uint64_t priority;
  };

  static uint64_t longest(const Node *n) { return n ? n->longestRun : 0; }
  static Node *pull(Node *n) {
    n->longestRun =
        std::max({n->runBelow, longest(n->left), longest(n->right)});
    return n;
  }

  /// The last range beginning at or below x and the first beginning above
  /// it (either may be null), in one descent.
  void around(uint64_t x, Node *&below, Node *&above) const {
    below = above = nullptr;
    for (Node *n = root; n;) {
      if (n->begin <= x) {
        below = n;
        n = n->right;
      } else {
        above = n;
        n = n->left;
      }
    }
  }
  Node *lastAtOrBelow(uint64_t x) const {
    Node *found = nullptr;
    for (Node *n = root; n;) {
      if (n->begin <= x) {
        found = n;
        n = n->right;
      } else {
        n = n->left;
      }
    }
    return found;
  }
  Node *firstAbove(uint64_t x) const {
    return Treap<Node, &pull>::firstAbove(root, x);
  }
  /// The first range beginning above x with a free run of `size` below it.
  static const Node *firstRunAbove(const Node *n, uint64_t x, uint64_t size) {
    if (!n || n->longestRun < size)
      return nullptr;
    if (n->begin <= x)
      return firstRunAbove(n->right, x, size);
    if (const Node *found = firstRunAbove(n->left, x, size))
      return found;
    if (n->runBelow >= size)
      return n;
    return firstRunAbove(n->right, x, size);
  }

  /// Inserts n into the treap t, returning its root.  The subtrees above n
  /// gain its run only: their longest runs are raised as far up as n's is
  /// longer.
  static Node *insert(Node *t, Node *n) {
    Node *path[kPathLimit];
    size_t depth = 0;
    Node **slot = &t;
    while (*slot && n->priority <= (*slot)->priority) {
      if (depth == kPathLimit)
        return insertAll(t, n);
      path[depth++] = *slot;
      slot = n->begin < (*slot)->begin ? &(*slot)->left : &(*slot)->right;
    }
    split(*slot, n->begin, n->left, n->right);
    *slot = pull(n);
    while (depth > 0 && path[depth - 1]->longestRun < n->longestRun)
      path[--depth]->longestRun = n->longestRun;
    return t;
  }
  static Node *insertAll(Node *t, Node *n) {
    if (!t)
      return n;
    if (n->priority > t->priority) {
      split(t, n->begin, n->left, n->right);
      return pull(n);
    }
    if (n->begin < t->begin)
      t->left = insertAll(t->left, n);
    else
      t->right = insertAll(t->right, n);
    return pull(t);
  }
  /// Splits t into the ranges beginning below key and the others.
  static void split(Node *t, uint64_t key, Node *&below, Node *&rest) {
    Treap<Node, &pull>::split(t, key, below, rest);
  }
  static Node *join(Node *a, Node *b) { return Treap<Node, &pull>::join(a, b); }
  /// Takes the range beginning at `key` (which exists) out of the treap t,
  /// returning its root; the longest runs above it are recomputed as far
  /// up as they change.
  Node *erase(Node *t, uint64_t key) {
    Node *path[kPathLimit];
    size_t depth = 0;
    Node **slot = &t;
    while ((*slot)->begin != key) {
      if (depth == kPathLimit)
        return eraseAll(t, key);
      path[depth++] = *slot;
      slot = key < (*slot)->begin ? &(*slot)->left : &(*slot)->right;
    }
    Node *gone = *slot;
    *slot = join(gone->left, gone->right);
    gone->~Node();
    pool->deallocate(gone, sizeof(Node), alignof(Node));
    while (depth > 0) {
      Node *above = path[--depth];
      const uint64_t before = above->longestRun;
      if (pull(above)->longestRun == before)
        break;
    }
    return t;
  }
  Node *eraseAll(Node *t, uint64_t key) {
    if (t->begin == key) {
      Node *rest = join(t->left, t->right);
      t->~Node();
      pool->deallocate(t, sizeof(Node), alignof(Node));
      return rest;
    }
    if (key < t->begin)
      t->left = eraseAll(t->left, key);
    else
      t->right = eraseAll(t->right, key);
    return pull(t);
  }
  /// Sets the free run below the range beginning at `key` (which exists),
  /// then the longest runs above it, as far up as they change.
  static void setRunBelow(Node *t, uint64_t key, uint64_t run) {
    Node *path[kPathLimit];
    size_t depth = 0;
    while (t->begin != key) {
      if (depth == kPathLimit) {
        setRunBelowAll(path[0], key, run);
        return;
      }
      path[depth++] = t;
      t = key < t->begin ? t->left : t->right;
    }
    t->runBelow = run;
    uint64_t longestBefore = t->longestRun;
    pull(t);
    while (depth > 0 && t->longestRun != longestBefore) {
      t = path[--depth];
      longestBefore = t->longestRun;
      pull(t);
    }
  }

  static void setRunBelowAll(Node *t, uint64_t key, uint64_t run) {
    if (t->begin == key)
      t->runBelow = run;
    else
      setRunBelowAll(key < t->begin ? t->left : t->right, key, run);
    pull(t);
  }

  Node *root = nullptr;
  uint64_t top = 0; // the end of the last range
  std::pmr::memory_resource *pool;
};

/// How many placed blocks cover each byte, as a treap of change points:
/// each distinct offset where the count changes holds the net change there
/// and the length of the segment up to the next change point, and each
/// subtree the minimum prefix count and the longest segment attaining it.
/// A change point whose net change drops to 0 is removed, so consecutive
/// segments always differ in count and every free run (count 0) is one
/// segment: the first free run of a given length is one O(log k) descent,
/// however the blocks that make up the occupied memory are interleaved.
/// Blocks are added and taken out again (a count, unlike a union, can be
/// undone), which is what lets a query over "all placed blocks but a few"
/// skip the few.  A change point at 0 is always kept, for the run below
/// the lowest block.
class CoverCounts {
public:
  /// With `trackRuns`, the free runs are also kept ordered by length (for
  /// best-fit): each change updates the runs beginning where it can change
  /// them, few where the blocks in the counts do not overlap each other (a
  /// sweep in start order).
  CoverCounts(std::pmr::memory_resource *pool, bool trackRuns)
      : pool(pool), trackRuns(trackRuns) {
    root = make(0, 0);
  }

  void add(uint64_t begin, uint64_t end, int32_t delta) {
    if (!trackRuns) {
      change(begin, delta);
      change(end, -delta);
      return;
    }
    // Only runs beginning in [the change point before begin, end] change.
    const Node *before = lastBelow(begin);
    const uint64_t from = before ? before->begin : 0;
    forRuns(from, end, [&](const Node *n) { runs.erase({n->length, n->begin}); });
    change(begin, delta);
    change(end, -delta);
    forRuns(from, end, [&](const Node *n) { runs.insert({n->length, n->begin}); });
  }

  /// Runs visited by add() so far: what a deadline's clock checks count.
  size_t work = 0;

  /// The best-fit choice from the runs kept by length (trackRuns).
  uint64_t bestFreeTracked(uint64_t size) const {
    auto it = runs.lower_bound({size, 0});
    if (it != runs.end())
      return it->second;
    const Node *last = root;
    while (last->right)
      last = last->right;
    return last->begin;
  }

  /// The lowest offset starting a run of at least `size` uncovered bytes
  /// (the last change point's run is unbounded).
  uint64_t firstFree(uint64_t size) const {
    int64_t before = 0;
    for (const Node *n = root;;) {
      const Node *l = n->left;
      if (l && before + l->minPrefix == 0 && l->longestAtMin >= size) {
        n = l;
        continue;
      }
      const int64_t at = before + sum(l) + n->delta;
      if (at == 0 && n->length >= size)
        return n->begin;
      before = at;
      n = n->right;
      assert(n && "the last run is unbounded");
    }
  }

private:
  struct Node {
    uint64_t begin;
    uint64_t length; // to the next change point, kNoEnd for the last
    int64_t delta;
    int64_t total;     // sum of delta in this subtree
    int64_t minPrefix; // min over this subtree's nodes of the count after it
    uint64_t longestAtMin; // the longest of their segments attaining it
    Node *left, *right;
    uint64_t priority;
  };

  static int64_t sum(const Node *n) { return n ? n->total : 0; }
  /// The first free run of at least `size` bytes beginning at or after
  /// `from` in subtree n, whose change points start at count `before`.
  static const Node *nextFree(const Node *n, int64_t before, uint64_t from,
                              uint64_t size) {
    while (n) {
      if (before + n->minPrefix != 0 || n->longestAtMin < size)
        return nullptr;
      const int64_t at = before + sum(n->left) + n->delta;
      if (n->begin >= from) {
        if (const Node *found = nextFree(n->left, before, from, size))
          return found;
        if (at == 0 && n->length >= size)
          return n;
      }
      before = at;
      n = n->right;
    }
    return nullptr;
  }
  static Node *pull(Node *n) {
    const Node *l = n->left, *r = n->right;
    int64_t best = sum(l) + n->delta;
    uint64_t longest = n->length;
    auto take = [&](int64_t value, uint64_t length) {
      if (value < best) {
        best = value;
        longest = length;
      } else if (value == best) {
        longest = std::max(longest, length);
      }
    };
    if (l)
      take(l->minPrefix, l->longestAtMin);
    if (r)
      take(sum(l) + n->delta + r->minPrefix, r->longestAtMin);
    n->total = sum(l) + n->delta + sum(r);
    n->minPrefix = best;
    n->longestAtMin = longest;
    return n;
  }
  Node *make(uint64_t begin, int64_t delta) {
    return pull(new (pool->allocate(sizeof(Node), alignof(Node)))
                    Node{begin, kNoEnd, delta, 0, 0, 0, nullptr, nullptr,
                         priorityOf(begin)});
  }
  /// Splits t into the change points below key and the others.
  static void split(Node *t, uint64_t key, Node *&below, Node *&rest) {
    Treap<Node, &pull>::split(t, key, below, rest);
  }
  static Node *join(Node *a, Node *b) { return Treap<Node, &pull>::join(a, b); }
  static uint64_t firstBegin(const Node *t) {
    while (t->left)
      t = t->left;
    return t->begin;
  }
  /// Sets the segment length of t's last change point.
  static void setLastLength(Node *t, uint64_t length) {
    if (t->right)
      setLastLength(t->right, length);
    else
      t->length = length;
    pull(t);
  }

  /// The net change at `at` grows by `delta`: the change point there is
  /// made, changed or removed, the segment before it ends where it now
  /// does, and the subtrees above both are recomputed along their paths.
  void change(uint64_t at, int64_t delta) {
    Node *path[kPathLimit];
    size_t depth = 0;
    Node **slot = &root;
    while (*slot && (*slot)->begin != at) {
      if (depth == kPathLimit)
        return changeBySplitting(at, delta);
      path[depth++] = *slot;
      slot = at < (*slot)->begin ? &(*slot)->left : &(*slot)->right;
    }
    if (Node *here = *slot) {
      here->delta += delta;
      if (here->delta != 0 || at == 0) {
        pull(here);
        pullPath(path, depth);
        return;
      }
      // Gone: the segment before it runs on over its own.
      const uint64_t length = here->length;
      *slot = join(here->left, here->right);
      pool->deallocate(here, sizeof(Node), alignof(Node));
      pullPath(path, depth);
      Node *previous = lastBelow(at);
      previous->length =
          length == kNoEnd ? kNoEnd : at - previous->begin + length;
      repull(previous->begin);
      return;
    }
    // New: it ends the segment before it, and runs to the next change point.
    const Node *next = firstAbove(at);
    Node *made = new (pool->allocate(sizeof(Node), alignof(Node)))
        Node{at, next ? next->begin - at : kNoEnd, delta, 0, 0, 0, nullptr,
             nullptr, priorityOf(at)};
    depth = 0;
    slot = &root;
    while (*slot && made->priority <= (*slot)->priority) {
      if (depth == kPathLimit) {
        pool->deallocate(made, sizeof(Node), alignof(Node));
        return changeBySplitting(at, delta);
      }
      path[depth++] = *slot;
      slot = at < (*slot)->begin ? &(*slot)->left : &(*slot)->right;
    }
    split(*slot, at, made->left, made->right);
    *slot = pull(made);
    pullPath(path, depth);
    Node *previous = lastBelow(at);
    previous->length = at - previous->begin;
    repull(previous->begin);
  }

  static void pullPath(Node *const *path, size_t depth) {
    while (depth > 0)
      pull(path[--depth]);
  }
  /// Recomputes the change point at `key` (which exists) and every subtree
  /// above it.
  void repull(uint64_t key) {
    Node *path[kPathLimit];
    size_t depth = 0;
    for (Node *n = root;; n = key < n->begin ? n->left : n->right) {
      if (depth == kPathLimit) {
        repullAll(root, key);
        return;
      }
      path[depth++] = n;
      if (n->begin == key)
        break;
    }
    pullPath(path, depth);
  }
  static void repullAll(Node *t, uint64_t key) {
    if (t->begin != key)
      repullAll(key < t->begin ? t->left : t->right, key);
    pull(t);
  }
  Node *firstAbove(uint64_t x) const {
    return Treap<Node, &pull>::firstAbove(root, x);
  }

  void changeBySplitting(uint64_t at, int64_t delta) {
    Node *below, *rest, *here, *above;
    split(root, at, below, rest);
    split(rest, at + 1, here, above);
    if (here) {
      here->delta += delta;
      if (here->delta == 0 && at != 0) {
        pool->deallocate(here, sizeof(Node), alignof(Node));
        here = nullptr;
      } else {
        pull(here);
      }
    } else {
      here = make(at, delta);
    }
    const uint64_t next = above ? firstBegin(above) : kNoEnd;
    if (here) {
      here->length = next == kNoEnd ? kNoEnd : next - at;
      pull(here);
    }
    if (below) {
      // The change point before `at` now runs to `at` or past it.
      Node *last = below;
      while (last->right)
        last = last->right;
      const uint64_t to = here ? at : next;
      setLastLength(below, to == kNoEnd ? kNoEnd : to - last->begin);
    }
    root = join(join(below, here), above);
  }

  Node *lastBelow(uint64_t x) const {
    return Treap<Node, &pull>::lastBelow(root, x);
  }
  /// Calls f for the bounded free runs beginning in [from, to].
  template <typename F> void forRuns(uint64_t from, uint64_t to, F f) {
    for (const Node *n = nextFree(root, 0, from, 1);
         n && n->begin <= to && n->length != kNoEnd;
         n = nextFree(root, 0, n->begin + 1, 1)) {
      ++work;
      f(n);
    }
  }

  Node *root;
  std::pmr::memory_resource *pool;
  bool trackRuns;
  std::set<std::pair<uint64_t, uint64_t>> runs; // (length, begin)
};
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
  return *impl->place(order, fit, nullptr, false);
}

std::optional<Plan> GreedyPlacer::place(const std::vector<uint32_t> &order,
                                        Fit fit, const Deadline &deadline) {
  return impl->place(order, fit, &deadline, false);
}

Plan GreedyPlacer::placeWithin(const std::vector<uint32_t> &order, Fit fit,
                               const Deadline &deadline) {
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

std::vector<DonePass> sweepPasses(const Problem &problem,
                                  const Deadline &deadline, Sweeps which) {
  GreedyPlacer placer(problem);
  std::vector<DonePass> done;
  // First-fit first: the cheaper of the two (no runs kept by length), so a
  // short limit still gets a plan of its own.  Backwards, best-fit first:
  // by then there is a plan, and best-fit is the stronger sweep.
  const std::pair<PassOrder, Fit> passes[] = {{PassOrder::Start, Fit::First},
                                              {PassOrder::Start, Fit::Best},
                                              {PassOrder::End, Fit::Best},
                                              {PassOrder::End, Fit::First}};
  const std::vector<uint32_t> byStart = placer.orderByStart(),
                              byEnd = placer.orderByEnd();
  const size_t from = which == Sweeps::End ? 2 : 0,
               to = which == Sweeps::Start ? 2 : std::size(passes);
  for (size_t k = from; k < to; ++k) {
    const auto &[order, fit] = passes[k];
    if (std::optional<Plan> p = placer.place(
            order == PassOrder::Start ? byStart : byEnd, fit, deadline))
      done.push_back({std::move(*p), order, fit});
  }
  return done;
}

Plan planBestFit(const Problem &problem, const Deadline *deadline,
                 const std::vector<DonePass> *done,
                 const Deadline *improveUntil) {
  // Of equal arenas greedy-by-size's wins, then the earlier in the order
  // of the passes below, whichever were made first: the order improved
  // after them does not depend on which passes `done` brought.
  auto rankOf = [](size_t o, Fit fit) {
    return 2 * (int)o + (fit == Fit::First);
  };
  Plan best;
  bool have = false;
  size_t bestOrder = 0;
  Fit bestFit = Fit::First;
  int bestRank = 0;
  // The order that placed `best` when it is not orders[bestOrder] (the
  // first improvement move, made before the passes), and whether that move
  // was tried on `best` without success.
  std::optional<std::vector<uint32_t>> improvedOrder;
  bool holesTried = false;
  auto consider = [&](Plan &&p, size_t o, Fit fit, int rank) {
    if (!have || p.arenaSize < best.arenaSize ||
        (p.arenaSize == best.arenaSize && rank < bestRank)) {
      best = std::move(p);
      have = true;
      bestOrder = o;
      bestFit = fit;
      bestRank = rank;
      improvedOrder.reset();
      holesTried = false;
    }
  };
  auto isDone = [&](size_t o, Fit fit) {
    if (done)
      for (const DonePass &d : *done)
        if ((size_t)d.order == o && d.fit == fit)
          return true;
    return false;
  };
  if (done)
    for (const DonePass &d : *done)
      consider(Plan(d.plan), (size_t)d.order, d.fit,
               d.order == PassOrder::Size && d.fit == Fit::First
                   ? -1
                   : rankOf((size_t)d.order, d.fit));
  if (have && deadline && deadline->passed())
    return best; // not even time for the orders
  // With improvement to follow, the passes get half of its window: on the
  // large problems where most buffers live at once the passes in other
  // orders than by start are slow and weak, and would leave nothing for
  // improving the best one.
  Deadline passesUntil;
  if (deadline)
    passesUntil = *deadline;
  if (deadline && improveUntil)
    passesUntil.at = std::min(
        deadline->at, Clock::now() + (improveUntil->at - Clock::now()) / 2);
  const Deadline *workUntil = deadline;
  deadline = deadline ? &passesUntil : nullptr;
  GreedyPlacer placer(problem);
  // Indexed by PassOrder.
  std::vector<std::vector<uint32_t>> orders;
  orders.push_back(placer.orderBySize());
  orders.push_back(placer.orderBySectionTotal());
  orders.push_back(placer.orderByArea());
  orders.push_back(placer.orderByLength());
  orders.push_back(placer.orderByDegree());
  orders.push_back(placer.orderByStart());
  orders.push_back(placer.orderByEnd());
  orders.push_back(placer.orderBySizeClassStart());
  orders.push_back(placer.orderBySizeClassEnd());
  // The users of the peak's holes of `best` (placed by `from`) first; true
  // when that plan is smaller, which then becomes `best`, its order
  // `improvedOrder`.
  auto holesFirst = [&](const std::vector<uint32_t> &from) {
    std::vector<uint32_t> trial = peakHoleUsersFirst(problem, best, from);
    if (trial.empty())
      return false;
    std::optional<Plan> p = placer.place(trial, bestFit, *improveUntil);
    if (!p || p->arenaSize >= best.arenaSize)
      return false;
    best = std::move(*p);
    improvedOrder = std::move(trial);
    return true;
  };
  // The first improvement move is made on the best plan `done` brought
  // before the passes: it is a single pass, and where it shrinks the plan
  // (pangu_2.6B: to the lower bound) the passes need not find another.
  // The improvement ends at the lower bound.
  const uint64_t lower = improveUntil ? alignedLowerBound(problem) : 0;
  if (improveUntil && have) {
    holesTried = !holesFirst(orders[bestOrder]);
    if (best.arenaSize <= lower)
      return best;
  }
  for (size_t o = 0; o < orders.size(); ++o) {
    for (Fit fit : {Fit::Best, Fit::First}) {
      if (isDone(o, fit))
        continue;
      std::optional<Plan> p;
      if (deadline && have) {
        if (deadline->passed())
          break;
        p = placer.place(orders[o], fit, *deadline); // nothing if cut short
      } else {
        p = placer.place(orders[o], fit);
      }
      if (p)
        consider(std::move(*p), o, fit, rankOf(o, fit));
    }
  }
  if (!have)
    best.offsets.assign(problem.buffers.size(), 0);
  if (!improveUntil)
    return best;
  // Improvement: the best order is changed and placed again.  First (on
  // the plan `done` brought, before the passes above; here when a pass made
  // a smaller one), and again after every move that shrinks the arena, the
  // buffers that use the holes of the plan's critical step go to the
  // front, in their order (peakHoleUsers); that plan is kept only when it
  // is smaller.  Then a buffer that reaches the arena's top is moved
  // earlier, and the new plan is kept when it is no larger (equal plans
  // move on along a plateau).  Those moves alternate between the culprit
  // latest in the order going to the front and, also after any move that
  // did not shrink the arena, a random culprit going just before a random
  // buffer placed earlier that lives with it and lies below it (it gets
  // first choice there).  Deterministic: a fixed generator.  When a search
  // follows (its deadline is later), it stops after a few moves that did
  // not make the arena smaller, so that the search gets the time; else it
  // goes on until its deadline.
  constexpr size_t kImproveTries = 4;
  const bool searchFollows = workUntil && improveUntil->at < workUntil->at;
  // Where a size-class order placed the best plan, its buffers above the
  // lower bound are what keeps it there: the small, long-lived buffers
  // placed last, for which no gap below stays free for their whole life.
  // Promotion passes (a squeaky wheel) count every buffer whose top lies
  // above the bound in the last pass one size class higher, so that it is
  // placed earlier and gets its pick of the gaps, and place the whole
  // order again; the order is learnt over the passes (long-62k-log:
  // +0.92 % to +0.35 % of the bound in 54 passes).  Moving one culprit at
  // a time does not reach a top that is flat over most of the steps.  They
  // go on while they pay (a smaller arena within kImproveTries passes);
  // the culprit moves then start from the best order.
  if (!improvedOrder && bestFit == Fit::First &&
      (bestOrder == (size_t)PassOrder::SizeClassStart ||
       bestOrder == (size_t)PassOrder::SizeClassEnd)) {
    const bool startOrder = bestOrder == (size_t)PassOrder::SizeClassStart;
    std::vector<int> promotion(problem.buffers.size(), 0);
    Plan last = best;
    size_t failures = 0;
    while (best.arenaSize > lower && !improveUntil->passed() &&
           failures < kImproveTries) {
      for (size_t i = 0; i < problem.buffers.size(); ++i)
        if (isActive(problem.buffers[i]) &&
            last.offsets[i] + problem.buffers[i].size > lower)
          ++promotion[i];
      std::vector<uint32_t> trial =
          startOrder ? placer.orderByPromotedClassStart(promotion)
                     : placer.orderByPromotedClassEnd(promotion);
      std::optional<Plan> p = placer.place(trial, Fit::First, *improveUntil);
      if (!p)
        break;
      failures = p->arenaSize < best.arenaSize ? 0 : failures + 1;
      if (p->arenaSize < best.arenaSize) {
        best = *p;
        improvedOrder = std::move(trial);
        holesTried = false;
      }
      last = std::move(*p);
    }
  }
  std::vector<uint32_t> order =
      improvedOrder ? std::move(*improvedOrder) : orders[bestOrder];
  size_t failures = 0;
  uint64_t rng = 0x2545f4914f6cdd1dULL;
  auto next = [&](uint64_t n) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng % n;
  };
  std::vector<uint32_t> position(problem.buffers.size(), 0);
  std::vector<uint32_t> culprits, below;
  size_t moves = 0;
  // Not again on the plan it did not shrink before the passes.
  bool holesMove = !holesTried;
  while (best.arenaSize > lower && !improveUntil->passed() &&
         (!searchFollows || failures < kImproveTries)) {
    // One that fails is not counted: the culprit moves then go on as they
    // would have without it.
    if (holesMove) {
      holesMove = holesFirst(order);
      if (holesMove) {
        failures = 0;
        order = std::move(*improvedOrder);
        continue;
      }
    }
    for (uint32_t k = 0; k < order.size(); ++k)
      position[order[k]] = k;
    culprits.clear();
    for (size_t i = 0; i < problem.buffers.size(); ++i)
      if (isActive(problem.buffers[i]) &&
          best.offsets[i] + problem.buffers[i].size == best.arenaSize &&
          position[i] > 0)
        culprits.push_back((uint32_t)i);
    if (culprits.empty())
      break;
    uint32_t culprit = culprits[0];
    for (uint32_t c : culprits)
      if (position[c] > position[culprit])
        culprit = c;
    uint32_t to = 0;
    if (failures > 0 || (++moves & 1) == 0) {
      // Just before a random buffer placed earlier that lies below the
      // culprit and lives with it: the culprit gets first choice there.
      culprit = culprits[next(culprits.size())];
      const Buffer &c = problem.buffers[culprit];
      below.clear();
      for (uint32_t k = 0; k < position[culprit]; ++k) {
        const Buffer &b = problem.buffers[order[k]];
        if (lifetimesOverlap(b, c) && best.offsets[order[k]] < best.offsets[culprit])
          below.push_back(k);
      }
      to = below.empty() ? (uint32_t)next(position[culprit])
                         : below[next(below.size())];
    }
    std::vector<uint32_t> trial = order;
    trial.erase(trial.begin() + position[culprit]);
    trial.insert(trial.begin() + to, culprit);
    std::optional<Plan> p = placer.place(trial, bestFit, *improveUntil);
    if (!p)
      break;
    failures = p->arenaSize < best.arenaSize ? 0 : failures + 1;
    holesMove = p->arenaSize < best.arenaSize;
    if (p->arenaSize <= best.arenaSize) {
      best = std::move(*p);
      order = std::move(trial);
    }
  }
  return best;
}

} // namespace cs349::planner::detail
