//===- DataMovement.cpp - slices, concatenations and gathers --------------===//
//
// How front ends move data without computing: `tensor.extract_slice` (a
// view), `tensor.concat` and chains of `tensor.insert_slice` into an empty
// tensor that fill it piece by piece along one axis (a concatenation),
// `tensor.pad` by a constant (the source between constants), and a
// `linalg.generic` whose body reads a table at an index it loads
// (`tensor.extract %table[index_cast(%id), linalg.index ...]`: an
// embedding or position lookup). Each becomes the cs349 op that says what
// it does, so that fusion sees an elementwise read instead of an opaque
// kernel that writes its result. RoPE's rotate-half, written as two slices,
// a negate and a concatenation, then becomes cs349.rotate_half.
//
//===----------------------------------------------------------------------===//

#include "ImportPatterns.h"

#include "cs349/Dialect/CS349/IR/CS349Ops.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::cs349;

namespace {

/// `value` reshaped to `type` (nothing when it already has it).
Value reshapeTo(PatternRewriter &rewriter, Location loc, Value value,
                Type type) {
  if (value.getType() == type)
    return value;
  return ReshapeOp::create(rewriter, loc, type, value);
}

/// `tensor.extract_slice` with static offsets, sizes and strides: a
/// cs349.slice over the dims it narrows, then a reshape when it drops
/// unit dims.
struct ExtractSlicePattern : OpRewritePattern<tensor::ExtractSliceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tensor::ExtractSliceOp op,
                                PatternRewriter &rewriter) const override {
    RankedTensorType source = op.getSourceType();
    if (!import::isKernelTensorType(source) || !import::isKernelTensorType(op.getType()) ||
        op.getOffsets().size() || op.getSizes().size() ||
        op.getStrides().size())
      return failure();
    SmallVector<int64_t> axes, offsets, sizes, strides;
    for (int64_t dim = 0; dim < source.getRank(); ++dim) {
      int64_t offset = op.getStaticOffsets()[dim];
      int64_t size = op.getStaticSizes()[dim];
      int64_t stride = op.getStaticStrides()[dim];
      if (offset == 0 && size == source.getDimSize(dim) && stride == 1)
        continue;
      // What cs349.slice can say: a forward stride inside the source.
      const int64_t extent = source.getDimSize(dim);
      if (stride < 1 || offset < 0 || size < 1 || offset >= extent ||
          (size > 1 && (stride >= extent ||
                        (size - 1) * stride >= extent - offset)))
        return failure();
      axes.push_back(dim);
      offsets.push_back(offset);
      sizes.push_back(size);
      strides.push_back(stride);
    }
    Value sliced = op.getSource();
    if (!axes.empty()) {
      auto full = RankedTensorType::get(op.getStaticSizes(),
                                        source.getElementType());
      sliced = SliceOp::create(rewriter, op.getLoc(), full, sliced,
                               rewriter.getDenseI64ArrayAttr(axes),
                               rewriter.getDenseI64ArrayAttr(offsets),
                               rewriter.getDenseI64ArrayAttr(sizes),
                               rewriter.getDenseI64ArrayAttr(strides));
    }
    rewriter.replaceOp(op,
                       reshapeTo(rewriter, op.getLoc(), sliced, op.getType()));
    return success();
  }
};

struct ConcatPattern : OpRewritePattern<tensor::ConcatOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tensor::ConcatOp op,
                                PatternRewriter &rewriter) const override {
    if (!import::isKernelTensorType(op.getType()) ||
        !llvm::all_of(op.getInputs().getTypes(), import::isKernelTensorType))
      return failure();
    rewriter.replaceOpWithNewOp<ConcatOp>(op, op.getType(), op.getInputs(),
                                          (int64_t)op.getDim());
    return success();
  }
};

/// `tensor.pad` by a constant, with static amounts: along each padded dim
/// the source between two splat constants of the padding value (a
/// cs349.concat), so that fusion reads the source elementwise instead of
/// keeping an opaque kernel that writes the padded tensor.
struct PadPattern : OpRewritePattern<tensor::PadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tensor::PadOp op,
                                PatternRewriter &rewriter) const override {
    RankedTensorType sourceType = op.getSourceType();
    RankedTensorType type = op.getResultType();
    Value paddingValue = op.getConstantPaddingValue();
    TypedAttr padding;
    if (!import::isKernelTensorType(sourceType) ||
        !import::isKernelTensorType(type) || !paddingValue ||
        !matchPattern(paddingValue, m_Constant(&padding)))
      return failure();
    // The amounts may be constant operands (TOSA's lowering writes them so).
    std::optional<SmallVector<int64_t>> low =
        getConstantIntValues(op.getMixedLowPad());
    std::optional<SmallVector<int64_t>> high =
        getConstantIntValues(op.getMixedHighPad());
    auto negative = [](int64_t n) { return n < 0; };
    if (!low || !high || llvm::any_of(*low, negative) ||
        llvm::any_of(*high, negative))
      return failure();
    Location loc = op.getLoc();
    Value padded = op.getSource();
    SmallVector<int64_t> shape(sourceType.getShape());
    for (int64_t dim = 0; dim < type.getRank(); ++dim) {
      const int64_t before = (*low)[dim], after = (*high)[dim];
      if (before == 0 && after == 0)
        continue;
      SmallVector<Value> pieces;
      auto splat = [&](int64_t size) {
        SmallVector<int64_t> pieceShape(shape);
        pieceShape[dim] = size;
        auto pieceType =
            RankedTensorType::get(pieceShape, type.getElementType());
        return ConstantOp::create(rewriter, loc,
                                  DenseElementsAttr::get(pieceType, padding));
      };
      if (before > 0)
        pieces.push_back(splat(before));
      pieces.push_back(padded);
      if (after > 0)
        pieces.push_back(splat(after));
      shape[dim] += before + after;
      padded = ConcatOp::create(
          rewriter, loc, RankedTensorType::get(shape, type.getElementType()),
          pieces, dim);
    }
    rewriter.replaceOp(op, padded);
    return success();
  }
};

/// The last of a chain of `tensor.insert_slice`s that starts from a
/// `tensor.empty` and, piece by piece along one axis, fills every element:
/// the pieces concatenated in the order of their offsets.
struct InsertSliceChainPattern : OpRewritePattern<tensor::InsertSliceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tensor::InsertSliceOp last,
                                PatternRewriter &rewriter) const override {
    RankedTensorType type = last.getDestType();
    if (!import::isKernelTensorType(type))
      return failure();
    // The chain, from the last insert down to the empty tensor; each
    // intermediate result feeds only the next insert.
    SmallVector<tensor::InsertSliceOp> chain;
    Value dest = last.getResult();
    while (auto insert = dest.getDefiningOp<tensor::InsertSliceOp>()) {
      if (!chain.empty() && !insert->hasOneUse())
        return failure();
      chain.push_back(insert);
      dest = insert.getDest();
    }
    if (!dest.getDefiningOp<tensor::EmptyOp>())
      return failure();
    // Every piece spans the whole tensor except along one common axis.
    std::optional<int64_t> axis;
    struct Piece {
      int64_t offset, size;
      Value value;
    };
    SmallVector<Piece> pieces;
    for (tensor::InsertSliceOp insert : chain) {
      if (insert.getOffsets().size() || insert.getSizes().size() ||
          insert.getStrides().size() ||
          !import::isKernelTensorType(insert.getSourceType()))
        return failure();
      std::optional<int64_t> narrowed;
      for (int64_t dim = 0; dim < type.getRank(); ++dim) {
        if (insert.getStaticStrides()[dim] != 1)
          return failure();
        if (insert.getStaticOffsets()[dim] == 0 &&
            insert.getStaticSizes()[dim] == type.getDimSize(dim))
          continue;
        if (narrowed)
          return failure();
        narrowed = dim;
      }
      // A piece that covers everything leaves nothing for the others.
      if (!narrowed)
        return failure();
      if (axis && *axis != *narrowed)
        return failure();
      axis = narrowed;
      pieces.push_back({insert.getStaticOffsets()[*axis],
                        insert.getStaticSizes()[*axis], insert.getSource()});
    }
    llvm::stable_sort(pieces, [](const Piece &a, const Piece &b) {
      return a.offset < b.offset;
    });
    int64_t covered = 0;
    for (const Piece &piece : pieces) {
      if (piece.offset != covered)
        return failure(); // a gap or an overlap
      covered += piece.size;
    }
    if (covered != type.getDimSize(*axis))
      return failure();
    SmallVector<Value> inputs;
    for (const Piece &piece : pieces) {
      SmallVector<int64_t> shape(type.getShape());
      shape[*axis] = piece.size;
      inputs.push_back(reshapeTo(
          rewriter, last.getLoc(), piece.value,
          RankedTensorType::get(shape, type.getElementType())));
    }
    rewriter.replaceOpWithNewOp<ConcatOp>(last, type, inputs, *axis);
    return success();
  }
};

/// A `linalg.generic` that looks rows of a table up by integer ids:
///
///   ins(%ids : tensor<I...xi64>) outs(tensor<I...xS...xf32>)
///   ^bb0(%id: i64, %out: f32):
///     %i = arith.index_cast %id : i64 to index
///     %s = linalg.index k : index            (one per table dim after 0)
///     tensor.extract %table[%i, %s...]
///
/// is cs349.gather of the table's rows (axis 0). Batched lookups, where
/// the table has leading batch dims indexed by the ids' leading loops
/// (`%table[linalg.index 0, %i, %s...]`, as tosa.gather lowers: the
/// table [N, K, C] and ids [N, W] give [N, W, C]), or by a constant 0 for
/// a batch of one, are one gather per batch of the sliced table by the
/// sliced ids, joined by a concat (at most kMaxGatherBatches of them), or
/// one gather by all the ids when every batch reads the same table. Any
/// index into a dim of size one may be the constant 0.
/// Bounds checks (`cf.assert` of `%i < rows` and `%id >= 0`) are dropped:
/// cs349.gather reads the nearest row instead, so ids outside the table
/// no longer stop the program (docs/importing.md says so).
struct GatherPattern : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;
  static constexpr int64_t kMaxGatherBatches = 64;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1 ||
        op.getNumReductionLoops() != 0)
      return failure();
    Value ids = op.getDpsInputOperand(0)->get();
    auto idsType = dyn_cast<RankedTensorType>(ids.getType());
    auto resultType = dyn_cast<RankedTensorType>(op.getResult(0).getType());
    if (!idsType || !import::isKernelTensorType(idsType) || !resultType ||
        !import::isCS349TensorType(resultType) ||
        !isa<IntegerType>(idsType.getElementType()))
      return failure();
    // The ids are read at the leading loops, the result at all of them.
    const int64_t idRank = idsType.getRank();
    const int64_t loops = op.getNumLoops();
    AffineMap idsMap = op.getMatchingIndexingMap(op.getDpsInputOperand(0));
    AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
    if (!outMap.isIdentity() ||
        idsMap != AffineMap::getMultiDimIdentityMap(loops, op.getContext())
                      .getMajorSubMap(idRank))
      return failure();

    Block &body = op.getRegion().front();
    auto yield = cast<linalg::YieldOp>(body.getTerminator());
    auto extract = yield.getValues()[0].getDefiningOp<tensor::ExtractOp>();
    if (!extract || extract->getBlock() != &body)
      return failure();
    Value table = extract.getTensor();
    auto tableType = dyn_cast<RankedTensorType>(table.getType());
    if (!tableType || !import::isCS349TensorType(tableType) ||
        table.getParentRegion() == &op.getRegion() ||
        tableType.getElementType() != resultType.getElementType())
      return failure();
    // The loaded id indexes the table's dim `batchRank`; the dims before
    // it are batch dims.
    BlockArgument id = body.getArgument(0);
    auto indices = extract.getIndices();
    auto idAt = llvm::find_if(indices, [&](Value index) {
      auto cast = index.getDefiningOp<arith::IndexCastOp>();
      return cast && cast.getIn() == id;
    });
    if (idAt == indices.end())
      return failure();
    auto idCast = (*idAt).getDefiningOp<arith::IndexCastOp>();
    const int64_t batchRank = idAt - indices.begin();
    const int64_t rowRank = tableType.getRank() - batchRank - 1;
    if (batchRank > idRank || idRank + rowRank != loops)
      return failure();
    SmallVector<int64_t> gathered(idsType.getShape());
    llvm::append_range(gathered,
                       tableType.getShape().drop_front(batchRank + 1));
    if (resultType.getShape() != ArrayRef<int64_t>(gathered))
      return failure();
    // A batch index is the batch loop itself over equal sizes, or 0 into
    // a batch of one (the table is shared by every batch of ids).
    SmallVector<bool> sharedBatch;
    for (int64_t k = 0; k < batchRank; ++k) {
      Value index = indices[k];
      auto loop = index.getDefiningOp<linalg::IndexOp>();
      if (loop && (int64_t)loop.getDim() == k &&
          tableType.getDimSize(k) == idsType.getDimSize(k)) {
        sharedBatch.push_back(false);
        continue;
      }
      if (isZeroIndex(index) && tableType.getDimSize(k) == 1) {
        sharedBatch.push_back(true);
        continue;
      }
      return failure();
    }
    // Index batchRank + 1 + k is the loop idRank + k, or 0 along a dim of
    // one (which the lowering folds the loop's index to).
    for (auto [k, index] :
         llvm::enumerate(indices.drop_front(batchRank + 1))) {
      auto loop = index.getDefiningOp<linalg::IndexOp>();
      if (loop && (int64_t)loop.getDim() == idRank + (int64_t)k)
        continue;
      if (!isZeroIndex(index) || tableType.getDimSize(batchRank + 1 + k) != 1)
        return failure();
    }
    // Nothing else in the body but the bounds checks of the id.
    const int64_t rows = tableType.getDimSize(batchRank);
    for (Operation &inner : body.without_terminator()) {
      if (&inner == extract.getOperation() || &inner == idCast.getOperation() ||
          isa<linalg::IndexOp, arith::ConstantOp>(inner))
        continue;
      if (auto assertOp = dyn_cast<cf::AssertOp>(inner)) {
        if (!isBoundsCheck(assertOp.getArg(), idCast.getResult(), id, rows))
          return failure();
        continue;
      }
      if (auto compare = dyn_cast<arith::CmpIOp>(inner)) {
        if (llvm::all_of(compare->getUsers(),
                         [](Operation *user) { return isa<cf::AssertOp>(user); }))
          continue;
      }
      return failure();
    }
    ArrayRef<int64_t> batchShape = idsType.getShape().take_front(batchRank);
    const int64_t batches = ShapedType::getNumElements(batchShape);
    if (batches > kMaxGatherBatches)
      return rewriter.notifyMatchFailure(op, "too many batches");
    Location loc = op.getLoc();
    ArrayRef<int64_t> idShape = idsType.getShape().drop_front(batchRank);
    ArrayRef<int64_t> rowShape = tableType.getShape().drop_front(batchRank);
    // One table for every batch: all ids look rows of it up at once.
    if (llvm::all_of(sharedBatch, [](bool shared) { return shared; })) {
      Value rowsOnly = reshapeTo(
          rewriter, loc, table,
          RankedTensorType::get(rowShape, tableType.getElementType()));
      rewriter.replaceOpWithNewOp<GatherOp>(op, resultType, rowsOnly, ids,
                                            (int64_t)0);
      return success();
    }

    // One gather per batch: the batch's rows [K, S...] by its ids [W...].
    auto sliceAt = [&](Value value, ArrayRef<int64_t> coordinates) {
      auto type = cast<RankedTensorType>(value.getType());
      SmallVector<int64_t> axes, offsets, sizes, strides;
      SmallVector<int64_t> shape(type.getShape());
      for (auto [axis, coordinate] : llvm::enumerate(coordinates)) {
        if (type.getDimSize(axis) == 1)
          continue;
        axes.push_back(axis);
        offsets.push_back(coordinate);
        sizes.push_back(1);
        strides.push_back(1);
        shape[axis] = 1;
      }
      if (axes.empty())
        return value;
      return (Value)SliceOp::create(
          rewriter, loc, type.clone(shape), value,
          rewriter.getDenseI64ArrayAttr(axes),
          rewriter.getDenseI64ArrayAttr(offsets),
          rewriter.getDenseI64ArrayAttr(sizes),
          rewriter.getDenseI64ArrayAttr(strides));
    };
    // A batch's gather is [W..., S...]; the concat joins them as [1, ...].
    SmallVector<int64_t> pieceOf(idShape);
    llvm::append_range(pieceOf, rowShape.drop_front());
    SmallVector<int64_t> pieceShape{1};
    llvm::append_range(pieceShape, pieceOf);
    SmallVector<Value> pieces;
    SmallVector<int64_t> batchStrides = computeStrides(batchShape);
    for (int64_t batch = 0; batch < batches; ++batch) {
      SmallVector<int64_t> coordinates = delinearize(batch, batchStrides);
      SmallVector<int64_t> tableCoordinates(coordinates);
      for (int64_t k = 0; k < batchRank; ++k)
        if (sharedBatch[k])
          tableCoordinates[k] = 0;
      Value batchRows = reshapeTo(
          rewriter, loc, sliceAt(table, tableCoordinates),
          RankedTensorType::get(rowShape, tableType.getElementType()));
      Value batchIds = reshapeTo(
          rewriter, loc, sliceAt(ids, coordinates),
          RankedTensorType::get(idShape, idsType.getElementType()));
      Value piece = GatherOp::create(
          rewriter, loc,
          RankedTensorType::get(pieceOf, resultType.getElementType()),
          batchRows, batchIds, (int64_t)0);
      pieces.push_back(reshapeTo(
          rewriter, loc, piece, resultType.clone(pieceShape)));
    }
    Value joined = pieces.front();
    if (pieces.size() > 1) {
      SmallVector<int64_t> joinedShape(pieceShape);
      joinedShape[0] = batches;
      joined = ConcatOp::create(rewriter, loc, resultType.clone(joinedShape),
                                pieces, (int64_t)0);
    }
    rewriter.replaceOp(op, reshapeTo(rewriter, loc, joined, resultType));
    return success();
  }

  /// The constant index 0 (what the lowering folds a loop over one to).
  static bool isZeroIndex(Value index) {
    APInt value;
    return matchPattern(index, m_ConstantInt(&value)) && value.isZero();
  }

  /// `index < rows` or `id >= 0` (either operand order).
  static bool isBoundsCheck(Value condition, Value index, Value id,
                            int64_t rows) {
    auto compare = condition.getDefiningOp<arith::CmpIOp>();
    if (!compare)
      return false;
    auto isConstant = [](Value value, int64_t expected) {
      APInt constant;
      return matchPattern(value, m_ConstantInt(&constant)) &&
             constant.getSExtValue() == expected;
    };
    using P = arith::CmpIPredicate;
    Value lhs = compare.getLhs(), rhs = compare.getRhs();
    P predicate = compare.getPredicate();
    if (predicate == P::slt || predicate == P::ult)
      return lhs == index && isConstant(rhs, rows);
    if (predicate == P::sgt || predicate == P::ugt)
      return rhs == index && isConstant(lhs, rows);
    if (predicate == P::sge)
      return lhs == id && isConstant(rhs, 0);
    if (predicate == P::sle)
      return rhs == id && isConstant(lhs, 0);
    return false;
  }
};

/// RoPE's rotate-half as front ends write it: the two halves of the last
/// dim, the upper one negated, joined in swapped order.
///   concat(neg(slice(x, [h, 2h))), slice(x, [0, h))) -> rotate_half(x)
struct RotateHalfPattern : OpRewritePattern<ConcatOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConcatOp op,
                                PatternRewriter &rewriter) const override {
    RankedTensorType type = op.getType();
    const int64_t last = type.getRank() - 1;
    if (op.getInputs().size() != 2 || int64_t(op.getAxis()) != last ||
        type.getDimSize(last) % 2 != 0)
      return failure();
    const int64_t half = type.getDimSize(last) / 2;
    Value negated = negatedInput(op.getInputs()[0]);
    if (!negated)
      return failure();
    Value upper = halfOf(negated, last, half, half);
    Value lower = halfOf(op.getInputs()[1], last, 0, half);
    if (!upper || !lower || !sameTensor(upper, lower) ||
        upper.getType() != type)
      return failure();
    rewriter.replaceOpWithNewOp<RotateHalfOp>(op, type, upper);
    return success();
  }

  /// Equal, or the same reshape of one tensor (each extract_slice of a
  /// front end's 4-D tensor gets its own reshape when the batch dim goes).
  static bool sameTensor(Value a, Value b) {
    if (a == b)
      return true;
    auto ra = a.getDefiningOp<ReshapeOp>(), rb = b.getDefiningOp<ReshapeOp>();
    return ra && rb && ra.getInput() == rb.getInput() &&
           a.getType() == b.getType();
  }

  /// The x of which `value` is -x, also where the negation happened on a
  /// reshape of x (front ends drop unit dims around it):
  /// reshape(neg(reshape(x))) of x's type.
  static Value negatedInput(Value value) {
    if (auto neg = value.getDefiningOp<NegOp>())
      return neg.getInput();
    auto outer = value.getDefiningOp<ReshapeOp>();
    auto neg = outer ? outer.getInput().getDefiningOp<NegOp>() : NegOp();
    auto inner = neg ? neg.getInput().getDefiningOp<ReshapeOp>() : ReshapeOp();
    if (!inner || inner.getInput().getType() != value.getType())
      return nullptr;
    return inner.getInput();
  }

  /// The x of which `value` is x[..., offset : offset + size] (a slice of
  /// the last dim only), else null.
  static Value halfOf(Value value, int64_t last, int64_t offset,
                      int64_t size) {
    auto slice = value.getDefiningOp<SliceOp>();
    if (!slice || slice.getAxes() != ArrayRef<int64_t>{last} ||
        slice.getOffsets() != ArrayRef<int64_t>{offset} ||
        slice.getSizes() != ArrayRef<int64_t>{size} ||
        slice.getStrides() != ArrayRef<int64_t>{1})
      return nullptr;
    return slice.getInput();
  }
};

} // namespace

void mlir::cs349::import::populateDataMovementPatterns(
    RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  // Before GenericPattern, which would wrap the lookup's body as opaque.
  patterns.add<GatherPattern>(context, /*benefit=*/2);
  patterns.add<ExtractSlicePattern, ConcatPattern, InsertSliceChainPattern,
               PadPattern, RotateHalfPattern>(context);
}
