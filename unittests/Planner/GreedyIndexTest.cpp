//===- GreedyIndexTest.cpp - Every placement index gives the same plans ---===//
//
// The GreedyPlacer's indexes (scan, unions, counts, runs, points, the
// automatic choice) against a quadratic reference written from the
// definition of first-fit and best-fit, on random problems shaped so that
// each index is exercised:
// most buffers live at once, all live to the end, short lifetimes, tied
// sizes, alignments that do not divide the sizes.
//
//===----------------------------------------------------------------------===//

#include "Lcg.h"
#include "PlannerImpl.h"
#include "cs349/Planner/MemoryPlanner.h"
#include "cs349/Planner/ProblemIO.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace cs349::planner;
using namespace cs349::planner::detail;
using cs349::planner::test::Lcg;

namespace {

/// The position of each buffer of `order`, placed one by one against every
/// placed buffer whose lifetime overlaps (all of them compared).
std::vector<uint64_t> referencePlacement(const Problem &p,
                                         const std::vector<uint32_t> &order,
                                         Fit fit) {
  const uint64_t align = effectiveAlignment(p);
  std::vector<uint64_t> offsets(p.buffers.size(), 0);
  std::vector<uint32_t> placed;
  for (uint32_t i : order) {
    const Buffer &b = p.buffers[i];
    if (!isActive(b))
      continue;
    std::vector<std::pair<uint64_t, uint64_t>> blocks;
    for (uint32_t j : placed)
      if (lifetimesOverlap(b, p.buffers[j]))
        blocks.push_back({offsets[j], offsets[j] + p.buffers[j].size});
    std::sort(blocks.begin(), blocks.end());
    uint64_t cur = 0, chosen = 0, bestGap = UINT64_MAX;
    bool found = false;
    for (const auto &[off, top] : blocks) {
      uint64_t cand = alignUp(cur, align);
      if (cand + b.size <= off) {
        if (fit == Fit::First) {
          chosen = cand;
          found = true;
          break;
        }
        if (off - cand < bestGap) {
          bestGap = off - cand;
          chosen = cand;
          found = true;
        }
      }
      cur = std::max(cur, top);
    }
    offsets[i] = found ? chosen : alignUp(cur, align);
    placed.push_back(i);
  }
  return offsets;
}

Problem randomProblem(uint64_t seed) {
  Lcg rng{seed * 7919 + 1};
  Problem p;
  const size_t n = 200 + rng.below(500);
  const int shape = (int)(seed % 4);
  const uint64_t sizes = 1 + rng.below(12); // few distinct sizes: ties
  p.alignment = uint64_t(1) << rng.below(7);
  for (size_t i = 0; i < n; ++i) {
    int64_t start = (int64_t)i, end;
    switch (shape) {
    case 0: // until a random later step
      end = start + 1 + (int64_t)rng.below(n);
      break;
    case 1: // to the end, a few die early
      end = rng.below(20) == 0 ? start + 1 + (int64_t)rng.below(8)
                               : (int64_t)n + 1;
      break;
    case 2: // short
      end = start + 1 + (int64_t)rng.below(16);
      break;
    default: // all live at once, random starts
      start = (int64_t)rng.below(4);
      end = (int64_t)n - (int64_t)rng.below(4);
      break;
    }
    uint64_t size = 1 + rng.below(sizes) * (1 + rng.below(3000));
    if (rng.below(50) == 0)
      size = 0; // inactive
    p.buffers.push_back({(int64_t)i, start, end, size});
  }
  return p;
}

TEST(GreedyIndex, EveryIndexMatchesTheQuadraticReference) {
  for (uint64_t seed = 0; seed < 24; ++seed) {
    Problem p = randomProblem(seed);
    GreedyPlacer scan(p, GreedyPlacer::Index::Scan);
    const std::vector<std::vector<uint32_t>> orders = {
        scan.orderBySize(), scan.orderByStart(), scan.orderByEnd(),
        scan.orderByLength(), scan.orderBySizeClassStart(),
        scan.orderBySizeClassEnd()};
    std::vector<std::vector<uint64_t>> expected;
    for (const std::vector<uint32_t> &order : orders)
      for (Fit fit : {Fit::First, Fit::Best})
        expected.push_back(referencePlacement(p, order, fit));
    for (GreedyPlacer::Index index :
         {GreedyPlacer::Index::Auto, GreedyPlacer::Index::Scan,
          GreedyPlacer::Index::Unions, GreedyPlacer::Index::Counts,
          GreedyPlacer::Index::Runs, GreedyPlacer::Index::Points}) {
      GreedyPlacer placer(p, index);
      for (size_t o = 0; o < orders.size(); ++o)
        for (Fit fit : {Fit::First, Fit::Best}) {
          Plan got = placer.place(orders[o], fit);
          ASSERT_EQ(got.offsets, expected[2 * o + (fit == Fit::Best)])
              << "seed " << seed << " index " << (int)index << " order " << o
              << (fit == Fit::First ? " first" : " best");
          EXPECT_TRUE(verify(p, got).empty());
        }
    }
  }
}

TEST(GreedyIndex, CountsOnGeneratedLargeShapes) {
  // The generator's shapes where most buffers live at once, big enough that
  // the automatic choice leaves the scan.
  using L = GenerateOptions::Lifetimes;
  for (L shape : {L::Long, L::ToEnd, L::Training}) {
    GenerateOptions options;
    options.lifetimes = shape;
    options.sizes = GenerateOptions::Sizes::Few;
    Problem p = generateProblem(1500, 5, options);
    p.alignment = 64;
    GreedyPlacer autoPlacer(p), counts(p, GreedyPlacer::Index::Counts);
    const std::vector<uint32_t> order = autoPlacer.orderBySize();
    const std::vector<uint64_t> expected =
        referencePlacement(p, order, Fit::First);
    EXPECT_EQ(autoPlacer.place(order, Fit::First).offsets, expected)
        << (int)shape;
    EXPECT_EQ(counts.place(order, Fit::First).offsets, expected) << (int)shape;
    EXPECT_EQ(greedyBySize(p).offsets, expected) << (int)shape;
  }
}

TEST(GreedyIndex, CountsDroppedAndBuiltAgain) {
  // In greedy-by-size order: 300 large buffers all live at one step (the
  // count index answers the placements past the 256th), 600 medium ones
  // each alone at a step of its own before it (no query asks the counts,
  // which are dropped after 256 updates), then 200 small ones at the first
  // step again. Their lifetime holds none of the point index's steps, so
  // they are scanned until the scans have cost what building the counts
  // takes, and the counts are built again.
  Problem p;
  p.alignment = 64;
  int64_t id = 0;
  for (int i = 0; i < 300; ++i)
    p.buffers.push_back({id++, 1300, 1301, 1000000 + 1000 * (uint64_t)i});
  for (int i = 0; i < 600; ++i)
    p.buffers.push_back({id++, 2 * i, 2 * i + 1, 10000 + 10 * (uint64_t)i});
  for (int i = 0; i < 200; ++i)
    p.buffers.push_back({id++, 1300, 1301, 100 + (uint64_t)i});
  GreedyPlacer placer(p);
  const std::vector<uint32_t> order = placer.orderBySize();
  EXPECT_EQ(placer.place(order, Fit::First).offsets,
            referencePlacement(p, order, Fit::First));
  EXPECT_EQ(placer.countIndexBuilds(), 2u);
}

} // namespace
