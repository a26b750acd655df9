//===- MemoryPlanner.cpp - Planner entry points, bounds and verifier ------===//

#include "cs349/Planner/MemoryPlanner.h"
#include "PlannerImpl.h"

#include "cs349/Support/LiveBytes.h"

#include <algorithm>
#include <cassert>
#include <cstdlib>
#include <iterator>
#include <set>
#include <utility>

namespace cs349::planner {

namespace detail {

Deadline Deadline::after(double seconds) {
  if (!(seconds > 0))
    seconds = 0;
  if (seconds > 1e7)
    seconds = 1e7;
  return {Clock::now() + std::chrono::duration_cast<Clock::duration>(
                             std::chrono::duration<double>(seconds))};
}

uint64_t arenaOf(const Problem &problem,
                 const std::vector<uint64_t> &offsets) {
  uint64_t arena = 0;
  for (size_t i = 0, e = problem.buffers.size(); i < e; ++i)
    arena = std::max(arena, offsets[i] + problem.buffers[i].size);
  return arena;
}

} // namespace detail

using namespace detail;

//===----------------------------------------------------------------------===//
// Strategy names
//===----------------------------------------------------------------------===//

namespace {
struct StrategyEntry {
  Strategy strategy;
  std::string_view name;
};
constexpr StrategyEntry kStrategies[] = {
    {Strategy::Naive, "naive"},
    {Strategy::GreedyBySize, "greedy-by-size"},
    {Strategy::BestFit, "best-fit"},
    {Strategy::Search, "search"},
    {Strategy::Best, "best"},
};
} // namespace

std::optional<Strategy> parseStrategy(std::string_view name) {
  for (const StrategyEntry &e : kStrategies)
    if (e.name == name)
      return e.strategy;
  return std::nullopt;
}

std::string_view strategyName(Strategy strategy) {
  for (const StrategyEntry &e : kStrategies)
    if (e.strategy == strategy)
      return e.name;
  return "unknown";
}

std::vector<Strategy> allStrategies() {
  std::vector<Strategy> result;
  for (const StrategyEntry &e : kStrategies)
    result.push_back(e.strategy);
  return result;
}

std::vector<std::string_view> strategyNames() {
  std::vector<std::string_view> result;
  for (const StrategyEntry &e : kStrategies)
    result.push_back(e.name);
  return result;
}

//===----------------------------------------------------------------------===//
// Bounds
//===----------------------------------------------------------------------===//

namespace {
using u128 = unsigned __int128;

uint64_t saturate(u128 value) {
  return value > UINT64_MAX ? UINT64_MAX : (uint64_t)value;
}

/// The naive arena without wrapping: at most 2^64 buffers of < 2^64 bytes.
u128 exactNaiveSize(const Problem &problem) {
  u128 align = effectiveAlignment(problem);
  u128 total = 0;
  for (const Buffer &b : problem.buffers)
    total += ((u128)b.size + align - 1) / align * align;
  return total;
}
} // namespace

std::string toDecimal(unsigned __int128 value) {
  std::string digits;
  do {
    digits.push_back(char('0' + int(value % 10)));
    value /= 10;
  } while (value != 0);
  return std::string(digits.rbegin(), digits.rend());
}

uint64_t naiveSize(const Problem &problem) {
  return saturate(exactNaiveSize(problem));
}

std::string checkProblem(const Problem &problem) {
  uint64_t align = effectiveAlignment(problem);
  if (align > kMaxArenaBytes)
    return "the alignment " + std::to_string(align) +
           " is larger than the largest arena (" +
           std::to_string(kMaxArenaBytes) + " bytes)";
  u128 naive = exactNaiveSize(problem);
  if (naive > kMaxArenaBytes)
    return "the " + std::to_string(problem.buffers.size()) +
           " buffers, each at an offset aligned to " + std::to_string(align) +
           " bytes, need up to " + toDecimal(naive) +
           " bytes, more than the largest arena (" +
           std::to_string(kMaxArenaBytes) + " bytes)";
  return "";
}

uint64_t lowerBound(const Problem &problem) {
  std::vector<LiveRange> ranges;
  ranges.reserve(problem.buffers.size());
  for (const Buffer &b : problem.buffers)
    ranges.push_back({b.start, b.end, b.size});
  return peakLiveBytes(ranges).bytes;
}

namespace detail {
uint64_t alignedLowerBound(const Problem &problem) {
  const uint64_t align = effectiveAlignment(problem);
  if (align == 1)
    return lowerBound(problem);
  struct Event {
    int64_t time;
    bool isStart;
    uint64_t pitch, slack;
  };
  std::vector<Event> events;
  events.reserve(2 * problem.buffers.size());
  for (const Buffer &b : problem.buffers) {
    if (!isActive(b))
      continue;
    const uint64_t pitch = alignUp(b.size, align);
    events.push_back({b.start, true, pitch, pitch - b.size});
    events.push_back({b.end, false, pitch, pitch - b.size});
  }
  // Lifetimes are half-open: at equal times ends come before starts.
  std::sort(events.begin(), events.end(), [](const Event &x, const Event &y) {
    if (x.time != y.time)
      return x.time < y.time;
    return x.isStart < y.isStart;
  });
  std::multiset<uint64_t> slacks;
  unsigned __int128 pitches = 0, best = 0;
  for (const Event &e : events) {
    if (e.isStart) {
      pitches += e.pitch;
      slacks.insert(e.slack);
      best = std::max(best, pitches - *slacks.rbegin());
    } else {
      pitches -= e.pitch;
      slacks.erase(slacks.find(e.slack));
    }
  }
  const uint64_t peak = lowerBound(problem);
  return best > peak ? (uint64_t)std::min<unsigned __int128>(best, UINT64_MAX)
                     : peak;
}
} // namespace detail

//===----------------------------------------------------------------------===//
// Verifier
//===----------------------------------------------------------------------===//

std::vector<Violation> verify(const Problem &problem, const Plan &plan) {
  std::vector<Violation> out;
  const size_t n = problem.buffers.size();
  auto full = [&] { return out.size() >= kMaxViolations; };
  if (plan.offsets.size() != n) {
    out.push_back({Violation::WrongPlanSize, 0, 0,
                   "plan has " + std::to_string(plan.offsets.size()) +
                       " offsets for " + std::to_string(n) + " buffers"});
    return out;
  }
  const uint64_t align = effectiveAlignment(problem);
  auto name = [&](size_t i) {
    return "buffer #" + std::to_string(i) + " (id " +
           std::to_string(problem.buffers[i].id) + ")";
  };
  // Ends in 128 bits: an offset near 2^64 plus a size must not wrap to a
  // small end that looks inside the arena.
  auto end = [&](size_t i) -> u128 {
    return (u128)plan.offsets[i] + problem.buffers[i].size;
  };
  const u128 arenaEnd = std::min<uint64_t>(plan.arenaSize, kMaxArenaBytes);
  for (size_t i = 0; i < n && !full(); ++i) {
    const Buffer &b = problem.buffers[i];
    uint64_t off = plan.offsets[i];
    if (off % align != 0)
      out.push_back({Violation::Misaligned, i, 0,
                     name(i) + " at offset " + std::to_string(off) +
                         " is not a multiple of the alignment " +
                         std::to_string(align)});
    if (b.size > 0 && end(i) > arenaEnd)
      out.push_back(
          {Violation::PastArenaEnd, i, 0,
           name(i) + " occupies [" + std::to_string(off) + ", " +
               toDecimal(end(i)) + ") past " +
               (end(i) > kMaxArenaBytes
                    ? "the largest arena (" + std::to_string(kMaxArenaBytes) +
                          " bytes)"
                    : "the arena end " + std::to_string(plan.arenaSize))});
  }

  // Sweep over time; the active set is ordered by offset.  On insertion a
  // buffer is compared with its neighbours: if the active blocks are
  // pairwise disjoint, any overlap involves the predecessor or the first
  // successors.
  struct Event {
    int64_t time;
    bool isStart;
    uint32_t idx;
  };
  std::vector<Event> ev;
  ev.reserve(2 * n);
  for (size_t i = 0; i < n; ++i) {
    if (!isActive(problem.buffers[i]))
      continue;
    ev.push_back({problem.buffers[i].start, true, (uint32_t)i});
    ev.push_back({problem.buffers[i].end, false, (uint32_t)i});
  }
  std::sort(ev.begin(), ev.end(), [](const Event &x, const Event &y) {
    if (x.time != y.time)
      return x.time < y.time;
    if (x.isStart != y.isStart)
      return x.isStart < y.isStart; // ends first
    return x.idx < y.idx;
  });
  std::set<std::pair<uint64_t, uint32_t>> active; // (offset, index)
  auto report = [&](size_t a, size_t b) {
    if (full())
      return;
    if (a > b)
      std::swap(a, b);
    const Buffer &x = problem.buffers[a], &y = problem.buffers[b];
    out.push_back({Violation::Overlap, a, b,
                   name(a) + " [" + std::to_string(plan.offsets[a]) + ", " +
                       toDecimal(end(a)) + ") and " + name(b) + " [" +
                       std::to_string(plan.offsets[b]) + ", " +
                       toDecimal(end(b)) +
                       ") overlap in memory while both live on [" +
                       std::to_string(std::max(x.start, y.start)) + ", " +
                       std::to_string(std::min(x.end, y.end)) + ")"});
  };
  for (const Event &e : ev) {
    const uint64_t off = plan.offsets[e.idx];
    if (!e.isStart) {
      active.erase({off, e.idx});
      continue;
    }
    const u128 top = end(e.idx);
    auto succ = active.lower_bound({off, 0});
    if (succ != active.begin()) {
      auto pred = std::prev(succ);
      if (end(pred->second) > off)
        report(pred->second, e.idx);
    }
    for (auto it = succ; it != active.end() && it->first < top && !full();
         ++it)
      report(it->second, e.idx);
    active.insert({off, e.idx});
    if (full())
      break;
  }
  return out;
}

//===----------------------------------------------------------------------===//
// Entry point
//===----------------------------------------------------------------------===//

static Plan planNaive(const Problem &problem) {
  const uint64_t align = effectiveAlignment(problem);
  Plan result;
  result.offsets.resize(problem.buffers.size(), 0);
  uint64_t cur = 0;
  for (size_t i = 0; i < problem.buffers.size(); ++i) {
    const Buffer &b = problem.buffers[i];
    if (!isActive(b))
      continue;
    cur = alignUp(cur, align);
    result.offsets[i] = cur;
    cur += b.size;
  }
  result.arenaSize = arenaOf(problem, result.offsets);
  return result;
}

Plan plan(const Problem &problem, const PlanOptions &options) {
  assert(checkProblem(problem).empty() && "plan() of an unplannable problem");
  Deadline deadline = Deadline::after(options.timeLimitSeconds);
  Plan result;
  switch (options.strategy) {
  case Strategy::Naive:
    result = planNaive(problem);
    break;
  case Strategy::GreedyBySize:
    result = greedyBySize(problem);
    break;
  case Strategy::BestFit:
    result = planBestFit(problem);
    break;
  case Strategy::Search: {
    // The caller still verifies the plan (a sweep like the lower bound's, a
    // few times its cost): that time is kept out of the budget.
    auto t0 = Clock::now();
    uint64_t lower = alignedLowerBound(problem);
    Deadline work{deadline.at - 4 * (Clock::now() - t0)};
    Plan start = greedyBySizeWithin(problem, work);
    result = planSearch(problem, start, lower, work);
    break;
  }
  case Strategy::Best: {
    // Fast strong heuristics first, the sweeps: start order with first-fit
    // and best-fit (O(n log n) however many buffers live at once), time-fit
    // and first-fit over size classes in start order (time-fit a scan of
    // the placed blocks per buffer, first-fit a sweep per class through
    // the run index; on the training-step and `long` problems far smaller
    // plans than the other sweeps and than greedy-by-size), end order with
    // best-fit and first-fit, the size classes in end order (sweeps
    // backwards); then greedy-by-size (optimal at the lower bound;
    // superlinear where many buffers live at once), the other best-fit
    // passes, then improvement: the search where a dive is affordable, else
    // reordering the best greedy order.
    // Greedy-by-size is given up when after a quarter of the time left it
    // would not finish at its pace (its interrupted plan stacks the rest).
    // Every step stops at the deadline and the smallest plan made is kept.
    auto t0 = Clock::now();
    uint64_t lower = alignedLowerBound(problem);
    Deadline work{deadline.at - 4 * (Clock::now() - t0)};
    std::vector<DonePass> done;
    GreedyPlacer placer(problem);
    auto smallest = [&]() -> const Plan & {
      const Plan *best = &done.front().plan;
      for (const DonePass &d : done)
        if (d.plan.arenaSize < best->arenaSize)
          best = &d.plan;
      return *best;
    };
    auto unfinished = [&] {
      return !work.passed() && (done.empty() || smallest().arenaSize > lower);
    };
    // A size-class pass that would not finish in time still places the
    // large classes, which hold most of the bytes, in the first half of
    // the time left; the small ones are stacked (on problems with many
    // sizes that plan beats the sweeps).
    auto sizeClassPass = [&](PassOrder order) {
      bool complete =
          placeOnPace(placer,
                      order == PassOrder::SizeClassStart
                          ? placer.orderBySizeClassStart()
                          : placer.orderBySizeClassEnd(),
                      Fit::First, work);
      if (!complete) {
        auto now = Clock::now();
        placer.resume(Deadline{now + (work.at - now) / 2});
      }
      done.push_back({placer.finish(), order, Fit::First});
      return complete;
    };
    auto sweepsBegan = Clock::now();
    if (unfinished())
      done = sweepPasses(problem, work, Sweeps::Start);
    auto sweepsTook = Clock::now() - sweepsBegan;
    // Time-fit over size classes in start order: where most buffers live
    // at once, the strongest pass measured (it keeps long-free memory for
    // the buffers that live long), and on other problems the passes after
    // it do better.  A scan of the placed blocks per buffer: 2 to 10 times
    // the start-order sweeps' time on the generated large problems (25 on
    // to-end-60k, where the sweeps reach the bound).  It comes before the
    // first-fit size classes when the time left is ten times the sweeps'
    // (so at 10 s on the problems of 60,000 buffers), else after them with
    // what they leave (at short limits the size classes are the better use
    // of the time).  It gets three quarters of the time left and is dropped
    // when it does not finish in them, or gives the time back as soon as
    // its pace says it would not.
    auto timeFitPass = [&] {
      if (!unfinished())
        return;
      auto now = Clock::now();
      bool complete = false;
      Plan timed = placeByTimeFit(problem, placer.orderBySizeClassStart(),
                                  Deadline{now + (work.at - now) * 3 / 4},
                                  &complete, /*giveUpOffPace=*/true);
      if (complete)
        done.push_back(
            {std::move(timed), PassOrder::SizeClassStart, Fit::Time});
    };
    const bool timeFitFirst = work.at - Clock::now() >= 10 * sweepsTook;
    if (timeFitFirst)
      timeFitPass();
    bool classesFinished =
        unfinished() && sizeClassPass(PassOrder::SizeClassStart);
    if (!timeFitFirst)
      timeFitPass();
    if (unfinished())
      for (DonePass &d : sweepPasses(problem, work, Sweeps::End))
        done.push_back(std::move(d));
    // The end order (each class a sweep backwards in time) only when the
    // start order finished: both cost about the same.
    if (classesFinished && unfinished())
      sizeClassPass(PassOrder::SizeClassEnd);
    // Greedy-by-size always, even out of time (a stacked plan then): best
    // is never worse than it when it is on pace in the time the sweeps
    // leave.
    // In front: of equal plans greedy-by-size's is kept, and best-fit does
    // not make it again (given up or not).
    placeOnPace(placer, placer.orderBySize(), Fit::First, work);
    done.insert(done.begin(), {placer.finish(), PassOrder::Size, Fit::First});
    if (smallest().arenaSize <= lower || work.passed()) {
      result = smallest();
      break;
    }
    // Reordering gets all the time where the search cannot dive, else half.
    Deadline improve = work;
    if (searchMayRun(problem))
      improve.at = Clock::now() + (work.at - Clock::now()) / 2;
    Plan improved = planBestFit(problem, &work, &done, &improve);
    if (improved.arenaSize <= lower) {
      result = std::move(improved);
      break;
    }
    // The search starts from greedy-by-size's plan, as strategy=search
    // does: it is anytime and path-dependent, and from a smaller start its
    // bisection aims at other targets (MiniMalloc's D: 1,057,792 B from the
    // improved best-fit plan, 1,031,168 B from greedy-by-size's, in 6 s,
    // before the search had its release bound).
    // So best is never worse than the search alone would have been with
    // the time it has, nor than the passes before it.
    const Plan &greedyStart = done.front().plan;
    Plan searched = planSearch(problem, greedyStart, lower, work);
    result = searched.arenaSize < improved.arenaSize ? std::move(searched)
                                                     : std::move(improved);
    break;
  }
  }
#ifndef NDEBUG
  assert(verify(problem, result).empty() && "planner produced a bad plan");
#endif
  return result;
}

} // namespace cs349::planner
