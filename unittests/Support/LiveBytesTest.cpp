//===- LiveBytesTest.cpp - bytes live over time ---------------------------===//

#include "cs349/Support/LiveBytes.h"

#include <gtest/gtest.h>

#include <random>

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

// The peak is found by adding bytes per time when the times are dense and
// by sorting starts and ends when they are not: both agree on the peak and
// its first time, with negative times, ties of starts and ends, empty and
// zero-byte ranges and sums past 2^64.
TEST(LiveBytesTest, PerTimeAndSortedPeaksAgree) {
  std::mt19937_64 random(349);
  for (int trial = 0; trial < 500; ++trial) {
    const int64_t origin = int64_t(random() % 41) - 20;
    const int64_t horizon = 1 + int64_t(random() % 60);
    const bool huge = trial % 10 == 0;
    std::vector<LiveRange> ranges(random() % 40);
    for (LiveRange &range : ranges) {
      range.start = origin + int64_t(random() % horizon);
      range.end = range.start + int64_t(random() % 12) - 1;
      range.bytes = huge ? kMax / 3 + random() % 7 : random() % 4 * 64;
    }
    cs349::LivePeak sorted = cs349::detail::peakLiveBytesBySorting(ranges);
    int64_t first = origin - 2, last = origin + horizon + 12;
    cs349::LivePeak perTime =
        cs349::detail::peakLiveBytesByTime(ranges, first, last);
    ASSERT_EQ(perTime.bytes, sorted.bytes) << "trial " << trial;
    ASSERT_EQ(perTime.time, sorted.time) << "trial " << trial;
    cs349::LivePeak chosen = cs349::peakLiveBytes(ranges);
    ASSERT_EQ(chosen.bytes, sorted.bytes) << "trial " << trial;
    ASSERT_EQ(chosen.time, sorted.time) << "trial " << trial;
  }
}

// Times far apart (not steps of one program) take the sorted sweep: the
// per-time array would have a slot for every time between them.
TEST(LiveBytesTest, SparseTimesArePeaked) {
  std::vector<LiveRange> ranges = {{INT64_MIN, INT64_MIN + 2, 5},
                                   {0, INT64_MAX, 7},
                                   {INT64_MAX - 3, INT64_MAX, 9}};
  cs349::LivePeak peak = cs349::peakLiveBytes(ranges);
  EXPECT_EQ(peak.bytes, 16u);
  EXPECT_EQ(peak.time, INT64_MAX - 3);
}

} // namespace
