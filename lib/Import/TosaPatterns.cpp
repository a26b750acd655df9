//===- TosaPatterns.cpp - TOSA ops that are cs349 ops ----------------------===//
//
// A TOSA op names what it computes, so the ones that have a cs349
// equivalent are rewritten directly: going through linalg first would turn
// the name into a generic body that then has to be recognised again.
// TOSA's broadcasting (equal ranks, size-1 dims stretch) is a special case
// of cs349's NumPy broadcasting, so the operands pass through unchanged.
//
//===----------------------------------------------------------------------===//

#include "ImportPatterns.h"

#include "cs349/Dialect/CS349/IR/CS349Ops.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::cs349;

namespace {

bool allCS349Tensors(Operation *op) {
  auto isTensor = [](Type type) { return import::isCS349TensorType(type); };
  return llvm::all_of(op->getResultTypes(), isTensor);
}

/// Whether a TOSA op skips NaN operands (`nan_mode = IGNORE`). Ops without
/// a NaN mode, and the default mode, propagate NaN as cs349's ops do.
bool ignoresNaN(Operation *) { return false; }
bool ignoresNaN(tosa::MaximumOp op) {
  return op.getNanMode() == tosa::NanPropagationMode::IGNORE;
}
bool ignoresNaN(tosa::ReduceMaxOp op) {
  return op.getNanMode() == tosa::NanPropagationMode::IGNORE;
}

enum class NaNs { Propagate, Ignore };

/// tosa binary op -> cs349 binary op, for the TOSA ops whose NaN mode is
/// `nans`. The extra operands (tosa.mul's shift) only matter for integer
/// types, which never get here.
template <typename TosaOp, typename CS349Op, NaNs nans = NaNs::Propagate>
struct BinaryPattern : OpRewritePattern<TosaOp> {
  using OpRewritePattern<TosaOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(TosaOp op,
                                PatternRewriter &rewriter) const override {
    Value lhs = op->getOperand(0), rhs = op->getOperand(1);
    if (!allCS349Tensors(op) || !import::isCS349TensorType(lhs.getType()) ||
        !import::isCS349TensorType(rhs.getType()) ||
        ignoresNaN(op) != (nans == NaNs::Ignore))
      return failure();
    auto replacement = CS349Op::create(rewriter, op.getLoc(), lhs, rhs);
    if (replacement.getType() != op->getResult(0).getType())
      return rewriter.notifyMatchFailure(op, "broadcast result differs");
    rewriter.replaceOp(op, replacement);
    return success();
  }
};

template <typename TosaOp, typename CS349Op>
struct UnaryPattern : OpRewritePattern<TosaOp> {
  using OpRewritePattern<TosaOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(TosaOp op,
                                PatternRewriter &rewriter) const override {
    Value input = op->getOperand(0);
    if (!allCS349Tensors(op) || input.getType() != op->getResult(0).getType())
      return failure();
    rewriter.replaceOpWithNewOp<CS349Op>(op, input);
    return success();
  }
};

/// 1/x has no op of its own: a division of a splat 1 (that
/// x * (1/y) -> x / y then removes again, see Simplify.cpp).
struct ReciprocalPattern : OpRewritePattern<tosa::ReciprocalOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tosa::ReciprocalOp op,
                                PatternRewriter &rewriter) const override {
    if (!allCS349Tensors(op))
      return failure();
    auto type = cast<RankedTensorType>(op.getType());
    Value one = import::createSplat(rewriter, op.getLoc(),
                                    type.getElementType(), 1.0);
    rewriter.replaceOpWithNewOp<DivOp>(op, one, op.getInput1());
    return success();
  }
};

/// Negation; the zero points are those of integer types only.
struct NegatePattern : OpRewritePattern<tosa::NegateOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tosa::NegateOp op,
                                PatternRewriter &rewriter) const override {
    if (!allCS349Tensors(op))
      return failure();
    rewriter.replaceOpWithNewOp<NegOp>(op, op.getInput1());
    return success();
  }
};

/// TOSA reductions keep the reduced axis with size 1.
template <typename TosaOp, typename CS349Op>
struct ReducePattern : OpRewritePattern<TosaOp> {
  using OpRewritePattern<TosaOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(TosaOp op,
                                PatternRewriter &rewriter) const override {
    // A maximum that skips NaN is NaN only for a row of NaN, which no cs349
    // reduction computes: upstream's lowering keeps it exact.
    if (!allCS349Tensors(op) ||
        !import::isCS349TensorType(op.getInput().getType()) || ignoresNaN(op))
      return failure();
    int64_t axis = op.getAxis();
    rewriter.replaceOpWithNewOp<CS349Op>(op, op.getType(), op.getInput(),
                                         rewriter.getDenseI64ArrayAttr({axis}),
                                         rewriter.getUnitAttr());
    return success();
  }
};

/// [N, M, K] x [N, K, W]; the zero points are those of integer types.
struct MatmulPattern : OpRewritePattern<tosa::MatMulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tosa::MatMulOp op,
                                PatternRewriter &rewriter) const override {
    if (!allCS349Tensors(op) || !import::isCS349TensorType(op.getA().getType()))
      return failure();
    rewriter.replaceOpWithNewOp<MatmulOp>(op, op.getType(), op.getA(),
                                          op.getB(), UnitAttr());
    return success();
  }
};

struct TosaReshapePattern : OpRewritePattern<tosa::ReshapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tosa::ReshapeOp op,
                                PatternRewriter &rewriter) const override {
    if (!allCS349Tensors(op) ||
        !import::isCS349TensorType(op.getInput1().getType()))
      return failure();
    rewriter.replaceOpWithNewOp<ReshapeOp>(op, op.getType(), op.getInput1());
    return success();
  }
};

struct TosaTransposePattern : OpRewritePattern<tosa::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tosa::TransposeOp op,
                                PatternRewriter &rewriter) const override {
    if (!allCS349Tensors(op) ||
        !import::isCS349TensorType(op.getInput1().getType()))
      return failure();
    SmallVector<int64_t> perm(op.getPerms().begin(), op.getPerms().end());
    rewriter.replaceOpWithNewOp<TransposeOp>(
        op, op.getType(), op.getInput1(), rewriter.getDenseI64ArrayAttr(perm));
    return success();
  }
};

/// tosa.greater, greater_equal and equal of float tensors: cs349.compare,
/// an i1 mask (false where an operand is NaN, as in TOSA).
template <typename TosaOp, ComparePredicate predicate>
struct ComparePattern : OpRewritePattern<TosaOp> {
  using OpRewritePattern<TosaOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(TosaOp op,
                                PatternRewriter &rewriter) const override {
    Value lhs = op->getOperand(0), rhs = op->getOperand(1);
    if (!import::isCS349TensorType(lhs.getType()) ||
        !import::isCS349TensorType(rhs.getType()) ||
        !import::isMaskTensorType(op.getType()))
      return failure();
    rewriter.replaceOpWithNewOp<CompareOp>(
        op, op.getType(),
        ComparePredicateAttr::get(op.getContext(), predicate), lhs, rhs);
    return success();
  }
};

/// tosa.select of float tensors by an i1 mask: cs349.select.
struct SelectPattern : OpRewritePattern<tosa::SelectOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tosa::SelectOp op,
                                PatternRewriter &rewriter) const override {
    if (!import::isMaskTensorType(op.getInput1().getType()) ||
        !allCS349Tensors(op) ||
        !import::isCS349TensorType(op.getInput2().getType()) ||
        !import::isCS349TensorType(op.getInput3().getType()))
      return failure();
    rewriter.replaceOpWithNewOp<SelectOp>(op, op.getType(), op.getInput1(),
                                          op.getInput2(), op.getInput3());
    return success();
  }
};

/// A cast between float types cs349 has (rounding to nearest even, as
/// cs349.cast does); between equal types ForwardPattern drops it.
struct FloatCastPattern : OpRewritePattern<tosa::CastOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tosa::CastOp op,
                                PatternRewriter &rewriter) const override {
    Type input = op.getInput().getType();
    if (input == op.getType() || !import::isCS349TensorType(input) ||
        !import::isCS349TensorType(op.getType()))
      return failure();
    rewriter.replaceOpWithNewOp<CastOp>(op, op.getType(), op.getInput());
    return success();
  }
};

/// tosa.identity, and a cast between equal types.
template <typename TosaOp>
struct ForwardPattern : OpRewritePattern<TosaOp> {
  using OpRewritePattern<TosaOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(TosaOp op,
                                PatternRewriter &rewriter) const override {
    if (op->getOperand(0).getType() != op->getResult(0).getType())
      return failure();
    rewriter.replaceOp(op, op->getOperand(0));
    return success();
  }
};

struct ConstPattern : OpRewritePattern<tosa::ConstOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tosa::ConstOp op,
                                PatternRewriter &rewriter) const override {
    if (!allCS349Tensors(op) ||
        !isa<DenseElementsAttr, DenseResourceElementsAttr>(op.getValues()))
      return failure();
    rewriter.replaceOpWithNewOp<ConstantOp>(op, op.getValues());
    return success();
  }
};

} // namespace

void mlir::cs349::import::populateTosaPatterns(RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns.add<BinaryPattern<tosa::AddOp, AddOp>,
               BinaryPattern<tosa::SubOp, SubOp>,
               BinaryPattern<tosa::MulOp, MulOp>,
               BinaryPattern<tosa::MaximumOp, MaxOp>,
               BinaryPattern<tosa::MaximumOp, MaxNumOp, NaNs::Ignore>,
               BinaryPattern<tosa::PowOp, PowOp>,
               UnaryPattern<tosa::ExpOp, ExpOp>,
               UnaryPattern<tosa::RsqrtOp, RsqrtOp>,
               UnaryPattern<tosa::TanhOp, TanhOp>,
               UnaryPattern<tosa::LogOp, LogOp>,
               UnaryPattern<tosa::ErfOp, ErfOp>, ReciprocalPattern,
               NegatePattern, ReducePattern<tosa::ReduceSumOp, ReduceSumOp>,
               ReducePattern<tosa::ReduceMaxOp, ReduceMaxOp>, MatmulPattern,
               TosaReshapePattern, TosaTransposePattern,
               ForwardPattern<tosa::IdentityOp>, ForwardPattern<tosa::CastOp>,
               FloatCastPattern,
               ComparePattern<tosa::GreaterOp, ComparePredicate::Gt>,
               ComparePattern<tosa::GreaterEqualOp, ComparePredicate::Ge>,
               ComparePattern<tosa::EqualOp, ComparePredicate::Eq>,
               SelectPattern,
               ConstPattern>(context);
}
