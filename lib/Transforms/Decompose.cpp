//===- Decompose.cpp - composite ops into primitives ----------------------===//
//
// The granularity is the lecture's: every primitive op produced here
// is one result the lecture's unfused plan allocates, so the count of ops
// after this pass is a number other passes and tests rely on (45 for a Llama
// layer). Do not merge or split steps without changing that contract.
//
//===----------------------------------------------------------------------===//

#include "cs349/Dialect/CS349/IR/CS349Dialect.h"
#include "cs349/Dialect/CS349/IR/CS349Folds.h"
#include "cs349/Dialect/CS349/IR/CS349Ops.h"
#include "cs349/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace mlir::cs349 {
#define GEN_PASS_DEF_DECOMPOSE
#include "cs349/Transforms/Passes.h.inc"
} // namespace mlir::cs349

using namespace mlir;
using namespace mlir::cs349;

namespace {

/// A rank-0 constant of `elementType`: the scalars of the decompositions
/// broadcast against any shape, so one form serves every rank.
Value scalar(PatternRewriter &rewriter, Location loc, Type elementType,
             double value) {
  auto type = RankedTensorType::get({}, elementType);
  return ConstantOp::create(rewriter, loc, type, makeElements(type, value));
}

/// Where intermediate `step` of the decomposition of the op at `loc` is: a
/// sub-name of the op's step name ("layer0.attn.norm.rsqrt"), so that every
/// intermediate keeps a name of its own when it is written to memory
/// (unfused, each is a result of the plan); the op's location stays inside,
/// and the last op of the expansion takes the op's location itself.
Location stepLoc(Location loc, StringRef step) {
  auto name = dyn_cast<NameLoc>(loc);
  if (!name)
    return loc;
  return NameLoc::get(
      StringAttr::get(loc.getContext(), name.getName().strref() + "." + step),
      loc);
}

/// reduce_<kind> over `axis` with keepdims, so that the result broadcasts
/// back against `input` in the row-wise ops that follow.
template <typename ReductionOp>
Value reduceKeepdims(PatternRewriter &rewriter, Location loc, Value input,
                     int64_t axis) {
  auto inputType = cast<RankedTensorType>(input.getType());
  SmallVector<int64_t> shape(inputType.getShape());
  shape[axis] = 1;
  auto type = RankedTensorType::get(shape, inputType.getElementType());
  return ReductionOp::create(rewriter, loc, type, input,
                             rewriter.getDenseI64ArrayAttr({axis}),
                             rewriter.getUnitAttr());
}

/// rows * rsqrt(meanSquare + eps): how both norms end, before the gain.
Value normalizeRows(PatternRewriter &rewriter, Location loc, Value rows,
                    Value meanSquare, StringRef epsilonStep, double epsilon) {
  Type elementType = cast<RankedTensorType>(rows.getType()).getElementType();
  Value shifted =
      AddOp::create(rewriter, stepLoc(loc, epsilonStep), meanSquare,
                    scalar(rewriter, loc, elementType, epsilon));
  Value inverse = RsqrtOp::create(rewriter, stepLoc(loc, "rsqrt"), shifted);
  return MulOp::create(rewriter, stepLoc(loc, "normalized"), rows, inverse);
}

// rms_norm(x, g, eps) = x * rsqrt(sum(x*x) / d + eps) * g. The sum and the
// division by d stay two ops (the lecture's row-sum and /d), and the gain is
// applied last so --fold-norm-weight finds `n * g` as one op.
struct DecomposeRmsNorm : OpRewritePattern<RmsNormOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(RmsNormOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = op.getInput();
    auto type = cast<RankedTensorType>(x.getType());
    Type elementType = type.getElementType();
    int64_t last = type.getRank() - 1;

    Value squares = MulOp::create(rewriter, stepLoc(loc, "squares"), x, x);
    Value sum = reduceKeepdims<ReduceSumOp>(rewriter, stepLoc(loc, "sum"),
                                            squares, last);
    Value mean = DivOp::create(
        rewriter, stepLoc(loc, "mean"), sum,
        scalar(rewriter, loc, elementType, type.getDimSize(last)));
    Value normalized = normalizeRows(rewriter, loc, x, mean, "mean_eps",
                                     op.getEpsilon().convertToDouble());
    rewriter.replaceOpWithNewOp<MulOp>(op, normalized, op.getGain());
    return success();
  }
};

// layer_norm(x, g, b, eps) = (x - mean) * rsqrt(var + eps) * g + b, with
// mean = sum(x) * (1/d) and var = sum((x - mean)^2) * (1/d): the centred
// (two-pass) variance, which does not cancel catastrophically as
// mean(x*x) - mean^2 does. The gain is applied before the bias, so without a
// bias --fold-norm-weight finds `n * g` as one op, as for rms_norm.
struct DecomposeLayerNorm : OpRewritePattern<LayerNormOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LayerNormOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = op.getInput();
    auto type = cast<RankedTensorType>(x.getType());
    Type elementType = type.getElementType();
    int64_t last = type.getRank() - 1;
    auto meanOfRows = [&](Value rows, StringRef sumStep, StringRef meanStep) {
      Value sum = reduceKeepdims<ReduceSumOp>(
          rewriter, stepLoc(loc, sumStep), rows, last);
      return MulOp::create(
          rewriter, stepLoc(loc, meanStep), sum,
          scalar(rewriter, loc, elementType, 1.0 / type.getDimSize(last)));
    };

    Value mean = meanOfRows(x, "sum", "mean");
    Value centered = SubOp::create(rewriter, stepLoc(loc, "centered"), x, mean);
    Value squares = MulOp::create(rewriter, stepLoc(loc, "squares"), centered,
                                  centered);
    Value variance = meanOfRows(squares, "squares_sum", "variance");
    Value normalized =
        normalizeRows(rewriter, loc, centered, variance, "variance_eps",
                      op.getEpsilon().convertToDouble());
    Value bias = op.getBias();
    if (!bias) {
      rewriter.replaceOpWithNewOp<MulOp>(op, normalized, op.getGain());
      return success();
    }
    Value scaled = MulOp::create(rewriter, stepLoc(loc, "scaled"), normalized,
                                 op.getGain());
    rewriter.replaceOpWithNewOp<AddOp>(op, scaled, bias);
    return success();
  }
};

// softmax(x) = exp(x - max(x)) / sum(exp(x - max(x))): the max keeps exp
// from overflowing, as every real implementation does.
struct DecomposeSoftmax : OpRewritePattern<SoftmaxOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(SoftmaxOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = op.getInput();
    int64_t axis = op.getAxis();

    Value max =
        reduceKeepdims<ReduceMaxOp>(rewriter, stepLoc(loc, "max"), x, axis);
    Value shifted = SubOp::create(rewriter, stepLoc(loc, "shifted"), x, max);
    Value exps = ExpOp::create(rewriter, stepLoc(loc, "exp"), shifted);
    Value sum =
        reduceKeepdims<ReduceSumOp>(rewriter, stepLoc(loc, "sum"), exps, axis);
    rewriter.replaceOpWithNewOp<DivOp>(op, exps, sum);
    return success();
  }
};

// rope(x, cos, sin) = x * cos + rotate_half(x) * sin; the [T, dh] tables
// broadcast over the leading head dimension.
struct DecomposeRope : OpRewritePattern<RopeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(RopeOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = op.getInput();

    Value real = MulOp::create(rewriter, stepLoc(loc, "x_cos"), x, op.getCos());
    Value rotated = RotateHalfOp::create(rewriter, stepLoc(loc, "rotated"), x);
    Value imaginary = MulOp::create(rewriter, stepLoc(loc, "rotated_sin"),
                                    rotated, op.getSin());
    rewriter.replaceOpWithNewOp<AddOp>(op, real, imaginary);
    return success();
  }
};

// silu(x) = x / (1 + exp(-x)).
struct DecomposeSilu : OpRewritePattern<SiluOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(SiluOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = op.getInput();
    Type elementType = cast<RankedTensorType>(x.getType()).getElementType();

    Value negated = NegOp::create(rewriter, stepLoc(loc, "neg"), x);
    Value exps = ExpOp::create(rewriter, stepLoc(loc, "exp"), negated);
    Value denominator =
        AddOp::create(rewriter, stepLoc(loc, "denominator"), exps,
                      scalar(rewriter, loc, elementType, 1.0));
    rewriter.replaceOpWithNewOp<DivOp>(op, x, denominator);
    return success();
  }
};

// gelu(x) = x/2 * (1 + erf(x / sqrt(2))), or with mode = tanh
// x/2 * (1 + tanh(sqrt(2/pi) * (x + 0.044715 x^3))).
struct DecomposeGelu : OpRewritePattern<GeluOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(GeluOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = op.getInput();
    Type elementType = cast<RankedTensorType>(x.getType()).getElementType();
    auto constant = [&](double value) {
      return scalar(rewriter, loc, elementType, value);
    };

    Value inner;
    if (op.getMode() == GeluMode::Tanh) {
      Value square = MulOp::create(rewriter, stepLoc(loc, "square"), x, x);
      Value cube = MulOp::create(rewriter, stepLoc(loc, "cube"), square, x);
      Value cubic = MulOp::create(rewriter, stepLoc(loc, "cubic"), cube,
                                  constant(GeluOp::kCubic));
      Value sum = AddOp::create(rewriter, stepLoc(loc, "sum"), x, cubic);
      Value scaled = MulOp::create(rewriter, stepLoc(loc, "scaled"), sum,
                                   constant(GeluOp::kSqrt2OverPi));
      inner = TanhOp::create(rewriter, stepLoc(loc, "tanh"), scaled);
    } else {
      Value scaled = MulOp::create(rewriter, stepLoc(loc, "scaled"), x,
                                   constant(GeluOp::kInvSqrt2));
      inner = ErfOp::create(rewriter, stepLoc(loc, "erf"), scaled);
    }
    Value onePlus = AddOp::create(rewriter, stepLoc(loc, "one_plus"), inner,
                                  constant(1.0));
    Value half = MulOp::create(rewriter, stepLoc(loc, "half"), x, constant(0.5));
    rewriter.replaceOpWithNewOp<MulOp>(op, half, onePlus);
    return success();
  }
};

struct DecomposePass : mlir::cs349::impl::DecomposeBase<DecomposePass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<DecomposeRmsNorm, DecomposeLayerNorm, DecomposeSoftmax, DecomposeRope,
                 DecomposeSilu, DecomposeGelu>(&getContext());
    // One walk suffices: the patterns only create primitives. The walk driver
    // neither folds nor erases dead ops, so the output is exactly the
    // expansion and the pass stays composable with any later cleanup.
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};

} // namespace
