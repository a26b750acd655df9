//===- Simplify.cpp - what front ends write, as cs349 writes it ------------===//
//
// Front ends spell a few things in ops cs349 does not have (a reciprocal,
// a sigmoid); these patterns turn the spellings into the ops the rest of the
// pipeline (matchers, fusion, --decompose) knows. x^2 is handled where the
// power is raised (LinalgRaising.cpp), adding zeros of the same shape by
// cs349's folders (adding zeros that broadcast is GQA's repeat, below).
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

/// reshape(c / x) -> c / reshape(x) for a rank-0 c: a reciprocal that a
/// raised generic computed on the reduced shape ([H, T] row sums) and a
/// reshape put back to [H, T, 1], so that the product with it is a
/// division again (ReciprocalMultiply).
/// Not for a reshape that only puts back a leading unit dim: that is the
/// one DropLeadingUnitDim (UnitDims.cpp) wraps a narrowed op in, and moving
/// the reshape inside would hand it the wide op again, forever.
struct ReshapeOfScalarQuotient : OpRewritePattern<ReshapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ReshapeOp op,
                                PatternRewriter &rewriter) const override {
    auto div = op.getInput().getDefiningOp<DivOp>();
    if (!div || !div->hasOneUse() ||
        cast<RankedTensorType>(div.getLhs().getType()).getRank() != 0 ||
        div.getRhs().getType() != div.getType())
      return failure();
    ArrayRef<int64_t> from = div.getType().getShape();
    ArrayRef<int64_t> to = op.getType().getShape();
    if (to.size() >= 3 && to.front() == 1 && to.drop_front() == from)
      return rewriter.notifyMatchFailure(
          op, "only a leading unit dim: DropLeadingUnitDim's reshape");
    Value reshaped =
        ReshapeOp::create(rewriter, op.getLoc(), op.getType(), div.getRhs());
    rewriter.replaceOpWithNewOp<DivOp>(op, div.getLhs(), reshaped);
    return success();
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

/// GQA as front ends write it: x [.., G, ..] reshaped to [.., G, 1, ..],
/// added to zeros [.., G, n, ..] (broadcasting the new dim n times) and
/// reshaped to [.., G·n, ..] is `repeat x axis = a times = n`: row i of the
/// merged dim is row i / n of x. cs349.repeat is a view, and
/// --match-attention reads through it to grouped-query attention.
struct RepeatByAddingZeros : OpRewritePattern<ReshapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ReshapeOp op,
                                PatternRewriter &rewriter) const override {
    auto add = op.getInput().getDefiningOp<AddOp>();
    if (!add)
      return failure();
    ArrayRef<int64_t> broadcast = add.getType().getShape();
    for (unsigned side = 0; side < 2; ++side) {
      auto unsqueeze = add->getOperand(side).getDefiningOp<ReshapeOp>();
      if (!unsqueeze || !isSplatOf(add->getOperand(1 - side), 0.0) ||
          add->getOperand(1 - side).getType() != add.getType())
        continue;
      TypedValue<RankedTensorType> input = unsqueeze.getInput();
      std::optional<int64_t> axis =
          repeatedAxis(input.getType().getShape(), unsqueeze.getType().getShape(),
                       broadcast, op.getType().getShape());
      if (!axis)
        continue;
      SmallVector<int64_t> repeated(input.getType().getShape());
      repeated[*axis] *= broadcast[*axis + 1];
      Value result = RepeatOp::create(
          rewriter, op.getLoc(),
          RankedTensorType::get(repeated, op.getType().getElementType()), input,
          rewriter.getI64IntegerAttr(*axis),
          rewriter.getI64IntegerAttr(broadcast[*axis + 1]));
      // The batch of one a front end keeps on the merged result.
      if (result.getType() != op.getType())
        result = ReshapeOp::create(rewriter, op.getLoc(), op.getType(), result);
      rewriter.replaceOp(op, result);
      return success();
    }
    return failure();
  }

  /// The axis `a` of `input` when `unsqueezed` is `input` with a 1 inserted
  /// after `a`, `broadcast` stretches only that 1, and `merged` joins it
  /// with dim `a` again (with or without leading unit dims).
  static std::optional<int64_t> repeatedAxis(ArrayRef<int64_t> input,
                                             ArrayRef<int64_t> unsqueezed,
                                             ArrayRef<int64_t> broadcast,
                                             ArrayRef<int64_t> merged) {
    auto withoutLeadingOnes = [](ArrayRef<int64_t> shape) {
      while (!shape.empty() && shape.front() == 1)
        shape = shape.drop_front();
      return SmallVector<int64_t>(shape);
    };
    if (unsqueezed.size() != input.size() + 1 ||
        broadcast.size() != unsqueezed.size())
      return std::nullopt;
    for (size_t axis = 0; axis < input.size(); ++axis) {
      size_t inserted = axis + 1;
      if (unsqueezed[inserted] != 1 || broadcast[inserted] <= 1)
        continue;
      auto without = [&](ArrayRef<int64_t> shape) {
        SmallVector<int64_t> dims(shape);
        dims.erase(dims.begin() + inserted);
        return dims;
      };
      SmallVector<int64_t> joined = without(broadcast);
      joined[axis] *= broadcast[inserted];
      if (without(unsqueezed) == SmallVector<int64_t>(input) &&
          without(broadcast) == SmallVector<int64_t>(input) &&
          withoutLeadingOnes(joined) == withoutLeadingOnes(merged))
        return axis;
    }
    return std::nullopt;
  }
};

} // namespace

void mlir::cs349::import::populateSimplifyPatterns(
    RewritePatternSet &patterns) {
  patterns.add<ReciprocalMultiply, ReshapeOfScalarQuotient, SigmoidTimesInput,
               SiluQuotient, RepeatByAddingZeros>(
      patterns.getContext());
  // Squares come in as powers of 2 (`x.pow(2)`, `tosa.pow`, `fpowi`): the
  // raised RMSNorm should read `x * x` as the hand-written one does.
  PowOp::getCanonicalizationPatterns(patterns, patterns.getContext());
}
