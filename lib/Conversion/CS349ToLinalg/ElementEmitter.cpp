//===- ElementEmitter.cpp - cs349 values as scalar code --------------------===//
//
// One element of every cs349 op, in f32. Reading a value through a view only
// changes the indices, which is what makes views free after lowering; reading
// constant data computes it, which is why the causal mask and the RoPE tables
// never take memory. Every recomputed value is rounded to its declared element
// type exactly as a store would round it, so whether a value is stored or
// recomputed never changes a result bit.
//
//===----------------------------------------------------------------------===//

#include "ElementEmitter.h"

#include "cs349/Dialect/CS349/IR/CS349Folds.h"
#include "cs349/Dialect/CS349/IR/CS349Ops.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>
#include <functional>
#include <limits>

using namespace mlir;
using namespace mlir::cs349;
using namespace mlir::cs349::lowering;

namespace {
RankedTensorType tensorType(Value value) {
  return cast<RankedTensorType>(value.getType());
}

/// Whether two index lists name the same element. Constant indices are
/// created afresh wherever they are needed (a broadcast row statistic is
/// read at column 0 inside every loop that reads it), so equal constants
/// count as equal: without that, a softmax row max recomputed inside the
/// recomputed row sum would be evaluated again for every column of the sum.
bool sameIndices(ValueRange a, ValueRange b) {
  return llvm::equal(a, b, [](Value x, Value y) {
    if (x == y)
      return true;
    std::optional<int64_t> cx = getConstantIntValue(x);
    std::optional<int64_t> cy = getConstantIntValue(y);
    return cx && cy && *cx == *cy;
  });
}
} // namespace

ElementEmitter::ElementEmitter(MLIRContext *context)
    : f32(Float32Type::get(context)) {}

bool ElementEmitter::isComputable(Operation *op) {
  return isa_and_present<CS349Dialect>(op->getDialect()) &&
         op->getNumRegions() == 0 &&
         !op->hasTrait<OpTrait::IsTerminator>() && !isComputedWhole(op);
}

Value ElementEmitter::index(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

Value ElementEmitter::constant(OpBuilder &b, Location loc, double value) {
  return arith::ConstantOp::create(b, loc, f32,
                                   b.getFloatAttr(f32, value));
}

// Integer elements (indices, masks) are computed in their own type: only
// floats are widened to f32.
Value ElementEmitter::narrow(OpBuilder &b, Location loc, Value x, Type type) {
  if (type == f32 || isa<IntegerType>(type))
    return x;
  return arith::TruncFOp::create(b, loc, type, x);
}

Value ElementEmitter::widen(OpBuilder &b, Location loc, Value x) {
  if (x.getType() == f32 || isa<IntegerType>(x.getType()))
    return x;
  return arith::ExtFOp::create(b, loc, f32, x);
}

Value ElementEmitter::round(OpBuilder &b, Location loc, Value x, Type type) {
  if (type == f32 || isa<IntegerType>(type))
    return x;
  return widen(b, loc, narrow(b, loc, x, type));
}

SmallVector<Value> ElementEmitter::broadcastIndices(
    OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
    ArrayRef<int64_t> resultShape, ValueRange indices) {
  SmallVector<Value> result;
  int64_t gap = resultShape.size() - shape.size();
  for (auto [dim, size] : llvm::enumerate(shape)) {
    int64_t resultDim = dim + gap;
    if (size == 1 && resultShape[resultDim] != 1)
      result.push_back(index(b, loc, 0));
    else
      result.push_back(indices[resultDim]);
  }
  return result;
}

Value ElementEmitter::reduceAxis(
    OpBuilder &b, Location loc, int64_t count, Value init,
    function_ref<Value(OpBuilder &, Location, Value, Value)> f) {
  // The body is emitted after the loop is in its block (not by a body
  // builder, which runs before the loop is inserted): only then can a read
  // inside it see, through the loop's ancestors, a value already read
  // outside it (the softmax row max inside the row sum).
  auto loop =
      scf::ForOp::create(b, loc, index(b, loc, 0), index(b, loc, count),
                         index(b, loc, 1), ValueRange{init});
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  scf::YieldOp::create(
      b, loc, f(b, loc, loop.getInductionVar(), loop.getRegionIterArg(0)));
  return loop.getResult(0);
}

Value ElementEmitter::lookupRead(OpBuilder &b, Value value,
                                 ValueRange indices) {
  auto found = reads.find(value);
  if (found == reads.end())
    return {};
  for (Read &read : found->second) {
    if (!sameIndices(read.indices, indices))
      continue;
    // Builders here only append, so a result in the insertion block or in
    // one of its ancestors dominates the insertion point.
    Block *definedIn = read.result.getParentBlock();
    for (Block *block = b.getInsertionBlock(); block;
         block = block->getParentOp() ? block->getParentOp()->getBlock()
                                      : nullptr)
      if (block == definedIn)
        return read.result;
  }
  return {};
}

Value ElementEmitter::read(OpBuilder &b, Location loc, Value value,
                           ValueRange indices) {
  while (Value alias = aliases.lookup(value))
    value = alias;
  if (Value earlier = lookupRead(b, value, indices))
    return earlier;
  Value result = readUncached(b, loc, value, indices);
  reads[value].push_back({llvm::to_vector(indices), result});
  return result;
}

Value ElementEmitter::readUncached(OpBuilder &b, Location loc, Value value,
                                   ValueRange indices) {
  if (Value tensor = tensors.lookup(value))
    return widen(b, loc, tensor::ExtractOp::create(b, loc, tensor, indices));

  Operation *op = value.getDefiningOp();
  assert(op && "arguments are stored in tensors");
  ArrayRef<int64_t> shape = tensorType(value).getShape();

  if (auto reshape = dyn_cast<ReshapeOp>(op)) {
    // Same row-major order: linearize in the result shape, delinearize in the
    // input's.
    ArrayRef<int64_t> inShape = tensorType(reshape.getInput()).getShape();
    Value linear = index(b, loc, 0);
    for (auto [dim, size] : llvm::enumerate(shape)) {
      linear = arith::MulIOp::create(b, loc, linear, index(b, loc, size));
      linear = arith::AddIOp::create(b, loc, linear, indices[dim]);
    }
    SmallVector<Value> source(inShape.size());
    for (int64_t dim = inShape.size() - 1; dim >= 0; --dim) {
      Value size = index(b, loc, inShape[dim]);
      source[dim] = dim == 0 ? linear
                             : arith::RemUIOp::create(b, loc, linear, size);
      linear = arith::DivUIOp::create(b, loc, linear, size);
    }
    return read(b, loc, reshape.getInput(), source);
  }
  if (auto transpose = dyn_cast<TransposeOp>(op)) {
    SmallVector<Value> source(indices.size());
    for (auto [dim, inputDim] : llvm::enumerate(transpose.getPerm()))
      source[inputDim] = indices[dim];
    return read(b, loc, transpose.getInput(), source);
  }
  if (auto repeat = dyn_cast<RepeatOp>(op)) {
    SmallVector<Value> source = llvm::to_vector(indices);
    int64_t axis = repeat.getAxis();
    source[axis] = arith::DivUIOp::create(b, loc, indices[axis],
                                          index(b, loc, repeat.getTimes()));
    return read(b, loc, repeat.getInput(), source);
  }
  if (auto slice = dyn_cast<SliceOp>(op)) {
    SmallVector<int64_t> offsets, strides;
    slice.getFullOffsetsAndStrides(offsets, strides);
    SmallVector<Value> source = llvm::to_vector(indices);
    for (auto [dim, at] : llvm::enumerate(source)) {
      if (strides[dim] != 1)
        at = arith::MulIOp::create(b, loc, at, index(b, loc, strides[dim]));
      if (offsets[dim] != 0)
        at = arith::AddIOp::create(b, loc, at, index(b, loc, offsets[dim]));
    }
    return read(b, loc, slice.getInput(), source);
  }
  if (auto concat = dyn_cast<ConcatOp>(op))
    return readConcat(b, loc, concat, indices);
  return compute(b, loc, op, indices);
}

Value ElementEmitter::readConcat(OpBuilder &b, Location loc, ConcatOp concat,
                                 ValueRange indices) {
  // A branch per input, not a select of every input's element: an input
  // read outside its own range would be out of bounds, and an input that is
  // recomputed would be computed for every element of the others.
  int64_t axis = concat.getAxis();
  // Integer elements are carried in their own type, floats in f32.
  Type element = concat.getType().getElementType();
  Type carried = isa<IntegerType>(element) ? element : Type(f32);
  std::function<Value(OpBuilder &, Location, unsigned, int64_t)> piece =
      [&](OpBuilder &pb, Location pl, unsigned input, int64_t start) -> Value {
    Value operand = concat.getInputs()[input];
    SmallVector<Value> at = llvm::to_vector(indices);
    if (start != 0)
      at[axis] = arith::SubIOp::create(pb, pl, at[axis], index(pb, pl, start));
    if (input + 1 == concat.getInputs().size())
      return read(pb, pl, operand, at);
    int64_t end = start + tensorType(operand).getDimSize(axis);
    Value inside = arith::CmpIOp::create(pb, pl, arith::CmpIPredicate::ult,
                                         indices[axis], index(pb, pl, end));
    auto branch = scf::IfOp::create(pb, pl, TypeRange{carried}, inside,
                                    /*addThenBlock=*/true,
                                    /*addElseBlock=*/true);
    {
      OpBuilder::InsertionGuard guard(pb);
      pb.setInsertionPointToStart(branch.thenBlock());
      scf::YieldOp::create(pb, pl, read(pb, pl, operand, at));
      pb.setInsertionPointToStart(branch.elseBlock());
      scf::YieldOp::create(pb, pl, piece(pb, pl, input + 1, end));
    }
    return branch.getResult(0);
  };
  return piece(b, loc, 0, 0);
}

Value ElementEmitter::compute(OpBuilder &b, Location loc, Operation *op,
                              ValueRange indices) {
  Value x = computeUnrounded(b, loc, op, indices);
  return round(b, loc, x, tensorType(op->getResult(0)).getElementType());
}

Value ElementEmitter::computeUnrounded(OpBuilder &b, Location loc,
                                       Operation *op, ValueRange indices) {
  auto resultShape = tensorType(op->getResult(0)).getShape();
  auto readBroadcast = [&](Value operand) {
    return read(b, loc, operand,
                broadcastIndices(b, loc, tensorType(operand).getShape(),
                                 resultShape, indices));
  };
  auto inf = std::numeric_limits<double>::infinity();

  if (auto elementwise = dyn_cast<ElementwiseOpInterface>(op)) {
    SmallVector<Value> operands;
    for (Value operand : op->getOperands())
      operands.push_back(readBroadcast(operand));
    return elementwise.emitElement(b, loc, operands);
  }
  if (auto reduce = dyn_cast<ReductionOpInterface>(op)) {
    Value input = reduce.getInput();
    ArrayRef<int64_t> inShape = tensorType(input).getShape();
    ArrayRef<int64_t> axes = reduce.getAxes();
    SmallVector<Value> at(inShape.size());
    for (int64_t dim = 0, next = 0, e = inShape.size(); dim < e; ++dim) {
      if (llvm::is_contained(axes, dim)) {
        if (reduce.getKeepdims())
          ++next;
        continue;
      }
      at[dim] = indices[next++];
    }
    std::function<Value(OpBuilder &, Location, unsigned, Value)> nest =
        [&](OpBuilder &nb, Location nl, unsigned axis, Value acc) {
          if (axis == axes.size())
            return reduce.emitCombine(nb, nl, acc, read(nb, nl, input, at));
          return reduceAxis(nb, nl, inShape[axes[axis]], acc,
                            [&](OpBuilder &ib, Location il, Value iv,
                                Value inner) {
                              at[axes[axis]] = iv;
                              return nest(ib, il, axis + 1, inner);
                            });
        };
    return nest(b, loc, 0, constant(b, loc, reduce.identity()));
  }

  return llvm::TypeSwitch<Operation *, Value>(op)
      .Case([&](ConstantOp dense) {
        // Non-splat constants are stored before they are read.
        Type element = dense.getType().getElementType();
        if (isa<IntegerType>(element))
          return arith::ConstantOp::create(
                     b, loc, element,
                     b.getIntegerAttr(element,
                                      cast<SplatElementsAttr>(dense.getValue())
                                          .getSplatValue<APInt>()))
              .getResult();
        std::optional<double> splat = getSplatValue(dense.getValue());
        assert(splat && "dense constants are stored in tensors");
        return constant(b, loc, *splat);
      })
      .Case([&](CausalMaskOp mask) {
        Value hidden = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt,
                                             indices[1], indices[0]);
        if (std::optional<int64_t> window = mask.getWindow()) {
          // Key j is too old for query i when j + W <= i.
          Value reach = arith::AddIOp::create(
              b, loc, indices[1],
              arith::ConstantIndexOp::create(b, loc, *window));
          Value tooOld = arith::CmpIOp::create(
              b, loc, arith::CmpIPredicate::ule, reach, indices[0]);
          hidden = arith::OrIOp::create(b, loc, hidden, tooOld);
        }
        return arith::SelectOp::create(b, loc, hidden, constant(b, loc, -inf),
                                       constant(b, loc, 0.0))
            .getResult();
      })
      .Case([&](RopeTableOp table) {
        // angle = t * theta^(-2i/dh), i = column mod dh/2.
        //
        // In f64, rounded to f32 once at the end: LLVM folds exp/sin/cos
        // of known arguments (a small table in an unrolled loop) with the
        // host's double-precision libm and rounds, while a call at run time
        // goes to the single-precision one (expf, cosf), which can differ
        // by an ulp. In double both are the same libm function, so a table
        // has the same bits whichever kernel it is computed in and at
        // every optimization level.
        Type f64 = b.getF64Type();
        int64_t dh = resultShape[1];
        Value column = arith::RemUIOp::create(b, loc, indices[1],
                                              index(b, loc, dh / 2));
        auto toDouble = [&](Value i) {
          Value asInt =
              arith::IndexCastOp::create(b, loc, b.getI64Type(), i);
          return arith::SIToFPOp::create(b, loc, f64, asInt).getResult();
        };
        double logTheta = std::log(table.getTheta().convertToDouble());
        Value exponent = arith::MulFOp::create(
            b, loc, toDouble(column),
            arith::ConstantOp::create(
                b, loc, f64, b.getF64FloatAttr(-2.0 * logTheta / dh)));
        Value frequency = math::ExpOp::create(b, loc, exponent);
        Value angle =
            arith::MulFOp::create(b, loc, toDouble(indices[0]), frequency);
        Value value = table.getKind() == RopeTableKind::Cos
                          ? math::CosOp::create(b, loc, angle).getResult()
                          : math::SinOp::create(b, loc, angle).getResult();
        return arith::TruncFOp::create(b, loc, f32, value).getResult();
      })
      .Case([&](GatherOp gather) -> Value {
        // The index, clamped into the table as the op says, replaces the
        // indices' dims in the result's.
        int64_t axis = gather.getAxis();
        int64_t indexRank = tensorType(gather.getIndices()).getRank();
        int64_t slices = tensorType(gather.getTable()).getDimSize(axis);
        Value id = read(b, loc, gather.getIndices(),
                        indices.slice(axis, indexRank));
        Value at = arith::IndexCastOp::create(b, loc, b.getIndexType(), id);
        at = arith::MaxSIOp::create(b, loc, at, index(b, loc, 0));
        at = arith::MinSIOp::create(b, loc, at, index(b, loc, slices - 1));
        SmallVector<Value> source(indices.take_front(axis));
        source.push_back(at);
        llvm::append_range(source, indices.drop_front(axis + indexRank));
        return read(b, loc, gather.getTable(), source);
      })
      .Case([&](RotateHalfOp rotate) {
        int64_t half = resultShape.back() / 2;
        Value column = indices.back();
        Value firstHalf = arith::CmpIOp::create(
            b, loc, arith::CmpIPredicate::ult, column, index(b, loc, half));
        Value source = arith::SelectOp::create(
            b, loc, firstHalf,
            arith::AddIOp::create(b, loc, column, index(b, loc, half)),
            arith::SubIOp::create(b, loc, column, index(b, loc, half)));
        SmallVector<Value> at = llvm::to_vector(indices);
        at.back() = source;
        Value x = read(b, loc, rotate.getInput(), at);
        return arith::SelectOp::create(b, loc, firstHalf,
                                       arith::NegFOp::create(b, loc, x), x)
            .getResult();
      })
      .Case([&](SoftmaxOp softmax) {
        Value input = softmax.getInput();
        int64_t axis = softmax.getAxis();
        SmallVector<Value> at = llvm::to_vector(indices);
        Value rowMax = reduceAxis(
            b, loc, resultShape[axis], constant(b, loc, -inf),
            [&](OpBuilder &nb, Location nl, Value iv, Value acc) {
              at[axis] = iv;
              return arith::MaximumFOp::create(nb, nl, acc,
                                               read(nb, nl, input, at))
                  .getResult();
            });
        Value rowSum = reduceAxis(
            b, loc, resultShape[axis], constant(b, loc, 0.0),
            [&](OpBuilder &nb, Location nl, Value iv, Value acc) {
              at[axis] = iv;
              Value shifted = arith::SubFOp::create(
                  nb, nl, read(nb, nl, input, at), rowMax);
              return arith::AddFOp::create(nb, nl, acc,
                                           math::ExpOp::create(nb, nl, shifted))
                  .getResult();
            });
        Value shifted = arith::SubFOp::create(
            b, loc, read(b, loc, input, indices), rowMax);
        return arith::DivFOp::create(b, loc, math::ExpOp::create(b, loc, shifted),
                                     rowSum)
            .getResult();
      })
      .Case([&](RmsNormOp norm) {
        Value input = norm.getInput();
        int64_t d = resultShape.back();
        SmallVector<Value> at = llvm::to_vector(indices);
        Value squares = reduceAxis(
            b, loc, d, constant(b, loc, 0.0),
            [&](OpBuilder &nb, Location nl, Value iv, Value acc) {
              at.back() = iv;
              Value x = read(nb, nl, input, at);
              return arith::AddFOp::create(nb, nl, acc,
                                           arith::MulFOp::create(nb, nl, x, x))
                  .getResult();
            });
        Value mean = arith::DivFOp::create(b, loc, squares,
                                           constant(b, loc, double(d)));
        Value r = math::RsqrtOp::create(
            b, loc,
            arith::AddFOp::create(
                b, loc, mean,
                constant(b, loc, norm.getEpsilon().convertToDouble())));
        Value x = read(b, loc, input, indices);
        Value gain = read(b, loc, norm.getGain(), indices.back());
        return arith::MulFOp::create(b, loc, arith::MulFOp::create(b, loc, x, r),
                                     gain)
            .getResult();
      })
      .Case([&](LayerNormOp norm) -> Value {
        Value input = norm.getInput();
        int64_t d = resultShape.back();
        SmallVector<Value> at = llvm::to_vector(indices);
        Value inverseD = constant(b, loc, 1.0 / double(d));
        Value sum = reduceAxis(
            b, loc, d, constant(b, loc, 0.0),
            [&](OpBuilder &nb, Location nl, Value iv, Value acc) {
              at.back() = iv;
              return arith::AddFOp::create(nb, nl, acc, read(nb, nl, input, at))
                  .getResult();
            });
        Value mean = arith::MulFOp::create(b, loc, sum, inverseD);
        Value squares = reduceAxis(
            b, loc, d, constant(b, loc, 0.0),
            [&](OpBuilder &nb, Location nl, Value iv, Value acc) {
              at.back() = iv;
              Value centered = arith::SubFOp::create(
                  nb, nl, read(nb, nl, input, at), mean);
              return arith::AddFOp::create(
                         nb, nl, acc,
                         arith::MulFOp::create(nb, nl, centered, centered))
                  .getResult();
            });
        Value variance = arith::MulFOp::create(b, loc, squares, inverseD);
        Value r = math::RsqrtOp::create(
            b, loc,
            arith::AddFOp::create(
                b, loc, variance,
                constant(b, loc, norm.getEpsilon().convertToDouble())));
        Value centered =
            arith::SubFOp::create(b, loc, read(b, loc, input, indices), mean);
        Value gain = read(b, loc, norm.getGain(), indices.back());
        Value scaled = arith::MulFOp::create(
            b, loc, arith::MulFOp::create(b, loc, centered, r), gain);
        if (Value bias = norm.getBias())
          return arith::AddFOp::create(b, loc, scaled,
                                       read(b, loc, bias, indices.back()))
              .getResult();
        return scaled;
      })
      .Case([&](RopeOp rope) {
        // x * cos + rotate_half(x) * sin; the tables index [t, column].
        int64_t dh = resultShape.back();
        ValueRange tail = indices.take_back(2);
        Value column = tail[1];
        Value firstHalf = arith::CmpIOp::create(
            b, loc, arith::CmpIPredicate::ult, column, index(b, loc, dh / 2));
        Value source = arith::SelectOp::create(
            b, loc, firstHalf,
            arith::AddIOp::create(b, loc, column, index(b, loc, dh / 2)),
            arith::SubIOp::create(b, loc, column, index(b, loc, dh / 2)));
        SmallVector<Value> at = llvm::to_vector(indices);
        at.back() = source;
        Value x = read(b, loc, rope.getInput(), indices);
        Value partner = read(b, loc, rope.getInput(), at);
        Value rotated = arith::SelectOp::create(
            b, loc, firstHalf, arith::NegFOp::create(b, loc, partner), partner);
        Value cos = read(b, loc, rope.getCos(), tail);
        Value sin = read(b, loc, rope.getSin(), tail);
        return arith::AddFOp::create(b, loc, arith::MulFOp::create(b, loc, x, cos),
                                     arith::MulFOp::create(b, loc, rotated, sin))
            .getResult();
      })
      .Case([&](MatmulOp matmul) {
        auto lhsShape = tensorType(matmul.getLhs()).getShape();
        auto rhsShape = tensorType(matmul.getRhs()).getShape();
        size_t rank = resultShape.size();
        ArrayRef<int64_t> batch = resultShape.drop_back(2);
        ValueRange batchIndices = indices.take_front(rank - 2);
        SmallVector<Value> lhsAt = broadcastIndices(
            b, loc, lhsShape.drop_back(2), batch, batchIndices);
        SmallVector<Value> rhsAt = broadcastIndices(
            b, loc, rhsShape.drop_back(2), batch, batchIndices);
        Value m = indices[rank - 2], n = indices[rank - 1];
        lhsAt.append({m, Value()});
        if (matmul.getTransposeB())
          rhsAt.append({n, Value()});
        else
          rhsAt.append({Value(), n});
        unsigned rhsK = matmul.getTransposeB() ? rhsAt.size() - 1
                                               : rhsAt.size() - 2;
        return reduceAxis(
            b, loc, lhsShape.back(), constant(b, loc, 0.0),
            [&](OpBuilder &nb, Location nl, Value k, Value acc) {
              lhsAt.back() = k;
              rhsAt[rhsK] = k;
              Value product = arith::MulFOp::create(
                  nb, nl, read(nb, nl, matmul.getLhs(), lhsAt),
                  read(nb, nl, matmul.getRhs(), rhsAt));
              return arith::AddFOp::create(nb, nl, acc, product).getResult();
            });
      })
      .Default([&](Operation *) -> Value {
        llvm_unreachable("not computable element by element");
      });
}

Value ElementEmitter::materialize(OpBuilder &b, Location loc, Value value,
                                  Value dest) {
  auto type = tensorType(dest);
  int64_t rank = type.getRank();
  SmallVector<AffineMap> maps{b.getMultiDimIdentityMap(rank)};
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{type}, ValueRange{}, ValueRange{dest}, maps, iterators,
      [&](OpBuilder &nb, Location nl, ValueRange) {
        SmallVector<Value> indices;
        for (int64_t dim = 0; dim < rank; ++dim)
          indices.push_back(linalg::IndexOp::create(nb, nl, dim));
        Value x = read(nb, nl, value, indices);
        linalg::YieldOp::create(nb, nl,
                                narrow(nb, nl, x, type.getElementType()));
      });
  return generic.getResult(0);
}
