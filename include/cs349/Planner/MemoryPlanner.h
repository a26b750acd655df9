//===- MemoryPlanner.h - Static memory planning (no MLIR types) -*- C++ -*-===//
//
// The static memory planner of cs349: lifetime intervals in, arena offsets
// out.  This header is plain C++17 (no LLVM/MLIR types) so that the planner can
// be unit-tested and reused on its own; the MLIR pass translates IR to these
// structs and back.
//
// A buffer is live on the half-open interval [start, end) of time steps.  Two
// buffers conflict iff a.start < b.end && b.start < a.end; conflicting buffers
// must not overlap in memory.  Buffers with start >= end conflict with nothing
// and buffers of size 0 occupy no memory (both get offset 0).
//
//===----------------------------------------------------------------------===//

#ifndef CS349_PLANNER_MEMORYPLANNER_H
#define CS349_PLANNER_MEMORYPLANNER_H

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cs349::planner {

/// One buffer to place.  Live on [start, end); needs `size` bytes.
struct Buffer {
  int64_t id = 0;
  int64_t start = 0;
  int64_t end = 0;
  uint64_t size = 0;
};

/// Two buffers conflict (may not share memory) iff their lifetimes overlap.
inline bool lifetimesOverlap(const Buffer &a, const Buffer &b) {
  return a.start < b.end && b.start < a.end;
}

/// A planning problem: every offset must be a multiple of `alignment` (values
/// below 1 are treated as 1).
struct Problem {
  std::vector<Buffer> buffers;
  uint64_t alignment = 1;
};

/// A plan: `offsets` is parallel to Problem::buffers; `arenaSize` is
/// max(offset + size) over all buffers, 0 for an empty problem.
struct Plan {
  std::vector<uint64_t> offsets;
  uint64_t arenaSize = 0;
};

/// Placement strategies.
///  - Naive:        no reuse, buffers end to end in input order.
///  - GreedyBySize: the lecture's greedy: largest first, lowest aligned offset
///                  that clashes with no placed lifetime-overlapping block.
///  - BestFit:      greedy placement (first-fit and best-fit gap choice) over
///                  several orderings (size, area, lifetime, start, end,
///                  conflict degree, section total); the smallest plan wins.
///  - Search:       MiniMalloc-style branch and bound over canonical
///                  solutions, bisecting on the arena capacity, started from
///                  the greedy-by-size plan.  Anytime: stops at the time limit
///                  or when it reaches the lower bound.
///  - Best:         all of the above within the time limit, the smallest
///                  plan kept: the sweeps of BestFit in start order (fast
///                  however many buffers live at once), time-fit over size
///                  classes (each buffer, among the lowest gaps, where it
///                  leaves the least free time unused; docs/planner.md),
///                  first-fit over size classes, the end-order sweeps,
///                  greedy-by-size (given up when behind the pace that
///                  finishes it in time; a greedy pass cut short stacks what
///                  it could not place), the other passes, improvement,
///                  search.
enum class Strategy { Naive, GreedyBySize, BestFit, Search, Best };

/// Parses "naive", "greedy-by-size", "best-fit", "search", "best".
std::optional<Strategy> parseStrategy(std::string_view name);
/// The command-line name of a strategy.
std::string_view strategyName(Strategy strategy);
/// Every strategy, in declaration order (for --help and benchmarks).
std::vector<Strategy> allStrategies();
/// The names of every strategy, in declaration order.
std::vector<std::string_view> strategyNames();

struct PlanOptions {
  Strategy strategy = Strategy::GreedyBySize;
  /// Wall-clock budget of the search strategies (Search, Best), seconds.
  double timeLimitSeconds = 1.0;
  /// Reserved for randomized strategies (none is randomized today).
  uint64_t seed = 0;
};

/// The largest arena, and so the largest offset + size, a plan may have:
/// memory is addressed with signed 64-bit byte offsets (ptrdiff_t, MLIR's
/// memref sizes).  The largest power-of-two alignment below it is 2^62.
constexpr uint64_t kMaxArenaBytes = 0x7fffffffffffffffULL;

/// Why `problem` cannot be planned, or "" when it can.  Every strategy's
/// arena is at most naiveSize (the buffers end to end, each at an aligned
/// offset), so when that fits in kMaxArenaBytes no offset arithmetic of the
/// planner wraps.  Conservative: a problem whose naive size does not fit
/// is refused even if a plan with reuse would.
std::string checkProblem(const Problem &problem);

/// Plans `problem`, which must pass checkProblem.  The result always passes
/// verify() (asserted in debug builds).  Deterministic for a given strategy, except that Search and Best
/// are anytime: with more time they may return a smaller arena.
Plan plan(const Problem &problem, const PlanOptions &options = PlanOptions());

/// Sum of the sizes, each rounded up to the alignment (the Naive arena);
/// UINT64_MAX when the sum does not fit in 64 bits.
uint64_t naiveSize(const Problem &problem);

/// Max over time steps of the sum of the sizes live at that step (unaligned
/// sizes): no plan can be smaller.  O(n log n) sweep over events.
/// UINT64_MAX when the sum does not fit in 64 bits.
uint64_t lowerBound(const Problem &problem);

/// One defect of a plan.
struct Violation {
  enum Kind {
    Overlap,        ///< buffers a and b conflict in time and overlap in memory
    Misaligned,     ///< offset of buffer a is not a multiple of the alignment
    PastArenaEnd,   ///< buffer a ends past Plan::arenaSize
    WrongPlanSize,  ///< Plan::offsets.size() != Problem::buffers.size()
  } kind;
  size_t a = 0, b = 0; ///< indices into Problem::buffers; b only for Overlap
  std::string message;
};

/// Checks a plan; empty == valid.  A buffer whose offset + size exceeds
/// kMaxArenaBytes is PastArenaEnd, whatever Plan::arenaSize says; messages
/// give the true (unwrapped) end.  O(n log n + reported) sweep with an active
/// set ordered by offset.  Every invalid plan yields at least one violation;
/// at most `kMaxViolations` are reported.
std::vector<Violation> verify(const Problem &problem, const Plan &plan);
constexpr size_t kMaxViolations = 1000;

/// Rounds `value` up to a multiple of `alignment` (alignment 0 acts as 1);
/// UINT64_MAX when that multiple does not fit in 64 bits.
inline uint64_t alignUp(uint64_t value, uint64_t alignment) {
  if (alignment <= 1)
    return value;
  uint64_t remainder = value % alignment;
  if (remainder == 0)
    return value;
  uint64_t up = alignment - remainder;
  return value > UINT64_MAX - up ? UINT64_MAX : value + up;
}

/// `value` in decimal (ends and sums of 64-bit values, which may need 65
/// bits).
std::string toDecimal(unsigned __int128 value);

} // namespace cs349::planner

#endif // CS349_PLANNER_MEMORYPLANNER_H
