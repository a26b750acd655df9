//===- DecomposeAggregatedOps.cpp - linalg.softmax and kin, decomposed ----===//
//
// Upstream's linalg ops that stand for several (AggregatedOpInterface) know
// how to decompose themselves but have no pass that asks them to; the
// lowering to loops needs them decomposed.
//
//===----------------------------------------------------------------------===//

#include "cs349/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::cs349 {
#define GEN_PASS_DEF_DECOMPOSEAGGREGATEDOPS
#include "cs349/Conversion/Passes.h.inc"
} // namespace mlir::cs349

using namespace mlir;

namespace {
struct DecomposeAggregatedOpsPass
    : mlir::cs349::impl::DecomposeAggregatedOpsBase<
          DecomposeAggregatedOpsPass> {
  void runOnOperation() override {
    SmallVector<linalg::AggregatedOpInterface> aggregated;
    getOperation()->walk(
        [&](linalg::AggregatedOpInterface op) { aggregated.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (linalg::AggregatedOpInterface op : aggregated) {
      rewriter.setInsertionPoint(op);
      FailureOr<SmallVector<Value>> results = op.decomposeOperation(rewriter);
      if (failed(results)) {
        op->emitOpError("cannot be decomposed into ops that lower to loops");
        return signalPassFailure();
      }
      rewriter.replaceOp(op, *results);
    }
  }
};
} // namespace
