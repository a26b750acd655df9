//===- SplitMix64Test.cpp - the generator's outputs are the reference's ---===//

#include "cs349/Support/SplitMix64.h"

#include <gtest/gtest.h>

using cs349::SplitMix64;

namespace {

// The first outputs of the reference implementation (Vigna's splitmix64.c):
// every generated program, weight and planner problem depends on them.
TEST(SplitMix64Test, MatchesTheReferenceFromSeedZero) {
  SplitMix64 rng(0);
  EXPECT_EQ(rng.next(), 0xE220A8397B1DCDAFULL);
  EXPECT_EQ(rng.next(), 0x6E789E6AA1B965F4ULL);
  EXPECT_EQ(rng.next(), 0x06C45D188009454FULL);
}

TEST(SplitMix64Test, MatchesTheReferenceFromSeed1234567) {
  SplitMix64 rng(1234567);
  EXPECT_EQ(rng.next(), 6457827717110365317ULL);
  EXPECT_EQ(rng.next(), 3203168211198807973ULL);
  EXPECT_EQ(rng.next(), 9817491932198370423ULL);
}

TEST(SplitMix64Test, MixBitsIsTheFirstOutput) {
  static_assert(cs349::mixBits(0) == 0xE220A8397B1DCDAFULL);
  EXPECT_EQ(cs349::mixBits(1234567), 6457827717110365317ULL);
}

TEST(SplitMix64Test, UniformUsesTheTopBits) {
  SplitMix64 a(0), b(0), c(0);
  EXPECT_EQ(a.uniform(), double(0xE220A8397B1DCDAFULL >> 11) * 0x1.0p-53);
  EXPECT_EQ(b.uniform24(), double(0xE220A8397B1DCDAFULL >> 40) / (1 << 24));
  EXPECT_EQ(c.below(1000), 0xE220A8397B1DCDAFULL % 1000);
  EXPECT_EQ(c.below(0), 0u);
}

} // namespace
