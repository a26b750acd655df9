//===- MemoryPlan.h - the memory plan as IR annotations ---------*- C++ -*-===//
//
// --plan-memory records its plan in the IR as discardable attributes, so that
// FileCheck, later passes and people editing IR by hand all read the same
// thing:
//
//   * every cs349.kernel: `cs349.plan = [#cs349.buffer<offset = O, bytes = B,
//     first = F, last = L>, ...]`, one per result in result order;
//   * the function: `cs349.arena = #cs349.arena<bytes = ..., naive = ...,
//     lower_bound = ..., alignment = ..., kernels = ..., strategy = "...">`.
//
// This header writes, reads and checks those annotations. Reading checks them
// against the IR (sizes, lifetimes, kernel count, derived totals); verifying
// checks the placement (no two live buffers overlap, every buffer inside the
// arena, offsets aligned). Every defect is a located diagnostic.
//
//===----------------------------------------------------------------------===//

#ifndef CS349_ANALYSIS_MEMORYPLAN_H
#define CS349_ANALYSIS_MEMORYPLAN_H

#include "cs349/Analysis/Lifetimes.h"

#include "llvm/ADT/StringRef.h"

namespace mlir::cs349 {

/// A function's plan, read back from the IR.
struct FunctionMemoryPlan {
  FunctionLifetimes lifetimes;
  /// offsets[i] is the arena offset of lifetimes.results[i].
  SmallVector<uint64_t> offsets;
  ArenaAttr arena;
};

/// Writes `offsets` (parallel to lifetimes.results) and the arena totals onto
/// the kernels and the function, replacing any earlier plan.
void annotateMemoryPlan(func::FuncOp func, const FunctionLifetimes &lifetimes,
                        ArrayRef<uint64_t> offsets, ArenaAttr arena);

/// Whether `func` carries a plan at all: its cs349.arena attribute or a
/// cs349.plan on one of its kernels.
bool hasMemoryPlan(func::FuncOp func);

/// Reads the plan of `func` and checks that the annotations describe this IR:
/// present on the function and on every kernel, one buffer per result, bytes
/// and lifetimes as computeLifetimes finds them, the kernel count, the naive
/// size and the lower bound as recomputed, and a power-of-two alignment.
/// Emits one located error per mismatch and fails if there is any.
FailureOr<FunctionMemoryPlan> readMemoryPlan(func::FuncOp func);

/// readMemoryPlan with the lifetimes of `func` already computed: a pass that
/// has just annotated the plan (which adds attributes but changes no kernel,
/// view or use) need not walk the function again.
FailureOr<FunctionMemoryPlan> readMemoryPlan(func::FuncOp func,
                                             FunctionLifetimes lifetimes);

/// Checks the placement of a plan read by readMemoryPlan: offsets aligned,
/// every buffer inside the arena, no two buffers that are live at the same
/// kernel overlapping in memory. Each overlap is an error on one buffer's
/// kernel with a note on the other's, naming both buffers.
LogicalResult verifyMemoryPlan(const FunctionMemoryPlan &plan);

} // namespace mlir::cs349

#endif // CS349_ANALYSIS_MEMORYPLAN_H
