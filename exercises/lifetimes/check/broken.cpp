// A deliberately wrong answer for CI (scripts/grade.sh --check): it ignores
// views, so a result read only through a reshape dies too early and the
// planned layer computes wrong numbers.
#include "LiveInterval.h"

using namespace mlir;
using namespace mlir::cs349;

FailureOr<LiveInterval>
mlir::cs349::findLiveInterval(OpResult result,
                              const FunctionLifetimes &lifetimes) {
  auto kernel = cast<KernelOp>(result.getOwner());
  LiveInterval interval;
  interval.last = lifetimes.kernelIndex.lookup(kernel);
  for (OpOperand &use : result.getUses()) {
    Operation *user = use.getOwner();
    if (auto reader = dyn_cast<KernelOp>(user))
      interval.last =
          std::max(interval.last, lifetimes.kernelIndex.lookup(reader));
    else if (user->hasTrait<OpTrait::ReturnLike>()) {
      interval.returned = true;
      interval.last = lifetimes.numKernels() - 1;
    } else if (!isView(user))
      return user->emitOpError("reads a kernel result outside any "
                               "cs349.kernel: run --fuse first");
  }
  return interval;
}
