//===- GreedyBySizeTest.cpp - greedy-by-size's contract -------------------===//
//
// What greedy-by-size must do, case by case (the contract is in
// lib/Planner/GreedyBySize.cpp); exercises/greedy-by-size grades a student's
// GreedyBySize.cpp with these tests.
//
//===----------------------------------------------------------------------===//

#include "cs349/Planner/MemoryPlanner.h"

#include "PlannerImpl.h"

#include <gtest/gtest.h>

using namespace cs349::planner;
using cs349::planner::detail::greedyBySize;

namespace {

Problem problemOf(std::vector<Buffer> buffers, uint64_t alignment = 1) {
  Problem problem;
  problem.buffers = std::move(buffers);
  problem.alignment = alignment;
  return problem;
}

TEST(GreedyBySize, EmptyProblem) {
  Plan plan = greedyBySize(Problem{});
  EXPECT_TRUE(plan.offsets.empty());
  EXPECT_EQ(plan.arenaSize, 0u);
}

TEST(GreedyBySize, ValidPlansOnRandomProblems) {
  uint64_t state = 7;
  auto next = [&] { return state = state * 6364136223846793005ull + 1442695040888963407ull; };
  for (int round = 0; round < 100; ++round) {
    std::vector<Buffer> buffers;
    int count = 1 + next() % 40;
    for (int i = 0; i < count; ++i) {
      int64_t start = next() % 20;
      buffers.push_back({i, start, start + 1 + int64_t(next() % 8), 1 + next() % 100});
    }
    Problem problem = problemOf(buffers, uint64_t(1) << (next() % 4));
    Plan plan = greedyBySize(problem);
    ASSERT_EQ(plan.offsets.size(), buffers.size());
    EXPECT_TRUE(verify(problem, plan).empty());
  }
}

TEST(GreedyBySize, ReusesMemoryOfDeadBuffers) {
  // a [0,2) and b [2,4) never live together: both at offset 0.
  Plan plan = greedyBySize(problemOf({{0, 0, 2, 100}, {1, 2, 4, 100}}));
  EXPECT_EQ(plan.offsets, (std::vector<uint64_t>{0, 0}));
  EXPECT_EQ(plan.arenaSize, 100u);
}

TEST(GreedyBySize, LargestFirstAtTheLowestOffset) {
  // The lecture's example: sizes 4, 8, 2 live together, then 6 alone with
  // the 2. Largest first: 8 at 0, 4 at 8, 2 at 12; then 6 fits at 0.
  Plan plan = greedyBySize(problemOf(
      {{0, 0, 3, 4}, {1, 0, 2, 8}, {2, 1, 5, 2}, {3, 3, 5, 6}}));
  EXPECT_EQ(plan.offsets, (std::vector<uint64_t>{8, 0, 12, 0}));
  EXPECT_EQ(plan.arenaSize, 14u);
}

TEST(GreedyBySize, FillsAGapBetweenPlacedBlocks) {
  // 10 at 0 and 10 at 20 (a [0,1) 10-byte block between them ends early):
  // a later 5-byte buffer goes into the gap at 10, not on top.
  Plan plan = greedyBySize(problemOf({{0, 0, 4, 10},
                                      {1, 0, 1, 10},
                                      {2, 0, 4, 10},
                                      {3, 2, 4, 5}}));
  EXPECT_EQ(plan.offsets, (std::vector<uint64_t>{0, 10, 20, 10}));
  EXPECT_EQ(plan.arenaSize, 30u);
}

TEST(GreedyBySize, OffsetsAreAligned) {
  // 100 at 0, then 30 at the next multiple of 64 after 100, then 7 after it.
  Plan plan = greedyBySize(problemOf({{0, 0, 2, 30}, {1, 0, 2, 100}, {2, 0, 2, 7}}, 64));
  EXPECT_EQ(plan.offsets, (std::vector<uint64_t>{128, 0, 192}));
  EXPECT_EQ(plan.arenaSize, 199u);
}

TEST(GreedyBySize, TiesGoToEarlierStartThenId) {
  // Equal sizes, all live together: placed by start, then id.
  Plan plan = greedyBySize(problemOf({{5, 1, 4, 8}, {3, 0, 4, 8}, {4, 0, 4, 8}}));
  EXPECT_EQ(plan.offsets, (std::vector<uint64_t>{16, 0, 8}));
}

TEST(GreedyBySize, InactiveBuffersAreNotPlaced) {
  // Empty lifetime or size 0: offset 0, and they block nothing (the arena
  // still covers every buffer's offset + size, as the contract says).
  Plan plan = greedyBySize(problemOf({{0, 3, 3, 50}, {1, 0, 2, 0}, {2, 0, 4, 10}}));
  EXPECT_EQ(plan.offsets, (std::vector<uint64_t>{0, 0, 0}));
  EXPECT_EQ(plan.arenaSize, 50u);
}

} // namespace
