//===- MemoryUnionTest.cpp - Merged byte ranges against a byte map --------===//
//
// MemoryUnion on its own, against a map of which bytes are covered: random
// ranges added (merged, or apart and taken out again), and after each
// change every question the greedy placer asks, from every offset it may
// ask from (0 and the ends of ranges).
//
//===----------------------------------------------------------------------===//

#include "MemoryUnion.h"
#include "Lcg.h"
#include "NodeArena.h"

#include <gtest/gtest.h>

#include <set>
#include <utility>
#include <vector>

using namespace cs349::planner::detail;
using cs349::planner::test::Lcg;

namespace {

/// The bytes below this many are tested; ranges end below it.
constexpr uint64_t kUnionSpan = 160;

struct UnionByteMap {
  std::vector<int> covered = std::vector<int>(kUnionSpan + 64, 0);

  void set(uint64_t begin, uint64_t end, int value) {
    for (uint64_t x = begin; x < end; ++x)
      covered[x] = value;
  }
  /// The lowest y >= x with [y, y + size) uncovered.
  uint64_t lowestFit(uint64_t x, uint64_t size) const {
    for (uint64_t y = x;; ++y) {
      bool fits = true;
      for (uint64_t b = y; b < y + size && b < covered.size(); ++b)
        fits = fits && !covered[b];
      if (fits)
        return y;
    }
  }
  /// The first covered byte at or above y, or kNoEnd.
  uint64_t firstCovered(uint64_t y) const {
    for (uint64_t b = y; b < covered.size(); ++b)
      if (covered[b])
        return b;
    return kNoEnd;
  }
  uint64_t endOfCoveredRun(uint64_t x) const {
    while (x < covered.size() && covered[x])
      ++x;
    return x;
  }
};

/// Every question from x: the lowest fit of each size and where its free
/// run ends, where the covered run at x ends.
void expectUnionAnswers(const MemoryUnion &u, const UnionByteMap &map,
                        uint64_t x, bool touchingRanges) {
  for (uint64_t size : {1, 2, 3, 5, 8, 13, 30, 70}) {
    uint64_t freeEnd = 0;
    const uint64_t y = u.skipToFit(x, size, freeEnd);
    ASSERT_EQ(y, map.lowestFit(x, size)) << "x = " << x << ", size " << size;
    EXPECT_EQ(freeEnd, map.firstCovered(y)) << "x = " << x << ", size " << size;
  }
  if (!touchingRanges) // skipCovered reads merged ranges only
    EXPECT_EQ(u.skipCovered(x), map.endOfCoveredRun(x)) << "x = " << x;
}

TEST(MemoryUnionTest, MergedRangesAnswerLikeTheUnionByteMap) {
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    Lcg rng{seed};
    NodeArena pool;
    MemoryUnion u(&pool);
    UnionByteMap map;
    std::set<uint64_t> asked{0};
    EXPECT_TRUE(u.empty());
    for (int step = 0; step < 30; ++step) {
      const uint64_t begin = rng.below(kUnionSpan - 1);
      const uint64_t end =
          begin + 1 +
          rng.below(std::min<uint64_t>(kUnionSpan - begin, 1 + seed % 24));
      u.add(begin, end);
      map.set(begin, end, 1);
      asked.insert(end);
      for (uint64_t x : asked)
        expectUnionAnswers(u, map, x, /*touchingRanges=*/false);
      // nextBegin: the first byte above x that begins a covered run.
      for (uint64_t x = 0; x < kUnionSpan; ++x) {
        uint64_t expected = kNoEnd;
        for (uint64_t b = x + 1; b < kUnionSpan; ++b)
          if (map.covered[b] && !map.covered[b - 1]) {
            expected = b;
            break;
          }
        ASSERT_EQ(u.nextBegin(x), expected) << "seed " << seed << ", x " << x;
      }
    }
    EXPECT_FALSE(u.empty());
  }
}

TEST(MemoryUnionTest, RangesApartComeAndGo) {
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    Lcg rng{seed};
    NodeArena pool;
    MemoryUnion u(&pool);
    UnionByteMap map;
    std::vector<std::pair<uint64_t, uint64_t>> in; // the ranges added apart
    for (int step = 0; step < 60; ++step) {
      if (!in.empty() && rng.below(3) == 0) {
        const size_t k = rng.below(in.size());
        u.removeApart(in[k].first);
        map.set(in[k].first, in[k].second, 0);
        in.erase(in.begin() + k);
      } else {
        // A range that meets none in the union (it may touch one).
        const uint64_t begin = rng.below(kUnionSpan - 1);
        const uint64_t end = begin + 1 + rng.below(1 + seed % 16);
        bool meets = end > kUnionSpan;
        for (uint64_t b = begin; b < end && !meets; ++b)
          meets = map.covered[b] != 0;
        if (meets)
          continue;
        u.addApart(begin, end);
        map.set(begin, end, 1);
        in.push_back({begin, end});
      }
      std::set<uint64_t> asked{0};
      for (const auto &range : in)
        asked.insert(range.second);
      for (uint64_t x : asked)
        expectUnionAnswers(u, map, x, /*touchingRanges=*/true);
    }
  }
}

TEST(MemoryUnionTest, AddingAnOverlappingRangeMergesIt) {
  NodeArena pool;
  MemoryUnion u(&pool);
  u.add(10, 20);
  u.add(30, 40);
  u.add(15, 35); // joins both
  uint64_t freeEnd = 0;
  EXPECT_EQ(u.skipToFit(0, 10, freeEnd), 0u);
  EXPECT_EQ(freeEnd, 10u);
  EXPECT_EQ(u.skipToFit(0, 11, freeEnd), 40u);
  EXPECT_EQ(freeEnd, kNoEnd);
  EXPECT_EQ(u.skipCovered(12), 40u);
  EXPECT_EQ(u.nextBegin(0), 10u);
  EXPECT_EQ(u.nextBegin(10), kNoEnd);
}

} // namespace
