//===- MemoryScheduler.h - Memory-aware scheduling (no MLIR types) -*- C++ -*-===//
//
// Orders the nodes of a dependence graph so that the memory plan that follows
// needs fewer bytes. Plain C++17 (no LLVM/MLIR types), like the planner: the
// MLIR pass translates a function body into a Graph and the order back into
// IR, and the algorithms are unit-tested on their own.
//
// The peak model. Nodes run one per step; `order[t]` is the node run at step
// t. A buffer is written by its producer and is live from the producer's step
// to the step of its last consumer, both inclusive; a buffer with no consumer
// is live at its producer's step only, and a live-out buffer (a function
// result) stays live to the last step. The live bytes of a step are the sum of
// the sizes of the buffers live at it; the peak of an order is the largest of
// them. These are exactly the lifetimes `--plan-memory` gives each written
// result, so the peak is the lower bound of the plan that follows: no plan of
// that order can be smaller, and greedy-by-size usually reaches it.
//
//===----------------------------------------------------------------------===//

#ifndef CS349_SCHEDULER_MEMORYSCHEDULER_H
#define CS349_SCHEDULER_MEMORYSCHEDULER_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cs349::scheduler {

/// A result written to memory: produced by one node, read by `consumers`.
struct Buffer {
  int64_t producer = 0;
  uint64_t size = 0;
  /// The nodes that read the buffer (directly or through views); duplicates
  /// are allowed and mean nothing more than one entry.
  std::vector<int64_t> consumers;
  /// A function result: live until the last step.
  bool liveOut = false;
};

/// A dependence graph with nodes 0 .. numNodes-1. Node ids are the input
/// order, which must respect every dependence: a buffer's consumers come
/// after its producer and every ordering edge points forward. This is what a
/// block of SSA IR gives and what validate() checks.
struct Graph {
  int64_t numNodes = 0;
  std::vector<Buffer> buffers;
  /// Dependences that carry no memory (before, after), e.g. between two ops
  /// with side effects.
  std::vector<std::pair<int64_t, int64_t>> orderEdges;
};

/// A schedule: order[t] is the node run at step t.
using Order = std::vector<int64_t>;

/// Why `graph` is not a valid input, or nullopt if it is.
std::optional<std::string> validate(const Graph &graph);

/// The input order 0, 1, ..., numNodes-1.
Order inputOrder(const Graph &graph);

/// True iff `order` is a permutation of the nodes that respects every
/// dependence.
bool isTopologicalOrder(const Graph &graph, const Order &order);

/// Live bytes at each step of `order` (see the peak model above).
std::vector<uint64_t> liveProfile(const Graph &graph, const Order &order);

/// The largest entry of liveProfile(): the peak of `order`.
uint64_t peakMemory(const Graph &graph, const Order &order);

/// The sum of liveProfile(): byte-steps, the tie-breaker between orders of
/// equal peak (less means buffers are freed sooner).
uint64_t liveArea(const Graph &graph, const Order &order);

/// A bound no order can beat: the largest, over nodes, of the bytes a node
/// reads plus the bytes it writes (all are live at its step in any order).
uint64_t orderIndependentLowerBound(const Graph &graph);

//===----------------------------------------------------------------------===//
// Algorithms
//===----------------------------------------------------------------------===//

/// XLA's DFS memory scheduler: a post-order depth-first walk from the sinks
/// that visits the operands with more extra users and then larger transitive
/// sizes first, so that a big subtree is finished (and its temporaries freed)
/// before the next one starts. `sortSinks` also orders the sinks that way
/// (otherwise they are walked in input order).
Order dfsOrder(const Graph &graph, bool sortSinks = false);

/// XLA's list scheduler: among the ready nodes, run the one that frees the
/// most bytes net of the bytes it writes; ties go to more consumers, then to
/// the input order.
Order listOrder(const Graph &graph);

/// TorchInductor's least-peak-memory-first (reorder_for_peak_memory): among
/// the ready nodes whose step stays under the peak so far, run the one that
/// leaves the fewest bytes live after it; if none stays under, run the one
/// with the smallest step.
Order lpmfOrder(const Graph &graph);

struct ExhaustiveOptions {
  /// Give up (return nullopt) after this many distinct search states.
  uint64_t maxStates = 200000;
  /// Only orders with a peak below this are searched for; the default
  /// searches everything. Callers pass the peak of a known order so that the
  /// search prunes everything at least as bad.
  uint64_t upperBound = UINT64_MAX;
};

struct ExhaustiveResult {
  /// An order of least peak, or empty when no order beats `upperBound` (the
  /// order that gave the bound is then optimal).
  Order order;
  uint64_t peak = 0;
  /// Distinct search states (scheduled-node sets) visited.
  uint64_t states = 0;
};

/// The optimal peak, by dynamic programming over the sets of scheduled nodes:
/// the bytes live after a set do not depend on the order that ran it, so the
/// best peak to reach a set is memoised once per set; sets whose peak already
/// reaches the upper bound are cut. Exponential in the width of the graph:
/// returns nullopt when more than `maxStates` states would be needed.
std::optional<ExhaustiveResult>
exhaustiveOrder(const Graph &graph, const ExhaustiveOptions &options = {});

enum class Algorithm { DFS, List, LPMF, Exhaustive, Best };

/// Parses "dfs", "list", "lpmf", "exhaustive", "best".
std::optional<Algorithm> parseAlgorithm(std::string_view name);
std::string_view algorithmName(Algorithm algorithm);
std::vector<Algorithm> allAlgorithms();

struct ScheduleOptions {
  Algorithm algorithm = Algorithm::Best;
  /// State limit of the exhaustive search (Exhaustive and Best).
  uint64_t maxStates = 200000;
};

struct Schedule {
  Order order;
  uint64_t inputPeak = 0;
  uint64_t peak = 0;
  /// What produced `order`: "input" when nothing beat the input order, else
  /// the winning algorithm ("dfs", "dfs-sorted-sinks", "list", "lpmf",
  /// "exhaustive").
  std::string source;
  /// True when the exhaustive search proved `peak` optimal.
  bool optimal = false;
};

/// Runs `options.algorithm` and keeps the best of its candidates and the
/// input order by (peak, live area); the input order wins ties, so the result
/// is never worse than the input. Best tries every heuristic and, when the
/// graph is small enough for `maxStates`, the exhaustive search. Fails (with
/// a message) on an invalid graph and when Exhaustive was asked for
/// explicitly but ran out of states.
struct ScheduleResult {
  std::optional<Schedule> schedule;
  std::string error;
};
ScheduleResult schedule(const Graph &graph, const ScheduleOptions &options);

} // namespace cs349::scheduler

#endif // CS349_SCHEDULER_MEMORYSCHEDULER_H
