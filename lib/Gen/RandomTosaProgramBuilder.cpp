//===- RandomTosaProgramBuilder.cpp - random programs for the importer ----===//
//
// One table (kTosaSteps) lists what a program is made of: a row per TOSA op
// the importer meets in exported transformers, and the subgraphs front ends
// write for softmax, norms, activations and attention. As in the cs349
// generator, every pooled value carries bounds on its elements, so that exp,
// reciprocal, rsqrt and log only see inputs where f32 results are well
// conditioned and the import can be compared with a tight tolerance.
// Nothing discontinuous (floor, comparisons of computed values) is
// generated: a rounding difference the import may make would flip it.
//
//===----------------------------------------------------------------------===//

#include "cs349/Gen/RandomTosaProgramBuilder.h"

#include "cs349/Gen/RandomTensor.h"

#include "RandomSteps.h"

#include "mlir/Conversion/TosaToArith/TosaToArith.h"
#include "mlir/Conversion/TosaToLinalg/TosaToLinalg.h"
#include "mlir/Conversion/TosaToTensor/TosaToTensor.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

using namespace mlir;
using namespace mlir::cs349::gen;
using namespace mlir::cs349::gen::random;

namespace {
class TosaProgramBuilder;
using TosaStep = Step<TosaProgramBuilder>;

class TosaProgramBuilder : Draws {
public:
  TosaProgramBuilder(OpBuilder &builder, Block *entry,
                     const RandomTosaProgramConfig &config)
      : Draws(deriveSeed(config.seed, 0), config.without), builder(builder),
        entry(entry), returnRng(deriveSeed(config.seed, 1)),
        f32(builder.getF32Type()) {}

  static llvm::ArrayRef<TosaStep> steps();
  void run(const RandomTosaProgramConfig &config);
  SmallVector<Value> chooseResults();

  bool emitAdd() { return emitBinary("add"); }
  bool emitSub() { return emitBinary("sub"); }
  bool emitMul() { return emitBinary("mul"); }
  bool emitMaximum() { return emitBinary("maximum"); }
  bool emitMinimum() { return emitBinary("minimum"); }
  bool emitExp() { return emitUnary("exp"); }
  bool emitTanh() { return emitUnary("tanh"); }
  bool emitSigmoid() { return emitUnary("sigmoid"); }
  bool emitErf() { return emitUnary("erf"); }
  bool emitAbs() { return emitUnary("abs"); }
  bool emitNegate() { return emitUnary("negate"); }
  bool emitReciprocal() { return emitUnary("reciprocal"); }
  bool emitRsqrt() { return emitUnary("rsqrt"); }
  bool emitLog() { return emitUnary("log"); }
  bool emitClamp() { return emitUnary("clamp"); }
  bool emitIdentity() { return emitUnary("identity"); }
  bool emitReduceSum() { return emitReduction(/*sum=*/true); }
  bool emitReduceMax() { return emitReduction(/*sum=*/false); }
  bool emitMatmul();
  bool emitReshape();
  bool emitTranspose();
  bool emitSlice();
  bool emitConcat();
  bool emitPad();
  bool emitTile();
  bool emitConstant();
  bool emitPow();
  bool emitCast();
  bool emitGather();
  bool emitSelect();
  bool emitSoftmax();
  bool emitRmsNorm();
  bool emitLayerNorm();
  bool emitGelu();
  bool emitSilu();
  bool emitAttention();

private:
  //===--- types, locations, TOSA's operands -------------------------------===//
  RankedTensorType tensor(ArrayRef<int64_t> shape) const {
    return RankedTensorType::get(shape, f32);
  }
  Location loc(llvm::StringRef what) {
    return NameLoc::get(
        builder.getStringAttr("s" + llvm::Twine(stepIndex) + "." + what));
  }
  Value shapeValue(ArrayRef<int64_t> values);
  /// tosa.mul's shift and tosa.matmul's zero points (zero for floats).
  Value shift();
  Value zeroPoint();

  //===--- operands -------------------------------------------------------===//
  SmallVector<int64_t> randomShape(int64_t minRank = 1, int64_t maxRank = 4);
  Pooled remember(Value value, double bound, double lower) {
    Pooled pooled{value, bound, std::max(lower, -bound)};
    pool.push_back(pooled);
    return pooled;
  }
  Pooled argument(ArrayRef<int64_t> shape);
  Pooled splat(ArrayRef<int64_t> shape, double value);
  Pooled constant(ArrayRef<int64_t> shape, bool positive = false);
  Pooled fresh(ArrayRef<int64_t> shape) {
    return chance(0.65) ? argument(shape) : constant(shape);
  }
  Pooled any();
  Pooled ofShape(ArrayRef<int64_t> shape);
  Pooled within(Pooled value, double limit);
  /// A value >= 0.25 made from `value` (|x| + c) unless it already is.
  Pooled positive(Pooled value);
  /// An equal-rank shape whose dims are `shape`'s or 1 (and a 1 of `shape`
  /// sometimes grows): TOSA broadcasts only size-1 dims.
  SmallVector<int64_t> broadcastPartner(ArrayRef<int64_t> shape);

  Pooled unary(llvm::StringRef name, Pooled input);
  Pooled binary(llvm::StringRef name, Pooled lhs, Pooled rhs);
  Pooled reduce(bool sum, Pooled input, int64_t axis);
  Pooled reshape(Pooled input, ArrayRef<int64_t> shape);
  Pooled transpose(Pooled input, ArrayRef<int32_t> perms);
  Pooled matmul(Pooled lhs, Pooled rhs);
  /// Softmax over the last axis as exporters write it: max, sub, exp, sum,
  /// reciprocal, mul; `mask` (additive) first if given.
  Pooled softmaxOf(Pooled scores, Value mask = nullptr);
  bool emitUnary(llvm::StringRef name);
  bool emitBinary(llvm::StringRef name);
  bool emitReduction(bool sum);

  OpBuilder &builder;
  Block *entry;
  SplitMix64 returnRng;
  Type f32;
  std::vector<Pooled> pool;
  Value shiftValue, zeroPointValue;
  int64_t stepIndex = 0;
};

const TosaStep kTosaSteps[] = {
    // Elementwise, as cs349 ops and through upstream's lowering.
    {"add", 5, &TosaProgramBuilder::emitAdd},
    {"sub", 4, &TosaProgramBuilder::emitSub},
    {"mul", 5, &TosaProgramBuilder::emitMul},
    {"maximum", 2, &TosaProgramBuilder::emitMaximum},
    {"minimum", 2, &TosaProgramBuilder::emitMinimum},
    {"exp", 3, &TosaProgramBuilder::emitExp},
    {"tanh", 2, &TosaProgramBuilder::emitTanh},
    {"sigmoid", 2, &TosaProgramBuilder::emitSigmoid},
    {"erf", 2, &TosaProgramBuilder::emitErf},
    {"abs", 2, &TosaProgramBuilder::emitAbs},
    {"negate", 2, &TosaProgramBuilder::emitNegate},
    {"reciprocal", 3, &TosaProgramBuilder::emitReciprocal},
    {"rsqrt", 2, &TosaProgramBuilder::emitRsqrt},
    {"log", 2, &TosaProgramBuilder::emitLog},
    {"clamp", 2, &TosaProgramBuilder::emitClamp},
    {"identity", 1, &TosaProgramBuilder::emitIdentity},
    // Reductions (the axis stays, with size 1).
    {"reduce_sum", 3, &TosaProgramBuilder::emitReduceSum},
    {"reduce_max", 3, &TosaProgramBuilder::emitReduceMax},
    // Contraction and views.
    {"matmul", 5, &TosaProgramBuilder::emitMatmul},
    {"reshape", 4, &TosaProgramBuilder::emitReshape},
    {"transpose", 3, &TosaProgramBuilder::emitTranspose},
    {"slice", 3, &TosaProgramBuilder::emitSlice},
    {"concat", 2, &TosaProgramBuilder::emitConcat},
    {"pad", 2, &TosaProgramBuilder::emitPad},
    {"tile", 2, &TosaProgramBuilder::emitTile},
    {"const", 2, &TosaProgramBuilder::emitConstant},
    {"pow", 2, &TosaProgramBuilder::emitPow},
    // Exact inputs only: a last-bit difference the import makes would
    // become a whole bf16 step, pick another row, or flip a comparison.
    {"cast", 2, &TosaProgramBuilder::emitCast},
    {"gather", 2, &TosaProgramBuilder::emitGather},
    {"select", 2, &TosaProgramBuilder::emitSelect},
    // Subgraphs as exporters write them.
    {"softmax", 3, &TosaProgramBuilder::emitSoftmax},
    {"rms_norm", 2, &TosaProgramBuilder::emitRmsNorm},
    {"layer_norm", 2, &TosaProgramBuilder::emitLayerNorm},
    {"gelu", 2, &TosaProgramBuilder::emitGelu},
    {"silu", 2, &TosaProgramBuilder::emitSilu},
    {"attention", 3, &TosaProgramBuilder::emitAttention},
};

llvm::ArrayRef<TosaStep> TosaProgramBuilder::steps() { return kTosaSteps; }

//===----------------------------------------------------------------------===//
// Operands
//===----------------------------------------------------------------------===//

Value TosaProgramBuilder::shapeValue(ArrayRef<int64_t> values) {
  auto rank = static_cast<int64_t>(values.size());
  auto attr = DenseIntElementsAttr::get(
      RankedTensorType::get({rank}, builder.getIndexType()), values);
  return tosa::ConstShapeOp::create(
      builder, loc("shape"),
      tosa::shapeType::get(builder.getContext(), static_cast<int>(rank)),
      attr);
}

Value TosaProgramBuilder::shift() {
  if (!shiftValue) {
    auto type = RankedTensorType::get({1}, builder.getI8Type());
    shiftValue = tosa::ConstOp::create(
        builder, loc("shift"), type,
        DenseElementsAttr::get(type, builder.getI8IntegerAttr(0)));
  }
  return shiftValue;
}

Value TosaProgramBuilder::zeroPoint() {
  if (!zeroPointValue) {
    auto type = tensor({1});
    zeroPointValue = tosa::ConstOp::create(
        builder, loc("zp"), type,
        DenseElementsAttr::get(type, builder.getF32FloatAttr(0.0f)));
  }
  return zeroPointValue;
}

SmallVector<int64_t> TosaProgramBuilder::randomShape(int64_t minRank,
                                                     int64_t maxRank) {
  int64_t rank = std::clamp<int64_t>(oneOf<int64_t>({1, 2, 2, 3, 3, 3, 4}),
                                     minRank, maxRank);
  SmallVector<int64_t> shape;
  for (int64_t i = 0; i < rank; ++i)
    shape.push_back(smallDim());
  while (numElements(shape) > kMaxElements)
    for (int64_t &dim : shape)
      dim = std::max<int64_t>(1, dim / 2);
  // Exporters keep a batch of one in front ([1, T, D], [1, H, T, dh]); the
  // importer drops it (UnitDims.cpp), so a third of the shapes have it.
  if (rank < maxRank && chance(0.35))
    shape.insert(shape.begin(), 1);
  return shape;
}

Pooled TosaProgramBuilder::argument(ArrayRef<int64_t> shape) {
  Value value = entry->addArgument(
      tensor(shape), NameLoc::get(builder.getStringAttr(
                         "arg" + llvm::Twine(entry->getNumArguments()))));
  Pooled bounds = runnerArgument(value);
  return remember(value, bounds.bound, bounds.lower);
}

Pooled TosaProgramBuilder::splat(ArrayRef<int64_t> shape, double value) {
  auto type = tensor(shape);
  Value result = tosa::ConstOp::create(
      builder, loc("splat"), type,
      DenseElementsAttr::get(type, builder.getF32FloatAttr(float(value))));
  // Not pooled: a splat is a step's own constant (an epsilon, a scale).
  return {result, std::abs(value) * 1.01, std::max(value - 0.01, -std::abs(value) * 1.01)};
}

Pooled TosaProgramBuilder::constant(ArrayRef<int64_t> shape, bool positive) {
  if (chance(0.4)) {
    Pooled value = splat(shape, positive ? real(0.5, 2.0) : real(-2.0, 2.0));
    return remember(value.value, value.bound, value.lower);
  }
  double center = positive ? 1.25 : 0.0;
  double halfWidth = positive ? 0.75 : 1.5;
  SplitMix64 values(rng.next());
  auto attr = randomUniform(tensor(shape), values, center, halfWidth);
  Value result = tosa::ConstOp::create(builder, loc("const"), tensor(shape),
                                       cast<ElementsAttr>(attr));
  return remember(result, center + halfWidth, center - halfWidth);
}

Pooled TosaProgramBuilder::any() {
  if (pool.empty())
    return fresh(randomShape());
  int64_t size = static_cast<int64_t>(pool.size());
  // Recent values half the time: deep chains, not only wide ones.
  if (chance(0.5))
    return pool[pick(std::max<int64_t>(0, size - 4), size - 1)];
  return pool[pick(0, size - 1)];
}

Pooled TosaProgramBuilder::ofShape(ArrayRef<int64_t> shape) {
  SmallVector<size_t> matches;
  for (size_t i = 0; i < pool.size(); ++i)
    if (shapeOf(pool[i].value) == shape)
      matches.push_back(i);
  if (!matches.empty() && chance(0.6))
    return pool[matches[pick(0, static_cast<int64_t>(matches.size()) - 1)]];
  return fresh(shape);
}

Pooled TosaProgramBuilder::within(Pooled value, double limit) {
  if (value.bound <= limit)
    return value;
  return unary("tanh", value);
}

Pooled TosaProgramBuilder::positive(Pooled value) {
  if (value.lower >= 0.25)
    return value;
  value = within(value, kOperandBound);
  SmallVector<int64_t> ones(shapeOf(value.value).size(), 1);
  return binary("add", unary("abs", value), splat(ones, real(0.5, 1.5)));
}

SmallVector<int64_t>
TosaProgramBuilder::broadcastPartner(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> partner;
  for (int64_t dim : shape) {
    if (dim == 1)
      partner.push_back(chance(0.25) ? smallDim() : 1);
    else
      partner.push_back(chance(0.3) ? 1 : dim);
  }
  SmallVector<int64_t> result;
  for (auto [a, b] : llvm::zip(shape, partner))
    result.push_back(std::max(a, b));
  if (numElements(result) > kMaxElements)
    return SmallVector<int64_t>(shape);
  return partner;
}

//===----------------------------------------------------------------------===//
// Ops
//===----------------------------------------------------------------------===//

Pooled TosaProgramBuilder::unary(llvm::StringRef name, Pooled input) {
  Location location = loc(name);
  Type type = input.value.getType();
  Value x = input.value;
  if (name == "exp") {
    input = within(input, kExpInputBound);
    return remember(tosa::ExpOp::create(builder, location, type, input.value),
                    std::exp(input.bound), std::exp(-input.bound));
  }
  if (name == "tanh")
    return remember(tosa::TanhOp::create(builder, location, type, x), 1.0,
                    -1.0);
  if (name == "sigmoid")
    return remember(tosa::SigmoidOp::create(builder, location, type, x), 1.0,
                    0.0);
  if (name == "erf")
    return remember(tosa::ErfOp::create(builder, location, type, x), 1.0,
                    -1.0);
  if (name == "abs")
    return remember(tosa::AbsOp::create(builder, location, type, x),
                    input.bound, std::max(0.0, input.lower));
  if (name == "negate") {
    Value zero = tosa::ConstOp::create(
        builder, location, tensor({1}),
        DenseElementsAttr::get(tensor({1}), builder.getF32FloatAttr(0.0f)));
    return remember(
        tosa::NegateOp::create(builder, location, type, x, zero, zero),
        input.bound, -input.bound);
  }
  if (name == "reciprocal") {
    input = positive(input);
    return remember(
        tosa::ReciprocalOp::create(builder, location, type, input.value),
        1.0 / input.lower, 1.0 / input.bound);
  }
  if (name == "rsqrt") {
    input = positive(input);
    return remember(tosa::RsqrtOp::create(builder, location, type, input.value),
                    1.0 / std::sqrt(input.lower), 1.0 / std::sqrt(input.bound));
  }
  if (name == "log") {
    input = positive(input);
    double high = std::log(input.bound), low = std::log(input.lower);
    return remember(tosa::LogOp::create(builder, location, type, input.value),
                    std::max(std::abs(high), std::abs(low)), low);
  }
  if (name == "clamp") {
    float low = float(real(-2.0, 0.5));
    float high = float(low + real(0.25, 2.5));
    return remember(
        tosa::ClampOp::create(builder, location, type, x,
                              builder.getF32FloatAttr(low),
                              builder.getF32FloatAttr(high)),
        std::max(std::abs(low), std::abs(high)), low);
  }
  // identity
  return remember(tosa::IdentityOp::create(builder, location, type, x),
                  input.bound, input.lower);
}

Pooled TosaProgramBuilder::binary(llvm::StringRef name, Pooled lhs,
                                  Pooled rhs) {
  if (name == "mul") {
    lhs = within(lhs, 4.0);
    rhs = within(rhs, 4.0);
  } else {
    lhs = within(lhs, kOperandBound);
    rhs = within(rhs, kOperandBound);
  }
  SmallVector<int64_t> shape;
  for (auto [a, b] : llvm::zip(shapeOf(lhs.value), shapeOf(rhs.value)))
    shape.push_back(std::max(a, b));
  Type type = tensor(shape);
  Location location = loc(name);
  Value a = lhs.value, b = rhs.value;
  if (name == "add")
    return remember(tosa::AddOp::create(builder, location, type, a, b),
                    lhs.bound + rhs.bound, lhs.lower + rhs.lower);
  if (name == "sub")
    return remember(tosa::SubOp::create(builder, location, type, a, b),
                    lhs.bound + rhs.bound, lhs.lower - rhs.bound);
  if (name == "mul") {
    double lower = lhs.lower >= 0 && rhs.lower >= 0
                       ? lhs.lower * rhs.lower
                       : -lhs.bound * rhs.bound;
    return remember(tosa::MulOp::create(builder, location, type, a, b, shift()),
                    lhs.bound * rhs.bound, lower);
  }
  if (name == "maximum")
    return remember(tosa::MaximumOp::create(builder, location, type, a, b),
                    std::max(lhs.bound, rhs.bound),
                    std::max(lhs.lower, rhs.lower));
  return remember(tosa::MinimumOp::create(builder, location, type, a, b),
                  std::max(lhs.bound, rhs.bound),
                  std::min(lhs.lower, rhs.lower));
}

Pooled TosaProgramBuilder::reduce(bool sum, Pooled input, int64_t axis) {
  SmallVector<int64_t> shape(shapeOf(input.value));
  int64_t size = shape[axis];
  shape[axis] = 1;
  auto axisAttr = builder.getI32IntegerAttr(static_cast<int32_t>(axis));
  if (sum)
    return remember(tosa::ReduceSumOp::create(builder, loc("reduce_sum"),
                                              tensor(shape), input.value,
                                              axisAttr),
                    input.bound * double(size),
                    input.lower >= 0 ? input.lower * double(size)
                                     : -input.bound * double(size));
  return remember(tosa::ReduceMaxOp::create(builder, loc("reduce_max"),
                                            tensor(shape), input.value,
                                            axisAttr),
                  input.bound, input.lower);
}

Pooled TosaProgramBuilder::reshape(Pooled input, ArrayRef<int64_t> shape) {
  Value result = tosa::ReshapeOp::create(builder, loc("reshape"), tensor(shape),
                                         input.value, shapeValue(shape));
  return remember(result, input.bound, input.lower);
}

Pooled TosaProgramBuilder::transpose(Pooled input, ArrayRef<int32_t> perms) {
  ArrayRef<int64_t> inShape = shapeOf(input.value);
  SmallVector<int64_t> shape;
  for (int32_t p : perms)
    shape.push_back(inShape[p]);
  Value result = tosa::TransposeOp::create(builder, loc("transpose"),
                                           tensor(shape), input.value, perms);
  return remember(result, input.bound, input.lower);
}

Pooled TosaProgramBuilder::matmul(Pooled lhs, Pooled rhs) {
  lhs = within(lhs, kMatmulInputBound);
  rhs = within(rhs, kMatmulInputBound);
  ArrayRef<int64_t> a = shapeOf(lhs.value), b = shapeOf(rhs.value);
  double bound = lhs.bound * rhs.bound * double(a[2]);
  Value result = tosa::MatMulOp::create(builder, loc("matmul"),
                                        tensor({a[0], a[1], b[2]}), lhs.value,
                                        rhs.value, zeroPoint(), zeroPoint());
  return remember(result, bound, -bound);
}

Pooled TosaProgramBuilder::softmaxOf(Pooled scores, Value mask) {
  scores = within(scores, kOperandBound);
  Value x = scores.value;
  Type type = x.getType();
  int64_t axis = static_cast<int64_t>(shapeOf(x).size()) - 1;
  double spread = 2.0 * scores.bound;
  if (mask) {
    // The mask's large negatives make the bound honest but useless: the
    // softmax's own steps never need it (x - max(x) <= 0), and a later step
    // reading these values squashes them first.
    x = tosa::AddOp::create(builder, loc("masked"), type, x, mask);
    scores = remember(x, 1e9, -1e9);
    spread = 2e9;
  }
  Pooled max = reduce(/*sum=*/false, scores, axis);
  Value shifted =
      tosa::SubOp::create(builder, loc("shifted"), type, x, max.value);
  remember(shifted, spread, -spread);
  Value exps = tosa::ExpOp::create(builder, loc("exp"), type, shifted);
  Pooled e = remember(exps, 1.0, 0.0);
  // The row's maximum contributes exp(0) = 1 to its sum.
  Pooled sum = reduce(/*sum=*/true, e, axis);
  Value inverse = tosa::ReciprocalOp::create(builder, loc("reciprocal"),
                                             sum.value.getType(), sum.value);
  remember(inverse, 1.0, 0.0);
  Value probabilities = tosa::MulOp::create(builder, loc("probabilities"),
                                            type, exps, inverse, shift());
  return remember(probabilities, 1.0, 0.0);
}

//===----------------------------------------------------------------------===//
// Steps
//===----------------------------------------------------------------------===//

bool TosaProgramBuilder::emitUnary(llvm::StringRef name) {
  unary(name, any());
  return true;
}

bool TosaProgramBuilder::emitBinary(llvm::StringRef name) {
  Pooled lhs = any();
  SmallVector<int64_t> partner = broadcastPartner(shapeOf(lhs.value));
  Pooled rhs = ofShape(partner);
  if (chance(0.5))
    std::swap(lhs, rhs);
  binary(name, lhs, rhs);
  return true;
}

bool TosaProgramBuilder::emitReduction(bool sum) {
  Pooled input = any();
  int64_t rank = static_cast<int64_t>(shapeOf(input.value).size());
  // Mostly the last axis, as norms and softmax reduce.
  int64_t axis = chance(0.6) ? rank - 1 : pick(0, rank - 1);
  reduce(sum, within(input, kOperandBound), axis);
  return true;
}

bool TosaProgramBuilder::emitMatmul() {
  int64_t batch = oneOf<int64_t>({1, 1, 2, 3, 4});
  int64_t m = smallDim(), k = oneOf<int64_t>({2, 4, 8, 16}),
          n = smallDim();
  if (batch * std::max({m * k, k * n, m * n}) > kMaxElements)
    batch = 1;
  Pooled lhs = ofShape({batch, m, k});
  Pooled rhs;
  // Weights stored [N, K] and transposed, as exporters of nn.Linear write.
  if (chance(0.35))
    rhs = transpose(ofShape({batch, n, k}), {0, 2, 1});
  else
    rhs = ofShape({batch, k, n});
  matmul(lhs, rhs);
  return true;
}

bool TosaProgramBuilder::emitReshape() {
  Pooled input = any();
  int64_t count = numElements(shapeOf(input.value));
  // Factor the element count into up to four dims.
  SmallVector<int64_t> factors;
  int64_t rest = count;
  for (int64_t p = 2; p * p <= rest; ++p)
    while (rest % p == 0) {
      factors.push_back(p);
      rest /= p;
    }
  if (rest > 1)
    factors.push_back(rest);
  int64_t rank = pick(1, 4);
  SmallVector<int64_t> shape(rank, 1);
  for (int64_t factor : factors)
    shape[pick(0, rank - 1)] *= factor;
  reshape(input, shape);
  return true;
}

bool TosaProgramBuilder::emitTranspose() {
  Pooled input = any();
  int64_t rank = static_cast<int64_t>(shapeOf(input.value).size());
  if (rank < 2)
    return false;
  SmallVector<int32_t> perms(rank);
  std::iota(perms.begin(), perms.end(), 0);
  for (int64_t i = rank - 1; i > 0; --i)
    std::swap(perms[i], perms[pick(0, i)]);
  transpose(input, perms);
  return true;
}

bool TosaProgramBuilder::emitSlice() {
  Pooled input = any();
  ArrayRef<int64_t> shape = shapeOf(input.value);
  SmallVector<int64_t> start, size;
  for (int64_t dim : shape) {
    int64_t length = pick(1, dim);
    start.push_back(pick(0, dim - length));
    size.push_back(length);
  }
  Value result = tosa::SliceOp::create(builder, loc("slice"), tensor(size),
                                       input.value, shapeValue(start),
                                       shapeValue(size));
  remember(result, input.bound, input.lower);
  return true;
}

bool TosaProgramBuilder::emitConcat() {
  Pooled first = any();
  SmallVector<int64_t> shape(shapeOf(first.value));
  int64_t axis = pick(0, static_cast<int64_t>(shape.size()) - 1);
  SmallVector<int64_t> otherShape(shape);
  otherShape[axis] = smallDim();
  SmallVector<int64_t> resultShape(shape);
  resultShape[axis] += otherShape[axis];
  if (numElements(resultShape) > kMaxElements)
    return false;
  Pooled second = ofShape(otherShape);
  SmallVector<Value> inputs = {first.value, second.value};
  if (chance(0.5))
    std::swap(inputs[0], inputs[1]);
  Value result = tosa::ConcatOp::create(
      builder, loc("concat"), tensor(resultShape), inputs,
      builder.getI32IntegerAttr(static_cast<int32_t>(axis)));
  remember(result, std::max(first.bound, second.bound),
           std::min(first.lower, second.lower));
  return true;
}

bool TosaProgramBuilder::emitPad() {
  Pooled input = any();
  ArrayRef<int64_t> shape = shapeOf(input.value);
  SmallVector<int64_t> padding, resultShape;
  for (int64_t dim : shape) {
    int64_t before = chance(0.5) ? pick(0, 2) : 0;
    int64_t after = chance(0.5) ? pick(0, 2) : 0;
    padding.push_back(before);
    padding.push_back(after);
    resultShape.push_back(dim + before + after);
  }
  if (numElements(resultShape) > kMaxElements)
    return false;
  float value = chance(0.6) ? 0.0f : float(real(-1.0, 1.0));
  Value padConst = tosa::ConstOp::create(
      builder, loc("pad_value"), tensor({1}),
      DenseElementsAttr::get(tensor({1}), builder.getF32FloatAttr(value)));
  Value result =
      tosa::PadOp::create(builder, loc("pad"), tensor(resultShape),
                          input.value, shapeValue(padding), padConst);
  remember(result, std::max<double>(input.bound, std::abs(value)),
           std::min<double>(input.lower, value));
  return true;
}

bool TosaProgramBuilder::emitTile() {
  Pooled input = any();
  ArrayRef<int64_t> shape = shapeOf(input.value);
  SmallVector<int64_t> multiples, resultShape;
  for (int64_t dim : shape) {
    int64_t times = chance(0.4) ? pick(2, 3) : 1;
    multiples.push_back(times);
    resultShape.push_back(dim * times);
  }
  if (numElements(resultShape) > kMaxElements)
    return false;
  Value result = tosa::TileOp::create(builder, loc("tile"),
                                      tensor(resultShape), input.value,
                                      shapeValue(multiples));
  remember(result, input.bound, input.lower);
  return true;
}

bool TosaProgramBuilder::emitConstant() {
  constant(randomShape(), chance(0.3));
  return true;
}

bool TosaProgramBuilder::emitPow() {
  // x^2 (as some exporters write a square), x^0.5 or x^3 of a positive x.
  Pooled base = positive(within(any(), 4.0));
  double exponent = oneOf<double>({2.0, 2.0, 0.5, 3.0});
  SmallVector<int64_t> ones(shapeOf(base.value).size(), 1);
  Value power = splat(ones, exponent).value;
  Value result = tosa::PowOp::create(builder, loc("pow"),
                                     base.value.getType(), base.value, power);
  remember(result, std::pow(base.bound, exponent),
           std::pow(base.lower, exponent));
  return true;
}

bool TosaProgramBuilder::emitCast() {
  // An argument through bf16 or f16 and back, as mixed-precision exports
  // round their inputs.
  Pooled input = argument(randomShape());
  Type narrow = chance(0.5) ? Type(builder.getBF16Type())
                            : Type(builder.getF16Type());
  auto narrowType = RankedTensorType::get(shapeOf(input.value), narrow);
  Value down =
      tosa::CastOp::create(builder, loc("cast"), narrowType, input.value);
  Value up = tosa::CastOp::create(builder, loc("cast"),
                                  input.value.getType(), down);
  remember(up, input.bound * 1.01, input.lower - 0.01 * input.bound);
  return true;
}

bool TosaProgramBuilder::emitGather() {
  // Rows of a [N, K, C] table by constant ids [N, W] (an embedding lookup
  // with a batch of N); constant, so that every run reads the same rows.
  int64_t n = oneOf<int64_t>({1, 1, 2}), k = smallDim(), c = smallDim(),
          w = smallDim();
  if (n * std::max(k, w) * c > kMaxElements)
    return false;
  Pooled table = ofShape({n, k, c});
  SmallVector<int32_t> ids;
  for (int64_t i = 0; i < n * w; ++i)
    ids.push_back(static_cast<int32_t>(pick(0, k - 1)));
  auto idsType = RankedTensorType::get({n, w}, builder.getI32Type());
  Value indices = tosa::ConstOp::create(
      builder, loc("ids"), idsType,
      cast<ElementsAttr>(DenseElementsAttr::get(idsType, ArrayRef(ids))));
  Value result = tosa::GatherOp::create(builder, loc("gather"),
                                        tensor({n, w, c}), table.value,
                                        indices);
  remember(result, table.bound, table.lower);
  return true;
}

bool TosaProgramBuilder::emitSelect() {
  // select(x > t, a, b) for an argument x and an exact threshold t: what
  // masks are made of, with nothing computed before the comparison.
  SmallVector<int64_t> shape = randomShape();
  Pooled x = argument(shape);
  SmallVector<int64_t> ones(shape.size(), 1);
  Value threshold = splat(ones, oneOf<double>({0.0, 0.25, 1.0})).value;
  auto maskType = RankedTensorType::get(shape, builder.getI1Type());
  Value mask = tosa::GreaterOp::create(builder, loc("greater"), maskType,
                                       x.value, threshold);
  Pooled a = ofShape(shape), b = ofShape(shape);
  Value result = tosa::SelectOp::create(builder, loc("select"), tensor(shape),
                                        mask, a.value, b.value);
  remember(result, std::max(a.bound, b.bound), std::min(a.lower, b.lower));
  return true;
}

bool TosaProgramBuilder::emitSoftmax() {
  softmaxOf(any());
  return true;
}

bool TosaProgramBuilder::emitRmsNorm() {
  Pooled x = within(any(), 4.0);
  SmallVector<int64_t> shape(shapeOf(x.value));
  int64_t axis = static_cast<int64_t>(shape.size()) - 1;
  int64_t width = shape[axis];
  Pooled squares = binary("mul", x, x);
  squares.lower = 0.0;
  Pooled sum = reduce(/*sum=*/true, squares, axis);
  SmallVector<int64_t> ones(shape.size(), 1);
  Pooled mean = binary("mul", sum, splat(ones, 1.0 / double(width)));
  mean.lower = 0.0;
  // A row of near-zeros is ill-conditioned in any program, whatever the
  // import does: a constant floor after the epsilon keeps rsqrt's input at
  // 0.25 or more (as in layer_norm).
  Pooled withEpsilon = binary("add", mean, splat(ones, 1e-5));
  withEpsilon.lower = 1e-5;
  Pooled shifted = binary("add", withEpsilon, splat(ones, 0.25));
  Value r = tosa::RsqrtOp::create(builder, loc("rsqrt"),
                                  shifted.value.getType(), shifted.value);
  Pooled inverse = remember(r, 1.0 / std::sqrt(shifted.lower),
                            1.0 / std::sqrt(shifted.bound));
  Pooled normed = binary("mul", x, inverse);
  SmallVector<int64_t> gainShape(ones);
  gainShape[axis] = width;
  binary("mul", normed, constant(gainShape, /*positive=*/true));
  return true;
}

bool TosaProgramBuilder::emitLayerNorm() {
  Pooled x = within(any(), 4.0);
  SmallVector<int64_t> shape(shapeOf(x.value));
  int64_t axis = static_cast<int64_t>(shape.size()) - 1;
  int64_t width = shape[axis];
  SmallVector<int64_t> ones(shape.size(), 1);
  Pooled inverseWidth = splat(ones, 1.0 / double(width));
  Pooled mean = binary("mul", reduce(/*sum=*/true, x, axis), inverseWidth);
  Pooled centered = binary("sub", x, mean);
  Pooled squares = binary("mul", centered, centered);
  squares.lower = 0.0;
  Pooled variance =
      binary("mul", reduce(/*sum=*/true, squares, axis), inverseWidth);
  variance.lower = 0.0;
  // A constant floor as in RMSNorm: rows of equal values are ill-conditioned.
  Pooled shifted = binary("add", variance, splat(ones, 0.25));
  Value r = tosa::RsqrtOp::create(builder, loc("rsqrt"),
                                  shifted.value.getType(), shifted.value);
  Pooled inverse = remember(r, 1.0 / std::sqrt(shifted.lower),
                            1.0 / std::sqrt(shifted.bound));
  Pooled normed = binary("mul", centered, inverse);
  SmallVector<int64_t> paramShape(ones);
  paramShape[axis] = width;
  Pooled scaled = binary("mul", normed, constant(paramShape, true));
  binary("add", scaled, constant(paramShape));
  return true;
}

bool TosaProgramBuilder::emitGelu() {
  // 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3))), as exporters expand it.
  Pooled x = within(any(), 4.0);
  SmallVector<int64_t> ones(shapeOf(x.value).size(), 1);
  Pooled cube = binary("mul", binary("mul", x, x), x);
  Pooled inner = binary("add", x, binary("mul", cube, splat(ones, 0.044715)));
  Pooled t = unary("tanh", binary("mul", inner, splat(ones, 0.7978845608)));
  Pooled half = binary("mul", x, splat(ones, 0.5));
  binary("mul", half, binary("add", t, splat(ones, 1.0)));
  return true;
}

bool TosaProgramBuilder::emitSilu() {
  Pooled x = within(any(), kOperandBound);
  binary("mul", x, unary("sigmoid", x));
  return true;
}

bool TosaProgramBuilder::emitAttention() {
  int64_t heads = oneOf<int64_t>({1, 2, 4});
  int64_t seq = oneOf<int64_t>({2, 4, 6, 8});
  int64_t dim = oneOf<int64_t>({2, 4, 8});
  if (heads * seq * std::max(seq, dim) > kMaxElements)
    heads = 1;
  Pooled q = ofShape({heads, seq, dim});
  // K as stored ([H, S, D], transposed here) or already transposed.
  Pooled kt = chance(0.6) ? transpose(ofShape({heads, seq, dim}), {0, 2, 1})
                          : ofShape({heads, dim, seq});
  Pooled v = ofShape({heads, seq, dim});
  Pooled scores = matmul(q, kt);
  // The scale as a constant, or as the reciprocal of sqrt(d).
  if (chance(0.5)) {
    scores = binary("mul", scores, splat({1, 1, 1}, 1.0 / std::sqrt(double(dim))));
  } else {
    Value root = splat({1, 1, 1}, std::sqrt(double(dim))).value;
    Value r = tosa::ReciprocalOp::create(builder, loc("reciprocal"),
                                         root.getType(), root);
    scores = binary("mul", scores, remember(r, 1.0, 0.0));
  }
  int mask = pick(0, 2);
  if (mask == 1) {
    // A causal mask as a constant: 0 on and below the diagonal, a large
    // negative number above.
    SmallVector<float> values;
    for (int64_t i = 0; i < seq; ++i)
      for (int64_t j = 0; j < seq; ++j)
        values.push_back(j <= i ? 0.0f : -1e9f);
    auto type = tensor({1, seq, seq});
    Value causal = tosa::ConstOp::create(
        builder, loc("causal_mask"), type,
        cast<ElementsAttr>(DenseElementsAttr::get(type, ArrayRef(values))));
    matmul(softmaxOf(scores, causal), v);
    return true;
  }
  if (mask == 2) {
    // An additive bias argument (a padding mask's place).
    scores = binary("add", scores, ofShape({1, seq, seq}));
  }
  matmul(softmaxOf(scores), v);
  return true;
}

void TosaProgramBuilder::run(const RandomTosaProgramConfig &config) {
  runSteps<TosaProgramBuilder>(
      *this, steps(), [this](int64_t lo, int64_t hi) { return pick(lo, hi); },
      [this](llvm::StringRef name) { return enabled(name); }, config.minSteps,
      config.maxSteps, stepIndex);
}

SmallVector<Value> TosaProgramBuilder::chooseResults() {
  // Every value nothing reads (so that no step is dead code), at most 8.
  SmallVector<Value> results;
  for (const Pooled &pooled : pool)
    if (pooled.value.use_empty() && !isa<BlockArgument>(pooled.value) &&
        !isa<tosa::ConstOp>(pooled.value.getDefiningOp()))
      results.push_back(pooled.value);
  while (results.size() > 8)
    results.erase(results.begin() + returnRng.next() % results.size());
  if (results.empty()) {
    stepIndex = 0;
    results.push_back(unary("tanh", fresh({2, 2})).value);
  }
  return results;
}

} // namespace

llvm::SmallVector<llvm::StringRef> mlir::cs349::gen::getRandomTosaStepNames() {
  return stepNames<TosaProgramBuilder>(kTosaSteps);
}

llvm::Error
mlir::cs349::gen::verifyConfig(const RandomTosaProgramConfig &config) {
  return verifySteps(config.minSteps, config.maxSteps, kMaxSteps,
                     config.without, getRandomTosaStepNames());
}

namespace {
/// The same tensor type with every dim dynamic.
Type withDynamicDims(Type type) {
  auto ranked = dyn_cast<RankedTensorType>(type);
  if (!ranked)
    return type;
  return RankedTensorType::get(
      SmallVector<int64_t>(ranked.getRank(), ShapedType::kDynamic),
      ranked.getElementType());
}

/// The type TOSA defines for a reduction's result: its operand's with 1 on
/// the reduced axis (front ends write it so; upstream's lowering of a
/// reduction with dynamic sizes needs it).
std::optional<Type> reductionType(Operation *op) {
  auto reduced = [](Value input, int64_t axis) -> Type {
    auto type = cast<RankedTensorType>(input.getType());
    SmallVector<int64_t> sizes(type.getShape());
    sizes[axis] = 1;
    return type.clone(sizes);
  };
  if (auto sum = dyn_cast<tosa::ReduceSumOp>(op))
    return reduced(sum.getInput(), sum.getAxis());
  if (auto max = dyn_cast<tosa::ReduceMaxOp>(op))
    return reduced(max.getInput(), max.getAxis());
  return std::nullopt;
}

/// Makes every dim of `func`'s arguments, results and op results `?`,
/// except the constants' (their values have a shape) and those a
/// reduction's result keeps from its operand; returns the
/// arg-shapes entries (`0:2x8,1:8`) of the static argument types.
std::string makeShapesDynamic(func::FuncOp func) {
  SmallVector<std::string> entries;
  for (BlockArgument argument : func.getArguments()) {
    auto ranked = cast<RankedTensorType>(argument.getType());
    SmallVector<std::string> sizes;
    for (int64_t size : ranked.getShape())
      sizes.push_back(std::to_string(size));
    if (!sizes.empty())
      entries.push_back(std::to_string(argument.getArgNumber()) + ":" +
                        llvm::join(sizes, "x"));
    argument.setType(withDynamicDims(ranked));
  }
  func.walk([](Operation *op) {
    if (isa<tosa::ConstOp, tosa::ConstShapeOp>(op))
      return;
    // In order: a reduction's operand has its new type already.
    if (std::optional<Type> type = reductionType(op)) {
      op->getResult(0).setType(*type);
      return;
    }
    for (OpResult result : op->getResults())
      result.setType(withDynamicDims(result.getType()));
  });
  Block &body = func.getBody().front();
  func.setType(FunctionType::get(func.getContext(), body.getArgumentTypes(),
                                 body.getTerminator()->getOperandTypes()));
  return llvm::join(entries, ",");
}
} // namespace

OwningOpRef<ModuleOp>
mlir::cs349::gen::buildRandomTosaProgram(MLIRContext &context,
                                         const RandomTosaProgramConfig &config,
                                         std::string *argShapes) {
  context.loadDialect<tosa::TosaDialect>();
  OwningOpRef<ModuleOp> module = buildRandomFunction(
      context, [&](OpBuilder &builder, Block *entry) {
        TosaProgramBuilder program(builder, entry, config);
        program.run(config);
        return program.chooseResults();
      });
  if (config.dynamic) {
    std::string shapes = makeShapesDynamic(
        cast<func::FuncOp>(module->getBody()->front()));
    if (argShapes)
      *argShapes = std::move(shapes);
  }
  if (config.form == ImportForm::Tosa)
    return module;

  // What a linalg-on-tensors front end hands over: upstream's lowering of
  // the same program.
  context.loadDialect<arith::ArithDialect, linalg::LinalgDialect,
                      math::MathDialect, tensor::TensorDialect>();
  PassManager pm(&context);
  OpPassManager &functions = pm.nest<func::FuncOp>();
  functions.addPass(tosa::createTosaToLinalgNamed());
  functions.addPass(tosa::createTosaToLinalg());
  functions.addPass(createTosaToArithPass());
  functions.addPass(createTosaToTensorPass());
  functions.addPass(createCanonicalizerPass());
  if (failed(pm.run(*module)))
    return nullptr;
  return module;
}
