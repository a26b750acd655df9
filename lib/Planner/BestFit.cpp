//===- BestFit.cpp - Best-fit: many greedy orders, then improvement -------===//
//
// Strategy::BestFit places the buffers greedily in several orders, with
// first-fit and best-fit each, and keeps the smallest plan; with a time
// limit (Strategy::Best) the sweeps come first and the best order is then
// changed and placed again while that makes the arena smaller.
//
//===----------------------------------------------------------------------===//

#include "PlannerImpl.h"

#include <algorithm>
#include <iterator>
#include <optional>
#include <utility>
#include <vector>

namespace cs349::planner::detail {

std::vector<DonePass> sweepPasses(const Problem &problem,
                                  const Deadline &deadline, Sweeps which) {
  GreedyPlacer placer(problem);
  std::vector<DonePass> done;
  // First-fit first: the cheaper of the two (no runs kept by length), so a
  // short limit still gets a plan of its own.  Backwards, best-fit first:
  // by then there is a plan, and best-fit is the stronger sweep.
  const std::pair<PassOrder, Fit> passes[] = {{PassOrder::Start, Fit::First},
                                              {PassOrder::Start, Fit::Best},
                                              {PassOrder::End, Fit::Best},
                                              {PassOrder::End, Fit::First}};
  const std::vector<uint32_t> byStart = placer.orderByStart(),
                              byEnd = placer.orderByEnd();
  const size_t from = which == Sweeps::End ? 2 : 0,
               to = which == Sweeps::Start ? 2 : std::size(passes);
  for (size_t k = from; k < to; ++k) {
    const auto &[order, fit] = passes[k];
    if (std::optional<Plan> p = placer.place(
            order == PassOrder::Start ? byStart : byEnd, fit, deadline))
      done.push_back({std::move(*p), order, fit});
  }
  return done;
}

Plan planBestFit(const Problem &problem, const Deadline *deadline,
                 const std::vector<DonePass> *done,
                 const Deadline *improveUntil) {
  // Of equal arenas greedy-by-size's wins, then the earlier in the order
  // of the passes below, whichever were made first: the order improved
  // after them does not depend on which passes `done` brought.
  auto rankOf = [](size_t o, Fit fit) {
    return 3 * (int)o + (fit == Fit::Best ? 0 : fit == Fit::First ? 1 : 2);
  };
  Plan best;
  bool have = false;
  size_t bestOrder = 0;
  Fit bestFit = Fit::First;
  int bestRank = 0;
  // The order that placed `best` when it is not orders[bestOrder] (the
  // first improvement move, made before the passes), and whether that move
  // was tried on `best` without success.
  std::optional<std::vector<uint32_t>> improvedOrder;
  bool holesTried = false;
  auto consider = [&](Plan &&p, size_t o, Fit fit, int rank) {
    if (!have || p.arenaSize < best.arenaSize ||
        (p.arenaSize == best.arenaSize && rank < bestRank)) {
      best = std::move(p);
      have = true;
      bestOrder = o;
      bestFit = fit;
      bestRank = rank;
      improvedOrder.reset();
      holesTried = false;
    }
  };
  auto isDone = [&](size_t o, Fit fit) {
    if (done)
      for (const DonePass &d : *done)
        if ((size_t)d.order == o && d.fit == fit)
          return true;
    return false;
  };
  if (done)
    for (const DonePass &d : *done)
      consider(Plan(d.plan), (size_t)d.order, d.fit,
               d.order == PassOrder::Size && d.fit == Fit::First
                   ? -1
                   : rankOf((size_t)d.order, d.fit));
  if (have && deadline && deadline->passed())
    return best; // not even time for the orders
  // With improvement to follow, the passes get half of its window: on the
  // large problems where most buffers live at once the passes in other
  // orders than by start are slow and weak, and would leave nothing for
  // improving the best one.
  Deadline passesUntil;
  if (deadline)
    passesUntil = *deadline;
  if (deadline && improveUntil)
    passesUntil.at = std::min(
        deadline->at, Clock::now() + (improveUntil->at - Clock::now()) / 2);
  const Deadline *workUntil = deadline;
  deadline = deadline ? &passesUntil : nullptr;
  GreedyPlacer placer(problem);
  // Indexed by PassOrder.
  std::vector<std::vector<uint32_t>> orders;
  orders.push_back(placer.orderBySize());
  orders.push_back(placer.orderBySectionTotal());
  orders.push_back(placer.orderByArea());
  orders.push_back(placer.orderByLength());
  orders.push_back(placer.orderByDegree());
  orders.push_back(placer.orderByStart());
  orders.push_back(placer.orderByEnd());
  orders.push_back(placer.orderBySizeClassStart());
  orders.push_back(placer.orderBySizeClassEnd());
  // The users of the peak's holes of `best` (placed by `from`) first; true
  // when that plan is smaller, which then becomes `best`, its order
  // `improvedOrder`.
  auto holesFirst = [&](const std::vector<uint32_t> &from) {
    std::vector<uint32_t> trial = peakHoleUsersFirst(problem, best, from);
    if (trial.empty())
      return false;
    std::optional<Plan> p = placer.place(trial, bestFit, *improveUntil);
    if (!p || p->arenaSize >= best.arenaSize)
      return false;
    best = std::move(*p);
    improvedOrder = std::move(trial);
    return true;
  };
  // The first improvement move is made on the best plan `done` brought
  // before the passes: it is a single pass, and where it shrinks the plan
  // (pangu_2.6B: to the lower bound) the passes need not find another.
  // The improvement ends at the lower bound.
  const uint64_t lower = improveUntil ? alignedLowerBound(problem) : 0;
  if (improveUntil && have) {
    holesTried = !holesFirst(orders[bestOrder]);
    if (best.arenaSize <= lower)
      return best;
  }
  for (size_t o = 0; o < orders.size(); ++o) {
    for (Fit fit : {Fit::Best, Fit::First}) {
      if (isDone(o, fit))
        continue;
      std::optional<Plan> p;
      if (deadline && have) {
        if (deadline->passed())
          break;
        p = placer.place(orders[o], fit, *deadline); // nothing if cut short
      } else {
        p = placer.place(orders[o], fit);
      }
      if (p)
        consider(std::move(*p), o, fit, rankOf(o, fit));
    }
  }
  if (!have)
    best.offsets.assign(problem.buffers.size(), 0);
  if (!improveUntil)
    return best;
  // Improvement: the best order is changed and placed again.  First (on
  // the plan `done` brought, before the passes above; here when a pass made
  // a smaller one), and again after every move that shrinks the arena, the
  // buffers that use the holes of the plan's critical step go to the
  // front, in their order (peakHoleUsers); that plan is kept only when it
  // is smaller.  Then a buffer that reaches the arena's top is moved
  // earlier, and the new plan is kept when it is no larger (equal plans
  // move on along a plateau).  Those moves alternate between the culprit
  // latest in the order going to the front and, also after any move that
  // did not shrink the arena, a random culprit going just before a random
  // buffer placed earlier that lives with it and lies below it (it gets
  // first choice there).  Deterministic: a fixed generator.  When a search
  // follows (its deadline is later), it stops after a few moves that did
  // not make the arena smaller, so that the search gets the time; else it
  // goes on until its deadline.
  constexpr size_t kImproveTries = 4;
  const bool searchFollows = workUntil && improveUntil->at < workUntil->at;
  // Where a size-class order placed the best plan (by first-fit or
  // time-fit), its buffers above the
  // lower bound are what keeps it there: the small, long-lived buffers
  // placed last, for which no gap below stays free for their whole life.
  // Promotion passes (a squeaky wheel) count every buffer whose top lies
  // above the bound in the last pass one size class higher, so that it is
  // placed earlier and gets its pick of the gaps, and place the whole
  // order again; the order is learnt over the passes (long-62k-log, by
  // first-fit: +0.92 % to +0.35 % of the bound in 54 passes).  Moving one
  // culprit at a time does not reach a top that is flat over most of the
  // steps.  They go on while they pay (a smaller arena within
  // kImproveTries passes); the culprit moves then start from the best
  // order.
  if (!improvedOrder && bestFit != Fit::Best &&
      (bestOrder == (size_t)PassOrder::SizeClassStart ||
       bestOrder == (size_t)PassOrder::SizeClassEnd)) {
    const bool startOrder = bestOrder == (size_t)PassOrder::SizeClassStart;
    std::vector<int> promotion(problem.buffers.size(), 0);
    Plan last = best;
    size_t failures = 0;
    while (best.arenaSize > lower && !improveUntil->passed() &&
           failures < kImproveTries) {
      for (size_t i = 0; i < problem.buffers.size(); ++i)
        if (isActive(problem.buffers[i]) &&
            last.offsets[i] + problem.buffers[i].size > lower)
          ++promotion[i];
      std::vector<uint32_t> trial =
          startOrder ? placer.orderByPromotedClassStart(promotion)
                     : placer.orderByPromotedClassEnd(promotion);
      std::optional<Plan> p = placer.place(trial, bestFit, *improveUntil);
      if (!p)
        break;
      failures = p->arenaSize < best.arenaSize ? 0 : failures + 1;
      if (p->arenaSize < best.arenaSize) {
        best = *p;
        improvedOrder = std::move(trial);
        holesTried = false;
      }
      last = std::move(*p);
    }
  }
  std::vector<uint32_t> order =
      improvedOrder ? std::move(*improvedOrder) : orders[bestOrder];
  size_t failures = 0;
  uint64_t rng = 0x2545f4914f6cdd1dULL;
  auto next = [&](uint64_t n) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng % n;
  };
  std::vector<uint32_t> position(problem.buffers.size(), 0);
  std::vector<uint32_t> culprits, below;
  size_t moves = 0;
  // Not again on the plan it did not shrink before the passes.
  bool holesMove = !holesTried;
  while (best.arenaSize > lower && !improveUntil->passed() &&
         (!searchFollows || failures < kImproveTries)) {
    // One that fails is not counted: the culprit moves then go on as they
    // would have without it.
    if (holesMove) {
      holesMove = holesFirst(order);
      if (holesMove) {
        failures = 0;
        order = std::move(*improvedOrder);
        continue;
      }
    }
    for (uint32_t k = 0; k < order.size(); ++k)
      position[order[k]] = k;
    culprits.clear();
    for (size_t i = 0; i < problem.buffers.size(); ++i)
      if (isActive(problem.buffers[i]) &&
          best.offsets[i] + problem.buffers[i].size == best.arenaSize &&
          position[i] > 0)
        culprits.push_back((uint32_t)i);
    if (culprits.empty())
      break;
    uint32_t culprit = culprits[0];
    for (uint32_t c : culprits)
      if (position[c] > position[culprit])
        culprit = c;
    uint32_t to = 0;
    if (failures > 0 || (++moves & 1) == 0) {
      // Just before a random buffer placed earlier that lies below the
      // culprit and lives with it: the culprit gets first choice there.
      culprit = culprits[next(culprits.size())];
      const Buffer &c = problem.buffers[culprit];
      below.clear();
      for (uint32_t k = 0; k < position[culprit]; ++k) {
        const Buffer &b = problem.buffers[order[k]];
        if (lifetimesOverlap(b, c) && best.offsets[order[k]] < best.offsets[culprit])
          below.push_back(k);
      }
      to = below.empty() ? (uint32_t)next(position[culprit])
                         : below[next(below.size())];
    }
    std::vector<uint32_t> trial = order;
    trial.erase(trial.begin() + position[culprit]);
    trial.insert(trial.begin() + to, culprit);
    std::optional<Plan> p = placer.place(trial, bestFit, *improveUntil);
    if (!p)
      break;
    failures = p->arenaSize < best.arenaSize ? 0 : failures + 1;
    holesMove = p->arenaSize < best.arenaSize;
    if (p->arenaSize <= best.arenaSize) {
      best = std::move(*p);
      order = std::move(trial);
    }
  }
  return best;
}

} // namespace cs349::planner::detail
