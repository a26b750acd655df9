//===- HostMemory.h - how much memory this process may allocate --*- C++ -*-===//
//
// Header-only and free of LLVM, so that both the LLVM-free cs349-plan and
// cs349-run can refuse work that cannot fit before they allocate: a failed
// allocation aborts the process instead of returning an error.
//
//===----------------------------------------------------------------------===//

#ifndef CS349_SUPPORT_HOSTMEMORY_H
#define CS349_SUPPORT_HOSTMEMORY_H

#include <algorithm>
#include <cstdint>
#include <limits>
#include <sys/resource.h>
#include <unistd.h>

namespace cs349 {

/// The bytes this process may allocate: physical memory, or less under an
/// address-space limit (ulimit -v).
inline uint64_t hostMemoryBytes() {
  uint64_t bytes = std::numeric_limits<uint64_t>::max();
  long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGE_SIZE);
  if (pages > 0 && pageSize > 0)
    bytes = uint64_t(pages) * uint64_t(pageSize);
  struct rlimit limit;
  if (getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
    bytes = std::min<uint64_t>(bytes, limit.rlim_cur);
  return bytes;
}

} // namespace cs349

#endif // CS349_SUPPORT_HOSTMEMORY_H
