//===- CS349Folds.cpp - constant folding and algebraic identities ---------===//
//
// Folds evaluate an op when its operands are constants, but only up to
// kMaxFoldElements elements: the layer holds [H, T, T] tensors whose constant
// evaluation would take gigabytes, and a folder must never do that by
// accident. Splats are evaluated at any size because they cost one element.
// Values are computed in double and rounded once to the element type.
//
// `cs349.causal_mask` is never evaluated: its -inf entries would make every
// sum with it a dense constant of [T, T] or more, and kernels generate it from
// indices anyway. `cs349.rope_table` is not folded into a constant either (it
// would only grow the IR); its values are computed when an op that reads it is
// folded, under the same size limit.
//
// Identities that hold for every float up to the sign of zero (x*1, x+0, x-0,
// x/1) fold to the operand; x*0 and x-x are left alone because NaN and Inf
// make them wrong (NaN*0 = NaN, Inf-Inf = NaN). Rewrites that build new ops
// are DRR patterns in CS349Canonicalize.td.
//
//===----------------------------------------------------------------------===//

#include "cs349/Dialect/CS349/IR/CS349Folds.h"
#include "cs349/Dialect/CS349/IR/CS349Ops.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/APFloat.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <type_traits>

using namespace mlir;
using namespace mlir::cs349;

//===----------------------------------------------------------------------===//
// Helpers over constant element data
//===----------------------------------------------------------------------===//

bool mlir::cs349::isFoldableSize(ShapedType type) {
  return type.hasStaticShape() && type.getNumElements() <= kMaxFoldElements;
}

namespace {
/// An integer element as the folders compute with it: i1 is 0 or 1, wider
/// types are signed. Nothing beyond 2^53, where a double no longer holds
/// every integer: such a constant is not folded (cast to i32 would take the
/// low bits of a rounded value, to bf16 would round twice).
std::optional<double> integerValue(const APInt &value) {
  if (value.getBitWidth() == 1)
    return double(value.getZExtValue());
  const int64_t integer = value.getSExtValue();
  constexpr int64_t kExactInDouble = int64_t(1) << 53;
  if (integer > kExactInDouble || integer < -kExactInDouble)
    return std::nullopt;
  return double(integer);
}

/// An integral double as int64, saturated: 2^63 (i64's maximum in double)
/// does not convert.
int64_t toInt64(double value) {
  if (value >= 0x1p63)
    return std::numeric_limits<int64_t>::max();
  if (value <= -0x1p63)
    return std::numeric_limits<int64_t>::min();
  return int64_t(value);
}
} // namespace

std::optional<double> mlir::cs349::getSplatValue(Attribute attr) {
  auto elements = dyn_cast_or_null<DenseElementsAttr>(attr);
  if (!elements || !elements.isSplat())
    return std::nullopt;
  if (isa<FloatType>(elements.getElementType()))
    return elements.getSplatValue<APFloat>().convertToDouble();
  if (isa<IntegerType>(elements.getElementType()))
    return integerValue(elements.getSplatValue<APInt>());
  return std::nullopt;
}

bool mlir::cs349::isSplatOf(Attribute attr, double value) {
  std::optional<double> splat = getSplatValue(attr);
  return splat && *splat == value;
}

std::optional<std::vector<double>> mlir::cs349::readValues(Attribute attr) {
  auto elements = dyn_cast_or_null<DenseElementsAttr>(attr);
  if (!elements || !isFoldableSize(elements.getType()))
    return std::nullopt;
  std::vector<double> values;
  values.reserve(elements.getNumElements());
  if (isa<FloatType>(elements.getElementType())) {
    for (APFloat value : elements.getValues<APFloat>())
      values.push_back(value.convertToDouble());
  } else if (isa<IntegerType>(elements.getElementType())) {
    for (APInt value : elements.getValues<APInt>()) {
      std::optional<double> integer = integerValue(value);
      if (!integer)
        return std::nullopt;
      values.push_back(*integer);
    }
  } else {
    return std::nullopt;
  }
  return values;
}

DenseElementsAttr mlir::cs349::makeElements(ShapedType type,
                                            ArrayRef<double> values) {
  // Integer results come from ops that compute integral values (compare,
  // cast): each is stored as is, i1 as 0 or 1.
  if (auto intType = dyn_cast<IntegerType>(type.getElementType())) {
    SmallVector<APInt> converted;
    converted.reserve(values.size());
    for (double value : values)
      converted.push_back(intType.getWidth() == 1
                              ? APInt(1, value != 0.0)
                              : APInt(intType.getWidth(), toInt64(value),
                                      /*isSigned=*/true));
    return DenseElementsAttr::get(type, converted);
  }
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

std::optional<std::vector<double>>
mlir::cs349::ropeTableValues(bool isSin, double theta, ShapedType type) {
  if (!isFoldableSize(type) || type.getRank() != 2)
    return std::nullopt;
  int64_t rows = type.getDimSize(0), dh = type.getDimSize(1);
  std::vector<double> values(rows * dh);
  for (int64_t t = 0; t < rows; ++t) {
    for (int64_t j = 0; j < dh; ++j) {
      double frequency =
          std::pow(theta, -2.0 * static_cast<double>(j % (dh / 2)) / dh);
      double angle = static_cast<double>(t) * frequency;
      values[t * dh + j] = isSin ? std::sin(angle) : std::cos(angle);
    }
  }
  return values;
}

namespace {

int64_t product(ArrayRef<int64_t> shape) {
  return std::accumulate(shape.begin(), shape.end(), int64_t(1),
                         std::multiplies<int64_t>());
}

/// Whether knownValues may succeed: checked on every operand first, so that a
/// rope table is not evaluated for an op whose other operand is unknown.
bool mayBeKnown(Value value, Attribute attr) {
  return attr || value.getDefiningOp<RopeTableOp>();
}

/// The values of `value` if the folder knows them: from its constant
/// attribute, or by evaluating the rope table that defines it.
std::optional<std::vector<double>> knownValues(Value value, Attribute attr) {
  if (attr)
    return readValues(attr);
  if (auto table = value.getDefiningOp<RopeTableOp>())
    return ropeTableValues(table.getKind() == RopeTableKind::Sin,
                           table.getTheta().convertToDouble(),
                           table.getType());
  return std::nullopt;
}

/// Index into a broadcast operand of shape `shape` for the element at
/// `index` of the broadcast result.
int64_t broadcastIndex(ArrayRef<int64_t> resultShape, ArrayRef<int64_t> shape,
                       int64_t index) {
  int64_t offset = 0, stride = 1;
  int64_t rankGap = resultShape.size() - shape.size();
  for (int64_t dim = static_cast<int64_t>(resultShape.size()) - 1;
       dim >= rankGap; --dim) {
    int64_t coordinate = index % resultShape[dim];
    index /= resultShape[dim];
    int64_t size = shape[dim - rankGap];
    offset += (size == 1 ? 0 : coordinate) * stride;
    stride *= size;
  }
  return offset;
}

/// The coordinates of row-major `index` in `shape`.
SmallVector<int64_t> delinearize(int64_t index, ArrayRef<int64_t> shape) {
  SmallVector<int64_t> coordinates(shape.size());
  for (int64_t dim = static_cast<int64_t>(shape.size()) - 1; dim >= 0; --dim) {
    coordinates[dim] = index % shape[dim];
    index /= shape[dim];
  }
  return coordinates;
}

int64_t linearize(ArrayRef<int64_t> coordinates, ArrayRef<int64_t> shape) {
  int64_t index = 0;
  for (auto [coordinate, size] : llvm::zip_equal(coordinates, shape))
    index = index * size + coordinate;
  return index;
}

/// Shape of `x` along `axis` split as [outer, size, inner] for row-wise
/// evaluation.
struct AxisSplit {
  int64_t outer, size, inner;
};
AxisSplit splitAt(ArrayRef<int64_t> shape, int64_t axis) {
  return {product(shape.take_front(axis)), shape[axis],
          product(shape.drop_front(axis + 1))};
}

// `x op c` where c is a splat equal to `identity` and the op does not
// broadcast x: the result is x itself.
Value foldRightIdentity(Value lhs, Attribute rhs, Type resultType,
                        double identity) {
  if (isSplatOf(rhs, identity) && lhs.getType() == resultType)
    return lhs;
  return {};
}

template <typename ReductionOp>
OpFoldResult foldReduction(ReductionOp op, Attribute input) {
  auto inputType = cast<RankedTensorType>(op.getInput().getType());
  ArrayRef<int64_t> inputShape = inputType.getShape();
  // Reducing only size-1 dimensions and keeping them reads every element
  // once: the result is the input.
  if (op.getKeepdims() && llvm::all_of(op.getAxes(), [&](int64_t axis) {
        return inputShape[axis] == 1;
      }))
    return op.getInput();
  if (!input)
    return {};

  if (auto splat = getSplatValue(input)) {
    int64_t count = 1;
    for (int64_t axis : op.getAxes())
      count *= inputShape[axis];
    double value = *splat;
    if constexpr (std::is_same_v<ReductionOp, ReduceSumOp>)
      value *= count;
    return makeElements(op.getType(), value);
  }
  auto values = readValues(input);
  if (!values)
    return {};
  // The keepdims shape linearizes like the result with or without keepdims.
  SmallVector<int64_t> keptShape(inputShape);
  for (int64_t axis : op.getAxes())
    keptShape[axis] = 1;
  std::vector<double> result(product(keptShape), ReductionOp::identity());
  for (int64_t i = 0, e = values->size(); i < e; ++i) {
    SmallVector<int64_t> coordinates = delinearize(i, inputShape);
    for (int64_t axis : op.getAxes())
      coordinates[axis] = 0;
    double &slot = result[linearize(coordinates, keptShape)];
    slot = ReductionOp::combine(slot, (*values)[i]);
  }
  return makeElements(op.getType(), result);
}

} // namespace

//===----------------------------------------------------------------------===//
// The folder of ElementwiseOpInterface
//===----------------------------------------------------------------------===//

OpFoldResult mlir::cs349::foldElementwise(Operation *op,
                                          ArrayRef<Attribute> operands) {
  auto elementwise = cast<ElementwiseOpInterface>(op);
  auto resultType = cast<ShapedType>(op->getResult(0).getType());
  SmallVector<double> element(operands.size());
  bool allSplats = llvm::all_of(llvm::enumerate(operands), [&](auto operand) {
    std::optional<double> splat = getSplatValue(operand.value());
    if (splat)
      element[operand.index()] = *splat;
    return splat.has_value();
  });
  if (allSplats)
    return makeElements(resultType, elementwise.evaluateElement(element));
  if (!isFoldableSize(resultType) ||
      !llvm::all_of(llvm::zip_equal(op->getOperands(), operands),
                    [](auto pair) {
                      return mayBeKnown(std::get<0>(pair), std::get<1>(pair));
                    }))
    return {};
  SmallVector<std::vector<double>> known;
  SmallVector<ArrayRef<int64_t>> shapes;
  for (auto [value, attr] : llvm::zip_equal(op->getOperands(), operands)) {
    std::optional<std::vector<double>> values = knownValues(value, attr);
    if (!values)
      return {};
    known.push_back(std::move(*values));
    shapes.push_back(cast<ShapedType>(value.getType()).getShape());
  }
  ArrayRef<int64_t> shape = resultType.getShape();
  std::vector<double> values(resultType.getNumElements());
  for (int64_t i = 0, e = values.size(); i < e; ++i) {
    for (auto [slot, operand] : llvm::enumerate(known))
      element[slot] = operand[broadcastIndex(shape, shapes[slot], i)];
    values[i] = elementwise.evaluateElement(element);
  }
  return makeElements(resultType, values);
}

//===----------------------------------------------------------------------===//
// fold hooks: constants and elementwise ops
//===----------------------------------------------------------------------===//

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

// Elementwise ops fold their constants in foldElementwise (the interface's
// folder, which MLIR tries when these fail): here only the identities.

OpFoldResult AddOp::fold(FoldAdaptor adaptor) {
  return foldRightIdentity(getLhs(), adaptor.getRhs(), getType(), 0.0);
}

OpFoldResult SubOp::fold(FoldAdaptor adaptor) {
  return foldRightIdentity(getLhs(), adaptor.getRhs(), getType(), 0.0);
}

OpFoldResult MulOp::fold(FoldAdaptor adaptor) {
  return foldRightIdentity(getLhs(), adaptor.getRhs(), getType(), 1.0);
}

OpFoldResult DivOp::fold(FoldAdaptor adaptor) {
  return foldRightIdentity(getLhs(), adaptor.getRhs(), getType(), 1.0);
}

// pow(x, 1) is x for every x (NaN and infinities included).
OpFoldResult PowOp::fold(FoldAdaptor adaptor) {
  return foldRightIdentity(getLhs(), adaptor.getRhs(), getType(), 1.0);
}

OpFoldResult MaxOp::fold(FoldAdaptor) {
  if (getLhs() == getRhs())
    return getLhs();
  return {};
}

OpFoldResult MaxNumOp::fold(FoldAdaptor) {
  if (getLhs() == getRhs())
    return getLhs();
  return {};
}

//===----------------------------------------------------------------------===//
// fold hooks: row-wise ops and reductions
//===----------------------------------------------------------------------===//

OpFoldResult ReduceSumOp::fold(FoldAdaptor adaptor) {
  return foldReduction(*this, adaptor.getInput());
}
OpFoldResult ReduceMaxOp::fold(FoldAdaptor adaptor) {
  return foldReduction(*this, adaptor.getInput());
}

OpFoldResult RotateHalfOp::fold(FoldAdaptor adaptor) {
  // A splat is not invariant (the first half changes sign), so only small
  // constants fold.
  auto values = readValues(adaptor.getInput());
  if (!values)
    return {};
  int64_t dh = getType().getShape().back(), half = dh / 2;
  std::vector<double> result(values->size());
  for (int64_t i = 0, e = values->size(); i < e; ++i)
    result[i] = i % dh < half ? -(*values)[i + half] : (*values)[i - half];
  return makeElements(getType(), result);
}

OpFoldResult SoftmaxOp::fold(FoldAdaptor adaptor) {
  if (!adaptor.getInput())
    return {};
  ArrayRef<int64_t> shape = getType().getShape();
  int64_t axis = getAxis();
  if (auto splat = getSplatValue(adaptor.getInput())) {
    // exp(v - v) / (n exp(v - v)): 1/n, or NaN for an infinite v.
    double e = std::exp(*splat - *splat);
    return makeElements(getType(), e / (shape[axis] * e));
  }
  auto values = readValues(adaptor.getInput());
  if (!values)
    return {};
  AxisSplit split = splitAt(shape, axis);
  std::vector<double> &x = *values;
  for (int64_t o = 0; o < split.outer; ++o) {
    for (int64_t in = 0; in < split.inner; ++in) {
      auto at = [&](int64_t k) -> double & {
        return x[(o * split.size + k) * split.inner + in];
      };
      double max = -INFINITY;
      for (int64_t k = 0; k < split.size; ++k)
        max = MaxOp::evaluate(max, at(k));
      double sum = 0.0;
      for (int64_t k = 0; k < split.size; ++k)
        sum += (at(k) = std::exp(at(k) - max));
      for (int64_t k = 0; k < split.size; ++k)
        at(k) /= sum;
    }
  }
  return makeElements(getType(), x);
}

OpFoldResult RmsNormOp::fold(FoldAdaptor adaptor) {
  if (!adaptor.getInput() || !adaptor.getGain())
    return {};
  double epsilon = getEpsilon().convertToDouble();
  auto xSplat = getSplatValue(adaptor.getInput());
  auto gainSplat = getSplatValue(adaptor.getGain());
  if (xSplat && gainSplat)
    return makeElements(getType(), *xSplat / std::sqrt(*xSplat * *xSplat +
                                                       epsilon) *
                                       *gainSplat);
  auto x = readValues(adaptor.getInput());
  auto gain = readValues(adaptor.getGain());
  if (!x || !gain)
    return {};
  int64_t d = gain->size();
  for (int64_t row = 0, rows = x->size() / d; row < rows; ++row) {
    double *begin = x->data() + row * d;
    double squares = 0.0;
    for (int64_t j = 0; j < d; ++j)
      squares += begin[j] * begin[j];
    double inverse = 1.0 / std::sqrt(squares / d + epsilon);
    for (int64_t j = 0; j < d; ++j)
      begin[j] = begin[j] * inverse * (*gain)[j];
  }
  return makeElements(getType(), *x);
}

OpFoldResult LayerNormOp::fold(FoldAdaptor adaptor) {
  // Constants small enough to read, in double; no splat shortcut of any
  // size, since a splat row centres to exactly 0 here but to the f32
  // rounding error of its mean at run time.
  if (!adaptor.getInput() || !adaptor.getGain() ||
      (getBias() && !adaptor.getBias()))
    return {};
  auto x = readValues(adaptor.getInput());
  auto gain = readValues(adaptor.getGain());
  std::optional<std::vector<double>> bias;
  if (getBias())
    bias = readValues(adaptor.getBias());
  if (!x || !gain || (getBias() && !bias))
    return {};
  double epsilon = getEpsilon().convertToDouble();
  int64_t d = gain->size();
  for (int64_t row = 0, rows = x->size() / d; row < rows; ++row) {
    double *begin = x->data() + row * d;
    double sum = 0.0;
    for (int64_t j = 0; j < d; ++j)
      sum += begin[j];
    double mean = sum / d, squares = 0.0;
    for (int64_t j = 0; j < d; ++j)
      squares += (begin[j] - mean) * (begin[j] - mean);
    double inverse = 1.0 / std::sqrt(squares / d + epsilon);
    for (int64_t j = 0; j < d; ++j)
      begin[j] = (begin[j] - mean) * inverse * (*gain)[j] +
                 (bias ? (*bias)[j] : 0.0);
  }
  return makeElements(getType(), *x);
}

OpFoldResult RopeOp::fold(FoldAdaptor adaptor) {
  if (!adaptor.getInput() || !mayBeKnown(getCos(), adaptor.getCos()) ||
      !mayBeKnown(getSin(), adaptor.getSin()))
    return {};
  auto x = readValues(adaptor.getInput());
  auto cos = knownValues(getCos(), adaptor.getCos());
  auto sin = knownValues(getSin(), adaptor.getSin());
  if (!x || !cos || !sin)
    return {};
  int64_t dh = getType().getShape().back(), half = dh / 2;
  int64_t tableSize = cos->size();
  std::vector<double> result(x->size());
  for (int64_t i = 0, e = x->size(); i < e; ++i) {
    double rotated = i % dh < half ? -(*x)[i + half] : (*x)[i - half];
    int64_t t = i % tableSize;
    result[i] = (*x)[i] * (*cos)[t] + rotated * (*sin)[t];
  }
  return makeElements(getType(), result);
}

//===----------------------------------------------------------------------===//
// fold hooks: contractions
//===----------------------------------------------------------------------===//

OpFoldResult MatmulOp::fold(FoldAdaptor adaptor) {
  RankedTensorType resultType = getType();
  auto lhsType = cast<RankedTensorType>(getLhs().getType());
  auto rhsType = cast<RankedTensorType>(getRhs().getType());
  int64_t k = lhsType.getShape().back();
  auto lhsSplat = getSplatValue(adaptor.getLhs());
  auto rhsSplat = getSplatValue(adaptor.getRhs());
  if (lhsSplat && rhsSplat)
    return makeElements(resultType, k * *lhsSplat * *rhsSplat);
  if (!isFoldableSize(resultType) ||
      resultType.getNumElements() * k > kMaxFoldWork)
    return {};
  auto lhs = readValues(adaptor.getLhs());
  auto rhs = readValues(adaptor.getRhs());
  if (!lhs || !rhs)
    return {};
  ArrayRef<int64_t> shape = resultType.getShape();
  int64_t m = shape.end()[-2], n = shape.back();
  ArrayRef<int64_t> batch = shape.drop_back(2);
  ArrayRef<int64_t> lhsBatch = lhsType.getShape().drop_back(2);
  ArrayRef<int64_t> rhsBatch = rhsType.getShape().drop_back(2);
  bool transposeB = getTransposeB();
  std::vector<double> values(resultType.getNumElements());
  for (int64_t b = 0, batches = product(batch); b < batches; ++b) {
    const double *a = lhs->data() + broadcastIndex(batch, lhsBatch, b) * m * k;
    const double *w = rhs->data() + broadcastIndex(batch, rhsBatch, b) * k * n;
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        double sum = 0.0;
        for (int64_t l = 0; l < k; ++l)
          sum += a[i * k + l] * (transposeB ? w[j * k + l] : w[l * n + j]);
        values[(b * m + i) * n + j] = sum;
      }
    }
  }
  return makeElements(resultType, values);
}

//===----------------------------------------------------------------------===//
// fold hooks: views
//===----------------------------------------------------------------------===//

OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  if (getInput().getType() == getType())
    return getInput();
  if (auto elements = dyn_cast_or_null<DenseElementsAttr>(adaptor.getInput()))
    // A non-splat reshape copies the data into a new attribute: only small
    // ones, so that no weight is duplicated.
    if (elements.isSplat() || isFoldableSize(getType()))
      return elements.reshape(getType());
  // reshape(reshape(x)) reads the same row-major elements as reshape(x).
  if (auto producer = getInput().getDefiningOp<ReshapeOp>()) {
    getInputMutable().assign(producer.getInput());
    return getResult();
  }
  return {};
}

OpFoldResult TransposeOp::fold(FoldAdaptor adaptor) {
  ArrayRef<int64_t> perm = getPerm();
  if (llvm::equal(perm, llvm::seq<int64_t>(0, perm.size())))
    return getInput();
  if (auto splat = dyn_cast_or_null<SplatElementsAttr>(adaptor.getInput()))
    return splat.resizeSplat(getType());
  if (auto values = readValues(adaptor.getInput())) {
    auto inputShape = cast<ShapedType>(getInput().getType()).getShape();
    std::vector<double> result(values->size());
    SmallVector<int64_t> source(perm.size());
    for (int64_t i = 0, e = result.size(); i < e; ++i) {
      SmallVector<int64_t> coordinates = delinearize(i, getType().getShape());
      for (auto [dim, from] : llvm::enumerate(perm))
        source[from] = coordinates[dim];
      result[i] = (*values)[linearize(source, inputShape)];
    }
    return makeElements(getType(), result);
  }
  // transpose(transpose(x, p), q) == transpose(x, p∘q).
  if (auto producer = getInput().getDefiningOp<TransposeOp>()) {
    ArrayRef<int64_t> inner = producer.getPerm();
    SmallVector<int64_t> composed;
    for (int64_t dim : perm)
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
  if (!isFoldableSize(getType()))
    return {};
  auto values = readValues(adaptor.getInput());
  if (!values)
    return {};
  auto inputShape = cast<ShapedType>(getInput().getType()).getShape();
  int64_t axis = getAxis(), times = getTimes();
  std::vector<double> result(getType().getNumElements());
  for (int64_t i = 0, e = result.size(); i < e; ++i) {
    SmallVector<int64_t> coordinates = delinearize(i, getType().getShape());
    coordinates[axis] /= times;
    result[i] = (*values)[linearize(coordinates, inputShape)];
  }
  return makeElements(getType(), result);
}

OpFoldResult SliceOp::fold(FoldAdaptor adaptor) {
  RankedTensorType inputType = getInput().getType();
  SmallVector<int64_t> offsets, strides;
  getFullOffsetsAndStrides(offsets, strides);
  if (inputType == getType())
    return getInput();
  if (auto splat = dyn_cast_or_null<SplatElementsAttr>(adaptor.getInput()))
    return splat.resizeSplat(getType());
  if (auto values = readValues(adaptor.getInput())) {
    ArrayRef<int64_t> inputShape = inputType.getShape();
    std::vector<double> result(getType().getNumElements());
    for (int64_t i = 0, e = result.size(); i < e; ++i) {
      SmallVector<int64_t> coordinates = delinearize(i, getType().getShape());
      for (auto [dim, coordinate] : llvm::enumerate(coordinates))
        coordinate = offsets[dim] + coordinate * strides[dim];
      result[i] = (*values)[linearize(coordinates, inputShape)];
    }
    return makeElements(getType(), result);
  }
  // slice(slice(x)) is one slice of x: index j reads
  // inner.offset + (outer.offset + j * outer.stride) * inner.stride.
  if (auto producer = getInput().getDefiningOp<SliceOp>()) {
    SmallVector<int64_t> innerOffsets, innerStrides;
    producer.getFullOffsetsAndStrides(innerOffsets, innerStrides);
    SmallVector<int64_t> axes, newOffsets, sizes, newStrides;
    ArrayRef<int64_t> sourceShape = producer.getInput().getType().getShape();
    for (int64_t dim = 0, rank = offsets.size(); dim < rank; ++dim) {
      int64_t offset = innerOffsets[dim] + offsets[dim] * innerStrides[dim];
      int64_t size = getType().getDimSize(dim);
      // One element has no stride to speak of (and any int64 is allowed).
      int64_t stride = size == 1 ? 1 : innerStrides[dim] * strides[dim];
      if (offset == 0 && stride == 1 && size == sourceShape[dim])
        continue;
      axes.push_back(dim);
      newOffsets.push_back(offset);
      sizes.push_back(size);
      newStrides.push_back(stride);
    }
    if (axes.empty())
      return producer.getInput();
    getInputMutable().assign(producer.getInput());
    setAxes(axes);
    setOffsets(newOffsets);
    setSizes(sizes);
    setStrides(newStrides);
    return getResult();
  }
  return {};
}

//===----------------------------------------------------------------------===//
// fold hooks: data movement and casts
//===----------------------------------------------------------------------===//

OpFoldResult ConcatOp::fold(FoldAdaptor adaptor) {
  if (getInputs().size() == 1)
    return getInputs().front();
  if (!isFoldableSize(getType()))
    return {};
  SmallVector<std::vector<double>> inputs;
  for (Attribute attr : adaptor.getInputs()) {
    // A splat input is read element by element like any other here: the
    // result is at most kMaxFoldElements anyway.
    auto elements = dyn_cast_or_null<DenseElementsAttr>(attr);
    if (!elements)
      return {};
    std::optional<std::vector<double>> values;
    if (std::optional<double> splat = getSplatValue(elements))
      values = std::vector<double>(elements.getNumElements(), *splat);
    else
      values = readValues(elements);
    if (!values)
      return {};
    inputs.push_back(std::move(*values));
  }
  ArrayRef<int64_t> shape = getType().getShape();
  int64_t axis = getAxis();
  std::vector<double> result(getType().getNumElements());
  for (int64_t i = 0, e = result.size(); i < e; ++i) {
    SmallVector<int64_t> coordinates = delinearize(i, shape);
    for (auto [index, input] : llvm::enumerate(getInputs())) {
      ArrayRef<int64_t> inputShape =
          cast<RankedTensorType>(input.getType()).getShape();
      if (coordinates[axis] < inputShape[axis]) {
        result[i] = inputs[index][linearize(coordinates, inputShape)];
        break;
      }
      coordinates[axis] -= inputShape[axis];
    }
  }
  return makeElements(getType(), result);
}

OpFoldResult GatherOp::fold(FoldAdaptor adaptor) {
  if (auto splat = dyn_cast_or_null<SplatElementsAttr>(adaptor.getTable()))
    return splat.resizeSplat(getType());
  if (!isFoldableSize(getType()))
    return {};
  auto table = readValues(adaptor.getTable());
  auto indices = dyn_cast_or_null<DenseElementsAttr>(adaptor.getIndices());
  if (!table || !indices)
    return {};
  SmallVector<int64_t> ids;
  for (APInt id : indices.getValues<APInt>())
    ids.push_back(id.getSExtValue());
  ArrayRef<int64_t> tableShape = getTable().getType().getShape();
  int64_t axis = getAxis();
  int64_t indexRank = getIndices().getType().getRank();
  ArrayRef<int64_t> indexShape = getIndices().getType().getShape();
  std::vector<double> result(getType().getNumElements());
  for (int64_t i = 0, e = result.size(); i < e; ++i) {
    SmallVector<int64_t> at = delinearize(i, getType().getShape());
    ArrayRef<int64_t> idAt = ArrayRef<int64_t>(at).slice(axis, indexRank);
    int64_t id = std::clamp<int64_t>(ids[linearize(idAt, indexShape)], 0,
                                     tableShape[axis] - 1);
    SmallVector<int64_t> source(at.begin(), at.begin() + axis);
    source.push_back(id);
    source.append(at.begin() + axis + indexRank, at.end());
    result[i] = (*table)[linearize(source, tableShape)];
  }
  return makeElements(getType(), result);
}

OpFoldResult CastOp::fold(FoldAdaptor) {
  if (getInput().getType() == getType())
    return getInput();
  // cast(cast(x : A -> B) -> A) is x when B holds every value of A exactly
  // (bf16 or f16 through f32); through a narrower type it rounds.
  if (auto producer = getInput().getDefiningOp<CastOp>()) {
    Value source = producer.getInput();
    auto sourceType = dyn_cast<FloatType>(
        cast<RankedTensorType>(source.getType()).getElementType());
    auto middleType = dyn_cast<FloatType>(producer.getType().getElementType());
    if (source.getType() == getType() && sourceType && middleType &&
        APFloat::isRepresentableBy(sourceType.getFloatSemantics(),
                                   middleType.getFloatSemantics()))
      return source;
  }
  return {};
}

//===----------------------------------------------------------------------===//
// Canonicalization patterns (DRR, CS349Canonicalize.td)
//===----------------------------------------------------------------------===//

namespace {
#include "CS349Canonicalize.inc"
} // namespace

void AddOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                        MLIRContext *context) {
  patterns.add<AddOfNegRhs, AddOfNegLhs>(context);
}
void SubOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                        MLIRContext *context) {
  patterns.add<SubOfNeg, SubFromZero>(context);
}
void MulOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                        MLIRContext *context) {
  patterns.add<MulOfNegs, MulByMinusOne>(context);
}
void DivOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                        MLIRContext *context) {
  patterns.add<DivOfNegs, DivByMinusOne>(context);
}
void PowOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                        MLIRContext *context) {
  patterns.add<PowOfTwo>(context);
}
void RotateHalfOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                               MLIRContext *context) {
  patterns.add<RotateHalfTwice>(context);
}
