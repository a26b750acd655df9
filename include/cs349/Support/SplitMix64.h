//===- SplitMix64.h - the project's one random number generator --*- C++ -*-===//
//
// Header-only and free of LLVM: the planner's problem generator (built on its
// own by the planner bench), the IR generators and cs349-run's argument values
// all draw from it. Generated programs, weights and problems must be the same
// on every machine and standard library, so no <random> distribution is used
// (their output is implementation-defined).
//
//===----------------------------------------------------------------------===//

#ifndef CS349_SUPPORT_SPLITMIX64_H
#define CS349_SUPPORT_SPLITMIX64_H

#include <cstdint>

namespace cs349 {

/// Sebastiano Vigna's splitmix64: tiny, fast, and fully specified.
class SplitMix64 {
public:
  constexpr explicit SplitMix64(uint64_t seed) : state(seed) {}

  constexpr uint64_t next() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }

  /// A double uniform in [0, 1) from the top 53 bits of next().
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

  /// A float uniform in [0, 1) from the top 24 bits of next(): every value is
  /// exactly representable as a float.
  double uniform24() {
    return static_cast<double>(next() >> 40) / static_cast<double>(1 << 24);
  }

  /// next() % bound, 0 for a bound of 0 (slightly biased for bounds that
  /// are not powers of two; fine for test data).
  constexpr uint64_t below(uint64_t bound) { return bound ? next() % bound : 0; }

private:
  uint64_t state;
};

/// splitmix64's output function on one word: a 64-bit mixer for keying a
/// stream by several values.
constexpr uint64_t mixBits(uint64_t word) { return SplitMix64(word).next(); }

} // namespace cs349

#endif // CS349_SUPPORT_SPLITMIX64_H
