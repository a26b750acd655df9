//===- CoverCountsTest.cpp - Cover counts against counted bytes -----------===//
//
// CoverCounts on its own, against a count per byte: random blocks added and
// taken out again, overlapping and stacked, and after each change the
// first-fit and best-fit answers it gives, with and without the runs kept
// by length.
//
//===----------------------------------------------------------------------===//

#include "CoverCounts.h"
#include "Lcg.h"
#include "NodeArena.h"

#include <gtest/gtest.h>

#include <tuple>
#include <vector>

using namespace cs349::planner::detail;
using cs349::planner::test::Lcg;

namespace {

constexpr uint64_t kCountSpan = 160;

struct CountedBytes {
  std::vector<int64_t> count = std::vector<int64_t>(kCountSpan + 80, 0);

  void add(uint64_t begin, uint64_t end, int64_t delta) {
    for (uint64_t x = begin; x < end; ++x)
      count[x] += delta;
  }
  /// The lowest offset starting `size` uncovered bytes (the bytes above
  /// the map are uncovered).
  uint64_t firstFree(uint64_t size) const {
    for (uint64_t y = 0;; ++y) {
      bool free = true;
      for (uint64_t b = y; b < y + size && b < count.size(); ++b)
        free = free && count[b] == 0;
      if (free)
        return y;
    }
  }
  /// Best fit: the shortest run of uncovered bytes below a covered one that
  /// holds `size` (the lowest of equal ones), else where the uncovered
  /// bytes above the highest covered one begin.
  uint64_t bestFree(uint64_t size) const {
    uint64_t top = 0;
    for (uint64_t b = 0; b < count.size(); ++b)
      if (count[b] != 0)
        top = b + 1;
    std::tuple<bool, uint64_t, uint64_t> best{false, 0, 0}; // found, len, at
    for (uint64_t b = 0; b < top;) {
      if (count[b] != 0) {
        ++b;
        continue;
      }
      uint64_t e = b;
      while (count[e] == 0)
        ++e;
      const uint64_t length = e - b;
      if (length >= size && (!std::get<0>(best) || length < std::get<1>(best)))
        best = {true, length, b};
      b = e;
    }
    return std::get<0>(best) ? std::get<2>(best) : top;
  }
};

struct CountedBlock {
  uint64_t begin, end;
  int32_t delta;
};

void checkRandomCountedBlocks(bool trackRuns) {
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    Lcg rng{seed};
    NodeArena pool;
    CoverCounts counts(&pool, trackRuns);
    CountedBytes reference;
    std::vector<CountedBlock> in;
    for (int step = 0; step < 80; ++step) {
      if (!in.empty() && rng.below(5) < 2) {
        const size_t k = rng.below(in.size());
        counts.add(in[k].begin, in[k].end, -in[k].delta);
        reference.add(in[k].begin, in[k].end, -in[k].delta);
        in.erase(in.begin() + k);
      } else {
        const uint64_t begin = rng.below(kCountSpan - 1);
        const uint64_t end =
            begin + 1 +
            rng.below(std::min<uint64_t>(kCountSpan - begin, 1 + seed % 30));
        const int32_t delta = 1 + (int32_t)rng.below(2);
        counts.add(begin, end, delta);
        reference.add(begin, end, delta);
        in.push_back({begin, end, delta});
      }
      for (uint64_t size : {1, 2, 3, 5, 8, 13, 30, 70}) {
        ASSERT_EQ(counts.firstFree(size), reference.firstFree(size))
            << "seed " << seed << ", step " << step << ", size " << size;
        if (trackRuns)
          ASSERT_EQ(counts.bestFreeTracked(size), reference.bestFree(size))
              << "seed " << seed << ", step " << step << ", size " << size;
      }
    }
  }
}

TEST(CoverCountsTest, FirstFreeRunAsCounted) {
  checkRandomCountedBlocks(false);
}

TEST(CoverCountsTest, TrackedRunsGiveTheBestFit) {
  checkRandomCountedBlocks(true);
}

TEST(CoverCountsTest, BlocksTakenOutLeaveNoTrace) {
  NodeArena pool;
  CoverCounts counts(&pool, /*trackRuns=*/true);
  counts.add(0, 10, 1);
  counts.add(20, 30, 1);
  EXPECT_EQ(counts.firstFree(10), 10u);
  EXPECT_EQ(counts.firstFree(11), 30u);
  EXPECT_EQ(counts.bestFreeTracked(5), 10u);
  counts.add(0, 10, -1);
  EXPECT_EQ(counts.firstFree(11), 0u); // [0, 20) is free again
  EXPECT_EQ(counts.bestFreeTracked(21), 30u);
  counts.add(20, 30, -1);
  EXPECT_EQ(counts.firstFree(1000), 0u);
  EXPECT_EQ(counts.bestFreeTracked(1), 0u);
}

} // namespace
