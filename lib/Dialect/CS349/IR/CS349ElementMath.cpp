//===- CS349ElementMath.cpp - one element of each elementwise op ----------===//
//
// Every elementwise op and reduction as a scalar function, twice, side by
// side so that they cannot drift apart: `evaluate` in double for constant
// folding (rounded once to the element type), `emit` as f32 arith/math code
// for the linalg lowering (the ElementEmitter reads the operands and rounds
// the result as a store would). An op's interface declarations in
// CS349Ops.td make folding, fusion, the lowering and cs349-run use them.
//
//===----------------------------------------------------------------------===//

#include "cs349/Dialect/CS349/IR/CS349Ops.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::cs349;

namespace {
Value f32Constant(OpBuilder &builder, Location loc, double value) {
  Type f32 = builder.getF32Type();
  return arith::ConstantOp::create(builder, loc, f32,
                                   builder.getFloatAttr(f32, value));
}
} // namespace

//===----------------------------------------------------------------------===//
// Binary ops
//===----------------------------------------------------------------------===//

double AddOp::evaluate(double lhs, double rhs) { return lhs + rhs; }
Value AddOp::emit(OpBuilder &builder, Location loc, Value lhs, Value rhs) {
  return arith::AddFOp::create(builder, loc, lhs, rhs);
}

double SubOp::evaluate(double lhs, double rhs) { return lhs - rhs; }
Value SubOp::emit(OpBuilder &builder, Location loc, Value lhs, Value rhs) {
  return arith::SubFOp::create(builder, loc, lhs, rhs);
}

double MulOp::evaluate(double lhs, double rhs) { return lhs * rhs; }
Value MulOp::emit(OpBuilder &builder, Location loc, Value lhs, Value rhs) {
  return arith::MulFOp::create(builder, loc, lhs, rhs);
}

double DivOp::evaluate(double lhs, double rhs) { return lhs / rhs; }
Value DivOp::emit(OpBuilder &builder, Location loc, Value lhs, Value rhs) {
  return arith::DivFOp::create(builder, loc, lhs, rhs);
}

// NaN-propagating, like arith.maximumf.
double MaxOp::evaluate(double lhs, double rhs) {
  return std::isnan(lhs) || std::isnan(rhs) ? NAN : std::max(lhs, rhs);
}
Value MaxOp::emit(OpBuilder &builder, Location loc, Value lhs, Value rhs) {
  return arith::MaximumFOp::create(builder, loc, lhs, rhs);
}

// NaN-ignoring, like arith.maxnumf: std::fmax returns the other operand.
double MaxNumOp::evaluate(double lhs, double rhs) {
  return std::fmax(lhs, rhs);
}
Value MaxNumOp::emit(OpBuilder &builder, Location loc, Value lhs, Value rhs) {
  return arith::MaxNumFOp::create(builder, loc, lhs, rhs);
}

// C's pow: pow(x, 0) is 1 and pow(1, y) is 1 even for NaN, as math.powf
// computes them at run time.
double PowOp::evaluate(double lhs, double rhs) { return std::pow(lhs, rhs); }
Value PowOp::emit(OpBuilder &builder, Location loc, Value lhs, Value rhs) {
  return math::PowFOp::create(builder, loc, lhs, rhs);
}

//===----------------------------------------------------------------------===//
// Unary ops
//===----------------------------------------------------------------------===//

double NegOp::evaluate(double x) { return -x; }
Value NegOp::emit(OpBuilder &builder, Location loc, Value x) {
  return arith::NegFOp::create(builder, loc, x);
}

double ExpOp::evaluate(double x) { return std::exp(x); }
Value ExpOp::emit(OpBuilder &builder, Location loc, Value x) {
  return math::ExpOp::create(builder, loc, x);
}

double RsqrtOp::evaluate(double x) { return 1.0 / std::sqrt(x); }
Value RsqrtOp::emit(OpBuilder &builder, Location loc, Value x) {
  return math::RsqrtOp::create(builder, loc, x);
}

double TanhOp::evaluate(double x) { return std::tanh(x); }
Value TanhOp::emit(OpBuilder &builder, Location loc, Value x) {
  return math::TanhOp::create(builder, loc, x);
}

double ErfOp::evaluate(double x) { return std::erf(x); }
Value ErfOp::emit(OpBuilder &builder, Location loc, Value x) {
  return math::ErfOp::create(builder, loc, x);
}

double SigmoidOp::evaluate(double x) { return 1.0 / (1.0 + std::exp(-x)); }
Value SigmoidOp::emit(OpBuilder &builder, Location loc, Value x) {
  Value e = math::ExpOp::create(builder, loc,
                                arith::NegFOp::create(builder, loc, x));
  Value d =
      arith::AddFOp::create(builder, loc, f32Constant(builder, loc, 1.0), e);
  return arith::DivFOp::create(builder, loc, f32Constant(builder, loc, 1.0),
                               d);
}

double SqrtOp::evaluate(double x) { return std::sqrt(x); }
Value SqrtOp::emit(OpBuilder &builder, Location loc, Value x) {
  return math::SqrtOp::create(builder, loc, x);
}

double LogOp::evaluate(double x) { return std::log(x); }
Value LogOp::emit(OpBuilder &builder, Location loc, Value x) {
  return math::LogOp::create(builder, loc, x);
}

double CosOp::evaluate(double x) { return std::cos(x); }
Value CosOp::emit(OpBuilder &builder, Location loc, Value x) {
  return math::CosOp::create(builder, loc, x);
}

double SinOp::evaluate(double x) { return std::sin(x); }
Value SinOp::emit(OpBuilder &builder, Location loc, Value x) {
  return math::SinOp::create(builder, loc, x);
}

// NaN-propagating, like cs349.max against 0.
double ReluOp::evaluate(double x) { return MaxOp::evaluate(x, 0.0); }
Value ReluOp::emit(OpBuilder &builder, Location loc, Value x) {
  return MaxOp::emit(builder, loc, x, f32Constant(builder, loc, 0.0));
}

// x / (1 + exp(-x)), the formula --decompose expands it into.
double SiluOp::evaluate(double x) { return x / (1.0 + std::exp(-x)); }
Value SiluOp::emit(OpBuilder &builder, Location loc, Value x) {
  Value e = math::ExpOp::create(builder, loc,
                                arith::NegFOp::create(builder, loc, x));
  Value d =
      arith::AddFOp::create(builder, loc, f32Constant(builder, loc, 1.0), e);
  return arith::DivFOp::create(builder, loc, x, d);
}

// The formulas --decompose expands gelu into, by mode.
double GeluOp::evaluateElement(ArrayRef<double> operands) {
  double x = operands[0];
  if (getMode() == GeluMode::Tanh)
    return 0.5 * x *
           (1.0 + std::tanh(kSqrt2OverPi * (x + kCubic * x * x * x)));
  return 0.5 * x * (1.0 + std::erf(x * kInvSqrt2));
}
Value GeluOp::emitElement(OpBuilder &builder, Location loc,
                          ValueRange operands) {
  Value x = operands[0];
  Value inner;
  if (getMode() == GeluMode::Tanh) {
    Value cube = arith::MulFOp::create(
        builder, loc, arith::MulFOp::create(builder, loc, x, x), x);
    Value sum = arith::AddFOp::create(
        builder, loc, x,
        arith::MulFOp::create(builder, loc, cube,
                              f32Constant(builder, loc, kCubic)));
    inner = math::TanhOp::create(
        builder, loc,
        arith::MulFOp::create(builder, loc, sum,
                              f32Constant(builder, loc, kSqrt2OverPi)));
  } else {
    inner = math::ErfOp::create(
        builder, loc,
        arith::MulFOp::create(builder, loc, x,
                              f32Constant(builder, loc, kInvSqrt2)));
  }
  Value onePlus =
      arith::AddFOp::create(builder, loc, inner, f32Constant(builder, loc, 1.0));
  Value half =
      arith::MulFOp::create(builder, loc, x, f32Constant(builder, loc, 0.5));
  return arith::MulFOp::create(builder, loc, half, onePlus);
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

double ReduceSumOp::identity() { return 0.0; }
double ReduceSumOp::combine(double accumulated, double element) {
  return accumulated + element;
}
Value ReduceSumOp::emitCombine(OpBuilder &builder, Location loc,
                               Value accumulated, Value element) {
  return arith::AddFOp::create(builder, loc, accumulated, element);
}

double ReduceMaxOp::identity() { return -INFINITY; }
double ReduceMaxOp::combine(double accumulated, double element) {
  return MaxOp::evaluate(accumulated, element);
}
Value ReduceMaxOp::emitCombine(OpBuilder &builder, Location loc,
                               Value accumulated, Value element) {
  return MaxOp::emit(builder, loc, accumulated, element);
}

//===----------------------------------------------------------------------===//
// Casts, comparisons and selection
//===----------------------------------------------------------------------===//

namespace {
/// Float to a signed integer of `bits`: toward zero, saturating at the
/// type's range, NaN to 0 (arith.fptosi alone is poison out of range).
double toSignedInteger(double x, unsigned bits) {
  if (std::isnan(x))
    return 0.0;
  double limit = std::ldexp(1.0, int(bits) - 1);
  if (x >= limit)
    return limit - 1.0;
  if (x < -limit)
    return -limit;
  return std::trunc(x);
}

/// Two's complement wrap of an integer to `bits` (i64 -> i32 keeps the low
/// 32 bits, as arith.trunci does).
double wrapInteger(double x, unsigned bits) {
  if (bits >= 64)
    return x;
  uint64_t mask = (uint64_t(1) << bits) - 1;
  uint64_t low = uint64_t(int64_t(x)) & mask;
  uint64_t sign = uint64_t(1) << (bits - 1);
  return double(int64_t(low ^ sign) - int64_t(sign));
}
} // namespace

double CastOp::evaluateElement(ArrayRef<double> operands) {
  double x = operands[0];
  Type from = getInput().getType().getElementType();
  Type to = getType().getElementType();
  if (isa<FloatType>(to))
    return x; // makeElements rounds to the float type.
  unsigned bits = to.getIntOrFloatBitWidth();
  if (bits == 1)
    return x != 0.0 || std::isnan(x) ? 1.0 : 0.0;
  if (isa<FloatType>(from))
    return toSignedInteger(x, bits);
  return wrapInteger(x, bits);
}

Value CastOp::emitElement(OpBuilder &builder, Location loc,
                          ValueRange operands) {
  Value x = operands[0];
  Type from = getInput().getType().getElementType();
  Type to = getType().getElementType();
  Type f32 = builder.getF32Type();
  if (isa<FloatType>(from) && isa<FloatType>(to))
    return x; // The emitter rounds the f32 element to the result type.
  if (isa<IntegerType>(from) && isa<FloatType>(to)) {
    // Rounded once, to the result type: through f32 an integer above 2^24
    // would be rounded twice (to f32, then by the emitter to bf16), which
    // can miss the nearest bf16. Widened back to f32 exactly, so the
    // emitter's rounding keeps it. i1 is 0 or 1, not 0 or -1.
    Value converted =
        from.isInteger(1)
            ? arith::UIToFPOp::create(builder, loc, to, x).getResult()
            : arith::SIToFPOp::create(builder, loc, to, x).getResult();
    if (to == f32)
      return converted;
    return arith::ExtFOp::create(builder, loc, f32, converted);
  }
  unsigned bits = to.getIntOrFloatBitWidth();
  if (isa<FloatType>(from)) {
    if (bits == 1)
      return arith::CmpFOp::create(builder, loc, arith::CmpFPredicate::UNE, x,
                                   f32Constant(builder, loc, 0.0));
    double limit = std::ldexp(1.0, int(bits) - 1);
    Value tooBig = arith::CmpFOp::create(builder, loc, arith::CmpFPredicate::OGE,
                                         x, f32Constant(builder, loc, limit));
    Value tooSmall =
        arith::CmpFOp::create(builder, loc, arith::CmpFPredicate::OLT, x,
                              f32Constant(builder, loc, -limit));
    Value isNan = arith::CmpFOp::create(builder, loc, arith::CmpFPredicate::UNO,
                                        x, x);
    // fptosi only ever sees values in range.
    Value outside = arith::OrIOp::create(
        builder, loc, arith::OrIOp::create(builder, loc, tooBig, tooSmall),
        isNan);
    Value safe = arith::SelectOp::create(builder, loc, outside,
                                         f32Constant(builder, loc, 0.0), x);
    Value converted = arith::FPToSIOp::create(builder, loc, to, safe);
    auto intConstant = [&](int64_t value) {
      return arith::ConstantOp::create(builder, loc, to,
                                       builder.getIntegerAttr(to, value))
          .getResult();
    };
    int64_t max = bits == 64 ? std::numeric_limits<int64_t>::max()
                             : (int64_t(1) << (bits - 1)) - 1;
    int64_t min = bits == 64 ? std::numeric_limits<int64_t>::min()
                             : -(int64_t(1) << (bits - 1));
    converted = arith::SelectOp::create(builder, loc, tooBig, intConstant(max),
                                        converted);
    return arith::SelectOp::create(builder, loc, tooSmall, intConstant(min),
                                   converted);
  }
  // Integer to integer.
  unsigned fromBits = from.getIntOrFloatBitWidth();
  if (bits == 1) {
    Value zero = arith::ConstantOp::create(builder, loc, from,
                                           builder.getIntegerAttr(from, 0));
    return arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ne, x,
                                 zero);
  }
  if (bits == fromBits)
    return x;
  if (bits < fromBits)
    return arith::TruncIOp::create(builder, loc, to, x);
  if (fromBits == 1)
    return arith::ExtUIOp::create(builder, loc, to, x);
  return arith::ExtSIOp::create(builder, loc, to, x);
}

double CompareOp::evaluateElement(ArrayRef<double> operands) {
  double a = operands[0], b = operands[1];
  bool result = false;
  switch (getPredicate()) {
  case ComparePredicate::Eq:
    result = a == b;
    break;
  case ComparePredicate::Ne:
    result = a != b; // true when either is NaN, like IEEE's !=.
    break;
  case ComparePredicate::Lt:
    result = a < b;
    break;
  case ComparePredicate::Le:
    result = a <= b;
    break;
  case ComparePredicate::Gt:
    result = a > b;
    break;
  case ComparePredicate::Ge:
    result = a >= b;
    break;
  }
  return result ? 1.0 : 0.0;
}

Value CompareOp::emitElement(OpBuilder &builder, Location loc,
                             ValueRange operands) {
  arith::CmpFPredicate predicate = arith::CmpFPredicate::OEQ;
  switch (getPredicate()) {
  case ComparePredicate::Eq:
    predicate = arith::CmpFPredicate::OEQ;
    break;
  case ComparePredicate::Ne:
    predicate = arith::CmpFPredicate::UNE;
    break;
  case ComparePredicate::Lt:
    predicate = arith::CmpFPredicate::OLT;
    break;
  case ComparePredicate::Le:
    predicate = arith::CmpFPredicate::OLE;
    break;
  case ComparePredicate::Gt:
    predicate = arith::CmpFPredicate::OGT;
    break;
  case ComparePredicate::Ge:
    predicate = arith::CmpFPredicate::OGE;
    break;
  }
  return arith::CmpFOp::create(builder, loc, predicate, operands[0],
                               operands[1]);
}

Value SelectOp::emitElement(OpBuilder &builder, Location loc,
                            ValueRange operands) {
  return arith::SelectOp::create(builder, loc, operands[0], operands[1],
                                 operands[2]);
}

