//===- LiveInterval.h - how long a written result lives ---------*- C++ -*-===//
//
// Private to lib/Analysis: the one question computeLifetimes asks of each
// kernel result, in a file of its own because a course exercise
// (exercises/lifetimes) builds a student's answer in its place.
//
//===----------------------------------------------------------------------===//

#ifndef CS349_LIB_ANALYSIS_LIVEINTERVAL_H
#define CS349_LIB_ANALYSIS_LIVEINTERVAL_H

#include "cs349/Analysis/Lifetimes.h"

namespace mlir::cs349 {

/// Where a written result stops being live.
struct LiveInterval {
  /// The last kernel (an index into FunctionLifetimes::kernels) that reads
  /// the result; its producer's index when nothing reads it; the last kernel
  /// when the function returns it.
  int64_t last = 0;
  /// The function returns the result, directly or through views.
  bool returned = false;
};

/// The live interval of `result`, a result of one of `lifetimes.kernels`
/// (whose `kernels` and `kernelIndex` are complete). A result is read by a
/// kernel directly or through a chain of views (reshape, transpose, ...:
/// isView) at function level; a view of a view counts too. A reader that is
/// none of a kernel, a view or the function's return is an error: a located
/// diagnostic ("reads a kernel result outside any cs349.kernel"), and failure.
FailureOr<LiveInterval> findLiveInterval(OpResult result,
                                         const FunctionLifetimes &lifetimes);

} // namespace mlir::cs349

#endif // CS349_LIB_ANALYSIS_LIVEINTERVAL_H
