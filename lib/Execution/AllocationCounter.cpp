//===- AllocationCounter.cpp - what the compiled code allocates -----------===//

#include "cs349/Execution/AllocationCounter.h"

#include <cstdlib>
#include <mutex>
#include <unordered_map>

using namespace cs349::run;

namespace {
std::mutex mutex;
AllocationStats stats;
std::unordered_map<void *, uint64_t> sizes;

void *record(void *pointer, size_t bytes) {
  if (!pointer)
    return nullptr;
  std::lock_guard<std::mutex> lock(mutex);
  ++stats.allocations;
  stats.bytes += bytes;
  stats.live += bytes;
  stats.peak = std::max(stats.peak, stats.live);
  stats.sizes.push_back(bytes);
  sizes[pointer] = bytes;
  return pointer;
}
} // namespace

AllocationStats &cs349::run::allocationStats() { return stats; }

void cs349::run::resetAllocationStats() {
  std::lock_guard<std::mutex> lock(mutex);
  stats = AllocationStats();
  sizes.clear();
}

extern "C" void *cs349::run::cs349CountingAlloc(size_t bytes) {
  // malloc(0) may return null; a zero-byte buffer still needs an address.
  return record(std::malloc(bytes ? bytes : 1), bytes);
}

extern "C" void *cs349::run::cs349CountingAlignedAlloc(size_t alignment,
                                                       size_t bytes) {
  size_t rounded = (bytes + alignment - 1) / alignment * alignment;
  return record(std::aligned_alloc(alignment, rounded ? rounded : alignment),
                bytes);
}

extern "C" void cs349::run::cs349CountingFree(void *pointer) {
  if (!pointer)
    return;
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto found = sizes.find(pointer);
    if (found != sizes.end()) {
      stats.live -= found->second;
      sizes.erase(found);
    }
  }
  std::free(pointer);
}
