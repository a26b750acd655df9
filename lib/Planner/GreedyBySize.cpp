//===- GreedyBySize.cpp - The lecture's greedy-by-size ---------------------===//
//
// Plan greedyBySize(const Problem &problem) -- the contract, which any
// implementation of this one function (a simple quadratic one included) must
// meet to give the planner's plans byte for byte:
//
//  * Buffers with start >= end or size 0 are inactive: offset 0, not placed.
//  * The active buffers are placed one at a time, largest size first; equal
//    sizes in increasing start, then increasing id, then increasing index in
//    Problem::buffers (so the order is total and deterministic).
//  * Each goes to the lowest offset that is a multiple of the alignment
//    (effectiveAlignment: values below 1 act as 1) at which it overlaps in
//    memory no already placed buffer whose lifetime overlaps its own
//    (lifetimesOverlap).  Such an offset is 0 or the aligned end
//    (alignUp(offset + size)) of a placed lifetime-overlapping buffer.
//  * arenaSize is max(offset + size) over all buffers (arenaOf).
//
// The problem has passed checkProblem(), so no offset + size wraps.
// This implementation places with the GreedyPlacer (GreedyPlacer.cpp), which finds
// that offset without scanning every lifetime-overlapping buffer.
//
//===----------------------------------------------------------------------===//

#include "PlannerImpl.h"

namespace cs349::planner::detail {

Plan greedyBySize(const Problem &problem) {
  GreedyPlacer placer(problem);
  return placer.place(placer.orderBySize(), Fit::First);
}

} // namespace cs349::planner::detail
