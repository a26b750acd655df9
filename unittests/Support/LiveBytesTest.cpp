//===- LiveBytesTest.cpp - bytes live over time ---------------------------===//

#include "cs349/Support/LiveBytes.h"

#include <gtest/gtest.h>

using cs349::LiveRange;

namespace {

constexpr uint64_t kMax = UINT64_MAX;

TEST(LiveBytesTest, RangesAreHalfOpen) {
  // [0, 2) and [2, 4) never live together.
  std::vector<LiveRange> ranges = {{0, 2, 100}, {2, 4, 100}};
  EXPECT_EQ(cs349::peakLiveBytes(ranges).bytes, 100u);
  EXPECT_EQ(cs349::liveBytesPerStep(ranges, 4),
            (std::vector<uint64_t>{100, 100, 100, 100}));
}

TEST(LiveBytesTest, PeakIsAtTheFirstTimeItIsReached) {
  std::vector<LiveRange> ranges = {{0, 1, 5}, {2, 3, 7}, {4, 6, 7}};
  cs349::LivePeak peak = cs349::peakLiveBytes(ranges);
  EXPECT_EQ(peak.bytes, 7u);
  EXPECT_EQ(peak.time, 2);
}

TEST(LiveBytesTest, NothingLiveIsZeroAtTimeZero) {
  cs349::LivePeak peak = cs349::peakLiveBytes({{3, 3, 10}, {1, 4, 0}});
  EXPECT_EQ(peak.bytes, 0u);
  EXPECT_EQ(peak.time, 0);
}

// A sum past 2^64 saturates instead of wrapping to a small number (the
// memory report's difference array wrapped).
TEST(LiveBytesTest, PeakSaturates) {
  std::vector<LiveRange> ranges = {{0, 2, kMax - 1}, {1, 2, 2}};
  cs349::LivePeak peak = cs349::peakLiveBytes(ranges);
  EXPECT_EQ(peak.bytes, kMax);
  EXPECT_EQ(peak.time, 1);
}

// Saturation is per step: once the huge block dies, the count is exact again
// (the scheduler's profile stayed at UINT64_MAX for good).
TEST(LiveBytesTest, ProfileComesBackFromSaturation) {
  std::vector<LiveRange> ranges = {{0, 3, 10}, {1, 2, kMax}, {1, 2, kMax}};
  EXPECT_EQ(cs349::liveBytesPerStep(ranges, 3),
            (std::vector<uint64_t>{10, kMax, 10}));
}

TEST(LiveBytesTest, ProfileAndPeakAgree) {
  std::vector<LiveRange> ranges;
  for (int64_t i = 0; i < 50; ++i)
    ranges.push_back({i % 7, i % 7 + 1 + i % 5, uint64_t(1 + i * 37 % 101)});
  std::vector<uint64_t> profile = cs349::liveBytesPerStep(ranges, 12);
  cs349::LivePeak peak = cs349::peakLiveBytes(ranges);
  auto highest = std::max_element(profile.begin(), profile.end());
  EXPECT_EQ(peak.bytes, *highest);
  EXPECT_EQ(peak.time, highest - profile.begin());
}

} // namespace
