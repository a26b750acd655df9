//===- LiveBytes.h - bytes live over time ------------------------*- C++ -*-===//
//
// Header-only and free of LLVM: the planner's lower bound, the scheduler's
// peak model (both plain C++) and the memory report all ask how many bytes
// are live at once. Sums are exact and saturate at UINT64_MAX where they do
// not fit: a count that saturated once comes back down when blocks die.
//
//===----------------------------------------------------------------------===//

#ifndef CS349_SUPPORT_LIVEBYTES_H
#define CS349_SUPPORT_LIVEBYTES_H

#include <algorithm>
#include <cstdint>
#include <vector>

namespace cs349 {

/// A block of `bytes` live on the half-open interval [start, end) of time.
struct LiveRange {
  int64_t start = 0;
  int64_t end = 0;
  uint64_t bytes = 0;
};

/// The most bytes live at one time, and the first time they are.
struct LivePeak {
  uint64_t bytes = 0;
  int64_t time = 0;
};

namespace detail {
// Every sum of uint64_t sizes of a vector fits: no overflow before the
// saturation at the end.
__extension__ typedef unsigned __int128 LiveSum;

inline uint64_t saturate(LiveSum sum) {
  return sum > UINT64_MAX ? UINT64_MAX : static_cast<uint64_t>(sum);
}
} // namespace detail

namespace detail {
/// The peak by an event sweep over the sorted starts and ends: O(n log n)
/// whatever the times.
inline LivePeak peakLiveBytesBySorting(const std::vector<LiveRange> &ranges) {
  struct Event {
    int64_t time;
    bool isStart;
    uint64_t bytes;
  };
  std::vector<Event> events;
  events.reserve(2 * ranges.size());
  for (const LiveRange &range : ranges) {
    if (range.start >= range.end || range.bytes == 0)
      continue;
    events.push_back({range.start, true, range.bytes});
    events.push_back({range.end, false, range.bytes});
  }
  // Ends before starts at the same time: the intervals are half-open.
  std::sort(events.begin(), events.end(), [](const Event &a, const Event &b) {
    return a.time != b.time ? a.time < b.time : a.isStart < b.isStart;
  });
  LiveSum live = 0, peak = 0;
  LivePeak result;
  for (const Event &event : events) {
    if (!event.isStart) {
      live -= event.bytes;
      continue;
    }
    live += event.bytes;
    if (live > peak) {
      peak = live;
      result.time = event.time;
    }
  }
  result.bytes = saturate(peak);
  return result;
}

/// The peak by adding the bytes that start and end at each time of
/// [first, last]: O(n + last - first), for ranges that lie within it.
inline LivePeak peakLiveBytesByTime(const std::vector<LiveRange> &ranges,
                                    int64_t first, int64_t last) {
  const size_t times = static_cast<size_t>(static_cast<uint64_t>(last) -
                                           static_cast<uint64_t>(first)) + 1;
  std::vector<LiveSum> change(times, 0);
  for (const LiveRange &range : ranges) {
    if (range.start >= range.end || range.bytes == 0)
      continue;
    change[static_cast<uint64_t>(range.start) - static_cast<uint64_t>(first)] +=
        range.bytes;
    change[static_cast<uint64_t>(range.end) - static_cast<uint64_t>(first)] -=
        range.bytes;
  }
  // The live sum at a time counts the ends there before the starts, as the
  // sweep does; its first maximum is the sweep's peak time.
  LiveSum live = 0, peak = 0;
  LivePeak result;
  for (size_t i = 0; i < times; ++i) {
    live += change[i];
    if (live > peak) {
      peak = live;
      result.time = static_cast<int64_t>(static_cast<uint64_t>(first) + i);
    }
  }
  result.bytes = saturate(peak);
  return result;
}
} // namespace detail

/// The peak of `ranges` over all times. Empty ranges count for nothing; with
/// no bytes ever live the peak is 0 at time 0. Lifetimes are usually steps
/// of one program, a span of times not much larger than the number of
/// ranges: then the bytes are added per time, O(n + span); otherwise the
/// starts and ends are sorted, O(n log n). Both give the same peak and time.
inline LivePeak peakLiveBytes(const std::vector<LiveRange> &ranges) {
  int64_t first = 0, last = 0;
  size_t active = 0;
  for (const LiveRange &range : ranges) {
    if (range.start >= range.end || range.bytes == 0)
      continue;
    first = active == 0 ? range.start : std::min(first, range.start);
    last = active == 0 ? range.end : std::max(last, range.end);
    ++active;
  }
  if (active == 0)
    return {};
  const uint64_t span =
      static_cast<uint64_t>(last) - static_cast<uint64_t>(first);
  if (span / 4 <= active)
    return detail::peakLiveBytesByTime(ranges, first, last);
  return detail::peakLiveBytesBySorting(ranges);
}

/// The bytes live at each time 0 .. steps-1, O(n + steps). Every range must
/// lie within [0, steps].
inline std::vector<uint64_t> liveBytesPerStep(const std::vector<LiveRange> &ranges,
                                              int64_t steps) {
  std::vector<detail::LiveSum> starting(steps + 1, 0), ending(steps + 1, 0);
  for (const LiveRange &range : ranges) {
    if (range.start >= range.end)
      continue;
    starting[range.start] += range.bytes;
    ending[range.end] += range.bytes;
  }
  std::vector<uint64_t> profile(steps);
  detail::LiveSum live = 0;
  for (int64_t time = 0; time < steps; ++time) {
    live = live + starting[time] - ending[time];
    profile[time] = detail::saturate(live);
  }
  return profile;
}

} // namespace cs349

#endif // CS349_SUPPORT_LIVEBYTES_H
