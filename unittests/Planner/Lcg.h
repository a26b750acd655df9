//===- Lcg.h - Random numbers of the planner tests --------------*- C++ -*-===//
//
// The random problems of the planner tests, and the plans recorded for them
// in GreedyPlans.golden, must be the same with every standard library, which
// the std:: distributions do not promise: a 64-bit linear congruential
// generator (Knuth's MMIX constants) whose high bits are reduced modulo n.
//
//===----------------------------------------------------------------------===//

#ifndef CS349_UNITTESTS_PLANNER_LCG_H
#define CS349_UNITTESTS_PLANNER_LCG_H

#include <cstdint>

namespace cs349::planner::test {

struct Lcg {
  uint64_t s;
  /// A number in [0, n).
  uint64_t below(uint64_t n) {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    return (s >> 33) % n;
  }
};

} // namespace cs349::planner::test

#endif // CS349_UNITTESTS_PLANNER_LCG_H
