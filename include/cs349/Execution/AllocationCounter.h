//===- AllocationCounter.h - what the compiled code allocates ----*- C++ -*-===//
//
// The lowering makes every heap allocation of the compiled program call
// _mlir_memref_to_llvm_{alloc,aligned_alloc,free}; cs349-run binds those
// symbols to these counting functions.
//
//===----------------------------------------------------------------------===//

#ifndef CS349_EXECUTION_ALLOCATIONCOUNTER_H
#define CS349_EXECUTION_ALLOCATIONCOUNTER_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace cs349::run {

struct AllocationStats {
  uint64_t allocations = 0;
  uint64_t bytes = 0;     // the sum of all allocation sizes
  uint64_t peak = 0;      // the most bytes live at once
  uint64_t live = 0;      // bytes not freed yet
  std::vector<uint64_t> sizes; // in allocation order
};

/// The statistics since the last reset.
AllocationStats &allocationStats();
void resetAllocationStats();

extern "C" {
void *cs349CountingAlloc(size_t bytes);
void *cs349CountingAlignedAlloc(size_t alignment, size_t bytes);
void cs349CountingFree(void *pointer);
}

} // namespace cs349::run

#endif // CS349_EXECUTION_ALLOCATIONCOUNTER_H
