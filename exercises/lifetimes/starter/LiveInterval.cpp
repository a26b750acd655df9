//===- LiveInterval.cpp - your live intervals -----------------------------===//
//
// Exercise: see exercises/lifetimes/README.md. Replace the body of
// findLiveInterval; grade with
//     scripts/grade.sh lifetimes exercises/lifetimes/starter/LiveInterval.cpp
//
//===----------------------------------------------------------------------===//

#include "LiveInterval.h"

using namespace mlir;
using namespace mlir::cs349;

FailureOr<LiveInterval>
mlir::cs349::findLiveInterval(OpResult result,
                              const FunctionLifetimes &lifetimes) {
  // TODO: walk the uses of `result` and of every function-level view of it
  // (isView(op)), transitively: a kernel reader extends `last` to its index
  // (lifetimes.kernelIndex), the function's return makes it `returned` and
  // live to the last kernel, anything else is an error at the reader.
  // This starter keeps every result live to the end: plans that are always
  // correct, and never reuse memory.
  LiveInterval interval;
  interval.last = lifetimes.numKernels() - 1;
  return interval;
}
