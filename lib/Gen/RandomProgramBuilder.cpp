//===- RandomProgramBuilder.cpp - random valid cs349 programs -------------===//
//
// One table (kSteps) lists what a program is made of: an entry per op of the
// dialect, plus the subgraphs that only make sense together (attention in the
// spellings --match-attention accepts, and near-misses it must leave alone)
// and the features of the return. An op added to the dialect gets a row here.
//
// Every value in the pool carries a bound on its magnitude and a lower bound,
// so that exp, rsqrt and div only see inputs where f32 results are well
// conditioned, and differential runs can compare with a tight tolerance.
//
//===----------------------------------------------------------------------===//

#include "cs349/Gen/RandomProgramBuilder.h"

#include "cs349/Dialect/CS349/IR/CS349Dialect.h"
#include "cs349/Dialect/CS349/IR/CS349Ops.h"
#include "cs349/Gen/RandomTensor.h"

#include "RandomSteps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Traits.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

using namespace mlir;
using namespace mlir::cs349;
using namespace mlir::cs349::gen;
using namespace mlir::cs349::gen::random;

namespace {
class ProgramBuilder;
using ProgramStep = Step<ProgramBuilder>;

class ProgramBuilder : Draws {
public:
  ProgramBuilder(OpBuilder &builder, Block *entry,
                 const RandomProgramConfig &config)
      : Draws(deriveSeed(config.seed, 0), config.without), builder(builder),
        entry(entry), returnRng(deriveSeed(config.seed, 1)),
        elementType(getElementType(builder.getContext(), config.dtype)) {}

  static llvm::ArrayRef<ProgramStep> steps();

  void run(const RandomProgramConfig &config);
  SmallVector<Value> chooseResults();

private:
  //===--- types, locations -----------------------------------------------===//
  RankedTensorType tensor(ArrayRef<int64_t> shape) const {
    return RankedTensorType::get(shape, elementType);
  }
  Location loc(llvm::StringRef what) {
    return NameLoc::get(
        builder.getStringAttr("s" + llvm::Twine(stepIndex) + "." + what));
  }
  SmallVector<int64_t> randomShape(int64_t minRank = 1, int64_t maxRank = 4);
  int64_t evenDim() { return oneOf<int64_t>({2, 4, 4, 6, 8}); }

  //===--- operands -------------------------------------------------------===//
  Pooled remember(Value value, double bound, double lower) {
    Pooled pooled{value, bound, std::max(lower, -bound)};
    pool.push_back(pooled);
    return pooled;
  }
  Pooled argument(ArrayRef<int64_t> shape);
  /// An integer argument (cs349-run fills it: indices in range, masks 0/1).
  Value integerArgument(ArrayRef<int64_t> shape, unsigned bits);
  Pooled constant(ArrayRef<int64_t> shape, bool positive = false);
  Pooled splat(ArrayRef<int64_t> shape, double value);
  Pooled fresh(ArrayRef<int64_t> shape) {
    return chance(0.65) ? argument(shape) : constant(shape);
  }
  Pooled positiveFresh(ArrayRef<int64_t> shape);
  /// A pool value (recent ones more often), or a fresh one when the pool is
  /// empty.
  Pooled any();
  /// A pool value of exactly `shape`, or a fresh one.
  Pooled ofShape(ArrayRef<int64_t> shape);
  /// A pool value satisfying `accept`, or null.
  std::optional<Pooled> find(llvm::function_ref<bool(const Pooled &)> accept);
  /// `value` squashed through tanh when its bound exceeds `limit`.
  Pooled within(Pooled value, double limit);
  Pooled bounded(double limit) { return within(any(), limit); }
  /// A shape that broadcasts with `shape` (sometimes in both directions).
  SmallVector<int64_t> broadcastPartner(ArrayRef<int64_t> shape);

  Pooled unary(llvm::StringRef name, Pooled input);
  Pooled binary(llvm::StringRef name, Pooled lhs, Pooled rhs);
  Value softmaxOf(Value scores, int64_t axis, bool decomposed);

public:
  //===--- the steps of the table -----------------------------------------===//

  bool emitNeg() { return emitUnary("neg"); }
  bool emitExp() { return emitUnary("exp"); }
  bool emitRsqrt() { return emitUnary("rsqrt"); }
  bool emitTanh() { return emitUnary("tanh"); }
  bool emitErf() { return emitUnary("erf"); }
  bool emitSilu() { return emitUnary("silu"); }
  bool emitSigmoid() { return emitUnary("sigmoid"); }
  bool emitSqrt() { return emitUnary("sqrt"); }
  bool emitLog() { return emitUnary("log"); }
  bool emitCos() { return emitUnary("cos"); }
  bool emitSin() { return emitUnary("sin"); }
  bool emitRelu() { return emitUnary("relu"); }
  bool emitGelu() { return emitUnary("gelu"); }
  bool emitUnary(llvm::StringRef name);
  bool emitRotateHalf();
  bool emitAdd() { return emitBinary("add"); }
  bool emitSub() { return emitBinary("sub"); }
  bool emitMul() { return emitBinary("mul"); }
  bool emitDiv() { return emitBinary("div"); }
  bool emitMax() { return emitBinary("max"); }
  bool emitMaxNum() { return emitBinary("maxnum"); }
  bool emitBinary(llvm::StringRef name);
  bool emitPow();
  bool emitReduceSum() { return emitReduction(/*sum=*/true); }
  bool emitReduceMax() { return emitReduction(/*sum=*/false); }
  bool emitReduction(bool sum);
  bool emitSoftmax();
  bool emitRmsNorm();
  bool emitLayerNorm();
  bool emitRope();
  bool emitMatmul();
  bool emitAttention();
  bool emitReshape();
  bool emitTranspose();
  bool emitRepeat();
  bool emitSlice();
  bool emitConcat();
  bool emitCast();
  bool emitGather();
  bool emitCompare() { return emitSelect(/*compared=*/true); }
  bool emitSelectStep() { return emitSelect(/*compared=*/false); }
  bool emitSelect(bool compared);
  bool emitConstant();
  bool emitCausalMask();
  bool emitRopeTable();
  bool emitAttentionPattern() { return emitAttentionSubgraph(false); }
  bool emitAttentionNearMiss() { return emitAttentionSubgraph(true); }

private:
  bool emitAttentionSubgraph(bool nearMiss);

  OpBuilder &builder;
  Block *entry;
  SplitMix64 returnRng;
  Type elementType;
  std::vector<Pooled> pool;
  SmallVector<Value> extraResults;
  int64_t stepIndex = 0;
};

const ProgramStep kSteps[] = {
    // Elementwise.
    {"neg", 3, &ProgramBuilder::emitNeg},
    {"exp", 3, &ProgramBuilder::emitExp},
    {"rsqrt", 2, &ProgramBuilder::emitRsqrt},
    {"tanh", 3, &ProgramBuilder::emitTanh},
    {"erf", 2, &ProgramBuilder::emitErf},
    {"silu", 3, &ProgramBuilder::emitSilu},
    {"sigmoid", 2, &ProgramBuilder::emitSigmoid},
    {"sqrt", 2, &ProgramBuilder::emitSqrt},
    {"log", 2, &ProgramBuilder::emitLog},
    {"cos", 2, &ProgramBuilder::emitCos},
    {"sin", 2, &ProgramBuilder::emitSin},
    {"relu", 2, &ProgramBuilder::emitRelu},
    {"gelu", 2, &ProgramBuilder::emitGelu},
    {"rotate_half", 2, &ProgramBuilder::emitRotateHalf},
    {"add", 5, &ProgramBuilder::emitAdd},
    {"sub", 4, &ProgramBuilder::emitSub},
    {"mul", 5, &ProgramBuilder::emitMul},
    {"div", 3, &ProgramBuilder::emitDiv},
    {"max", 3, &ProgramBuilder::emitMax},
    {"maxnum", 2, &ProgramBuilder::emitMaxNum},
    {"pow", 2, &ProgramBuilder::emitPow},
    // Reductions and row-wise composites.
    {"reduce_sum", 3, &ProgramBuilder::emitReduceSum},
    {"reduce_max", 3, &ProgramBuilder::emitReduceMax},
    {"softmax", 3, &ProgramBuilder::emitSoftmax},
    {"rms_norm", 3, &ProgramBuilder::emitRmsNorm},
    {"layer_norm", 3, &ProgramBuilder::emitLayerNorm},
    {"rope", 2, &ProgramBuilder::emitRope},
    // Contractions.
    {"matmul", 5, &ProgramBuilder::emitMatmul},
    {"attention", 2, &ProgramBuilder::emitAttention},
    // Views.
    {"reshape", 3, &ProgramBuilder::emitReshape},
    {"transpose", 3, &ProgramBuilder::emitTranspose},
    {"repeat", 2, &ProgramBuilder::emitRepeat},
    {"slice", 3, &ProgramBuilder::emitSlice},
    // Data movement and element types.
    {"concat", 3, &ProgramBuilder::emitConcat},
    {"cast", 2, &ProgramBuilder::emitCast},
    {"gather", 3, &ProgramBuilder::emitGather},
    // Masks: a comparison is only ever read by a select (i1 values are not
    // pooled: every other op computes on floats).
    {"compare", 2, &ProgramBuilder::emitCompare},
    {"select", 2, &ProgramBuilder::emitSelectStep},
    // Constant data (causal_mask only ever as a mask: added, then softmax).
    {"constant", 2, &ProgramBuilder::emitConstant},
    {"causal_mask", 2, &ProgramBuilder::emitCausalMask},
    {"rope_table", 1, &ProgramBuilder::emitRopeTable},
    // Subgraphs.
    {"attention-pattern", 3, &ProgramBuilder::emitAttentionPattern},
    {"attention-near-miss", 3, &ProgramBuilder::emitAttentionNearMiss},
    // Features (no step of their own).
    {"unit-causal-mask", 0, nullptr}, // a [1, 1] mask among the near-misses
    {"return-twice", 0, nullptr},     // a computed value returned twice
    {"return-argument", 0, nullptr},  // an argument returned directly
};

llvm::ArrayRef<ProgramStep> ProgramBuilder::steps() { return kSteps; }

//===----------------------------------------------------------------------===//
// Shapes and operands
//===----------------------------------------------------------------------===//

SmallVector<int64_t> ProgramBuilder::randomShape(int64_t minRank,
                                                 int64_t maxRank) {
  int64_t rank = std::clamp<int64_t>(oneOf<int64_t>({1, 2, 2, 2, 3, 3, 4}),
                                     minRank, maxRank);
  SmallVector<int64_t> shape;
  for (int64_t i = 0; i < rank; ++i)
    shape.push_back(smallDim());
  while (numElements(shape) > kMaxElements)
    for (int64_t &dim : shape)
      dim = std::max<int64_t>(1, dim / 2);
  return shape;
}

Pooled ProgramBuilder::argument(ArrayRef<int64_t> shape) {
  Value value = entry->addArgument(
      tensor(shape),
      NameLoc::get(builder.getStringAttr(
          "arg" + llvm::Twine(entry->getNumArguments()))));
  Pooled bounds = runnerArgument(value);
  return remember(value, bounds.bound, bounds.lower);
}

Value ProgramBuilder::integerArgument(ArrayRef<int64_t> shape,
                                      unsigned bits) {
  return entry->addArgument(
      RankedTensorType::get(shape, builder.getIntegerType(bits)),
      NameLoc::get(builder.getStringAttr(
          "arg" + llvm::Twine(entry->getNumArguments()))));
}

Pooled ProgramBuilder::splat(ArrayRef<int64_t> shape, double value) {
  auto type = tensor(shape);
  auto attr = DenseElementsAttr::get(type, builder.getFloatAttr(elementType,
                                                                value));
  Value result = ConstantOp::create(builder, loc("constant"), type,
                                    cast<ElementsAttr>(attr));
  return remember(result, std::abs(value) * 1.01, value - 0.01);
}

Pooled ProgramBuilder::constant(ArrayRef<int64_t> shape, bool positive) {
  if (chance(0.4)) {
    double value = positive ? real(0.5, 2.0) : real(-2.0, 2.0);
    return splat(shape, value);
  }
  double center = positive ? 1.25 : 0.0;
  double halfWidth = positive ? 0.75 : 1.5;
  SplitMix64 values(rng.next());
  auto attr = randomUniform(tensor(shape), values, center, halfWidth);
  Value result = ConstantOp::create(builder, loc("dense"), tensor(shape),
                                    cast<ElementsAttr>(attr));
  return remember(result, center + halfWidth, center - halfWidth);
}

Pooled ProgramBuilder::positiveFresh(ArrayRef<int64_t> shape) {
  if (shape.size() <= 1 && chance(0.4))
    return argument(shape);
  if (chance(0.5))
    return constant(shape, /*positive=*/true);
  return unary("exp", within(fresh(shape), 2.0));
}

Pooled ProgramBuilder::any() {
  if (pool.empty())
    return fresh(randomShape());
  int64_t size = static_cast<int64_t>(pool.size());
  // Recent values half the time: deep chains, not only wide ones.
  if (chance(0.5))
    return pool[pick(std::max<int64_t>(0, size - 4), size - 1)];
  return pool[pick(0, size - 1)];
}

std::optional<Pooled>
ProgramBuilder::find(llvm::function_ref<bool(const Pooled &)> accept) {
  SmallVector<Pooled> candidates;
  for (const Pooled &pooled : pool)
    if (accept(pooled))
      candidates.push_back(pooled);
  if (candidates.empty())
    return std::nullopt;
  return candidates[pick(0, static_cast<int64_t>(candidates.size()) - 1)];
}

Pooled ProgramBuilder::ofShape(ArrayRef<int64_t> shape) {
  if (chance(0.5))
    if (auto found = find([&](const Pooled &p) {
          return shapeOf(p.value) == shape;
        }))
      return *found;
  return fresh(shape);
}

Pooled ProgramBuilder::within(Pooled value, double limit) {
  if (value.bound <= limit)
    return value;
  return unary("tanh", value);
}

SmallVector<int64_t> ProgramBuilder::broadcastPartner(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> partner;
  for (int64_t dim : shape) {
    if (dim == 1)
      partner.push_back(chance(0.3) ? smallDim() : 1);
    else
      partner.push_back(chance(0.3) ? 1 : dim);
  }
  int64_t drop = chance(0.3) ? pick(0, static_cast<int64_t>(partner.size()))
                             : 0;
  partner.erase(partner.begin(), partner.begin() + drop);
  if (partner.size() < 4 && chance(0.1))
    partner.insert(partner.begin(), chance(0.5) ? 1 : smallDim());
  SmallVector<int64_t> result;
  if (!OpTrait::util::getBroadcastedShape(shape, partner, result) ||
      numElements(result) > kMaxElements)
    return SmallVector<int64_t>(shape);
  return partner;
}

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

Pooled ProgramBuilder::unary(llvm::StringRef name, Pooled input) {
  Value x = input.value;
  Location location = loc(name);
  if (name == "neg")
    return remember(NegOp::create(builder, location, x), input.bound,
                    -input.bound);
  if (name == "tanh")
    return remember(TanhOp::create(builder, location, x),
                    std::min(1.0, input.bound), -std::min(1.0, input.bound));
  if (name == "erf")
    return remember(ErfOp::create(builder, location, x),
                    std::min(1.0, input.bound), -std::min(1.0, input.bound));
  if (name == "exp")
    return remember(ExpOp::create(builder, location, x),
                    std::exp(input.bound) * 1.01, std::exp(input.lower) * 0.99);
  if (name == "rsqrt")
    return remember(RsqrtOp::create(builder, location, x),
                    1.01 / std::sqrt(input.lower),
                    0.99 / std::sqrt(input.bound));
  if (name == "silu")
    return remember(SiluOp::create(builder, location, x), input.bound, -0.3);
  // gelu(x) lies between min(x, 0) - 0.17 and max(x, 0), either mode.
  if (name == "gelu")
    return remember(GeluOp::create(builder, location, x,
                                   chance(0.5) ? GeluMode::Tanh
                                               : GeluMode::Erf),
                    input.bound, -0.2);
  if (name == "sigmoid")
    return remember(SigmoidOp::create(builder, location, x), 1.0, 0.0);
  if (name == "relu")
    return remember(ReluOp::create(builder, location, x),
                    std::max(input.bound, 0.0), 0.0);
  if (name == "cos")
    return remember(CosOp::create(builder, location, x), 1.0, -1.0);
  if (name == "sin")
    return remember(SinOp::create(builder, location, x),
                    std::min(1.0, input.bound), -std::min(1.0, input.bound));
  // sqrt and log take inputs with a positive lower bound (emitUnary).
  if (name == "sqrt")
    return remember(SqrtOp::create(builder, location, x),
                    std::sqrt(input.bound) * 1.01,
                    std::sqrt(input.lower) * 0.99);
  if (name == "log") {
    double upper = std::log(input.bound), lower = std::log(input.lower);
    return remember(LogOp::create(builder, location, x),
                    std::max(upper, -lower) * 1.01 + 0.01,
                    lower - std::abs(lower) * 0.01 - 0.01);
  }
  assert(name == "rotate_half" && "unknown unary op");
  return remember(RotateHalfOp::create(builder, location, x), input.bound,
                  -input.bound);
}

bool ProgramBuilder::emitUnary(llvm::StringRef name) {
  if (name == "exp") {
    unary(name, bounded(kExpInputBound));
    return true;
  }
  if (name == "rsqrt" || name == "sqrt" || name == "log") {
    std::optional<Pooled> input =
        find([](const Pooled &p) { return p.lower >= 0.1 && p.bound < 1e3; });
    if (!input || chance(0.3))
      input = positiveFresh(randomShape());
    unary(name, *input);
    return true;
  }
  unary(name, bounded(kOperandBound));
  return true;
}

bool ProgramBuilder::emitRotateHalf() {
  std::optional<Pooled> input = find([](const Pooled &p) {
    ArrayRef<int64_t> shape = shapeOf(p.value);
    return !shape.empty() && shape.back() % 2 == 0 && p.bound <= kOperandBound;
  });
  if (!input || chance(0.3)) {
    SmallVector<int64_t> shape = randomShape();
    shape.back() = evenDim();
    input = fresh(shape);
  }
  unary("rotate_half", *input);
  return true;
}

Pooled ProgramBuilder::binary(llvm::StringRef name, Pooled lhs, Pooled rhs) {
  Location location = loc(name);
  Value a = lhs.value, b = rhs.value;
  if (name == "add")
    return remember(AddOp::create(builder, location, a, b),
                    lhs.bound + rhs.bound, lhs.lower + rhs.lower);
  if (name == "sub")
    return remember(SubOp::create(builder, location, a, b),
                    lhs.bound + rhs.bound, lhs.lower - rhs.bound);
  if (name == "mul") {
    double bound = lhs.bound * rhs.bound;
    double lower = lhs.lower >= 0 && rhs.lower >= 0 ? lhs.lower * rhs.lower
                                                    : -bound;
    return remember(MulOp::create(builder, location, a, b), bound, lower);
  }
  if (name == "div") {
    double bound = lhs.bound / rhs.lower;
    double lower = lhs.lower >= 0 ? lhs.lower / rhs.bound : -bound;
    return remember(DivOp::create(builder, location, a, b), bound, lower);
  }
  if (name == "maxnum")
    return remember(MaxNumOp::create(builder, location, a, b),
                    std::max(lhs.bound, rhs.bound),
                    std::max(lhs.lower, rhs.lower));
  assert(name == "max" && "unknown binary op");
  return remember(MaxOp::create(builder, location, a, b),
                  std::max(lhs.bound, rhs.bound),
                  std::max(lhs.lower, rhs.lower));
}

bool ProgramBuilder::emitBinary(llvm::StringRef name) {
  Pooled lhs = bounded(kOperandBound);
  SmallVector<int64_t> partnerShape = broadcastPartner(shapeOf(lhs.value));
  auto broadcasts = [&](const Pooled &p) {
    SmallVector<int64_t> result;
    return OpTrait::util::getBroadcastedShape(shapeOf(lhs.value),
                                              shapeOf(p.value), result) &&
           numElements(result) <= kMaxElements;
  };
  std::optional<Pooled> rhs;
  if (name == "div") {
    if (chance(0.6))
      rhs = find([&](const Pooled &p) {
        return p.lower >= 0.1 && p.bound <= kOperandBound && broadcasts(p);
      });
    if (!rhs)
      rhs = positiveFresh(partnerShape);
  } else {
    if (chance(0.6))
      rhs = find([&](const Pooled &p) {
        return p.bound <= kOperandBound && broadcasts(p);
      });
    if (!rhs)
      rhs = fresh(partnerShape);
  }
  if (chance(0.5) && name != "div" && name != "sub")
    std::swap(lhs, *rhs);
  else if (name == "sub" && chance(0.5))
    std::swap(lhs, *rhs);
  binary(name, lhs, *rhs);
  return true;
}

bool ProgramBuilder::emitPow() {
  // A positive base, so that every real exponent gives a number: a square
  // (RMSNorm's x.pow(2), which canonicalizes to x * x), a cube, a root, a
  // reciprocal, or a tensor of exponents within +-2.
  std::optional<Pooled> base = find([](const Pooled &p) {
    return p.lower >= 0.1 && p.bound <= 8.0;
  });
  if (!base || chance(0.3))
    base = positiveFresh(randomShape());
  ArrayRef<int64_t> baseShape = shapeOf(base->value);
  Pooled exponent =
      chance(0.5)
          ? splat(chance(0.5) ? ArrayRef<int64_t>{} : baseShape,
                  oneOf<double>({2.0, 2.0, 3.0, 0.5, -0.5, 1.5, -1.0, 1.0}))
          : within(fresh(broadcastPartner(baseShape)), 2.0);
  // b^e is monotonic in each of b > 0 and e, so over the box of their
  // bounds its extremes are at the corners (all positive).
  double low = base->lower, high = base->bound;
  double eLow = exponent.lower, eHigh = exponent.bound;
  double corners[] = {std::pow(low, eLow), std::pow(low, eHigh),
                      std::pow(high, eLow), std::pow(high, eHigh)};
  remember(PowOp::create(builder, loc("pow"), base->value, exponent.value),
           *std::max_element(std::begin(corners), std::end(corners)),
           *std::min_element(std::begin(corners), std::end(corners)));
  return true;
}

//===----------------------------------------------------------------------===//
// Reductions and composites
//===----------------------------------------------------------------------===//

bool ProgramBuilder::emitReduction(bool sum) {
  Pooled input = bounded(kOperandBound);
  ArrayRef<int64_t> shape = shapeOf(input.value);
  if (shape.empty())
    return false;
  int64_t rank = static_cast<int64_t>(shape.size());
  SmallVector<int64_t> axes;
  for (int64_t axis = 0; axis < rank; ++axis)
    if (chance(0.4))
      axes.push_back(axis);
  if (axes.empty())
    axes.push_back(chance(0.6) ? rank - 1 : pick(0, rank - 1));
  bool keepdims = chance(0.6);
  SmallVector<int64_t> resultShape;
  int64_t count = 1;
  for (int64_t axis = 0; axis < rank; ++axis) {
    if (llvm::is_contained(axes, axis)) {
      count *= shape[axis];
      if (keepdims)
        resultShape.push_back(1);
    } else {
      resultShape.push_back(shape[axis]);
    }
  }
  if (sum) {
    Value result = ReduceSumOp::create(builder, loc("reduce_sum"),
                                       tensor(resultShape), input.value, axes,
                                       keepdims);
    double bound = input.bound * count;
    remember(result, bound, input.lower >= 0 ? input.lower * count : -bound);
  } else {
    Value result = ReduceMaxOp::create(builder, loc("reduce_max"),
                                       tensor(resultShape), input.value, axes,
                                       keepdims);
    remember(result, input.bound, input.lower);
  }
  return true;
}

Value ProgramBuilder::softmaxOf(Value scores, int64_t axis, bool decomposed) {
  if (!decomposed)
    return SoftmaxOp::create(builder, loc("softmax"), scores,
                             builder.getI64IntegerAttr(axis));
  // exp(s - max(s)) / sum(exp(s - max(s))), as --decompose writes it.
  SmallVector<int64_t> rowShape(shapeOf(scores));
  rowShape[axis] = 1;
  Value max = ReduceMaxOp::create(builder, loc("softmax_max"),
                                  tensor(rowShape), scores,
                                  ArrayRef<int64_t>{axis}, true);
  Value shifted = SubOp::create(builder, loc("softmax_shift"), scores, max);
  Value exps = ExpOp::create(builder, loc("softmax_exp"), shifted);
  Value sum = ReduceSumOp::create(builder, loc("softmax_sum"),
                                  tensor(rowShape), exps,
                                  ArrayRef<int64_t>{axis}, true);
  return DivOp::create(builder, loc("softmax_div"), exps, sum);
}

bool ProgramBuilder::emitSoftmax() {
  Pooled input = bounded(64.0);
  int64_t rank = static_cast<int64_t>(shapeOf(input.value).size());
  if (rank == 0)
    return false;
  int64_t axis = chance(0.6) ? rank - 1 : pick(0, rank - 1);
  remember(softmaxOf(input.value, axis, /*decomposed=*/false), 1.0, 0.0);
  return true;
}

bool ProgramBuilder::emitRmsNorm() {
  Pooled pooled = bounded(kOperandBound);
  ArrayRef<int64_t> shape = shapeOf(pooled.value);
  if (shape.empty())
    return false;
  // A row whose values cancel to (nearly) 0 is normalized to its rounding
  // error times 1/sqrt(epsilon): a folded row of exact zeros stays 0 where a
  // kernel's residue of 1e-8 became 1e-5 (seed 4510, a row of one element).
  // As for layer_norm, a fresh argument keeps the rows away from 0.
  Pooled input = binary("add", pooled, argument(shape));
  int64_t dim = shape.back();
  Pooled gain = ofShape({dim});
  gain = within(gain, kOperandBound);
  double epsilon = oneOf<double>({1e-5, 1e-6, 0.01, 0.5});
  Value result = RmsNormOp::create(builder, loc("rms_norm"), input.value,
                                   gain.value,
                                   builder.getF64FloatAttr(epsilon));
  double bound = std::sqrt(static_cast<double>(dim)) * gain.bound;
  remember(result, bound, -bound);
  return true;
}

bool ProgramBuilder::emitLayerNorm() {
  Pooled pooled = bounded(kOperandBound);
  ArrayRef<int64_t> shape = shapeOf(pooled.value);
  if (shape.empty())
    return false;
  // A (nearly) constant row centres to the rounding error of its mean, which
  // rsqrt(var + epsilon) amplifies: a folded constant row is exactly 0 while
  // a kernel's is not. Adding a fresh argument keeps every row's variance
  // away from 0, so the pipelines' results stay comparable.
  Pooled input = binary("add", pooled, argument(shape));
  int64_t dim = shape.back();
  Pooled gain = within(ofShape({dim}), kOperandBound);
  std::optional<Pooled> bias;
  if (chance(0.6))
    bias = within(ofShape({dim}), kOperandBound);
  double epsilon = oneOf<double>({1e-5, 0.01, 0.5});
  Value result = LayerNormOp::create(
      builder, loc("layer_norm"), input.value, gain.value,
      bias ? bias->value : Value(), builder.getF64FloatAttr(epsilon));
  // A standardized row of d values lies within sqrt(d - 1).
  double bound = std::sqrt(static_cast<double>(dim)) * gain.bound +
                 (bias ? bias->bound : 0.0);
  remember(result, bound, -bound);
  return true;
}

bool ProgramBuilder::emitRope() {
  std::optional<Pooled> input = find([](const Pooled &p) {
    ArrayRef<int64_t> shape = shapeOf(p.value);
    return shape.size() >= 2 && shape.back() % 2 == 0 &&
           p.bound <= kOperandBound;
  });
  if (!input || chance(0.4)) {
    SmallVector<int64_t> shape = randomShape(2, 4);
    shape.back() = evenDim();
    input = fresh(shape);
  }
  SmallVector<int64_t> table(shapeOf(input->value).take_back(2));
  Value cos, sin;
  if (enabled("rope_table") && chance(0.7)) {
    APFloat theta(oneOf<double>({10000.0, 100.0, 500000.0}));
    cos = RopeTableOp::create(builder, loc("rope_cos"), tensor(table),
                              RopeTableKind::Cos, theta);
    sin = RopeTableOp::create(builder, loc("rope_sin"), tensor(table),
                              RopeTableKind::Sin, theta);
  } else {
    cos = within(fresh(table), 1.0).value;
    sin = within(fresh(table), 1.0).value;
  }
  Value result = RopeOp::create(builder, loc("rope"), input->value.getType(),
                                input->value, cos, sin);
  remember(result, 2 * input->bound, -2 * input->bound);
  return true;
}

//===----------------------------------------------------------------------===//
// Contractions
//===----------------------------------------------------------------------===//

bool ProgramBuilder::emitMatmul() {
  std::optional<Pooled> lhs = find([](const Pooled &p) {
    return shapeOf(p.value).size() >= 2 && p.bound <= kMatmulInputBound;
  });
  if (!lhs || chance(0.3))
    lhs = within(fresh(randomShape(2, 4)), kMatmulInputBound);
  ArrayRef<int64_t> lhsShape = shapeOf(lhs->value);
  int64_t k = lhsShape.back();
  int64_t n = smallDim();
  // The right operand's batch: the left one's, with dims broadcast from 1 or
  // dropped, or a batch where the left operand has none.
  SmallVector<int64_t> batch(lhsShape.drop_back(2));
  if (batch.empty()) {
    if (chance(0.2))
      batch.push_back(smallDim());
  } else {
    batch = broadcastPartner(batch);
  }
  SmallVector<int64_t> resultBatch;
  if (!OpTrait::util::getBroadcastedShape(lhsShape.drop_back(2), batch,
                                          resultBatch))
    return false;
  bool transposeB = chance(0.4);
  SmallVector<int64_t> rhsShape(batch);
  if (transposeB) {
    rhsShape.push_back(n);
    rhsShape.push_back(k);
  } else {
    rhsShape.push_back(k);
    rhsShape.push_back(n);
  }
  SmallVector<int64_t> resultShape(resultBatch);
  resultShape.push_back(lhsShape.end()[-2]);
  resultShape.push_back(n);
  if (numElements(rhsShape) > kMaxElements ||
      numElements(resultShape) > kMaxElements)
    return false;
  Pooled rhs = within(ofShape(rhsShape), kMatmulInputBound);
  Value result =
      MatmulOp::create(builder, loc("matmul"), tensor(resultShape),
                       lhs->value, rhs.value, transposeB);
  double bound = static_cast<double>(k) * lhs->bound * rhs.bound;
  remember(result, bound, -bound);
  return true;
}

bool ProgramBuilder::emitAttention() {
  int64_t kvHeads = pick(1, 2), heads = kvHeads * pick(1, 3);
  int64_t headDim = pick(1, 6), queries = pick(1, 6);
  auto mask = oneOf<AttentionMask>(
      {AttentionMask::None, AttentionMask::Causal,
       AttentionMask::SlidingWindow, AttentionMask::Additive});
  bool square =
      mask == AttentionMask::Causal || mask == AttentionMask::SlidingWindow;
  int64_t keys = square ? queries : pick(1, 6);
  Pooled q = within(ofShape({heads, queries, headDim}), kMatmulInputBound);
  Pooled k = within(ofShape({kvHeads, keys, headDim}), kMatmulInputBound);
  Pooled v = within(ofShape({kvHeads, keys, headDim}), kOperandBound);
  double scale = oneOf<double>({0.5, 0.25, 1.0, 0.125, 2.0});
  // Windows from one key to more than the sequence (then it is causal).
  IntegerAttr window;
  if (mask == AttentionMask::SlidingWindow)
    window = builder.getI64IntegerAttr(pick(1, queries + 1));
  // Any shape that broadcasts to the scores [H, T, S].
  Value additive;
  if (mask == AttentionMask::Additive)
    additive = within(ofShape(oneOf<SmallVector<int64_t>>(
                          {{queries, keys},
                           {1, queries, keys},
                           {heads, queries, keys},
                           {queries, 1},
                           {1, keys}})),
                      kMatmulInputBound)
                   .value;
  Value result = AttentionOp::create(
      builder, loc("attention"), q.value.getType(), q.value, k.value, v.value,
      builder.getF64FloatAttr(scale),
      AttentionMaskAttr::get(builder.getContext(), mask), window, additive);
  remember(result, v.bound, v.lower);
  return true;
}

//===----------------------------------------------------------------------===//
// Views
//===----------------------------------------------------------------------===//

bool ProgramBuilder::emitReshape() {
  Pooled input = any();
  int64_t count = numElements(shapeOf(input.value));
  // Distribute the prime factors of the element count over 1 to 4 dims.
  SmallVector<int64_t> primes;
  for (int64_t rest = count, p = 2; rest > 1;) {
    if (rest % p == 0) {
      primes.push_back(p);
      rest /= p;
    } else {
      ++p;
    }
  }
  int64_t rank = pick(1, 4);
  SmallVector<int64_t> shape(rank, 1);
  for (int64_t prime : primes)
    shape[pick(0, rank - 1)] *= prime;
  Value result = ReshapeOp::create(builder, loc("reshape"), tensor(shape),
                                   input.value);
  remember(result, input.bound, input.lower);
  return true;
}

bool ProgramBuilder::emitTranspose() {
  std::optional<Pooled> input =
      find([](const Pooled &p) { return shapeOf(p.value).size() >= 2; });
  if (!input)
    input = fresh(randomShape(2, 4));
  ArrayRef<int64_t> shape = shapeOf(input->value);
  SmallVector<int64_t> perm(shape.size());
  std::iota(perm.begin(), perm.end(), 0);
  for (int64_t i = static_cast<int64_t>(perm.size()) - 1; i > 0; --i)
    std::swap(perm[i], perm[pick(0, i)]);
  SmallVector<int64_t> resultShape;
  for (int64_t axis : perm)
    resultShape.push_back(shape[axis]);
  Value result = TransposeOp::create(builder, loc("transpose"),
                                     tensor(resultShape), input->value, perm);
  remember(result, input->bound, input->lower);
  return true;
}

bool ProgramBuilder::emitRepeat() {
  Pooled input = any();
  SmallVector<int64_t> shape(shapeOf(input.value));
  if (shape.empty())
    return false;
  int64_t axis = pick(0, static_cast<int64_t>(shape.size()) - 1);
  int64_t times = pick(1, 3);
  shape[axis] *= times;
  if (numElements(shape) > kMaxElements)
    return false;
  Value result = RepeatOp::create(builder, loc("repeat"), tensor(shape),
                                  input.value, axis, times);
  remember(result, input.bound, input.lower);
  return true;
}

bool ProgramBuilder::emitSlice() {
  Pooled input = any();
  ArrayRef<int64_t> shape = shapeOf(input.value);
  if (shape.empty())
    return false;
  SmallVector<int64_t> axes, offsets, sizes, strides;
  int64_t rank = static_cast<int64_t>(shape.size());
  for (int64_t axis = 0; axis < rank; ++axis) {
    if (!chance(0.5) && !(axis == rank - 1 && axes.empty()))
      continue;
    int64_t dim = shape[axis];
    int64_t stride = chance(0.3) ? pick(2, 3) : 1;
    int64_t size = pick(1, std::max<int64_t>(1, (dim + stride - 1) / stride));
    int64_t offset = pick(0, dim - 1 - (size - 1) * stride);
    axes.push_back(axis);
    offsets.push_back(offset);
    sizes.push_back(size);
    strides.push_back(stride);
  }
  SmallVector<int64_t> resultShape(shape);
  for (auto [axis, size] : llvm::zip_equal(axes, sizes))
    resultShape[axis] = size;
  Value result =
      SliceOp::create(builder, loc("slice"), tensor(resultShape), input.value,
                      axes, offsets, sizes, strides);
  remember(result, input.bound, input.lower);
  return true;
}

//===----------------------------------------------------------------------===//
// Data movement and element types
//===----------------------------------------------------------------------===//

bool ProgramBuilder::emitConcat() {
  Pooled first = bounded(kOperandBound);
  SmallVector<int64_t> shape(shapeOf(first.value));
  if (shape.empty())
    return false;
  int64_t axis = pick(0, static_cast<int64_t>(shape.size()) - 1);
  SmallVector<Value> inputs = {first.value};
  double bound = first.bound, lower = first.lower;
  SmallVector<int64_t> resultShape(shape);
  for (int64_t count = pick(1, 2); count > 0; --count) {
    SmallVector<int64_t> partShape(shape);
    partShape[axis] = smallDim();
    resultShape[axis] += partShape[axis];
    if (numElements(resultShape) > kMaxElements)
      return false;
    Pooled part = within(ofShape(partShape), kOperandBound);
    inputs.push_back(part.value);
    bound = std::max(bound, part.bound);
    lower = std::min(lower, part.lower);
  }
  if (chance(0.5))
    std::swap(inputs.front(), inputs.back());
  Value result = ConcatOp::create(builder, loc("concat"), tensor(resultShape),
                                  inputs, axis);
  remember(result, bound, lower);
  return true;
}

bool ProgramBuilder::emitCast() {
  // Through a narrower float type, or an integer type (toward zero, or i1's
  // non-zero), and back. Only exact values (arguments and constants, which
  // every pipeline sees bit for bit) are rounded: a computed value's
  // last-bit differences between pipelines would become whole bf16 steps or
  // flip an integer.
  SmallVector<int64_t> shape = randomShape();
  Pooled input = fresh(shape);
  Type through = oneOf<Type>({builder.getBF16Type(), builder.getF16Type(),
                              builder.getI32Type(), builder.getI1Type()});
  if (through == elementType)
    through = builder.getF32Type();
  Value converted = CastOp::create(builder, loc("cast_narrow"),
                                   RankedTensorType::get(shape, through),
                                   input.value);
  Value result =
      CastOp::create(builder, loc("cast"), tensor(shape), converted);
  if (isa<IntegerType>(through))
    remember(result, std::max(1.0, std::ceil(input.bound)),
             through.isInteger(1) ? 0.0 : std::floor(input.lower));
  else
    remember(result, input.bound * 1.01,
             input.lower - std::abs(input.lower) * 0.01);
  return true;
}

bool ProgramBuilder::emitGather() {
  Pooled table = bounded(kOperandBound);
  ArrayRef<int64_t> shape = shapeOf(table.value);
  if (shape.empty())
    return false;
  int64_t axis = pick(0, static_cast<int64_t>(shape.size()) - 1);
  int64_t slices = shape[axis];
  SmallVector<int64_t> indexShape;
  for (int64_t rank = pick(0, 2); rank > 0; --rank)
    indexShape.push_back(smallDim());
  SmallVector<int64_t> resultShape(shape.take_front(axis));
  llvm::append_range(resultShape, indexShape);
  llvm::append_range(resultShape, shape.drop_front(axis + 1));
  if (numElements(resultShape) > kMaxElements)
    return false;
  unsigned bits = chance(0.5) ? 32 : 64;
  Value indices;
  if (chance(0.6)) {
    indices = integerArgument(indexShape, bits);
  } else {
    // Constant ids, one past either end now and then: those read the
    // nearest slice, folded or not.
    auto type = RankedTensorType::get(indexShape, builder.getIntegerType(bits));
    SmallVector<APInt> ids;
    for (int64_t i = 0, e = numElements(indexShape); i < e; ++i)
      ids.push_back(APInt(bits, uint64_t(pick(-1, slices)), /*isSigned=*/true));
    indices = ConstantOp::create(builder, loc("ids"), type,
                                 cast<ElementsAttr>(
                                     DenseElementsAttr::get(type, ids)));
  }
  Value result = GatherOp::create(builder, loc("gather"), tensor(resultShape),
                                  table.value, indices, axis);
  remember(result, table.bound, table.lower);
  return true;
}

bool ProgramBuilder::emitSelect(bool compared) {
  Pooled onTrue = bounded(kOperandBound);
  SmallVector<int64_t> trueShape(shapeOf(onTrue.value));
  SmallVector<int64_t> conditionShape = broadcastPartner(trueShape);
  bool compare = compared || chance(0.7);
  // Shapes first: a step that does not apply must leave nothing behind.
  bool splatThreshold = chance(0.5);
  SmallVector<int64_t> thresholdShape =
      splatThreshold ? SmallVector<int64_t>() : broadcastPartner(conditionShape);
  SmallVector<int64_t> compareShape(conditionShape), resultShape;
  if ((compare && !OpTrait::util::getBroadcastedShape(
                      conditionShape, thresholdShape, compareShape)) ||
      !OpTrait::util::getBroadcastedShape(compareShape, trueShape,
                                          resultShape) ||
      numElements(resultShape) > kMaxElements)
    return false;
  Value condition;
  if (compare) {
    // Against an exact threshold (a splat, an argument): a computed value on
    // both sides could tie in one pipeline and not in another.
    Pooled value = within(ofShape(conditionShape), kOperandBound);
    Pooled threshold = splatThreshold ? splat({}, real(-1.0, 1.0))
                                      : fresh(thresholdShape);
    auto predicate = oneOf<ComparePredicate>(
        {ComparePredicate::Eq, ComparePredicate::Ne, ComparePredicate::Lt,
         ComparePredicate::Le, ComparePredicate::Gt, ComparePredicate::Ge});
    condition = CompareOp::create(
        builder, loc("compare"),
        RankedTensorType::get(compareShape, builder.getI1Type()),
        ComparePredicateAttr::get(builder.getContext(), predicate),
        value.value, threshold.value);
  } else {
    condition = integerArgument(conditionShape, 1);
  }
  Pooled onFalse = chance(0.3) ? splat({}, real(-2.0, 2.0))
                               : within(ofShape(trueShape), kOperandBound);
  Value result = SelectOp::create(builder, loc("select"), tensor(resultShape),
                                  condition, onTrue.value, onFalse.value);
  remember(result, std::max(onTrue.bound, onFalse.bound),
           std::min(onTrue.lower, onFalse.lower));
  return true;
}

//===----------------------------------------------------------------------===//
// Constant data
//===----------------------------------------------------------------------===//

bool ProgramBuilder::emitConstant() {
  SmallVector<int64_t> shape =
      chance(0.2) ? SmallVector<int64_t>() : randomShape();
  constant(shape);
  return true;
}

bool ProgramBuilder::emitCausalMask() {
  // Scores [..., T, T] + mask [T, T] (either operand order), then a softmax
  // over the keys: the mask's -inf never reaches anything but the softmax.
  std::optional<Pooled> scores = find([](const Pooled &p) {
    ArrayRef<int64_t> shape = shapeOf(p.value);
    return shape.size() >= 2 && shape.end()[-1] == shape.end()[-2] &&
           p.bound <= 64.0;
  });
  if (!scores || chance(0.4)) {
    SmallVector<int64_t> shape = randomShape(2, 3);
    shape.back() = shape.end()[-2];
    if (numElements(shape) > kMaxElements)
      return false;
    scores = fresh(shape);
  }
  int64_t t = shapeOf(scores->value).back();
  IntegerAttr window =
      chance(0.3) ? builder.getI64IntegerAttr(pick(1, t + 1)) : IntegerAttr();
  Value mask = CausalMaskOp::create(builder, loc("causal_mask"), tensor({t, t}),
                                    window);
  Value masked = chance(0.5)
                     ? AddOp::create(builder, loc("masked"), scores->value, mask)
                     : AddOp::create(builder, loc("masked"), mask, scores->value);
  int64_t rank = static_cast<int64_t>(shapeOf(masked).size());
  remember(softmaxOf(masked, rank - 1, chance(0.3)), 1.0, 0.0);
  return true;
}

bool ProgramBuilder::emitRopeTable() {
  if (!enabled("rope_table"))
    return false;
  int64_t t = smallDim(), dh = evenDim();
  APFloat theta(oneOf<double>({10000.0, 100.0, 500000.0}));
  RopeTableKind kind = chance(0.5) ? RopeTableKind::Cos : RopeTableKind::Sin;
  Value table = RopeTableOp::create(builder, loc("rope_table"),
                                    tensor({t, dh}), kind, theta);
  remember(table, 1.0, -1.0);
  return true;
}

//===----------------------------------------------------------------------===//
// Attention as separate ops
//===----------------------------------------------------------------------===//

namespace nearmiss {
enum Kind {
  SoftmaxAxis,      // softmax over the query axis
  ScaledAfterData,  // a scale after an additive mask (it would scale it)
  DenseScale,       // scores scaled by a non-splat constant
  NegativeAfterMask,// -inf turned into +inf by a negative scale
  ValuesTransposed, // p @ vᵀ
  ScoresReadOutside,// an intermediate is also returned
  MaskedTwice,      // two causal masks
  UnitMask,         // a [1, 1] causal_mask broadcast over the scores
  KeysNotTransposed,// q @ k with k already [H, dh, S]
  Count
};
} // namespace nearmiss

bool ProgramBuilder::emitAttentionSubgraph(bool nearMiss) {
  int kind = nearMiss ? static_cast<int>(pick(0, nearmiss::Count - 1)) : -1;
  if (kind == nearmiss::UnitMask && !enabled("unit-causal-mask"))
    kind = nearmiss::ScaledAfterData;

  int64_t kvHeads = pick(1, 2), heads = kvHeads * pick(1, 3);
  int64_t headDim = pick(1, 4) * (chance(0.5) ? 2 : 1);
  bool masked = chance(0.6) || kind == nearmiss::NegativeAfterMask ||
                kind == nearmiss::MaskedTwice || kind == nearmiss::UnitMask ||
                kind == nearmiss::ScaledAfterData;
  // Masked by data (additive) rather than by a cs349.causal_mask, which
  // needs square scores.
  bool dataMask = kind == nearmiss::ScaledAfterData ||
                  (masked && kind != nearmiss::UnitMask && chance(0.3));
  int64_t queries = pick(1, 6);
  int64_t keys = masked && kind != nearmiss::UnitMask && !dataMask
                     ? queries
                     : pick(1, 6);
  SmallVector<int64_t> scoreShape = {heads, queries, keys};

  Value q = within(ofShape({heads, queries, headDim}), 2.0).value;
  Value k = within(ofShape({kvHeads, keys, headDim}), 2.0).value;
  Pooled vPooled = within(ofShape({kvHeads, keys, headDim}), kOperandBound);
  Value v = vPooled.value;
  auto widen = [&](Value kv) -> Value {
    if (kvHeads == heads && chance(0.5))
      return kv;
    return RepeatOp::create(builder, loc("kv_repeat"),
                            tensor({heads, keys, headDim}), kv, 0,
                            heads / kvHeads);
  };
  Value kWide = widen(k);
  Value vWide = widen(v);

  // A splat factor the matcher accepts: it must not broadcast what it scales.
  auto splatScalar = [&](double value, bool fullScores = true) {
    SmallVector<int64_t> shape;
    if (chance(0.3))
      shape = {1, 1, 1};
    else if (fullScores && chance(0.2))
      shape = scoreShape;
    return splat(shape, value).value;
  };
  if (chance(0.2))
    q = MulOp::create(builder, loc("q_scaled"), q,
                      splatScalar(0.5, /*fullScores=*/false));

  Value scores;
  if (kind == nearmiss::KeysNotTransposed) {
    Value keysT = within(fresh({heads, headDim, keys}), 2.0).value;
    scores = MatmulOp::create(builder, loc("scores"), tensor(scoreShape), q,
                              keysT);
  } else if (chance(0.5)) {
    scores = MatmulOp::create(builder, loc("scores"), tensor(scoreShape), q,
                              kWide, /*transpose_b=*/true);
  } else {
    Value keysT = TransposeOp::create(builder, loc("keys_t"),
                                      tensor({heads, headDim, keys}), kWide,
                                      ArrayRef<int64_t>{0, 2, 1});
    scores = MatmulOp::create(builder, loc("scores"), tensor(scoreShape), q,
                              keysT);
  }
  Value rawScores = scores;

  auto scale = [&](Value s) -> Value {
    if (kind == nearmiss::DenseScale) {
      SmallVector<int64_t> shape = chance(0.5)
                                       ? scoreShape
                                       : SmallVector<int64_t>{queries, keys};
      return MulOp::create(builder, loc("scaled"), s,
                           constant(shape, /*positive=*/true).value);
    }
    switch (pick(0, 3)) {
    case 0:
      return s;
    case 1:
      return MulOp::create(builder, loc("scaled"), s,
                           splatScalar(oneOf<double>({0.5, 0.25, 0.125})));
    case 2:
      return MulOp::create(builder, loc("scaled"),
                           splatScalar(oneOf<double>({0.5, 0.25, 0.125})), s);
    default:
      return DivOp::create(builder, loc("scaled"), s,
                           splatScalar(oneOf<double>({2.0, 4.0, 1.5})));
    }
  };
  auto mask = [&](Value s) -> Value {
    Value m;
    if (dataMask)
      m = chance(0.5) ? constant({queries, keys}).value
                      : within(ofShape({1, queries, keys}), 2.0).value;
    else if (kind == nearmiss::UnitMask)
      m = CausalMaskOp::create(builder, loc("causal_mask"), tensor({1, 1}),
                               IntegerAttr());
    else
      m = CausalMaskOp::create(
          builder, loc("causal_mask"), tensor({queries, keys}),
          chance(0.3) ? builder.getI64IntegerAttr(pick(1, queries + 1))
                      : IntegerAttr());
    return chance(0.5) ? AddOp::create(builder, loc("masked"), s, m)
                       : AddOp::create(builder, loc("masked"), m, s);
  };

  if (!masked) {
    scores = scale(scores);
  } else if (kind == nearmiss::NegativeAfterMask) {
    scores = MulOp::create(builder, loc("scaled"), mask(scores),
                           splatScalar(-0.5));
  } else if (kind == nearmiss::ScaledAfterData) {
    scores = MulOp::create(builder, loc("scaled"), mask(scores),
                           splatScalar(0.5));
  } else if (chance(0.5)) {
    scores = mask(scale(scores));
  } else {
    scores = scale(mask(scores));
  }
  if (kind == nearmiss::MaskedTwice)
    scores = mask(scores);

  int64_t axis = kind == nearmiss::SoftmaxAxis ? 1 : 2;
  Value probs = softmaxOf(scores, axis, chance(0.4));
  Value output;
  if (kind == nearmiss::ValuesTransposed) {
    Value vT = within(fresh({heads, headDim, keys}), kOperandBound).value;
    output = MatmulOp::create(builder, loc("context"),
                              tensor({heads, queries, headDim}), probs, vT,
                              /*transpose_b=*/true);
  } else {
    output = MatmulOp::create(builder, loc("context"),
                              tensor({heads, queries, headDim}), probs, vWide);
  }
  if (kind == nearmiss::ScoresReadOutside)
    extraResults.push_back(chance(0.5) ? rawScores : probs);
  remember(output, vPooled.bound, -vPooled.bound);
  return true;
}

//===----------------------------------------------------------------------===//
// The program
//===----------------------------------------------------------------------===//

void ProgramBuilder::run(const RandomProgramConfig &config) {
  runSteps<ProgramBuilder>(
      *this, steps(), [this](int64_t lo, int64_t hi) { return pick(lo, hi); },
      [this](llvm::StringRef name) { return enabled(name); }, config.minSteps,
      config.maxSteps, stepIndex);
}

SmallVector<Value> ProgramBuilder::chooseResults() {
  SmallVector<Value> results(extraResults);
  // Every value nothing reads (so that no step is dead code), at most 8.
  SmallVector<Value> sinks;
  for (const Pooled &pooled : pool)
    if (pooled.value.use_empty() && !isa<BlockArgument>(pooled.value) &&
        !llvm::is_contained(results, pooled.value))
      sinks.push_back(pooled.value);
  while (sinks.size() > 8)
    sinks.erase(sinks.begin() + returnRng.next() % sinks.size());
  results.append(sinks.begin(), sinks.end());
  auto draw = [&](size_t size) { return returnRng.next() % size; };
  if (!pool.empty() && (results.empty() || returnRng.uniform() < 0.2))
    results.push_back(pool[draw(pool.size())].value);
  if (enabled("return-twice") && returnRng.uniform() < 0.2) {
    SmallVector<Value> computed;
    for (Value value : results)
      if (!isa<BlockArgument>(value))
        computed.push_back(value);
    if (!computed.empty())
      results.push_back(computed[draw(computed.size())]);
  }
  // Float arguments only: an integer argument's values are drawn from the
  // tables the gathers reading it index, and a pass that folds such a gather
  // away (a splat table) would change them.
  SmallVector<Value> floatArguments;
  for (BlockArgument argument : entry->getArguments())
    if (!isa<IntegerType>(
            cast<RankedTensorType>(argument.getType()).getElementType()))
      floatArguments.push_back(argument);
  if (enabled("return-argument") && !floatArguments.empty() &&
      returnRng.uniform() < 0.2)
    results.push_back(floatArguments[draw(floatArguments.size())]);
  if (results.empty()) {
    // Nothing was generated: one op so the function computes something.
    stepIndex = 0;
    results.push_back(unary("neg", fresh({2, 2})).value);
  }
  return results;
}
} // namespace

llvm::SmallVector<llvm::StringRef> mlir::cs349::gen::getRandomStepNames() {
  return stepNames<ProgramBuilder>(kSteps);
}

llvm::Error mlir::cs349::gen::verifyConfig(const RandomProgramConfig &config) {
  return verifySteps(config.minSteps, config.maxSteps, kMaxSteps,
                     config.without, getRandomStepNames());
}

OwningOpRef<ModuleOp>
mlir::cs349::gen::buildRandomProgram(MLIRContext &context,
                                     const RandomProgramConfig &config) {
  context.loadDialect<CS349Dialect>();
  return buildRandomFunction(context, [&](OpBuilder &builder, Block *entry) {
    ProgramBuilder program(builder, entry, config);
    program.run(config);
    return program.chooseResults();
  });
}
