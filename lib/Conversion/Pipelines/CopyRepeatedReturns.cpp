//===- CopyRepeatedReturns.cpp - one tensor per out-parameter --------------===//
//
// A returned tensor becomes the caller's out-parameter after bufferization.
// A value returned twice would be one buffer standing for two
// out-parameters, which upstream's buffer-results-to-out-params cannot
// handle (it erases the allocation for the first and rewrites it for the
// second); so each further return of a value gets a copy of its own. Runs
// after every lowering that may fold two results into one (upstream's TOSA
// lowering folds identity tiles and transposes), right before
// bufferization.
//
//===----------------------------------------------------------------------===//

#include "cs349/Conversion/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::cs349 {
#define GEN_PASS_DEF_COPYREPEATEDRETURNS
#include "cs349/Conversion/Passes.h.inc"
} // namespace mlir::cs349

using namespace mlir;

namespace {
struct CopyRepeatedReturnsPass
    : mlir::cs349::impl::CopyRepeatedReturnsBase<CopyRepeatedReturnsPass> {
  void runOnOperation() override {
    for (Block &block : getOperation().getBody()) {
      auto ret = dyn_cast<func::ReturnOp>(block.getTerminator());
      if (!ret)
        continue;
      OpBuilder builder(ret);
      llvm::SmallDenseSet<Value> seen;
      for (OpOperand &operand : ret->getOpOperands()) {
        Value value = operand.get();
        auto type = dyn_cast<RankedTensorType>(value.getType());
        // Arguments are copied into the out-parameters already.
        if (!type || isa<BlockArgument>(value) || seen.insert(value).second)
          continue;
        Value empty = tensor::EmptyOp::create(
            builder, ret.getLoc(), type.getShape(), type.getElementType());
        operand.set(linalg::CopyOp::create(builder, ret.getLoc(), value, empty)
                        .getResult(0));
      }
    }
  }
};
} // namespace
