//===- NodeArena.h - Memory for index tree nodes ----------------*- C++ -*-===//
//
// Private to lib/Planner.  Plain C++17.
//
//===----------------------------------------------------------------------===//

#ifndef CS349_LIB_PLANNER_NODEARENA_H
#define CS349_LIB_PLANNER_NODEARENA_H

#include <cstddef>
#include <memory>
#include <memory_resource>
#include <new>
#include <vector>

namespace cs349::planner::detail {

/// Memory for the unions' tree nodes, all of one size: a free list over
/// chunks.  Released all at once when a pass starts again, without visiting
/// the nodes (the unions are dropped, not destroyed: they own nothing else).
class NodeArena : public std::pmr::memory_resource {
public:
  void releaseAll() {
    chunk = 0;
    used = 0;
    freeList = nullptr;
  }

private:
  static constexpr size_t kChunkBytes = 1 << 20;
  struct FreeNode {
    FreeNode *next;
  };
  void *do_allocate(size_t bytes, size_t alignment) override {
    bytes = (bytes + alignof(std::max_align_t) - 1) /
            alignof(std::max_align_t) * alignof(std::max_align_t);
    if (nodeBytes == 0)
      nodeBytes = bytes;
    if (bytes != nodeBytes || alignment > alignof(std::max_align_t))
      return std::pmr::new_delete_resource()->allocate(bytes, alignment);
    if (freeList) {
      void *p = freeList;
      freeList = freeList->next;
      return p;
    }
    if (chunks.empty() || used + bytes > kChunkBytes) {
      if (!chunks.empty())
        ++chunk;
      if (chunk == chunks.size())
        chunks.emplace_back(new std::max_align_t[kChunkBytes /
                                                 sizeof(std::max_align_t)]);
      used = 0;
    }
    void *p = reinterpret_cast<char *>(chunks[chunk].get()) + used;
    used += bytes;
    return p;
  }
  void do_deallocate(void *p, size_t bytes, size_t alignment) override {
    bytes = (bytes + alignof(std::max_align_t) - 1) /
            alignof(std::max_align_t) * alignof(std::max_align_t);
    if (bytes != nodeBytes || alignment > alignof(std::max_align_t)) {
      std::pmr::new_delete_resource()->deallocate(p, bytes, alignment);
      return;
    }
    freeList = new (p) FreeNode{freeList};
  }
  bool do_is_equal(const memory_resource &other) const noexcept override {
    return this == &other;
  }

  std::vector<std::unique_ptr<std::max_align_t[]>> chunks;
  size_t chunk = 0, used = 0, nodeBytes = 0;
  FreeNode *freeList = nullptr;
};

} // namespace cs349::planner::detail

#endif // CS349_LIB_PLANNER_NODEARENA_H
