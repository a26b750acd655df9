//===- PlannerImpl.h - Internal interfaces of the planner -------*- C++ -*-===//
//
// Private to lib/Planner.  Plain C++17.
//
//===----------------------------------------------------------------------===//

#ifndef CS349_LIB_PLANNER_PLANNERIMPL_H
#define CS349_LIB_PLANNER_PLANNERIMPL_H

#include "cs349/Planner/MemoryPlanner.h"

#include <chrono>
#include <cstdint>
#include <optional>
#include <vector>

namespace cs349::planner::detail {

using Clock = std::chrono::steady_clock;

/// A wall-clock deadline.
struct Deadline {
  Clock::time_point at;
  static Deadline after(double seconds);
  bool passed() const { return Clock::now() >= at; }
};

/// True if the buffer takes part in planning (non-empty lifetime and size).
inline bool isActive(const Buffer &b) { return b.start < b.end && b.size > 0; }

/// The effective alignment (>= 1).
inline uint64_t effectiveAlignment(const Problem &p) {
  return p.alignment == 0 ? 1 : p.alignment;
}

/// A lower bound on the arena that counts the alignment: buffers live at
/// once lie at aligned offsets one above the other, so each but the highest
/// takes its size rounded up to the alignment.  The maximum over time of
/// (sum of rounded sizes - the largest rounding among the live buffers) is
/// at least lowerBound() and equal to it when the alignment is 1 or divides
/// every size.  The strategies stop improving a plan when they reach it.
uint64_t alignedLowerBound(const Problem &problem);

/// max(offset + size) over the buffers.
uint64_t arenaOf(const Problem &problem, const std::vector<uint64_t> &offsets);

/// How a greedy pass picks a position among the gaps left by the placed
/// lifetime-overlapping blocks.
enum class Fit {
  First, ///< lowest aligned offset that fits
  Best,  ///< smallest gap that fits, else on top of all conflicting blocks
  Time,  ///< among the lowest gaps, where the least free time goes unused
         ///< (placeByTimeFit; GreedyPlacer's place() hands it on, its
         ///< stepwise begin()/resume() take First and Best only)
};

/// Places the buffers one by one in a given order.  The compressed time axis
/// and the interval index are built once and reused across passes.
class GreedyPlacer {
public:
  /// How a placement finds the placed blocks overlapping a lifetime: Scan
  /// lists and sorts them, Unions walks merged memory ranges over a time
  /// index (independent of how many there are), Counts counts the
  /// blocks covering each byte and takes out the placed blocks that do not
  /// overlap, Runs (first-fit only; best-fit scans) keeps the blocks live
  /// at the buffer's start in a sweep along each stretch of the order whose
  /// starts do not decrease and walks them with unions of the blocks that
  /// start later in its lifetime (backwards in time where the ends do not
  /// increase), Points (first-fit where the lifetime contains one of the
  /// fixed points, else a scan) keeps the blocks live at a few fixed steps
  /// and walks them with unions of the blocks that start or end between
  /// them, Auto picks per placement.  All give the same plans.
  enum class Index { Auto, Scan, Unions, Counts, Runs, Points };
  explicit GreedyPlacer(const Problem &problem, Index index = Index::Auto);
  ~GreedyPlacer();
  GreedyPlacer(const GreedyPlacer &) = delete;
  GreedyPlacer &operator=(const GreedyPlacer &) = delete;

  /// Places the buffers of `order` (indices into Problem::buffers; inactive
  /// buffers may be omitted, they get offset 0).
  Plan place(const std::vector<uint32_t> &order, Fit fit);
  /// The same, or nothing when `deadline` passes first.
  std::optional<Plan> place(const std::vector<uint32_t> &order, Fit fit,
                            const Deadline &deadline);
  /// The same when it completes in time; when `deadline` passes first, the
  /// buffers placed so far keep their offsets and the rest go end to end
  /// above them (a valid plan, at most the naive arena).  The clock is read
  /// every few microseconds of work.
  Plan placeWithin(const std::vector<uint32_t> &order, Fit fit,
                   const Deadline &deadline);

  /// The same in steps: begin() starts a pass, resume() places until the
  /// deadline or the end of the pass (true at the end), finish() gives its
  /// plan, placeWithin's when the pass is not complete.  Between them the
  /// caller may do other work.
  void begin(const std::vector<uint32_t> &order, Fit fit);
  bool resume(const Deadline &deadline);
  /// The fraction of the pass's active buffers placed so far.
  double progress() const;
  /// How many times the count index was built since the placer was made:
  /// more than once per pass when it was dropped as too costly to keep and
  /// built again.
  size_t countIndexBuilds() const;
  Plan finish();

  /// Orders used by the strategies.
  std::vector<uint32_t> orderBySize() const;
  std::vector<uint32_t> orderByArea() const;
  std::vector<uint32_t> orderByLength() const;
  std::vector<uint32_t> orderByStart() const;
  /// Latest end first: start order with time running backwards, so a pass
  /// in it is a sweep too.
  std::vector<uint32_t> orderByEnd() const;
  /// Size classes (sizes of one bit width: within a factor of two), the
  /// largest first, each in start order or, time running backwards, in end
  /// order.  Buffers of about one size are interchangeable to the packing;
  /// placed in time order they stack as a sweep would, where greedy-by-size
  /// orders them by their last bytes.
  std::vector<uint32_t> orderBySizeClassStart() const;
  std::vector<uint32_t> orderBySizeClassEnd() const;
  /// The same with buffer i counted `promotion[i]` classes above its own
  /// (placed earlier, in the same time order within its new class); all
  /// zeros give the orders above.
  std::vector<uint32_t>
  orderByPromotedClassStart(const std::vector<int> &promotion) const;
  std::vector<uint32_t>
  orderByPromotedClassEnd(const std::vector<int> &promotion) const;
  std::vector<uint32_t> orderByDegree() const;
  std::vector<uint32_t> orderBySectionTotal() const;

private:
  struct Impl;
  Impl *impl;
};

/// Places the buffers of `order` by time-fit (TimeFit.cpp says how).  When
/// `deadline` passes first, the buffers placed so far keep their offsets
/// and the rest go end to end above them; `*complete` (when given) tells
/// which.  O(n) per buffer: a scan of the placed blocks.  With
/// `giveUpOffPace`, the pass also stops when, after an eighth of the time
/// to the deadline, it would not finish by then at its mean pace so far.
Plan placeByTimeFit(const Problem &problem, const std::vector<uint32_t> &order,
                    const Deadline &deadline, bool *complete = nullptr,
                    bool giveUpOffPace = false);
/// Strategy::GreedyBySize; its contract is in GreedyBySize.cpp.
Plan greedyBySize(const Problem &problem);

/// The greedy-by-size plan of the GreedyPlacer, completed by stacking
/// (GreedyPlacer::placeWithin) when `deadline` passes first: the start of
/// the strategies with a time limit.
Plan greedyBySizeWithin(const Problem &problem, const Deadline &deadline);

/// The orders of best-fit's passes, in the order it makes them.
enum class PassOrder {
  Size,
  SectionTotal,
  Area,
  Length,
  Degree,
  Start,
  End,
  SizeClassStart,
  SizeClassEnd
};

/// A pass of best-fit already made, which planBestFit does not make again.
struct DonePass {
  Plan plan;
  PassOrder order;
  Fit fit;
};

/// Which of the sweeps sweepPasses makes: all four, the two in start order
/// or the two in end order.
enum class Sweeps { All, Start, End };

/// The sweeps: first-fit and best-fit in start order, then best-fit and
/// first-fit in end order (time running backwards).  Each is O(n log n)
/// however many buffers live at once, and on problems where most do they
/// are strong passes (which direction wins depends on the problem).  A pass
/// the deadline interrupts is dropped.
std::vector<DonePass> sweepPasses(const Problem &problem,
                                  const Deadline &deadline,
                                  Sweeps which = Sweeps::All);

/// Places `order` in steps until `deadline`, and gives the pass up when,
/// after a quarter of the time, it would not finish in time at its pace
/// (the time per buffer extrapolated from the two eighths: it grows as
/// placements meet more placed blocks).  True when the pass completed;
/// `placer.finish()` gives its plan either way (the buffers not placed
/// stacked above the others).
bool placeOnPace(GreedyPlacer &placer, const std::vector<uint32_t> &order,
                 Fit fit, const Deadline &deadline);

/// The multi-order greedy of Strategy::BestFit.  With a deadline, a pass
/// the deadline interrupts is dropped (at least one pass completes).  The
/// passes of `done` are not made again.  With `improveUntil`, the best
/// order is then improved until that deadline by moving the buffer at the
/// top of the arena to the front.
Plan planBestFit(const Problem &problem, const Deadline *deadline = nullptr,
                 const std::vector<DonePass> *done = nullptr,
                 const Deadline *improveUntil = nullptr);

/// The buffers that use, at other steps, the memory a plan leaves free at
/// its critical step (where it reaches its arena and, of those steps, the
/// most bytes are live): any buffer not live there that overlaps a gap
/// between the buffers live there.  Empty when the plan has no such hole.
/// Ascending indices; O(n log n).  Placing them first is an improvement move
/// of planBestFit (PeakHoles.cpp says why).
std::vector<uint32_t> peakHoleUsers(const Problem &problem, const Plan &plan);
/// `order` (the order that placed `plan`) with peakHoleUsers first, in the
/// order they have there; empty when there are none.
std::vector<uint32_t> peakHoleUsersFirst(const Problem &problem,
                                         const Plan &plan,
                                         const std::vector<uint32_t> &order);

/// False when the problem is too large for planSearch to try (it would
/// return its start plan at once).
bool searchMayRun(const Problem &problem);

/// Branch and bound over canonical solutions (MiniMalloc-style), improving on
/// `start` until `deadline` or until the lower bound is reached.
Plan planSearch(const Problem &problem, const Plan &start, uint64_t lower,
                Deadline deadline);

} // namespace cs349::planner::detail

#endif // CS349_LIB_PLANNER_PLANNERIMPL_H
