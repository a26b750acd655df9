//===- CoverCounts.h - How many placed blocks cover each byte ---*- C++ -*-===//
//
// Private to lib/Planner.  Plain C++17.
//
//===----------------------------------------------------------------------===//

#ifndef CS349_LIB_PLANNER_COVERCOUNTS_H
#define CS349_LIB_PLANNER_COVERCOUNTS_H

#include "Treap.h"

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <memory_resource>
#include <new>
#include <set>
#include <utility>

namespace cs349::planner::detail {

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

} // namespace cs349::planner::detail

#endif // CS349_LIB_PLANNER_COVERCOUNTS_H
