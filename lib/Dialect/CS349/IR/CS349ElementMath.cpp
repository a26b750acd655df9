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

//===----------------------------------------------------------------------===//
// Unary ops
//===----------------------------------------------------------------------===//

// The rounding to the result's element type is the folder's (makeElements)
// and the lowering's (a store's), as for every op: the element is the value.
double CastOp::evaluate(double x) { return x; }
Value CastOp::emit(OpBuilder &, Location, Value x) { return x; }

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
