//===- VerifyMemoryPlan.cpp - check a memory plan recorded in the IR ------===//
//
// For plans that were edited by hand or produced by another tool: everything
// derivable is re-derived from the IR, and only the offsets and the arena
// size are taken from the annotations (see cs349/Analysis/MemoryPlan.h).
//
//===----------------------------------------------------------------------===//

#include "cs349/Analysis/MemoryPlan.h"
#include "cs349/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::cs349 {
#define GEN_PASS_DEF_VERIFYMEMORYPLAN
#include "cs349/Transforms/Passes.h.inc"
} // namespace mlir::cs349

using namespace mlir;
using namespace mlir::cs349;

namespace {
struct VerifyMemoryPlanPass
    : public mlir::cs349::impl::VerifyMemoryPlanBase<VerifyMemoryPlanPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal() || !hasMemoryPlan(func))
      return;
    FailureOr<FunctionMemoryPlan> plan = readMemoryPlan(func);
    if (failed(plan) || failed(verifyMemoryPlan(*plan)))
      return signalPassFailure();
    markAllAnalysesPreserved();
  }
};
} // namespace
