//===- CS349Folds.cpp - constant folding and algebraic identities ---------===//
//
// Folds evaluate an op when its operands are constants, but only up to
// kMaxFoldElements elements: the layer holds [H, T, T] tensors whose constant
// evaluation would take gigabytes, and a folder must never do that by
// accident. Identities that hold for every float (x*1, x+0, x-0, x/1) fold to
// the operand; x*0 and x-x are left alone because NaN and Inf make them wrong.
//
//===----------------------------------------------------------------------===//

#include "cs349/Dialect/CS349/IR/CS349Folds.h"
#include "cs349/Dialect/CS349/IR/CS349Ops.h"

#include "mlir/Dialect/CommonFolders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/APFloat.h"

#include <cmath>

using namespace mlir;
using namespace mlir::cs349;

//===----------------------------------------------------------------------===//
// Helpers over constant element data
//===----------------------------------------------------------------------===//

bool mlir::cs349::isFoldableSize(ShapedType type) {
  return type.hasStaticShape() && type.getNumElements() <= kMaxFoldElements;
}

std::optional<double> mlir::cs349::getSplatValue(Attribute attr) {
  auto elements = dyn_cast_or_null<DenseElementsAttr>(attr);
  if (!elements || !elements.isSplat() ||
      !isa<FloatType>(elements.getElementType()))
    return std::nullopt;
  return elements.getSplatValue<APFloat>().convertToDouble();
}

std::optional<std::vector<double>> mlir::cs349::readValues(Attribute attr) {
  auto elements = dyn_cast_or_null<DenseElementsAttr>(attr);
  if (!elements || !isa<FloatType>(elements.getElementType()) ||
      !isFoldableSize(elements.getType()))
    return std::nullopt;
  std::vector<double> values;
  values.reserve(elements.getNumElements());
  for (APFloat value : elements.getValues<APFloat>())
    values.push_back(value.convertToDouble());
  return values;
}

DenseElementsAttr mlir::cs349::makeElements(ShapedType type,
                                            ArrayRef<double> values) {
  auto floatType = cast<FloatType>(type.getElementType());
  SmallVector<APFloat> converted;
  converted.reserve(values.size());
  for (double value : values) {
    APFloat element(value);
    bool losesInfo = false;
    element.convert(floatType.getFloatSemantics(),
                    APFloat::rmNearestTiesToEven, &losesInfo);
    converted.push_back(element);
  }
  return DenseElementsAttr::get(type, converted);
}

namespace {
// Index into a broadcast operand of shape `shape` for the element at
// `index` of the broadcast result.
int64_t broadcastIndex(ArrayRef<int64_t> resultShape, ArrayRef<int64_t> shape,
                       int64_t index) {
  int64_t offset = 0, stride = 1;
  int64_t rankGap = resultShape.size() - shape.size();
  for (int64_t dim = resultShape.size() - 1; dim >= rankGap; --dim) {
    int64_t coordinate = index % resultShape[dim];
    index /= resultShape[dim];
    int64_t size = shape[dim - rankGap];
    offset += (size == 1 ? 0 : coordinate) * stride;
    stride *= size;
  }
  return offset;
}

template <typename BinaryOp>
OpFoldResult foldBinary(BinaryOp op, ArrayRef<Attribute> operands) {
  auto resultType = op.getType();
  if (!operands[0] || !operands[1] || !isFoldableSize(resultType))
    return {};
  auto lhs = readValues(operands[0]);
  auto rhs = readValues(operands[1]);
  if (!lhs || !rhs)
    return {};
  ArrayRef<int64_t> shape = resultType.getShape();
  auto lhsShape = cast<ShapedType>(op.getLhs().getType()).getShape();
  auto rhsShape = cast<ShapedType>(op.getRhs().getType()).getShape();
  std::vector<double> values(resultType.getNumElements());
  for (int64_t i = 0, e = values.size(); i < e; ++i)
    values[i] = BinaryOp::evaluate((*lhs)[broadcastIndex(shape, lhsShape, i)],
                                   (*rhs)[broadcastIndex(shape, rhsShape, i)]);
  return makeElements(resultType, values);
}

template <typename UnaryOp>
OpFoldResult foldUnary(UnaryOp op, Attribute operand) {
  if (!operand)
    return {};
  if (auto splat = getSplatValue(operand))
    return makeElements(op.getType(),
                        std::vector<double>(1, UnaryOp::evaluate(*splat)))
        .resizeSplat(op.getType());
  auto values = readValues(operand);
  if (!values)
    return {};
  for (double &value : *values)
    value = UnaryOp::evaluate(value);
  return makeElements(op.getType(), *values);
}

// `x op c` where c is a splat equal to `identity` and the op does not
// broadcast x: the result is x itself.
Value foldRightIdentity(Value lhs, Attribute rhs, Type resultType,
                        double identity) {
  auto splat = getSplatValue(rhs);
  if (splat && *splat == identity && lhs.getType() == resultType)
    return lhs;
  return {};
}
} // namespace

//===----------------------------------------------------------------------===//
// Element evaluators
//===----------------------------------------------------------------------===//

double AddOp::evaluate(double lhs, double rhs) { return lhs + rhs; }
double SubOp::evaluate(double lhs, double rhs) { return lhs - rhs; }
double MulOp::evaluate(double lhs, double rhs) { return lhs * rhs; }
double DivOp::evaluate(double lhs, double rhs) { return lhs / rhs; }
double MaxOp::evaluate(double lhs, double rhs) {
  return std::isnan(lhs) || std::isnan(rhs) ? NAN : std::max(lhs, rhs);
}
double NegOp::evaluate(double x) { return -x; }
double ExpOp::evaluate(double x) { return std::exp(x); }
double RsqrtOp::evaluate(double x) { return 1.0 / std::sqrt(x); }
double TanhOp::evaluate(double x) { return std::tanh(x); }

//===----------------------------------------------------------------------===//
// fold hooks
//===----------------------------------------------------------------------===//

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

OpFoldResult AddOp::fold(FoldAdaptor adaptor) {
  if (Value x = foldRightIdentity(getLhs(), adaptor.getRhs(), getType(), 0.0))
    return x;
  return foldBinary(*this, adaptor.getOperands());
}

OpFoldResult SubOp::fold(FoldAdaptor adaptor) {
  if (Value x = foldRightIdentity(getLhs(), adaptor.getRhs(), getType(), 0.0))
    return x;
  return foldBinary(*this, adaptor.getOperands());
}

OpFoldResult MulOp::fold(FoldAdaptor adaptor) {
  if (Value x = foldRightIdentity(getLhs(), adaptor.getRhs(), getType(), 1.0))
    return x;
  return foldBinary(*this, adaptor.getOperands());
}

OpFoldResult DivOp::fold(FoldAdaptor adaptor) {
  if (Value x = foldRightIdentity(getLhs(), adaptor.getRhs(), getType(), 1.0))
    return x;
  return foldBinary(*this, adaptor.getOperands());
}

OpFoldResult MaxOp::fold(FoldAdaptor adaptor) {
  if (getLhs() == getRhs())
    return getLhs();
  return foldBinary(*this, adaptor.getOperands());
}

OpFoldResult NegOp::fold(FoldAdaptor adaptor) {
  return foldUnary(*this, adaptor.getInput());
}
OpFoldResult ExpOp::fold(FoldAdaptor adaptor) {
  return foldUnary(*this, adaptor.getInput());
}
OpFoldResult RsqrtOp::fold(FoldAdaptor adaptor) {
  return foldUnary(*this, adaptor.getInput());
}
OpFoldResult TanhOp::fold(FoldAdaptor adaptor) {
  return foldUnary(*this, adaptor.getInput());
}

OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  if (getInput().getType() == getType())
    return getInput();
  if (auto elements = dyn_cast_or_null<DenseElementsAttr>(adaptor.getInput()))
    return elements.reshape(getType());
  // reshape(reshape(x)) reads the same row-major elements as reshape(x).
  if (auto producer = getInput().getDefiningOp<ReshapeOp>()) {
    getInputMutable().assign(producer.getInput());
    return getResult();
  }
  return {};
}

OpFoldResult TransposeOp::fold(FoldAdaptor adaptor) {
  if (llvm::equal(getPerm(), llvm::seq<int64_t>(0, getPerm().size())))
    return getInput();
  if (auto splat = dyn_cast_or_null<SplatElementsAttr>(adaptor.getInput()))
    return splat.resizeSplat(getType());
  // transpose(transpose(x, p), q) == transpose(x, p∘q).
  if (auto producer = getInput().getDefiningOp<TransposeOp>()) {
    ArrayRef<int64_t> inner = producer.getPerm();
    SmallVector<int64_t> composed;
    for (int64_t dim : getPerm())
      composed.push_back(inner[dim]);
    if (llvm::equal(composed, llvm::seq<int64_t>(0, composed.size())))
      return producer.getInput();
    getInputMutable().assign(producer.getInput());
    setPerm(composed);
    return getResult();
  }
  return {};
}

OpFoldResult RepeatOp::fold(FoldAdaptor adaptor) {
  if (getTimes() == 1)
    return getInput();
  if (auto splat = dyn_cast_or_null<SplatElementsAttr>(adaptor.getInput()))
    return splat.resizeSplat(getType());
  return {};
}

//===----------------------------------------------------------------------===//
// Canonicalization patterns
//===----------------------------------------------------------------------===//

namespace {
// x + (-y) -> x - y: one op fewer once the negation has no other use.
struct AddOfNeg : OpRewritePattern<AddOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AddOp op,
                                PatternRewriter &rewriter) const override {
    for (auto [x, maybeNeg] : {std::pair(op.getLhs(), op.getRhs()),
                               std::pair(op.getRhs(), op.getLhs())}) {
      auto neg = maybeNeg.getDefiningOp<NegOp>();
      if (!neg)
        continue;
      auto sub = SubOp::create(rewriter, op.getLoc(), x, neg.getInput());
      if (sub.getType() != op.getType()) {
        rewriter.eraseOp(sub);
        continue;
      }
      rewriter.replaceOp(op, sub.getResult());
      return success();
    }
    return failure();
  }
};

// x - (-y) -> x + y.
struct SubOfNeg : OpRewritePattern<SubOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(SubOp op,
                                PatternRewriter &rewriter) const override {
    auto neg = op.getRhs().getDefiningOp<NegOp>();
    if (!neg)
      return failure();
    rewriter.replaceOpWithNewOp<AddOp>(op, op.getLhs(), neg.getInput());
    return success();
  }
};

// (-x) * (-y) -> x * y and (-x) / (-y) -> x / y: sign flips cancel exactly.
template <typename OpTy>
struct CancelNegations : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    auto lhs = op.getLhs().template getDefiningOp<NegOp>();
    auto rhs = op.getRhs().template getDefiningOp<NegOp>();
    if (!lhs || !rhs)
      return failure();
    rewriter.replaceOpWithNewOp<OpTy>(op, lhs.getInput(), rhs.getInput());
    return success();
  }
};
} // namespace

void AddOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                        MLIRContext *context) {
  patterns.add<AddOfNeg>(context);
}
void SubOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                        MLIRContext *context) {
  patterns.add<SubOfNeg>(context);
}
void MulOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                        MLIRContext *context) {
  patterns.add<CancelNegations<MulOp>>(context);
}
void DivOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                        MLIRContext *context) {
  patterns.add<CancelNegations<DivOp>>(context);
}
