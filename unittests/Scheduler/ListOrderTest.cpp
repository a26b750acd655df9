//===- ListOrderTest.cpp - the list scheduler's contract ------------------===//
//
// What listOrder must do, case by case; exercises/list-scheduler grades a
// student's ListScheduler.cpp with these tests.
//
//===----------------------------------------------------------------------===//

#include "cs349/Scheduler/MemoryScheduler.h"

#include "TestGraphs.h"

#include <gtest/gtest.h>

using namespace cs349::scheduler;
using namespace cs349::scheduler::testing;

namespace {

TEST(ListOrder, EmptyGraph) {
  Graph empty;
  EXPECT_TRUE(listOrder(empty).empty());
}

TEST(ListOrder, TopologicalOnRandomGraphs) {
  Rng rng{2024};
  for (int i = 0; i < 200; ++i) {
    Graph g = randomGraph(rng, 1 + rng.below(60));
    EXPECT_TRUE(isTopologicalOrder(g, listOrder(g)));
  }
}

TEST(ListOrder, RespectsOrderingEdges) {
  // Node 1 frees the most, but an ordering edge (no memory) puts node 2 first.
  Builder b;
  int64_t x = b.add(100);
  b.add(1, {x});
  b.add(1);
  b.graph.orderEdges.push_back({2, 1});
  Order order = listOrder(b.graph);
  EXPECT_TRUE(isTopologicalOrder(b.graph, order));
}

TEST(ListOrder, RunsTheNodeThatFreesMostNetOfWhatItWrites) {
  // After node 0, nodes 1 (writes 50, after node 0 by an ordering edge) and
  // 2 (reads a, the last reader, writes 5) are ready: running 2 frees a's
  // 100 bytes for 5 written, running 1 frees nothing for 50.
  Builder b;
  int64_t a = b.add(100);
  b.add(50, {}, /*liveOut=*/true);
  b.add(5, {a}, /*liveOut=*/true);
  b.graph.orderEdges.push_back({0, 1});
  EXPECT_EQ(listOrder(b.graph), (Order{0, 2, 1}));

  // Nodes 0 (writes 100) and 1 (writes 50) are ready and free nothing: the
  // one that adds fewer live bytes runs first.
  Builder c;
  int64_t big = c.add(100);
  c.add(50, {}, /*liveOut=*/true);
  c.add(5, {big}, /*liveOut=*/true);
  EXPECT_EQ(listOrder(c.graph), (Order{1, 0, 2}));
}

TEST(ListOrder, FinishesABranchBeforeStartingTheNext) {
  // Two branches x_i = big_i -> small_i: the list scheduler runs small_0
  // (freeing big_0) before big_1, so at most one big buffer is live.
  Builder b;
  int64_t big0 = b.add(1000);
  int64_t big1 = b.add(1000);
  b.add(1, {big0}, true);
  b.add(1, {big1}, true);
  Order order = listOrder(b.graph);
  ASSERT_TRUE(isTopologicalOrder(b.graph, order));
  EXPECT_EQ(peakMemory(b.graph, order), 1001u + 1u);
  EXPECT_LT(peakMemory(b.graph, order), peakMemory(b.graph, inputOrder(b.graph)));
}

TEST(ListOrder, TiesGoToMoreReadersThenInputOrder) {
  // Nodes 0, 1 and 2 are ready, write 10 bytes each and free nothing: node 1
  // has two readers, the others one; node 0 comes before node 2.
  Builder b;
  int64_t a = b.add(10);
  int64_t c = b.add(10);
  int64_t d = b.add(10);
  b.add(1, {c}, true);
  b.add(1, {c, a, d}, true);
  Order order = listOrder(b.graph);
  ASSERT_GE(order.size(), 3u);
  EXPECT_EQ(order[0], 1);
}

TEST(ListOrder, BranchesDemoReachesTheDepthFirstPeak) {
  // The order demo's shape, written breadth first: k branches, each a big
  // matmul output, a big activation and a small row sum, all sums added at
  // the end. Breadth first keeps every big output live; the list scheduler
  // finishes a branch (freeing its big buffers) before starting the next.
  const int k = 4;
  Builder b;
  int64_t x = b.add(64);
  std::vector<int64_t> bigs, activations, sums;
  for (int i = 0; i < k; ++i)
    bigs.push_back(b.add(4096, {x}));
  for (int i = 0; i < k; ++i)
    activations.push_back(b.add(4096, {bigs[i]}));
  for (int i = 0; i < k; ++i)
    sums.push_back(b.add(16, {activations[i]}));
  b.add(16, sums, true);
  Order order = listOrder(b.graph);
  ASSERT_TRUE(isTopologicalOrder(b.graph, order));
  // x, one branch's two big buffers and the sums of the two branches before.
  EXPECT_EQ(peakMemory(b.graph, order), 64u + 4096u + 4096u + 16u * 2);
  EXPECT_GT(peakMemory(b.graph, inputOrder(b.graph)), 4u * 4096u);
}

TEST(ListOrder, NeverWorseThanInputOrderOnChains) {
  Rng rng{99};
  for (int i = 0; i < 50; ++i) {
    Builder b;
    int64_t prev = b.add(1 + rng.below(100));
    int64_t n = 2 + rng.below(20);
    for (int64_t v = 1; v < n; ++v)
      prev = b.add(1 + rng.below(100), {prev}, v + 1 == n);
    EXPECT_EQ(listOrder(b.graph), inputOrder(b.graph));
  }
}

} // namespace
