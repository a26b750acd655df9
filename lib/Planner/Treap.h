//===- Treap.h - Treaps of the placement indexes ----------------*- C++ -*-===//
//
// Private to lib/Planner.  Plain C++17.
//
// The placement indexes of the greedy placer (MemoryUnion, CoverCounts) are
// treaps: search trees by offset, heap-ordered by a priority that hashes
// the offset, so that they stay shallow without rebalancing and the same
// blocks always give the same tree.
//
//===----------------------------------------------------------------------===//

#ifndef CS349_LIB_PLANNER_TREAP_H
#define CS349_LIB_PLANNER_TREAP_H

#include "cs349/Support/SplitMix64.h"

#include <cstddef>
#include <cstdint>
#include <limits>

namespace cs349::planner::detail {

/// An end above every offset: the free run above the highest block.
constexpr uint64_t kNoEnd = std::numeric_limits<uint64_t>::max();

/// A treap node's priority: SplitMix64's finalizer of its key,
/// deterministic and well spread.
inline uint64_t priorityOf(uint64_t key) { return ::cs349::mixBits(key); }

/// Random priorities keep a treap of millions of nodes under 100 levels
/// deep; the updates that keep their path from the root handle a deeper
/// one the recursive way.
constexpr size_t kPathLimit = 128;

/// Split, join and searches of a treap ordered by `begin` and heap-ordered
/// by `priority`, for MemoryUnion and CoverCounts: `Pull` recomputes a
/// node's subtree summary from its children.
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

} // namespace cs349::planner::detail

#endif // CS349_LIB_PLANNER_TREAP_H
