//===- ScanList.h - Placed blocks of one scan-index node --------*- C++ -*-===//
//
// Private to lib/Planner.  Plain C++17.
//
//===----------------------------------------------------------------------===//

#ifndef CS349_LIB_PLANNER_SCANLIST_H
#define CS349_LIB_PLANNER_SCANLIST_H

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <utility>
#include <vector>

namespace cs349::planner::detail {

/// The placed blocks (offset, top) of one node of the scan index, sorted by
/// offset up to `sorted`, in placement order after it.  A first-fit scan
/// reads only the blocks beginning below a bound, and the sorted part
/// yields them without reading the others; the unsorted tail is read
/// whole, so it is sorted into the rest when a scan finds it longer than an
/// eighth of it (each block is moved a bounded number of times on average).
class ScanList {
public:
  using Block = std::pair<uint64_t, uint64_t>;

  void push(Block block) { blocks.push_back(block); }
  void clear() {
    blocks.clear();
    sorted = 0;
  }
  bool empty() const { return blocks.empty(); }
  size_t size() const { return blocks.size(); }
  const std::vector<Block> &all() const { return blocks; }

  /// Sorts the tail into the sorted part once it is long enough to cost a
  /// scan more than the sort (`scratch`: any vector, to merge into).
  void settle(std::vector<Block> &scratch) {
    const size_t tail = blocks.size() - sorted;
    if (tail <= std::max<size_t>(kShortTail, sorted / 8))
      return;
    std::sort(blocks.begin() + sorted, blocks.end());
    scratch.clear();
    std::merge(blocks.begin(), blocks.begin() + sorted,
               blocks.begin() + sorted, blocks.end(),
               std::back_inserter(scratch));
    blocks.swap(scratch);
    sorted = blocks.size();
  }

  /// Calls f(block) for the blocks beginning in [from, to).
  template <typename F> void forBeginIn(uint64_t from, uint64_t to, F f) const {
    const auto sortedEnd = blocks.begin() + sorted;
    auto it = std::lower_bound(
        blocks.begin(), sortedEnd, from,
        [](const Block &block, uint64_t x) { return block.first < x; });
    for (; it != sortedEnd && it->first < to; ++it)
      f(*it);
    for (it = sortedEnd; it != blocks.end(); ++it)
      if (it->first >= from && it->first < to)
        f(*it);
  }

private:
  /// A tail this short is read rather than sorted.
  static constexpr size_t kShortTail = 32;

  std::vector<Block> blocks;
  size_t sorted = 0;
};

} // namespace cs349::planner::detail

#endif // CS349_LIB_PLANNER_SCANLIST_H
