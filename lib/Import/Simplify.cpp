//===- Simplify.cpp - what front ends write, as cs349 writes it ------------===//
//
// Front ends spell a few things in ops cs349 does not have (a reciprocal,
// a sigmoid); these patterns turn the spellings into the ops the rest of the
// pipeline (matchers, fusion, --decompose) knows. x^2 is handled where the
// power is raised (LinalgRaising.cpp), adding zeros by cs349's folders.
//
//===----------------------------------------------------------------------===//

#include "ImportPatterns.h"

#include "cs349/Dialect/CS349/IR/CS349Ops.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::cs349;

namespace {

bool isSplatOf(Value value, double expected) {
  DenseElementsAttr dense;
  return matchPattern(value, m_Constant(&dense)) && dense.isSplat() &&
         isa<FloatType>(dense.getElementType()) &&
         dense.getSplatValue<APFloat>().convertToDouble() == expected;
}

/// x * (1 / y) -> x / y (a reciprocal is imported as 1 / y).
struct ReciprocalMultiply : OpRewritePattern<MulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MulOp op,
                                PatternRewriter &rewriter) const override {
    for (unsigned side = 0; side < 2; ++side) {
      auto reciprocal = op->getOperand(side).getDefiningOp<DivOp>();
      if (!reciprocal || !isSplatOf(reciprocal.getLhs(), 1.0))
        continue;
      Value other = op->getOperand(1 - side);
      auto div = DivOp::create(rewriter, op.getLoc(), other,
                               reciprocal.getRhs());
      if (div.getType() != op.getType()) {
        rewriter.eraseOp(div);
        continue;
      }
      rewriter.replaceOp(op, div);
      return success();
    }
    return failure();
  }
};

/// sigmoid(x) * x -> silu(x), with the sigmoid still TOSA.
struct SigmoidTimesInput : OpRewritePattern<MulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MulOp op,
                                PatternRewriter &rewriter) const override {
    for (unsigned side = 0; side < 2; ++side) {
      auto sigmoid = op->getOperand(side).getDefiningOp<tosa::SigmoidOp>();
      if (!sigmoid || sigmoid.getInput() != op->getOperand(1 - side) ||
          sigmoid.getType() != op.getType())
        continue;
      rewriter.replaceOpWithNewOp<SiluOp>(op, sigmoid.getInput());
      return success();
    }
    return failure();
  }
};

/// x / (1 + exp(-x)) -> silu(x): a sigmoid lowered by upstream and raised
/// (1 / (1 + exp(-x))), times x, after ReciprocalMultiply.
struct SiluQuotient : OpRewritePattern<DivOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(DivOp op,
                                PatternRewriter &rewriter) const override {
    Value x = op.getLhs();
    auto sum = op.getRhs().getDefiningOp<AddOp>();
    if (!sum || x.getType() != op.getType())
      return failure();
    for (unsigned side = 0; side < 2; ++side) {
      if (!isSplatOf(sum->getOperand(side), 1.0))
        continue;
      auto exp = sum->getOperand(1 - side).getDefiningOp<ExpOp>();
      auto neg = exp ? exp.getInput().getDefiningOp<NegOp>() : NegOp();
      if (!neg || neg.getInput() != x)
        continue;
      rewriter.replaceOpWithNewOp<SiluOp>(op, x);
      return success();
    }
    return failure();
  }
};

} // namespace

void mlir::cs349::import::populateSimplifyPatterns(
    RewritePatternSet &patterns) {
  patterns.add<ReciprocalMultiply, SigmoidTimesInput, SiluQuotient>(
      patterns.getContext());
}
