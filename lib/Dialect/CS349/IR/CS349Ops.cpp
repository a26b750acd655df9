//===- CS349Ops.cpp - cs349 verifiers, types and assembly -----------------===//
//
// Verifiers say what was expected and what was found, because the people who
// read them are writing IR by hand or debugging a generator.
//
//===----------------------------------------------------------------------===//

#include "cs349/Dialect/CS349/IR/CS349Ops.h"

#include "mlir/Dialect/Traits.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/Support/MathExtras.h"

#include <limits>
#include <string>

using namespace mlir;
using namespace mlir::cs349;

namespace {
std::string shapeString(ArrayRef<int64_t> shape) {
  std::string text = "[";
  llvm::raw_string_ostream os(text);
  llvm::interleaveComma(shape, os);
  os << "]";
  return text;
}

RankedTensorType tensorType(Value value) {
  return cast<RankedTensorType>(value.getType());
}
} // namespace

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

LogicalResult ConstantOp::verify() {
  if (getValue().getType() != getType())
    return emitOpError("expected the value's type ")
           << getValue().getType() << " to be the result type " << getType();
  return success();
}

LogicalResult CausalMaskOp::verify() {
  ArrayRef<int64_t> shape = getType().getShape();
  if (shape.size() != 2 || shape[0] != shape[1])
    return emitOpError("expected a square [T, T] mask, got ")
           << shapeString(shape);
  if (std::optional<int64_t> window = getWindow(); window && *window < 1)
    return emitOpError("expected a window of at least 1 key, got ") << *window;
  return success();
}

LogicalResult RopeTableOp::verify() {
  ArrayRef<int64_t> shape = getType().getShape();
  if (shape.size() != 2)
    return emitOpError("expected a [T, dh] table, got rank ") << shape.size();
  if (shape[1] % 2 != 0)
    return emitOpError("expected an even head dimension, got ") << shape[1];
  if (getTheta().convertToDouble() <= 0.0)
    return emitOpError("expected a positive theta, got ")
           << getTheta().convertToDouble();
  return success();
}

//===----------------------------------------------------------------------===//
// Binary elementwise ops: broadcasting, custom assembly
//===----------------------------------------------------------------------===//

namespace {
LogicalResult inferBroadcastType(std::optional<Location> location,
                                 ValueRange operands,
                                 SmallVectorImpl<Type> &inferred) {
  auto lhs = dyn_cast<RankedTensorType>(operands[0].getType());
  auto rhs = dyn_cast<RankedTensorType>(operands[1].getType());
  if (!lhs || !rhs)
    return emitOptionalError(location, "expected ranked tensor operands");
  if (lhs.getElementType() != rhs.getElementType())
    return emitOptionalError(location, "expected operands of one element type, got ",
                             lhs.getElementType(), " and ",
                             rhs.getElementType());
  // Most binary ops have one operand type, or broadcast a row or a scalar
  // into the other operand's shape: the result is then an operand's type.
  // Reusing it skips a type-uniquer lookup, and this runs for every binary
  // op each time the module is verified.
  if (lhs == rhs && !lhs.getEncoding()) {
    inferred.push_back(lhs);
    return success();
  }
  SmallVector<int64_t> shape;
  if (!OpTrait::util::getBroadcastedShape(lhs.getShape(), rhs.getShape(),
                                          shape))
    return emitOptionalError(location, "expected broadcastable shapes, got ",
                             shapeString(lhs.getShape()), " and ",
                             shapeString(rhs.getShape()));
  if (ArrayRef<int64_t>(shape) == lhs.getShape() && !lhs.getEncoding())
    inferred.push_back(lhs);
  else if (ArrayRef<int64_t>(shape) == rhs.getShape() && !rhs.getEncoding())
    inferred.push_back(rhs);
  else
    inferred.push_back(RankedTensorType::get(shape, lhs.getElementType()));
  return success();
}

// `%a, %b : T` when both operands have type T, `%a, %b : T1, T2` otherwise.
ParseResult parseBinaryOp(OpAsmParser &parser, OperationState &result) {
  SmallVector<OpAsmParser::UnresolvedOperand, 2> operands;
  SmallVector<Type, 2> types;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseOperandList(operands, 2) ||
      parser.parseOptionalAttrDict(result.attributes) || parser.parseColon() ||
      parser.parseTypeList(types))
    return failure();
  if (types.size() == 1)
    types.push_back(types.front());
  if (types.size() != 2)
    return parser.emitError(loc, "expected one or two operand types, got ")
           << types.size();
  if (parser.resolveOperands(operands, types, loc, result.operands))
    return failure();
  for (Type type : types)
    if (!isa<RankedTensorType>(type))
      return parser.emitError(loc, "expected ranked tensor types, got ")
             << type;
  SmallVector<Type, 1> inferred;
  if (failed(inferBroadcastType(result.location, result.operands, inferred)))
    return failure();
  result.addTypes(inferred);
  return success();
}

void printBinaryOp(OpAsmPrinter &printer, Operation *op) {
  printer << ' ' << op->getOperands();
  printer.printOptionalAttrDict(op->getAttrs());
  printer << " : " << op->getOperand(0).getType();
  if (op->getOperand(1).getType() != op->getOperand(0).getType())
    printer << ", " << op->getOperand(1).getType();
}
} // namespace

#define CS349_BINARY_OP_HOOKS(OpClass)                                         \
  LogicalResult OpClass::inferReturnTypes(                                     \
      MLIRContext *, std::optional<Location> location, ValueRange operands,    \
      DictionaryAttr, OpaqueProperties, RegionRange,                           \
      SmallVectorImpl<Type> &inferred) {                                       \
    return inferBroadcastType(location, operands, inferred);                   \
  }                                                                            \
  ParseResult OpClass::parse(OpAsmParser &parser, OperationState &result) {    \
    return parseBinaryOp(parser, result);                                      \
  }                                                                            \
  void OpClass::print(OpAsmPrinter &printer) {                                 \
    printBinaryOp(printer, getOperation());                                    \
  }

CS349_BINARY_OP_HOOKS(AddOp)
CS349_BINARY_OP_HOOKS(SubOp)
CS349_BINARY_OP_HOOKS(MulOp)
CS349_BINARY_OP_HOOKS(DivOp)
CS349_BINARY_OP_HOOKS(MaxOp)
CS349_BINARY_OP_HOOKS(MaxNumOp)
CS349_BINARY_OP_HOOKS(PowOp)
#undef CS349_BINARY_OP_HOOKS

LogicalResult CastOp::verify() {
  RankedTensorType input = tensorType(getInput());
  if (input.getShape() != getType().getShape())
    return emitOpError("expected the result shape to be the input's ")
           << shapeString(input.getShape()) << ", got "
           << shapeString(getType().getShape());
  return success();
}

//===----------------------------------------------------------------------===//
// Row-wise ops and reductions
//===----------------------------------------------------------------------===//

LogicalResult RotateHalfOp::verify() {
  ArrayRef<int64_t> shape = getType().getShape();
  if (shape.empty() || shape.back() % 2 != 0)
    return emitOpError("expected an even last dimension, got ")
           << shapeString(shape);
  return success();
}

template <typename ReductionOp>
static LogicalResult verifyReduction(ReductionOp op) {
  RankedTensorType input = tensorType(op.getInput());
  RankedTensorType result = op.getType();
  int64_t rank = input.getRank();
  if (op.getAxes().empty())
    return op.emitOpError("expected at least one axis");
  llvm::SmallSet<int64_t, 4> seen;
  for (int64_t axis : op.getAxes()) {
    if (axis < 0 || axis >= rank)
      return op.emitOpError("expected axes in [0, ")
             << rank << "), got " << axis;
    if (!seen.insert(axis).second)
      return op.emitOpError("expected distinct axes, got ") << axis
                                                            << " twice";
  }
  SmallVector<int64_t> expected;
  for (int64_t dim = 0; dim < rank; ++dim) {
    if (!seen.contains(dim))
      expected.push_back(input.getDimSize(dim));
    else if (op.getKeepdims())
      expected.push_back(1);
  }
  if (result.getElementType() != input.getElementType())
    return op.emitOpError("expected result element type ")
           << input.getElementType() << ", got " << result.getElementType();
  if (ArrayRef<int64_t>(expected) != result.getShape())
    return op.emitOpError("expected result shape ")
           << shapeString(expected) << ", got "
           << shapeString(result.getShape());
  return success();
}

LogicalResult ReduceSumOp::verify() { return verifyReduction(*this); }
LogicalResult ReduceMaxOp::verify() { return verifyReduction(*this); }

LogicalResult SoftmaxOp::verify() {
  int64_t rank = getType().getRank();
  int64_t axis = getAxis();
  if (axis < 0 || axis >= rank)
    return emitOpError("expected axis in [0, ") << rank << "), got " << axis;
  return success();
}

/// A norm's input, its per-column vectors (`what`: gain, bias) of shape [d]
/// and its epsilon.
static LogicalResult verifyNorm(Operation *op, Value inputValue,
                                ArrayRef<std::pair<Value, StringRef>> vectors,
                                double epsilon) {
  RankedTensorType input = tensorType(inputValue);
  if (input.getRank() < 1)
    return op->emitOpError("expected an input of rank >= 1");
  for (auto [value, what] : vectors) {
    RankedTensorType vector = tensorType(value);
    if (vector.getElementType() != input.getElementType())
      return op->emitOpError("expected the ")
             << what << "'s element type " << input.getElementType()
             << ", got " << vector.getElementType();
    if (vector.getRank() != 1 ||
        vector.getDimSize(0) != input.getShape().back())
      return op->emitOpError("expected a ")
             << what << " of shape [" << input.getShape().back() << "], got "
             << shapeString(vector.getShape());
  }
  if (epsilon < 0.0)
    return op->emitOpError("expected a non-negative epsilon, got ")
           << epsilon;
  return success();
}

LogicalResult RmsNormOp::verify() {
  return verifyNorm(*this, getInput(), {{getGain(), "gain"}},
                    getEpsilon().convertToDouble());
}

LogicalResult LayerNormOp::verify() {
  SmallVector<std::pair<Value, StringRef>, 2> vectors = {{getGain(), "gain"}};
  if (Value bias = getBias())
    vectors.push_back({bias, "bias"});
  return verifyNorm(*this, getInput(), vectors,
                    getEpsilon().convertToDouble());
}

LogicalResult RopeOp::verify() {
  RankedTensorType input = tensorType(getInput());
  if (input.getRank() < 2)
    return emitOpError("expected an input of rank >= 2 ([..., T, dh]), got ")
           << input.getRank();
  ArrayRef<int64_t> tail = input.getShape().take_back(2);
  if (tail[1] % 2 != 0)
    return emitOpError("expected an even head dimension, got ") << tail[1];
  for (Value table : {getCos(), getSin()}) {
    RankedTensorType type = tensorType(table);
    if (type.getElementType() != input.getElementType())
      return emitOpError("expected tables of element type ")
             << input.getElementType() << ", got " << type.getElementType();
    if (type.getShape() != tail)
      return emitOpError("expected tables of shape ")
             << shapeString(tail) << ", got " << shapeString(type.getShape());
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Contractions
//===----------------------------------------------------------------------===//

LogicalResult MatmulOp::verify() {
  RankedTensorType lhs = tensorType(getLhs());
  RankedTensorType rhs = tensorType(getRhs());
  RankedTensorType result = getType();
  if (lhs.getRank() < 2 || rhs.getRank() < 2)
    return emitOpError("expected operands of rank >= 2, got ")
           << lhs.getRank() << " and " << rhs.getRank();
  if (lhs.getElementType() != rhs.getElementType() ||
      lhs.getElementType() != result.getElementType())
    return emitOpError("expected one element type, got ")
           << lhs.getElementType() << ", " << rhs.getElementType() << " -> "
           << result.getElementType();
  int64_t m = lhs.getShape().end()[-2];
  int64_t k = lhs.getShape().back();
  int64_t rhsK = getTransposeB() ? rhs.getShape().back() : rhs.getShape().end()[-2];
  int64_t n = getTransposeB() ? rhs.getShape().end()[-2] : rhs.getShape().back();
  if (k != rhsK)
    return emitOpError("expected the contraction dims to match, got ")
           << k << " and " << rhsK;
  SmallVector<int64_t> batch;
  if (!OpTrait::util::getBroadcastedShape(lhs.getShape().drop_back(2),
                                          rhs.getShape().drop_back(2), batch))
    return emitOpError("expected broadcastable batch dims, got ")
           << shapeString(lhs.getShape().drop_back(2)) << " and "
           << shapeString(rhs.getShape().drop_back(2));
  batch.push_back(m);
  batch.push_back(n);
  if (ArrayRef<int64_t>(batch) != result.getShape())
    return emitOpError("expected result shape ")
           << shapeString(batch) << ", got " << shapeString(result.getShape());
  return success();
}

LogicalResult AttentionOp::verify() {
  RankedTensorType q = tensorType(getQuery());
  RankedTensorType k = tensorType(getKey());
  RankedTensorType v = tensorType(getValue());
  if (q.getRank() != 3 || k.getRank() != 3 || v.getRank() != 3)
    return emitOpError("expected [heads, seq, head_dim] operands, got ranks ")
           << q.getRank() << ", " << k.getRank() << ", " << v.getRank();
  if (q.getElementType() != k.getElementType() ||
      q.getElementType() != v.getElementType())
    return emitOpError("expected one element type for q, k and v");
  if (k.getShape() != v.getShape())
    return emitOpError("expected key and value of one shape, got ")
           << shapeString(k.getShape()) << " and " << shapeString(v.getShape());
  int64_t heads = q.getDimSize(0), kvHeads = k.getDimSize(0);
  if (kvHeads == 0 || heads % kvHeads != 0)
    return emitOpError("expected the query heads (")
           << heads << ") to be a multiple of the key/value heads (" << kvHeads
           << ")";
  if (q.getDimSize(2) != k.getDimSize(2))
    return emitOpError("expected the query head dim to match the key's, got ")
           << q.getDimSize(2) << " and " << k.getDimSize(2);
  return verifyMask(q, k);
}

LogicalResult AttentionOp::verifyMask(RankedTensorType q, RankedTensorType k) {
  AttentionMask kind = getMask();
  StringRef kindName = stringifyAttentionMask(kind);
  if (getWindow().has_value() != (kind == AttentionMask::SlidingWindow))
    return emitOpError("expected a window exactly when the mask is "
                       "sliding_window, got mask = ")
           << kindName << (getWindow() ? " with" : " without") << " a window";
  if (std::optional<int64_t> window = getWindow(); window && *window < 1)
    return emitOpError("expected a window of at least 1 key, got ") << *window;
  if (static_cast<bool>(getAdditiveMask()) != (kind == AttentionMask::Additive))
    return emitOpError("expected a mask operand exactly when the mask is "
                       "additive, got mask = ")
           << kindName << (getAdditiveMask() ? " with" : " without")
           << " a mask operand";
  if ((kind == AttentionMask::Causal || kind == AttentionMask::SlidingWindow) &&
      q.getDimSize(1) != k.getDimSize(1))
    return emitOpError("expected equal query and key lengths for a ")
           << kindName << " mask, got " << q.getDimSize(1) << " and "
           << k.getDimSize(1);
  if (Value operand = getAdditiveMask()) {
    RankedTensorType mask = tensorType(operand);
    SmallVector<int64_t> scores = {q.getDimSize(0), q.getDimSize(1),
                                   k.getDimSize(1)};
    if (mask.getElementType() != q.getElementType())
      return emitOpError("expected the mask operand's element type to be ")
             << q.getElementType() << ", got " << mask.getElementType();
    // Right-aligned broadcasting to the scores, as an `add` would do it.
    ArrayRef<int64_t> shape = mask.getShape();
    bool broadcasts = shape.size() <= scores.size();
    for (size_t i = 0; broadcasts && i < shape.size(); ++i) {
      int64_t dim = shape[shape.size() - 1 - i];
      broadcasts = dim == 1 || dim == scores[scores.size() - 1 - i];
    }
    if (!broadcasts)
      return emitOpError("expected a mask operand that broadcasts to the "
                         "scores ")
             << shapeString(scores) << ", got " << shapeString(shape);
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Views
//===----------------------------------------------------------------------===//

LogicalResult ReshapeOp::verify() {
  RankedTensorType input = tensorType(getInput());
  if (input.getElementType() != getType().getElementType())
    return emitOpError("expected result element type ")
           << input.getElementType() << ", got " << getType().getElementType();
  if (input.getNumElements() != getType().getNumElements())
    return emitOpError("expected the same number of elements, got ")
           << input.getNumElements() << " and " << getType().getNumElements();
  return success();
}

LogicalResult TransposeOp::verify() {
  RankedTensorType input = tensorType(getInput());
  ArrayRef<int64_t> perm = getPerm();
  if (static_cast<int64_t>(perm.size()) != input.getRank())
    return emitOpError("expected a permutation of ")
           << input.getRank() << " dims, got " << perm.size();
  SmallVector<bool> used(perm.size(), false);
  SmallVector<int64_t> expected;
  for (int64_t dim : perm) {
    if (dim < 0 || dim >= input.getRank() || used[dim])
      return emitOpError("expected a permutation of [0, ")
             << input.getRank() << "), got " << shapeString(perm);
    used[dim] = true;
    expected.push_back(input.getDimSize(dim));
  }
  if (input.getElementType() != getType().getElementType() ||
      ArrayRef<int64_t>(expected) != getType().getShape())
    return emitOpError("expected result shape ")
           << shapeString(expected) << ", got "
           << shapeString(getType().getShape());
  return success();
}

LogicalResult RepeatOp::verify() {
  RankedTensorType input = tensorType(getInput());
  int64_t axis = getAxis();
  if (axis < 0 || axis >= input.getRank())
    return emitOpError("expected axis in [0, ")
           << input.getRank() << "), got " << axis;
  if (getTimes() < 1)
    return emitOpError("expected times >= 1, got ") << getTimes();
  SmallVector<int64_t> expected(input.getShape());
  expected[axis] *= getTimes();
  if (input.getElementType() != getType().getElementType() ||
      ArrayRef<int64_t>(expected) != getType().getShape())
    return emitOpError("expected result shape ")
           << shapeString(expected) << ", got "
           << shapeString(getType().getShape());
  return success();
}

void SliceOp::getFullOffsetsAndStrides(SmallVectorImpl<int64_t> &offsets,
                                       SmallVectorImpl<int64_t> &strides) {
  int64_t rank = tensorType(getInput()).getRank();
  offsets.assign(rank, 0);
  strides.assign(rank, 1);
  for (auto [axis, offset, stride] :
       llvm::zip_equal(getAxes(), getOffsets(), getStrides())) {
    offsets[axis] = offset;
    strides[axis] = stride;
  }
}

LogicalResult SliceOp::verify() {
  RankedTensorType input = tensorType(getInput());
  ArrayRef<int64_t> axes = getAxes(), offsets = getOffsets(),
                    sizes = getSizes(), strides = getStrides();
  if (axes.empty())
    return emitOpError("expected at least one axis");
  if (offsets.size() != axes.size() || sizes.size() != axes.size() ||
      strides.size() != axes.size())
    return emitOpError("expected one offset, size and stride per axis, got ")
           << axes.size() << " axes, " << offsets.size() << " offsets, "
           << sizes.size() << " sizes and " << strides.size() << " strides";
  int64_t rank = input.getRank();
  llvm::SmallSet<int64_t, 4> seen;
  SmallVector<int64_t> expected(input.getShape());
  for (auto [axis, offset, size, stride] :
       llvm::zip_equal(axes, offsets, sizes, strides)) {
    if (axis < 0 || axis >= rank)
      return emitOpError("expected axes in [0, ") << rank << "), got " << axis;
    if (!seen.insert(axis).second)
      return emitOpError("expected distinct axes, got ") << axis << " twice";
    if (offset < 0)
      return emitOpError("expected a non-negative offset along axis ")
             << axis << ", got " << offset;
    if (size < 1)
      return emitOpError("expected a positive size along axis ")
             << axis << ", got " << size;
    if (stride < 1)
      return emitOpError("expected a positive stride along axis ")
             << axis << ", got " << stride;
    // The last index read, offset + (size - 1) * stride, in 128 bits: the
    // attributes are any int64 and the product may not fit.
    __int128 last = __int128(offset) + __int128(size - 1) * stride;
    int64_t dim = input.getDimSize(axis);
    if (last >= dim)
      return emitOpError("expected the slice along axis ")
             << axis << " (offset " << offset << ", size " << size
             << ", stride " << stride << ") inside the input's " << dim
             << " elements, its last index is "
             << (last > std::numeric_limits<int64_t>::max()
                     ? std::string("at least 2^63")
                     : std::to_string(int64_t(last)));
    expected[axis] = size;
  }
  if (input.getElementType() != getType().getElementType())
    return emitOpError("expected result element type ")
           << input.getElementType() << ", got " << getType().getElementType();
  if (ArrayRef<int64_t>(expected) != getType().getShape())
    return emitOpError("expected result shape ")
           << shapeString(expected) << ", got "
           << shapeString(getType().getShape());
  return success();
}

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

LogicalResult ConcatOp::verify() {
  OperandRange inputs = getInputs();
  if (inputs.empty())
    return emitOpError("expected at least one input");
  RankedTensorType first = tensorType(inputs.front());
  int64_t rank = first.getRank();
  int64_t axis = getAxis();
  if (axis < 0 || axis >= rank)
    return emitOpError("expected axis in [0, ") << rank << "), got " << axis;
  SmallVector<int64_t> expected(first.getShape());
  expected[axis] = 0;
  for (auto [index, value] : llvm::enumerate(inputs)) {
    RankedTensorType type = tensorType(value);
    if (type.getElementType() != first.getElementType())
      return emitOpError("expected inputs of one element type, got ")
             << first.getElementType() << " (input #0) and "
             << type.getElementType() << " (input #" << index << ")";
    if (type.getRank() != rank)
      return emitOpError("expected inputs of one rank, got ")
             << rank << " (input #0) and " << type.getRank() << " (input #"
             << index << ")";
    for (int64_t dim = 0; dim < rank; ++dim)
      if (dim != axis && type.getDimSize(dim) != first.getDimSize(dim))
        return emitOpError("expected the inputs to agree outside axis ")
               << axis << ", got " << shapeString(first.getShape())
               << " (input #0) and " << shapeString(type.getShape())
               << " (input #" << index << ")";
    // The dialect bounds each input's bytes, not their sum.
    if (llvm::AddOverflow(expected[axis], type.getDimSize(axis),
                          expected[axis]))
      return emitOpError("expected the sizes along axis ")
             << axis << " to add up within int64";
  }
  if (getType().getElementType() != first.getElementType())
    return emitOpError("expected result element type ")
           << first.getElementType() << ", got " << getType().getElementType();
  if (ArrayRef<int64_t>(expected) != getType().getShape())
    return emitOpError("expected result shape ")
           << shapeString(expected) << ", got "
           << shapeString(getType().getShape());
  return success();
}

//===----------------------------------------------------------------------===//
// Masks and lookups
//===----------------------------------------------------------------------===//

LogicalResult CompareOp::verify() {
  RankedTensorType lhs = tensorType(getLhs()), rhs = tensorType(getRhs());
  if (lhs.getElementType() != rhs.getElementType())
    return emitOpError("expected operands of one element type, got ")
           << lhs.getElementType() << " and " << rhs.getElementType();
  SmallVector<int64_t> shape;
  if (!OpTrait::util::getBroadcastedShape(lhs.getShape(), rhs.getShape(),
                                          shape))
    return emitOpError("expected broadcastable shapes, got ")
           << shapeString(lhs.getShape()) << " and "
           << shapeString(rhs.getShape());
  if (!getType().getElementType().isInteger(1))
    return emitOpError("expected an i1 result, got ")
           << getType().getElementType();
  if (ArrayRef<int64_t>(shape) != getType().getShape())
    return emitOpError("expected result shape ")
           << shapeString(shape) << ", got " << shapeString(getType().getShape());
  return success();
}

LogicalResult SelectOp::verify() {
  RankedTensorType condition = tensorType(getCondition());
  RankedTensorType onTrue = tensorType(getTrueValue());
  RankedTensorType onFalse = tensorType(getFalseValue());
  if (!condition.getElementType().isInteger(1))
    return emitOpError("expected an i1 condition, got ")
           << condition.getElementType();
  if (onTrue.getElementType() != onFalse.getElementType())
    return emitOpError("expected true and false values of one element type, "
                       "got ")
           << onTrue.getElementType() << " and " << onFalse.getElementType();
  if (getType().getElementType() != onTrue.getElementType())
    return emitOpError("expected result element type ")
           << onTrue.getElementType() << ", got " << getType().getElementType();
  SmallVector<int64_t> partial, shape;
  if (!OpTrait::util::getBroadcastedShape(condition.getShape(),
                                          onTrue.getShape(), partial) ||
      !OpTrait::util::getBroadcastedShape(partial, onFalse.getShape(), shape))
    return emitOpError("expected broadcastable shapes, got ")
           << shapeString(condition.getShape()) << ", "
           << shapeString(onTrue.getShape()) << " and "
           << shapeString(onFalse.getShape());
  if (ArrayRef<int64_t>(shape) != getType().getShape())
    return emitOpError("expected result shape ")
           << shapeString(shape) << ", got " << shapeString(getType().getShape());
  return success();
}

LogicalResult GatherOp::verify() {
  RankedTensorType table = tensorType(getTable());
  RankedTensorType indices = tensorType(getIndices());
  Type indexType = indices.getElementType();
  if (!indexType.isInteger(32) && !indexType.isInteger(64))
    return emitOpError("expected i32 or i64 indices, got ") << indexType;
  int64_t axis = getAxis(), rank = table.getRank();
  if (axis < 0 || axis >= rank)
    return emitOpError("expected axis in [0, ") << rank << "), got " << axis;
  if (table.getDimSize(axis) < 1)
    return emitOpError("expected a table with at least one slice along axis ")
           << axis << ", got " << shapeString(table.getShape());
  if (getType().getElementType() != table.getElementType())
    return emitOpError("expected result element type ")
           << table.getElementType() << ", got " << getType().getElementType();
  SmallVector<int64_t> expected(table.getShape().take_front(axis));
  llvm::append_range(expected, indices.getShape());
  llvm::append_range(expected, table.getShape().drop_front(axis + 1));
  if (ArrayRef<int64_t>(expected) != getType().getShape())
    return emitOpError("expected result shape ")
           << shapeString(expected) << ", got "
           << shapeString(getType().getShape());
  return success();
}

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

void KernelOp::build(OpBuilder &builder, OperationState &state,
                     TypeRange resultTypes, ValueRange inputs) {
  state.addOperands(inputs);
  state.addTypes(resultTypes);
  Region *body = state.addRegion();
  Block *block = new Block();
  body->push_back(block);
  for (Value input : inputs)
    block->addArgument(input.getType(), input.getLoc());
}

bool KernelOp::isOpaque() {
  return llvm::any_of(getBody().front().without_terminator(), [](Operation &op) {
    return !isa<CS349Dialect>(op.getDialect());
  });
}

LogicalResult KernelOp::verify() {
  Block &block = getBody().front();
  if (block.getNumArguments() != getInputs().size())
    return emitOpError("expected ")
           << getInputs().size() << " block arguments, one per input, got "
           << block.getNumArguments();
  for (auto [index, pair] :
       llvm::enumerate(llvm::zip(getInputs(), block.getArguments()))) {
    auto [input, argument] = pair;
    if (input.getType() != argument.getType())
      return emitOpError("expected block argument #")
             << index << " of type " << input.getType() << ", got "
             << argument.getType();
  }
  auto yield = dyn_cast<YieldOp>(block.getTerminator());
  if (!yield)
    return emitOpError("expected the body to end in cs349.yield");
  if (yield.getValues().getTypes() != getResultTypes())
    return emitOpError("expected the yielded types to be the result types");
  return success();
}

#define GET_OP_CLASSES
#include "cs349/Dialect/CS349/IR/CS349Ops.cpp.inc"
