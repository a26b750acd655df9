//===- LinalgRaising.cpp - linalg on tensors to cs349 ----------------------===//
//
// A linalg.generic is read as a loop nest: every input is brought to the
// loop space (its indexing map says which loop each of its dims follows;
// loops it does not follow are size-1 dims that cs349's broadcasting
// stretches), the body is replayed with cs349 elementwise ops on those
// values, and reduction loops become one reduce_sum or reduce_max. A body
// op without a cs349 counterpart leaves the generic as it is (it becomes an
// opaque kernel later).
//
//===----------------------------------------------------------------------===//

#include "ImportPatterns.h"

#include "cs349/Dialect/CS349/IR/CS349Ops.h"
#include "cs349/Support/ElementType.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SmallBitVector.h"

#include <cmath>
#include <limits>
#include <numeric>

using namespace mlir;
using namespace mlir::cs349;

bool mlir::cs349::import::isCS349TensorType(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.hasStaticShape() &&
         isa<BFloat16Type, Float16Type, Float32Type>(tensor.getElementType());
}

bool mlir::cs349::import::isKernelTensorType(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.hasStaticShape() &&
         getElementKind(tensor.getElementType());
}

bool mlir::cs349::import::isMaskTensorType(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.hasStaticShape() &&
         tensor.getElementType().isInteger(1);
}

Value mlir::cs349::import::createSplat(PatternRewriter &rewriter, Location loc,
                                       Type type, double value) {
  auto tensorType = dyn_cast<RankedTensorType>(type);
  if (!tensorType)
    tensorType = RankedTensorType::get({}, type);
  auto elementType = cast<FloatType>(tensorType.getElementType());
  auto attr = DenseElementsAttr::get(
      tensorType, rewriter.getFloatAttr(elementType, value));
  return ConstantOp::create(rewriter, loc, attr);
}

namespace {

/// The shape `toLoopSpace` gives a tensor of `type` read through `map`,
/// or std::nullopt when it cannot (checked before any op is created).
std::optional<SmallVector<int64_t>>
loopSpaceShape(RankedTensorType type, AffineMap map,
               ArrayRef<int64_t> loopSizes) {
  SmallVector<int64_t> shape(loopSizes.size(), 1);
  llvm::SmallBitVector seen(loopSizes.size());
  for (auto [dim, expr] : llvm::enumerate(map.getResults())) {
    if (auto constant = dyn_cast<AffineConstantExpr>(expr)) {
      if (constant.getValue() != 0 || type.getDimSize(dim) != 1)
        return std::nullopt;
      continue;
    }
    auto loop = dyn_cast<AffineDimExpr>(expr);
    if (!loop || seen.test(loop.getPosition()))
      return std::nullopt;
    int64_t size = type.getDimSize(dim);
    if (size != loopSizes[loop.getPosition()] && size != 1)
      return std::nullopt;
    seen.set(loop.getPosition());
    shape[loop.getPosition()] = size;
  }
  return shape;
}

/// NumPy broadcasting of two shapes, as cs349's binary ops do it.
std::optional<SmallVector<int64_t>> broadcastShapes(ArrayRef<int64_t> a,
                                                    ArrayRef<int64_t> b) {
  size_t rank = std::max(a.size(), b.size());
  SmallVector<int64_t> shape(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t x = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    int64_t y = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (x != y && x != 1 && y != 1)
      return std::nullopt;
    shape[i] = x == 1 ? y : x;
  }
  return shape;
}

/// `value` (of the tensor an indexing map reads) brought to the loop space
/// of `numLoops` loops: dim `i` is loop `i`'s size or 1. std::nullopt when
/// the map is not a projected permutation (with constant 0 on unit dims).
FailureOr<Value> toLoopSpace(PatternRewriter &rewriter, Location loc,
                             Value value, AffineMap map,
                             ArrayRef<int64_t> loopSizes) {
  auto type = cast<RankedTensorType>(value.getType());
  // Loops the dims follow, in the tensor's order; unit dims read at 0 are
  // dropped.
  SmallVector<unsigned> loops;
  SmallVector<int64_t> keptShape;
  for (auto [dim, expr] : llvm::enumerate(map.getResults())) {
    if (auto constant = dyn_cast<AffineConstantExpr>(expr)) {
      if (constant.getValue() != 0 || type.getDimSize(dim) != 1)
        return failure();
      continue;
    }
    auto loop = dyn_cast<AffineDimExpr>(expr);
    if (!loop || llvm::is_contained(loops, loop.getPosition()))
      return failure();
    if (type.getDimSize(dim) != loopSizes[loop.getPosition()] &&
        type.getDimSize(dim) != 1)
      return failure();
    loops.push_back(loop.getPosition());
    keptShape.push_back(type.getDimSize(dim));
  }
  Value current = value;
  if (keptShape.size() != size_t(type.getRank()))
    current = ReshapeOp::create(
        rewriter, loc, RankedTensorType::get(keptShape, type.getElementType()),
        current);
  // Loop order: a transpose when the tensor lists the loops in another one.
  SmallVector<int64_t> perm(loops.size());
  std::iota(perm.begin(), perm.end(), 0);
  llvm::sort(perm, [&](int64_t a, int64_t b) { return loops[a] < loops[b]; });
  if (!llvm::is_sorted(perm)) {
    SmallVector<int64_t> shape;
    for (int64_t from : perm)
      shape.push_back(keptShape[from]);
    current = TransposeOp::create(
        rewriter, loc, RankedTensorType::get(shape, type.getElementType()),
        current, rewriter.getDenseI64ArrayAttr(perm));
    keptShape = shape;
  }
  llvm::sort(loops);
  // Loops it does not follow: size-1 dims.
  SmallVector<int64_t> loopShape(loopSizes.size(), 1);
  for (auto [loop, size] : llvm::zip(loops, keptShape))
    loopShape[loop] = size;
  if (loopShape.size() != keptShape.size())
    current = ReshapeOp::create(
        rewriter, loc, RankedTensorType::get(loopShape, type.getElementType()),
        current);
  return current;
}

/// `truncf` or `extf` between cs349's float types (of scalars in a generic
/// body, or of whole tensors), rounding (if it does) to nearest even: the
/// elements of a cs349.cast.
bool isConvertedElement(Operation *op) {
  auto isCS349Float = [](Type type) {
    return isa<BFloat16Type, Float16Type, Float32Type>(
        getElementTypeOrSelf(type));
  };
  if (auto trunc = dyn_cast<arith::TruncFOp>(op))
    if (std::optional<arith::RoundingMode> mode = trunc.getRoundingmode();
        mode && *mode != arith::RoundingMode::to_nearest_even)
      return false;
  return isCS349Float(op->getOperand(0).getType()) &&
         isCS349Float(op->getResult(0).getType());
}

/// `sitofp` of `i32`/`i64` or `uitofp` of `i1` to a cs349 float type: the
/// elements of a cs349.cast, which converts `i1` as 0 or 1 and wider
/// integers signed, rounding once to nearest even.
bool isIntegerConversion(Operation *op) {
  if (!isa<arith::SIToFPOp, arith::UIToFPOp>(op))
    return false;
  Type from = getElementTypeOrSelf(op->getOperand(0).getType());
  Type to = getElementTypeOrSelf(op->getResult(0).getType());
  bool fromOk = isa<arith::SIToFPOp>(op)
                    ? from.isSignlessInteger(32) || from.isSignlessInteger(64)
                    : from.isSignlessInteger(1);
  return fromOk && isa<BFloat16Type, Float16Type, Float32Type>(to);
}

/// cs349.compare's predicate for a `cmpf`, and whether it gives the
/// negation of `cmpf`'s. cs349's predicates are false on NaN except `ne`
/// (the ordered ones and `une`); an unordered one is the negation of an
/// ordered one (`ugt` is `not ole`), which a select takes by swapping its
/// arms. `one`, `ueq`, `ord`, `uno` and the constant predicates have
/// neither form.
struct RaisedPredicate {
  ComparePredicate predicate;
  bool negated;
};

std::optional<RaisedPredicate> raisedPredicate(arith::CmpFPredicate cmp) {
  using P = arith::CmpFPredicate;
  switch (cmp) {
  case P::OEQ:
    return RaisedPredicate{ComparePredicate::Eq, false};
  case P::OGT:
    return RaisedPredicate{ComparePredicate::Gt, false};
  case P::OGE:
    return RaisedPredicate{ComparePredicate::Ge, false};
  case P::OLT:
    return RaisedPredicate{ComparePredicate::Lt, false};
  case P::OLE:
    return RaisedPredicate{ComparePredicate::Le, false};
  case P::UNE:
    return RaisedPredicate{ComparePredicate::Ne, false};
  case P::UGT:
    return RaisedPredicate{ComparePredicate::Le, true};
  case P::UGE:
    return RaisedPredicate{ComparePredicate::Lt, true};
  case P::ULT:
    return RaisedPredicate{ComparePredicate::Ge, true};
  case P::ULE:
    return RaisedPredicate{ComparePredicate::Gt, true};
  default:
    return std::nullopt;
  }
}

/// Whether `compare` is raised as the negation of its predicate: where it
/// is read only as the condition of selects (which swap their arms); a
/// negated comparison read otherwise is raised as the mask it is.
bool isRaisedNegated(arith::CmpFOp compare) {
  std::optional<RaisedPredicate> raised =
      raisedPredicate(compare.getPredicate());
  return raised && raised->negated &&
         llvm::all_of(compare->getUses(), [](OpOperand &use) {
           return isa<arith::SelectOp>(use.getOwner()) &&
                  use.getOperandNumber() == 0;
         });
}

/// The exponent of `x^n` when it is a constant that every float element
/// type of cs349 holds exactly (bf16 has 8 significant bits), so that
/// `pow(x, n)` raises the same power.
std::optional<int64_t> constantIntegerExponent(math::FPowIOp power) {
  APInt exponent;
  if (!matchPattern(power.getRhs(), m_ConstantInt(&exponent)) ||
      exponent.getSignificantBits() > 64)
    return std::nullopt;
  int64_t n = exponent.getSExtValue();
  if (n < -256 || n > 256)
    return std::nullopt;
  return n;
}

/// Whether the condition of `select` is a `cmpf` raised as its negation.
bool hasNegatedCondition(arith::SelectOp select) {
  auto compare = select.getCondition().getDefiningOp<arith::CmpFOp>();
  return compare && isRaisedNegated(compare);
}

} // namespace

bool mlir::cs349::import::isRaisableScalarOp(Operation *op) {
  if (auto compare = dyn_cast<arith::CmpFOp>(op))
    return raisedPredicate(compare.getPredicate()) &&
           isa<FloatType>(getElementTypeOrSelf(compare.getLhs()));
  if (auto select = dyn_cast<arith::SelectOp>(op))
    return getElementTypeOrSelf(select.getCondition()).isInteger(1) &&
           isa<FloatType>(getElementTypeOrSelf(select.getType()));
  if (isa<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::DivFOp,
          arith::MaximumFOp, arith::MaxNumFOp, arith::MinimumFOp,
          arith::MinNumFOp, arith::NegFOp, math::AbsFOp, math::ExpOp,
          math::RsqrtOp, math::TanhOp, math::LogOp, math::SqrtOp,
          math::ErfOp, math::CosOp, math::SinOp, math::PowFOp>(op))
    return true;
  // A constant converted to the body's type (a scale given in f64): the
  // converted constant. Another converted value is a cs349.cast when both
  // types are cs349's (truncf rounding to nearest even, as the cast does).
  if (isa<arith::TruncFOp, arith::ExtFOp>(op)) {
    FloatAttr constant;
    if (isa<FloatType>(op->getOperand(0).getType()) &&
        matchPattern(op->getOperand(0), m_Constant(&constant)))
      return true;
    return isConvertedElement(op);
  }
  if (isIntegerConversion(op))
    return true;
  if (auto power = dyn_cast<math::FPowIOp>(op))
    return constantIntegerExponent(power).has_value();
  FloatAttr constant;
  return matchPattern(op, m_Constant(&constant));
}

namespace {

/// The broadcast shape of cs349 values (their shapes were checked).
SmallVector<int64_t> broadcastShapeOf(ArrayRef<Value> values) {
  SmallVector<int64_t> shape;
  for (Value value : values)
    shape = *broadcastShapes(
        shape, cast<RankedTensorType>(value.getType()).getShape());
  return shape;
}

/// min(a, b) as -max(-a, -b), with `MaxLike` max or maxnum: exact, NaN,
/// infinities and zeros of either sign included (negation only flips the
/// sign), and the minimum ignores NaN where `MaxLike` does.
template <typename MaxLike>
Value createMinimum(PatternRewriter &rewriter, Location loc, Value a,
                    Value b) {
  return NegOp::create(rewriter, loc,
                       MaxLike::create(rewriter, loc,
                                       NegOp::create(rewriter, loc, a),
                                       NegOp::create(rewriter, loc, b)));
}

/// Replays the scalar op `op` on cs349 values.
Value raiseScalarOp(PatternRewriter &rewriter, Operation *op,
                    ArrayRef<Value> operands) {
  Location loc = op->getLoc();
  if (auto compare = dyn_cast<arith::CmpFOp>(op)) {
    RaisedPredicate raised = *raisedPredicate(compare.getPredicate());
    auto maskType = RankedTensorType::get(broadcastShapeOf(operands),
                                          rewriter.getI1Type());
    auto predicateAttr = [&](ComparePredicate predicate) {
      return ComparePredicateAttr::get(rewriter.getContext(), predicate);
    };
    Value mask = CompareOp::create(rewriter, loc, maskType,
                                   predicateAttr(raised.predicate),
                                   operands[0], operands[1]);
    if (!raised.negated || isRaisedNegated(compare))
      return mask;
    // not m is (m ? 0 : 1) != 0.
    Type floatType = getElementTypeOrSelf(compare.getLhs());
    Value zero = import::createSplat(rewriter, loc, floatType, 0.0);
    Value one = import::createSplat(rewriter, loc, floatType, 1.0);
    Value flipped = SelectOp::create(
        rewriter, loc, RankedTensorType::get(maskType.getShape(), floatType),
        mask, zero, one);
    return CompareOp::create(rewriter, loc, maskType,
                             predicateAttr(ComparePredicate::Ne), flipped,
                             zero);
  }
  if (auto select = dyn_cast<arith::SelectOp>(op)) {
    Value whenTrue = operands[1], whenFalse = operands[2];
    if (hasNegatedCondition(select))
      std::swap(whenTrue, whenFalse);
    return SelectOp::create(
        rewriter, loc,
        RankedTensorType::get(broadcastShapeOf(operands),
                              getElementTypeOrSelf(select.getType())),
        operands[0], whenTrue, whenFalse);
  }
  if (isa<arith::AddFOp>(op))
    return AddOp::create(rewriter, loc, operands[0], operands[1]);
  if (isa<arith::SubFOp>(op))
    return SubOp::create(rewriter, loc, operands[0], operands[1]);
  if (isa<arith::MulFOp>(op))
    return MulOp::create(rewriter, loc, operands[0], operands[1]);
  if (isa<arith::DivFOp>(op))
    return DivOp::create(rewriter, loc, operands[0], operands[1]);
  if (isa<arith::MaximumFOp>(op))
    return MaxOp::create(rewriter, loc, operands[0], operands[1]);
  if (isa<arith::MaxNumFOp>(op))
    return MaxNumOp::create(rewriter, loc, operands[0], operands[1]);
  if (isa<arith::MinimumFOp>(op))
    return createMinimum<MaxOp>(rewriter, loc, operands[0], operands[1]);
  if (isa<arith::MinNumFOp>(op))
    return createMinimum<MaxNumOp>(rewriter, loc, operands[0], operands[1]);
  // |x| is max(x, -x): NaN stays NaN, -0 gives +0 (max orders -0 below +0).
  if (isa<math::AbsFOp>(op))
    return MaxOp::create(rewriter, loc, operands[0],
                         NegOp::create(rewriter, loc, operands[0]));
  if (isa<arith::NegFOp>(op))
    return NegOp::create(rewriter, loc, operands[0]);
  if (isa<math::ExpOp>(op))
    return ExpOp::create(rewriter, loc, operands[0]);
  if (isa<math::RsqrtOp>(op))
    return RsqrtOp::create(rewriter, loc, operands[0]);
  if (isa<math::TanhOp>(op))
    return TanhOp::create(rewriter, loc, operands[0]);
  if (isa<math::LogOp>(op))
    return LogOp::create(rewriter, loc, operands[0]);
  if (isa<math::SqrtOp>(op))
    return SqrtOp::create(rewriter, loc, operands[0]);
  if (isa<math::ErfOp>(op))
    return ErfOp::create(rewriter, loc, operands[0]);
  if (isa<math::CosOp>(op))
    return CosOp::create(rewriter, loc, operands[0]);
  if (isa<math::SinOp>(op))
    return SinOp::create(rewriter, loc, operands[0]);
  if ((isa<arith::TruncFOp, arith::ExtFOp>(op) || isIntegerConversion(op)) &&
      !operands.empty() && operands[0]) { // of a value, checked
    auto type = cast<RankedTensorType>(operands[0].getType());
    return CastOp::create(
        rewriter, loc,
        type.clone(getElementTypeOrSelf(op->getResult(0).getType())),
        operands[0]);
  }
  if (isa<arith::TruncFOp, arith::ExtFOp>(op)) { // of a constant, checked
    FloatAttr constant;
    matchPattern(op->getOperand(0), m_Constant(&constant));
    Type type = op->getResult(0).getType();
    APFloat value = constant.getValue();
    bool lostInfo = false;
    value.convert(cast<FloatType>(type).getFloatSemantics(),
                  APFloat::rmNearestTiesToEven, &lostInfo);
    return import::createSplat(rewriter, loc, type, value.convertToDouble());
  }
  if (isa<math::PowFOp>(op))
    return PowOp::create(rewriter, loc, operands[0], operands[1]);
  // x^n by a constant n, checked by isRaisableScalarOp (a square becomes
  // x * x when canonicalized).
  if (auto power = dyn_cast<math::FPowIOp>(op))
    return PowOp::create(
        rewriter, loc, operands[0],
        import::createSplat(rewriter, loc, getElementTypeOrSelf(power.getType()),
                            (double)*constantIntegerExponent(power)));
  FloatAttr constant;
  matchPattern(op, m_Constant(&constant));
  return import::createSplat(rewriter, loc, constant.getType(),
                             constant.getValueAsDouble());
}

/// The combining op of a reduction body and the operand that is not the
/// accumulator, if the body's yield is `combine(x, acc)`. `MaxNum` is the
/// maximum that ignores NaN (`maxnumf`), `MinNum` the minimum (`minnumf`).
enum class Combine { Sum, Max, MaxNum, Min, MinNum };

/// A minimum, reduced as the negated maximum of the negated elements.
bool isMinimum(Combine combine) {
  return combine == Combine::Min || combine == Combine::MinNum;
}

/// A maximum or minimum that ignores NaN.
bool ignoresNaN(Combine combine) {
  return combine == Combine::MaxNum || combine == Combine::MinNum;
}

struct ReductionForm {
  Combine combine;
  Value element;
};

std::optional<ReductionForm> matchReduction(linalg::GenericOp op) {
  if (op.getNumDpsInits() != 1)
    return std::nullopt;
  Block &body = op.getRegion().front();
  BlockArgument acc = body.getArguments().back();
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  Operation *combine = yield.getValues()[0].getDefiningOp();
  if (!combine || !acc.hasOneUse() || combine->getNumOperands() != 2)
    return std::nullopt;
  Value element = combine->getOperand(0) == acc ? combine->getOperand(1)
                                                : combine->getOperand(0);
  if (!llvm::is_contained(combine->getOperands(), acc))
    return std::nullopt;
  if (isa<arith::AddFOp>(combine))
    return ReductionForm{Combine::Sum, element};
  if (isa<arith::MaximumFOp>(combine))
    return ReductionForm{Combine::Max, element};
  if (isa<arith::MaxNumFOp>(combine))
    return ReductionForm{Combine::MaxNum, element};
  if (isa<arith::MinimumFOp>(combine))
    return ReductionForm{Combine::Min, element};
  if (isa<arith::MinNumFOp>(combine))
    return ReductionForm{Combine::MinNum, element};
  return std::nullopt;
}

/// The scalar a linalg.fill or splat constant init holds.
std::optional<double> splatInit(Value init) {
  if (auto fill = init.getDefiningOp<linalg::FillOp>()) {
    FloatAttr value;
    if (matchPattern(fill.getInputs()[0], m_Constant(&value)))
      return value.getValueAsDouble();
    return std::nullopt;
  }
  DenseElementsAttr dense;
  if (matchPattern(init, m_Constant(&dense)) && dense.isSplat() &&
      isa<FloatType>(dense.getElementType()))
    return dense.getSplatValue<APFloat>().convertToDouble();
  return std::nullopt;
}

/// Whether an init of `value` leaves a reduction unchanged: 0 for a sum;
/// for a maximum -inf or the lowest finite value of f32 or f16 (what
/// front ends write for -inf); for a minimum +inf or the highest.
bool isIdentityInit(Combine combine, double value) {
  if (combine == Combine::Sum)
    return value == 0.0;
  if (isMinimum(combine))
    value = -value;
  return std::isinf(value) ? value < 0 : value <= -65504.0;
}

struct GenericPattern : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getNumDpsInits() != 1 || !op.hasPureTensorSemantics())
      return failure();
    Value init = op.getDpsInits()[0];
    auto resultType = dyn_cast<RankedTensorType>(op.getResult(0).getType());
    // A mask is computed elementwise (a comparison yielded), never reduced.
    bool maskResult = resultType && import::isMaskTensorType(resultType) &&
                      op.getNumParallelLoops() == op.getNumLoops();
    if (!resultType ||
        (!import::isCS349TensorType(resultType) && !maskResult))
      return failure();
    SmallVector<int64_t> loopSizes = op.getStaticLoopRanges();
    if (llvm::any_of(loopSizes, ShapedType::isDynamic))
      return failure();
    Block &body = op.getRegion().front();
    // Integer inputs only as converted to floats (positions turned into
    // angles, say): the conversion is a cs349.cast of the input.
    auto onlyConverted = [&](OpOperand *input) {
      auto type = dyn_cast<RankedTensorType>(input->get().getType());
      BlockArgument element = body.getArgument(input->getOperandNumber());
      return type && import::isKernelTensorType(type) &&
             isa<IntegerType>(type.getElementType()) &&
             !element.use_empty() &&
             llvm::all_of(element.getUsers(), isIntegerConversion);
    };
    for (OpOperand *input : op.getDpsInputOperands())
      if (!import::isCS349TensorType(input->get().getType()) &&
          !import::isMaskTensorType(input->get().getType()) &&
          !onlyConverted(input))
        return failure();

    BlockArgument acc = body.getArguments().back();
    unsigned numParallel = op.getNumParallelLoops();
    bool isReduction = numParallel != op.getNumLoops();
    std::optional<ReductionForm> reduction;
    Operation *combineOp = nullptr;
    if (isReduction) {
      reduction = matchReduction(op);
      if (!reduction)
        return rewriter.notifyMatchFailure(op, "not a sum or max reduction");
      combineOp = cast<linalg::YieldOp>(body.getTerminator())
                      .getValues()[0]
                      .getDefiningOp();
    } else if (!acc.use_empty()) {
      return rewriter.notifyMatchFailure(op, "reads its output");
    }
    // Every operand a body op reads: an input element, a body result, or a
    // float constant (from inside or outside the body).
    auto isScalarConstant = [](Value value) {
      FloatAttr constant;
      return matchPattern(value, m_Constant(&constant));
    };
    for (Operation &bodyOp : body.without_terminator()) {
      if (&bodyOp == combineOp)
        continue;
      if (!import::isRaisableScalarOp(&bodyOp))
        return rewriter.notifyMatchFailure(op, "body op without cs349 op");
      for (Value operand : bodyOp.getOperands()) {
        if (isa<math::FPowIOp>(bodyOp) && operand == bodyOp.getOperand(1))
          continue;
        bool fromBody = operand.getParentBlock() == &body && operand != acc;
        if (!fromBody && !isScalarConstant(operand))
          return rewriter.notifyMatchFailure(op, "reads a value from outside");
      }
    }
    if (!isReduction) {
      Value yielded =
          cast<linalg::YieldOp>(body.getTerminator()).getValues()[0];
      // A body that yields an input element is a copy (a transpose when
      // the maps permute), which the replay below handles like any value.
      if (yielded.getParentBlock() != &body || yielded == acc)
        return rewriter.notifyMatchFailure(op, "yields no computed value");
    }

    // The output map: parallel loops only, in increasing order; an
    // elementwise generic may also write them permuted, which is a
    // transpose of the result computed in loop order.
    // Unit dims written at a constant 0 (a reduction that keeps its
    // dims, say) are left out of the computation and put back by a
    // reshape at the end.
    AffineMap outputMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
    SmallVector<int64_t> outputLoops;
    for (auto [dim, expr] : llvm::enumerate(outputMap.getResults())) {
      if (auto constant = dyn_cast<AffineConstantExpr>(expr)) {
        if (constant.getValue() != 0 || resultType.getDimSize(dim) != 1)
          return failure();
        continue;
      }
      auto loop = dyn_cast<AffineDimExpr>(expr);
      if (!loop)
        return failure();
      outputLoops.push_back(loop.getPosition());
    }
    if (outputLoops.size() != size_t(numParallel) ||
        (!llvm::is_sorted(outputLoops) && isReduction))
      return failure();
    bool permutedOutput = !llvm::is_sorted(outputLoops);
    SmallVector<int64_t> reducedLoops;
    for (auto [index, type] : llvm::enumerate(op.getIteratorTypesArray()))
      if (type == utils::IteratorType::reduction)
        reducedLoops.push_back(index);
    for (int64_t loop : outputLoops)
      if (llvm::is_contained(reducedLoops, loop))
        return failure();

    // Shapes first: a pattern that fails must not have created anything.
    llvm::DenseMap<Value, SmallVector<int64_t>> shapes;
    for (OpOperand *input : op.getDpsInputOperands()) {
      std::optional<SmallVector<int64_t>> shape = loopSpaceShape(
          cast<RankedTensorType>(input->get().getType()),
          op.getMatchingIndexingMap(input), loopSizes);
      if (!shape)
        return rewriter.notifyMatchFailure(op, "input map not a projection");
      shapes[body.getArgument(input->getOperandNumber())] = *shape;
    }
    for (Operation &bodyOp : body.without_terminator()) {
      if (&bodyOp == combineOp)
        continue;
      SmallVector<int64_t> shape;
      unsigned numOperands = isa<math::FPowIOp>(bodyOp) ? 1 : bodyOp.getNumOperands();
      for (Value operand : bodyOp.getOperands().take_front(numOperands)) {
        auto it = shapes.find(operand);
        ArrayRef<int64_t> operandShape =
            it == shapes.end() ? ArrayRef<int64_t>() : ArrayRef(it->second);
        std::optional<SmallVector<int64_t>> joined =
            broadcastShapes(shape, operandShape);
        if (!joined)
          return failure();
        shape = *joined;
      }
      shapes[bodyOp.getResult(0)] = shape;
    }
    Value yieldedValue =
        cast<linalg::YieldOp>(body.getTerminator()).getValues()[0];
    // A result that broadcasts to the loops (a copy that broadcasts, as
    // torch-mlir writes expand) is multiplied by a splat of ones of the
    // loops' shape, which is x exactly, -0, inf and NaN included.
    bool broadcastResult = false;
    if (!isReduction) {
      SmallVector<int64_t> yieldedShape = shapes.lookup(yieldedValue);
      if (yieldedShape != SmallVector<int64_t>(loopSizes)) {
        std::optional<SmallVector<int64_t>> joined =
            broadcastShapes(yieldedShape, loopSizes);
        if (!joined || *joined != SmallVector<int64_t>(loopSizes) ||
            maskResult)
          return rewriter.notifyMatchFailure(op, "result is broadcast");
        broadcastResult = true;
      }
    } else {
      if (shapes.lookup(reduction->element) != SmallVector<int64_t>(loopSizes))
        return rewriter.notifyMatchFailure(op, "reduces a broadcast value");
      std::optional<double> initValue = splatInit(init);
      bool identityInit =
          initValue && isIdentityInit(reduction->combine, *initValue);
      if (!identityInit && !import::isCS349TensorType(init.getType()))
        return failure();
      // maxnum(reduce_max(maxnum(x, -inf)), init) would be -inf, not NaN,
      // for a NaN init and a row of NaN; such a reduction stays as written
      // (and so does the minimum that ignores NaN).
      if (!identityInit && ignoresNaN(reduction->combine))
        return rewriter.notifyMatchFailure(
            op, "a maximum or minimum that ignores NaN, from an initial value");
    }

    Location loc = op.getLoc();
    IRMapping values;
    for (OpOperand *input : op.getDpsInputOperands()) {
      FailureOr<Value> inLoopSpace =
          toLoopSpace(rewriter, loc, input->get(),
                      op.getMatchingIndexingMap(input), loopSizes);
      if (failed(inLoopSpace))
        return rewriter.notifyMatchFailure(op, "input map not a projection");
      values.map(body.getArgument(input->getOperandNumber()), *inLoopSpace);
    }
    for (Operation &bodyOp : body.without_terminator()) {
      if (&bodyOp == combineOp)
        continue;
      if (isa<arith::TruncFOp, arith::ExtFOp>(bodyOp) &&
          !values.lookupOrNull(bodyOp.getOperand(0))) { // a constant
        values.map(bodyOp.getResult(0), raiseScalarOp(rewriter, &bodyOp, {}));
        continue;
      }
      SmallVector<Value> operands;
      for (Value operand : bodyOp.getOperands()) {
        if (Value raised = values.lookupOrNull(operand)) {
          operands.push_back(raised);
          continue;
        }
        FloatAttr constant;
        if (matchPattern(operand, m_Constant(&constant)))
          operands.push_back(import::createSplat(
              rewriter, loc, constant.getType(), constant.getValueAsDouble()));
        else
          operands.push_back(operand); // fpowi's exponent
      }
      values.map(bodyOp.getResult(0), raiseScalarOp(rewriter, &bodyOp, operands));
    }

    // The shape of the result before the constant-0 unit dims go back.
    SmallVector<int64_t> writtenShape;
    for (int64_t loop : outputLoops)
      writtenShape.push_back(loopSizes[loop]);
    auto writtenType =
        RankedTensorType::get(writtenShape, resultType.getElementType());
    Value result;
    if (!isReduction) {
      Value yielded = cast<linalg::YieldOp>(body.getTerminator()).getValues()[0];
      result = values.lookupOrNull(yielded);
      if (broadcastResult)
        result = MulOp::create(
            rewriter, loc, result,
            import::createSplat(
                rewriter, loc,
                RankedTensorType::get(loopSizes, resultType.getElementType()),
                1.0));
      if (permutedOutput)
        result = TransposeOp::create(rewriter, loc, writtenType, result,
                                     rewriter.getDenseI64ArrayAttr(outputLoops));
      assert(result && result.getType() == writtenType && "shapes checked");
    } else {
      Value element = values.lookupOrNull(reduction->element);
      auto elementType = element ? dyn_cast<RankedTensorType>(element.getType())
                                 : RankedTensorType();
      assert(elementType && elementType.getShape() == ArrayRef(loopSizes) &&
             "shapes checked");
      auto reducedType = writtenType;
      DenseI64ArrayAttr axes = rewriter.getDenseI64ArrayAttr(reducedLoops);
      // A minimum is the negated maximum of the negated elements.
      if (isMinimum(reduction->combine))
        element = NegOp::create(rewriter, loc, element);
      // A maximum that ignores NaN is the maximum of the elements with NaN
      // made -inf: maxnum(NaN, -inf) is -inf, maxnum(x, -inf) is x.
      if (ignoresNaN(reduction->combine))
        element = MaxNumOp::create(
            rewriter, loc, element,
            import::createSplat(rewriter, loc, elementType.getElementType(),
                                -std::numeric_limits<double>::infinity()));
      if (reduction->combine == Combine::Sum)
        result = ReduceSumOp::create(rewriter, loc, reducedType, element, axes,
                                     UnitAttr());
      else
        result = ReduceMaxOp::create(rewriter, loc, reducedType, element, axes,
                                     UnitAttr());
      if (isMinimum(reduction->combine))
        result = NegOp::create(rewriter, loc, result);
      if (result.getType() != resultType)
        result = ReshapeOp::create(rewriter, loc, resultType, result);
      std::optional<double> initValue = splatInit(init);
      if (!initValue || !isIdentityInit(reduction->combine, *initValue)) {
        // An accumulator that is not the identity takes part: once.
        if (reduction->combine == Combine::Sum)
          result = AddOp::create(rewriter, loc, result, init);
        else if (reduction->combine == Combine::Max)
          result = MaxOp::create(rewriter, loc, result, init);
        else
          result = createMinimum<MaxOp>(rewriter, loc, result, init);
      }
    }
    if (result.getType() != resultType)
      result = ReshapeOp::create(rewriter, loc, resultType, result);
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Contractions in the forms of matmul and batch_matmul, B plain or
/// transposed (named ops or generics: linalg's contraction interface
/// recognises both).
struct ContractionPattern : OpInterfaceRewritePattern<linalg::LinalgOp> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;

  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    if (!linalg::isaContractionOpInterface(op) || op.getNumDpsInputs() != 2 ||
        op.getNumDpsInits() != 1 || !op.hasPureTensorSemantics())
      return failure();
    Value lhs = op.getDpsInputs()[0], rhs = op.getDpsInputs()[1];
    Value init = op.getDpsInits()[0];
    Type resultType = op->getResult(0).getType();
    if (!import::isCS349TensorType(lhs.getType()) ||
        !import::isCS349TensorType(rhs.getType()) ||
        !import::isCS349TensorType(resultType))
      return failure();
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    unsigned numLoops = op.getNumLoops();
    if (numLoops != 3 && numLoops != 4)
      return failure();
    // Loops: [batch,] m, n, k.
    unsigned batch = numLoops - 3;
    MLIRContext *context = op.getContext();
    auto dims = [&](std::initializer_list<unsigned> positions) {
      SmallVector<AffineExpr> exprs;
      for (unsigned b = 0; b < batch; ++b)
        exprs.push_back(getAffineDimExpr(b, context));
      for (unsigned position : positions)
        exprs.push_back(getAffineDimExpr(batch + position, context));
      return AffineMap::get(numLoops, 0, exprs, context);
    };
    AffineMap a = dims({0, 2}), aT = dims({2, 0}), b = dims({2, 1}),
              bT = dims({1, 2}), c = dims({0, 1});
    if ((maps[0] != a && maps[0] != aT) || maps[2] != c ||
        (maps[1] != b && maps[1] != bT))
      return rewriter.notifyMatchFailure(op, "not a [batch] matmul form");
    // The body must multiply and add (not, say, take a max of products).
    Block *body = op.getBlock();
    auto yield = cast<linalg::YieldOp>(body->getTerminator());
    auto add = yield.getValues()[0].getDefiningOp<arith::AddFOp>();
    arith::MulFOp mul;
    for (Value operand : add ? add->getOperands() : ValueRange())
      if (auto product = operand.getDefiningOp<arith::MulFOp>())
        mul = product;
    if (!mul)
      return failure();
    // Mixed precision (f16 or bf16 operands, an f32 result, as named
    // matmuls accumulate): each operand converted to the result's element
    // type, then multiplied there; a body that multiplies before
    // converting is another computation.
    Type elementType = cast<RankedTensorType>(resultType).getElementType();
    auto isConvertedInput = [&](Value value) {
      Operation *conversion = value.getDefiningOp();
      if (isa_and_nonnull<arith::ExtFOp, arith::TruncFOp>(conversion))
        value = conversion->getOperand(0);
      return isa<BlockArgument>(value) && value.getParentBlock() == body;
    };
    if (mul.getType() != elementType ||
        !llvm::all_of(mul->getOperands(), isConvertedInput))
      return rewriter.notifyMatchFailure(op, "converts after multiplying");
    bool transposed = maps[1] == bT;
    std::optional<double> initValue = splatInit(init);
    bool addsInit = !initValue || *initValue != 0.0;
    if (addsInit && !import::isCS349TensorType(init.getType()))
      return failure();
    Location loc = op.getLoc();
    auto converted = [&](Value operand) -> Value {
      auto type = cast<RankedTensorType>(operand.getType());
      if (type.getElementType() == elementType)
        return operand;
      return CastOp::create(rewriter, loc, type.clone(elementType), operand);
    };
    // A read transposed ([batch,] K, M) is transposed first: cs349.matmul
    // takes only B transposed.
    if (maps[0] == aT) {
      auto lhsType = cast<RankedTensorType>(lhs.getType());
      SmallVector<int64_t> perm(lhsType.getRank());
      std::iota(perm.begin(), perm.end(), 0);
      std::swap(perm[batch], perm[batch + 1]);
      lhs = TransposeOp::create(
          rewriter, loc,
          lhsType.clone(applyPermutation(lhsType.getShape(), perm)), lhs,
          rewriter.getDenseI64ArrayAttr(perm));
    }
    Value result =
        MatmulOp::create(rewriter, loc, resultType, converted(lhs),
                         converted(rhs),
                         transposed ? rewriter.getUnitAttr() : UnitAttr());
    if (addsInit)
      result = AddOp::create(rewriter, loc, result, init);
    rewriter.replaceOp(op, result);
    return success();
  }
};

template <typename ReshapeLike>
struct ReshapePattern : OpRewritePattern<ReshapeLike> {
  using OpRewritePattern<ReshapeLike>::OpRewritePattern;
  LogicalResult matchAndRewrite(ReshapeLike op,
                                PatternRewriter &rewriter) const override {
    if (!import::isCS349TensorType(op.getSrc().getType()) ||
        !import::isCS349TensorType(op.getResult().getType()))
      return failure();
    rewriter.replaceOpWithNewOp<ReshapeOp>(op, op.getResult().getType(),
                                           op.getSrc());
    return success();
  }
};

struct TransposePattern : OpRewritePattern<linalg::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::TransposeOp op,
                                PatternRewriter &rewriter) const override {
    Type resultType = op->getResult(0).getType();
    if (!op.hasPureTensorSemantics() ||
        !import::isCS349TensorType(op.getInput().getType()) ||
        !import::isCS349TensorType(resultType))
      return failure();
    rewriter.replaceOpWithNewOp<TransposeOp>(
        op, resultType, op.getInput(),
        rewriter.getDenseI64ArrayAttr(op.getPermutation()));
    return success();
  }
};

/// linalg.softmax along one dimension is cs349.softmax (its destination is
/// only where the result goes). Upstream's decomposition takes the row
/// maximum with maxnumf; a row holding a NaN comes out NaN either way.
struct SoftmaxPattern : OpRewritePattern<linalg::SoftmaxOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::SoftmaxOp op,
                                PatternRewriter &rewriter) const override {
    Value input = op.getInput();
    if (op->getNumResults() != 1 ||
        input.getType() != op.getOutputOperandType() ||
        input.getType() != op->getResult(0).getType() ||
        !import::isCS349TensorType(input.getType()))
      return failure();
    rewriter.replaceOpWithNewOp<SoftmaxOp>(op, input, op.getDimension());
    return success();
  }
};

struct ConstantPattern : OpRewritePattern<arith::ConstantOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::ConstantOp op,
                                PatternRewriter &rewriter) const override {
    // Dense data, or a resource (weights a front end printed elided stay
    // weights: cs349-run fills them).
    auto elements = dyn_cast<ElementsAttr>(op.getValue());
    if (!isa_and_nonnull<DenseElementsAttr, DenseResourceElementsAttr>(
            elements))
      return failure();
    // Integer tensors (position ids, say) once only cs349 ops read them:
    // the integer arithmetic of a mask stays with its opaque kernel, where
    // foldConstantMasks evaluates it.
    bool movableInteger =
        import::isKernelTensorType(op.getType()) && !op->use_empty() && llvm::all_of(op->getUsers(), [](Operation *user) {
          return isa_and_nonnull<CS349Dialect>(user->getDialect());
        });
    if (!import::isCS349TensorType(op.getType()) && !movableInteger)
      return failure();
    rewriter.replaceOpWithNewOp<ConstantOp>(op, elements);
    return success();
  }
};

/// `linalg.fill` of a float constant that is not a reduction's init (a
/// mask's zeros, say): a splat cs349.constant. (A reduction's init is read
/// by GenericPattern, as a fill or as such a constant alike.)
struct FillPattern : OpRewritePattern<linalg::FillOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::FillOp op,
                                PatternRewriter &rewriter) const override {
    FloatAttr value;
    Type type = op.getResult(0).getType();
    if (!op.hasPureTensorSemantics() || !import::isCS349TensorType(type) ||
        !matchPattern(op.getInputs()[0], m_Constant(&value)))
      return failure();
    rewriter.replaceOp(op, import::createSplat(rewriter, op.getLoc(), type,
                                               value.getValueAsDouble()));
    return success();
  }
};

/// A `linalg.generic` whose body only yields a float constant writes it
/// everywhere, whatever its inputs hold (a lookup in a splat table, which
/// upstream folds to its value, still reads the ids): a splat constant.
struct ConstantBodyPattern : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    Block &body = op.getRegion().front();
    FloatAttr value;
    Type type = op->getNumResults() == 1 ? op.getResult(0).getType() : Type();
    if (!type || !op.hasPureTensorSemantics() ||
        !import::isCS349TensorType(type) ||
        op.getNumParallelLoops() != op.getNumLoops() ||
        !op.getMatchingIndexingMap(op.getDpsInitOperand(0)).isPermutation() ||
        !llvm::hasSingleElement(body) ||
        !matchPattern(body.getTerminator()->getOperand(0),
                      m_Constant(&value)))
      return failure();
    rewriter.replaceOp(op, import::createSplat(rewriter, op.getLoc(), type,
                                               value.getValueAsDouble()));
    return success();
  }
};

/// A `linalg.generic` that copies its one input unchanged, of any element
/// type: the output map the identity, the input map reading each dim at its
/// loop or, along a dim of one, at 0 (torch-mlir's copy of its i64 position
/// ids reads `(0, d1)`). Upstream erases only copies whose maps are all the
/// identity.
struct UnchangedCopyPattern : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1 ||
        !op.hasPureTensorSemantics() ||
        op.getNumParallelLoops() != op.getNumLoops())
      return failure();
    Value input = op.getDpsInputOperand(0)->get();
    Block &body = op.getRegion().front();
    if (input.getType() != op.getResult(0).getType() ||
        !llvm::hasSingleElement(body) ||
        body.getTerminator()->getOperand(0) != body.getArgument(0) ||
        !op.getMatchingIndexingMap(op.getDpsInitOperand(0)).isIdentity())
      return failure();
    auto type = cast<RankedTensorType>(input.getType());
    AffineMap inputMap = op.getMatchingIndexingMap(op.getDpsInputOperand(0));
    if (inputMap.getNumResults() != type.getRank())
      return failure();
    for (auto [dim, expr] : llvm::enumerate(inputMap.getResults())) {
      auto loop = dyn_cast<AffineDimExpr>(expr);
      auto zero = dyn_cast<AffineConstantExpr>(expr);
      bool atLoop = loop && loop.getPosition() == dim;
      bool atZero = zero && zero.getValue() == 0 && type.getDimSize(dim) == 1;
      if (!atLoop && !atZero)
        return failure();
    }
    rewriter.replaceOp(op, input);
    return success();
  }
};

/// A generic input that is a splat float constant (a scale given as a
/// `tensor<f64>`) is the same scalar at every index: the body reads it as a
/// scalar constant instead, so that the input's type (f64) no longer keeps
/// the generic from being raised.
struct InlineSplatInput : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    for (OpOperand *input : op.getDpsInputOperands()) {
      DenseElementsAttr dense;
      if (!matchPattern(input->get(), m_Constant(&dense)) || !dense.isSplat() ||
          !isa<FloatType>(dense.getElementType()))
        continue;
      unsigned index = input->getOperandNumber();
      Block &body = op.getRegion().front();
      rewriter.modifyOpInPlace(op, [&] {
        OpBuilder::InsertionGuard guard(rewriter);
        rewriter.setInsertionPointToStart(&body);
        Value scalar = arith::ConstantOp::create(
            rewriter, op.getLoc(), dense.getSplatValue<FloatAttr>());
        body.getArgument(index).replaceAllUsesWith(scalar);
        SmallVector<AffineMap> maps = op.getIndexingMapsArray();
        maps.erase(maps.begin() + index);
        op.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
        op.getInputsMutable().erase(index);
        body.eraseArgument(index);
      });
      return success();
    }
    return failure();
  }
};

/// `tensor.splat` of a float constant (how front ends spell the attention
/// scale next to TOSA ops): a splat cs349.constant, which the matchers read
/// as a scale.
struct SplatPattern : OpRewritePattern<tensor::SplatOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tensor::SplatOp op,
                                PatternRewriter &rewriter) const override {
    FloatAttr value;
    if (!import::isCS349TensorType(op.getType()) ||
        !matchPattern(op.getInput(), m_Constant(&value)))
      return failure();
    rewriter.replaceOp(op, import::createSplat(rewriter, op.getLoc(),
                                               op.getType(),
                                               value.getValueAsDouble()));
    return success();
  }
};

/// arith and math ops applied to whole tensors (front ends write
/// `math.exp %t : tensor<...>` too): the scalar op's cs349 counterpart.
struct TensorElementwisePattern : RewritePattern {
  TensorElementwisePattern(MLIRContext *context)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context) {}
  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) ||
        op->getNumResults() != 1 || op->getNumOperands() == 0 ||
        !op->hasTrait<OpTrait::Elementwise>() || !import::isRaisableScalarOp(op))
      return failure();
    Type resultType = op->getResult(0).getType();
    auto compare = dyn_cast<arith::CmpFOp>(op);
    if (!import::isCS349TensorType(resultType) &&
        !(compare && import::isMaskTensorType(resultType)))
      return failure();
    // A comparison that selects read only as its negation is theirs to
    // raise (each builds the negated comparison and swaps its arms), so
    // that the result does not depend on which of them is raised first.
    if (compare && isRaisedNegated(compare))
      return rewriter.notifyMatchFailure(op, "raised by the selects");
    SmallVector<Value> operands;
    for (auto [index, operand] : llvm::enumerate(op->getOperands())) {
      if (isa<math::FPowIOp>(op) && index != 0)
        continue;
      bool isCondition = isa<arith::SelectOp>(op) && index == 0;
      Type type = operand.getType();
      bool accepted = isCondition ? import::isMaskTensorType(type)
                      : isIntegerConversion(op)
                          ? import::isKernelTensorType(type)
                          : import::isCS349TensorType(type);
      if (!accepted)
        return failure();
      operands.push_back(operand);
    }
    if (auto select = dyn_cast<arith::SelectOp>(op);
        select && hasNegatedCondition(select)) {
      auto condition = select.getCondition().getDefiningOp<arith::CmpFOp>();
      if (!import::isCS349TensorType(condition.getLhs().getType()))
        return failure();
      operands[0] = CompareOp::create(
          rewriter, condition.getLoc(), condition.getType(),
          ComparePredicateAttr::get(
              rewriter.getContext(),
              raisedPredicate(condition.getPredicate())->predicate),
          condition.getLhs(), condition.getRhs());
    }
    Value result = raiseScalarOp(rewriter, op, operands);
    if (result.getType() != resultType)
      return failure();
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Named elementwise ops (linalg.negf, linalg.exp, linalg.add, linalg.map,
/// ...), linalg.broadcast and linalg.reduce are generics under another name:
/// generalized, GenericPattern raises them.
struct GeneralizeNamedPattern
    : OpInterfaceRewritePattern<linalg::LinalgOp> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;
  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    // linalg.reduce is the one named reduction front ends write (upstream's
    // TOSA lowering, StableHLO's); other named reductions are contractions.
    bool isReduction = op.getNumLoops() != op.getNumParallelLoops();
    if (isa<linalg::GenericOp, linalg::FillOp, linalg::CopyOp,
            linalg::TransposeOp>(op) ||
        !op.hasPureTensorSemantics() ||
        (isReduction && !isa<linalg::ReduceOp>(op)) ||
        op.getNumDpsInits() != 1)
      return failure();
    return linalg::generalizeNamedOp(rewriter, op);
  }
};

} // namespace

void mlir::cs349::import::populateLinalgRaisingPatterns(
    RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  // Contractions first: their generic form is also a reduction, which
  // GenericPattern would raise into a [.., M, N, K] product.
  patterns.add<ContractionPattern>(context, /*benefit=*/2);
  patterns.add<GenericPattern, TensorElementwisePattern,
               GeneralizeNamedPattern, ReshapePattern<tensor::ExpandShapeOp>,
               ReshapePattern<tensor::CollapseShapeOp>, TransposePattern,
               SoftmaxPattern, ConstantPattern, SplatPattern, FillPattern,
               ConstantBodyPattern, UnchangedCopyPattern,
               InlineSplatInput>(context);
}
