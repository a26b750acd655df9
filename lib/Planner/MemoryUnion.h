//===- MemoryUnion.h - Merged byte ranges with free runs --------*- C++ -*-===//
//
// Private to lib/Planner.  Plain C++17.
//
//===----------------------------------------------------------------------===//

#ifndef CS349_LIB_PLANNER_MEMORYUNION_H
#define CS349_LIB_PLANNER_MEMORYUNION_H

#include "Treap.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory_resource>
#include <new>

namespace cs349::planner::detail {

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

} // namespace cs349::planner::detail

#endif // CS349_LIB_PLANNER_MEMORYUNION_H
