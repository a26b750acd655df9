//===- LiveInterval.cpp - how long a written result lives -----------------===//
//
// Upstream `Liveness` answers "is this SSA value live after that op", but a
// written result stays live while any *view* of it is read, and views are
// other SSA values. So the last reader is found by walking the uses of the
// result and of every function-level view of it (transitively), which is the
// same O(uses) walk Liveness does per value, over the alias set instead.
//
// A course exercise (exercises/lifetimes) builds a student's file in place
// of this one; the contract is in LiveInterval.h.
//
//===----------------------------------------------------------------------===//

#include "LiveInterval.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::cs349;

FailureOr<LiveInterval>
mlir::cs349::findLiveInterval(OpResult result,
                              const FunctionLifetimes &lifetimes) {
  auto kernel = cast<KernelOp>(result.getOwner());
  Block *block = kernel->getBlock();
  LiveInterval interval;
  interval.last = lifetimes.kernelIndex.lookup(kernel);

  SmallVector<Value> aliases{result};
  for (size_t i = 0; i < aliases.size(); ++i) {
    for (OpOperand &use : aliases[i].getUses()) {
      Operation *user = use.getOwner();
      if (isView(user) && user->getBlock() == block) {
        llvm::append_range(aliases, user->getResults());
      } else if (auto reader = dyn_cast<KernelOp>(user);
                 reader && reader->getBlock() == block) {
        interval.last =
            std::max(interval.last, lifetimes.kernelIndex.lookup(reader));
      } else if (user->hasTrait<OpTrait::ReturnLike>() &&
                 user->getBlock() == block) {
        interval.returned = true;
        interval.last = std::max(interval.last, lifetimes.numKernels() - 1);
      } else {
        InFlightDiagnostic diag = user->emitOpError(
            "reads a kernel result outside any cs349.kernel: run --fuse "
            "first");
        diag.attachNote(kernel.getLoc()) << "the result is written here";
        return diag;
      }
    }
  }
  return interval;
}
