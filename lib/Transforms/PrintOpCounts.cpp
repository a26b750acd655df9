//===- PrintOpCounts.cpp - how many ops of each kind a function holds -----===//
//
// The lecture's first number is "45 written results" for a decomposed layer
// when every op is its own kernel. Upstream --print-op-stats counts by op
// name, which leaves the classification by trait to the reader; this pass does
// the classification so a test can check the lecture's number directly.
//
//===----------------------------------------------------------------------===//

#include "cs349/Dialect/CS349/IR/CS349Ops.h"
#include "cs349/Dialect/CS349/IR/CS349Traits.h"
#include "cs349/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::cs349 {
#define GEN_PASS_DEF_PRINTOPCOUNTS
#include "cs349/Transforms/Passes.h.inc"
} // namespace mlir::cs349

using namespace mlir;
using namespace mlir::cs349;

namespace {

bool producesTensor(Operation *op) {
  return llvm::any_of(op->getResultTypes(), llvm::IsaPred<TensorType>);
}

struct PrintOpCountsPass : mlir::cs349::impl::PrintOpCountsBase<PrintOpCountsPass> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<FunctionOpInterface>()) {
      int64_t computed = 0, composite = 0, view = 0, constantData = 0,
              kernel = 0;
      func->walk([&](Operation *op) {
        if (isa<KernelOp>(op))
          ++kernel;
        else if (isView(op))
          ++view;
        else if (isConstantData(op))
          ++constantData;
        else if (producesTensor(op))
          ++computed;
        if (isComposite(op))
          ++composite;
      });
      llvm::outs() << "@" << func.getName() << ": computed " << computed
                   << ", composite " << composite << ", view " << view
                   << ", constant data " << constantData << ", kernel "
                   << kernel << "\n";
    }
    markAllAnalysesPreserved();
  }
};

} // namespace
