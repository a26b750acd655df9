//===- Lifetimes.h - written results of a fused function -------*- C++ -*-===//
//
// After --fuse a function body is a sequence of cs349.kernel ops, views of
// their results, constant data and the return. The memory a plan must place
// is exactly the kernel results ("written results"); this analysis says, for
// each, how many bytes it needs and which kernels it is live across.
//
// Kernel indices are positions among the function's top-level kernels, in
// block order. A result is live from its producer (`first`) to the last kernel
// that reads it directly or through function-level views (`last`), both
// inclusive; a result the function returns (directly or through views) lives
// to the last kernel. Function arguments (activations in, weights) and
// constant data are never written results.
//
// Used by --plan-memory, --verify-memory-plan and --memory-report, and meant
// for every pass that needs the same facts (scheduling, budgets, pictures,
// lowering to one arena).
//
//===----------------------------------------------------------------------===//

#ifndef CS349_ANALYSIS_LIFETIMES_H
#define CS349_ANALYSIS_LIFETIMES_H

#include "cs349/Dialect/CS349/IR/CS349Ops.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>
#include <string>

namespace cs349::planner {
struct Problem;
} // namespace cs349::planner

namespace mlir::cs349 {

/// One kernel result: a tensor the plan must place in the arena.
struct WrittenResult {
  /// The kernel result itself.
  OpResult value;
  /// The kernel that writes it (value's owner).
  KernelOp producer;
  /// Inclusive kernel indices: the producer, and the last kernel that reads
  /// the value directly or through views (the last kernel for a function
  /// result). `last == first` for a result nobody reads.
  int64_t first = 0;
  int64_t last = 0;
  /// Size in bytes (64-bit: a [32, 32768, 32768] bf16 tensor is 68.7 GB).
  uint64_t bytes = 0;
  /// The function returns it, directly or through views.
  bool isFunctionResult = false;
  /// A stable name: the name of the location of the op that produces it
  /// inside the kernel (cs349-gen names every step), else "k<kernel>#<result>".
  std::string name;
  /// The op inside the kernel body that produces it ("matmul", "add", ...);
  /// "copy" when the kernel writes one of its inputs back unchanged.
  std::string producerOp;
};

/// The written results of one function.
struct FunctionLifetimes {
  /// Top-level kernels in block order: index i is kernel i.
  SmallVector<KernelOp> kernels;
  /// Every kernel result, in kernel order and then result order.
  SmallVector<WrittenResult> results;
  /// Index of each kernel in `kernels`.
  llvm::DenseMap<Operation *, int64_t> kernelIndex;

  int64_t numKernels() const { return static_cast<int64_t>(kernels.size()); }
  /// The indices into `results` of the results of `kernel`, in result order.
  SmallVector<size_t> resultsOf(KernelOp kernel) const;
  /// Sum of the bytes live at each kernel, maximised over kernels: no plan of
  /// these results can use a smaller arena.
  uint64_t lowerBound() const;
};

/// Computes the written results of `func`. Emits a located error and fails
/// when the function is not in fused form: an op that computes a tensor
/// outside any cs349.kernel ("run --fuse first"), kernels nested inside other
/// ops, a result whose size is not a static 64-bit byte count, or a function
/// body of more than one block. A function without a body has no results.
FailureOr<FunctionLifetimes> computeLifetimes(func::FuncOp func);

/// The planner's view of `lifetimes`: buffer i is results[i], live on the
/// half-open kernel interval [first, last + 1).
::cs349::planner::Problem toPlannerProblem(const FunctionLifetimes &lifetimes,
                                           uint64_t alignment);

} // namespace mlir::cs349

#endif // CS349_ANALYSIS_LIFETIMES_H
