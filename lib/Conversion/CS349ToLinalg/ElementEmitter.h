//===- ElementEmitter.h - cs349 values as scalar code -------------*- C++ -*-===//
//
// The core of the cs349 -> linalg lowering: code that computes one element of
// a cs349 value at given indices. A value either lives in a tensor (a kernel
// result, a scratch intermediate, a function argument, a dense constant) and
// is read with tensor.extract, or it is recomputed from its operands where it
// is read. Views only change the indices; constant data is computed from
// them.
//
//===----------------------------------------------------------------------===//

#ifndef CS349_LIB_CONVERSION_CS349TOLINALG_ELEMENTEMITTER_H
#define CS349_LIB_CONVERSION_CS349TOLINALG_ELEMENTEMITTER_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::cs349 {
class AttentionOp;
class ConcatOp;

namespace lowering {

class ElementEmitter {
public:
  explicit ElementEmitter(MLIRContext *context);

  /// The arithmetic type: every element is computed in it.
  FloatType computeType() const { return f32; }

  /// `value` is stored in `tensor` (of the same type).
  void setTensor(Value value, Value tensor) { tensors[value] = tensor; }
  Value getTensor(Value value) const { return tensors.lookup(value); }
  /// A kernel's block argument reads the kernel's operand.
  void setAlias(Value blockArgument, Value operand) {
    aliases[blockArgument] = operand;
  }

  /// Whether `op` can be computed element by element where it is read
  /// (everything but attention, kernels and ops of other dialects).
  static bool isComputable(Operation *op);

  /// The f32 value of `value` at `indices` (one index per dimension),
  /// emitted at `b`'s insertion point.
  Value read(OpBuilder &b, Location loc, Value value, ValueRange indices);

  /// The f32 value of `op`'s result at `indices`, computed from its operands
  /// and rounded to the result's element type.
  Value compute(OpBuilder &b, Location loc, Operation *op, ValueRange indices);

  /// Fills `dest` with `value`: one all-parallel linalg.generic whose body
  /// computes the value (if it is not stored yet) or reads it (a copy).
  Value materialize(OpBuilder &b, Location loc, Value value, Value dest);

  /// Rounds an f32 value to `type` and back, as storing it would.
  Value round(OpBuilder &b, Location loc, Value x, Type type);
  /// f32 -> `type` for a store.
  Value narrow(OpBuilder &b, Location loc, Value x, Type type);
  /// `type` -> f32 after a load.
  Value widen(OpBuilder &b, Location loc, Value x);

  Value index(OpBuilder &b, Location loc, int64_t value);
  Value constant(OpBuilder &b, Location loc, double value);

private:
  Value readUncached(OpBuilder &b, Location loc, Value value,
                     ValueRange indices);
  Value computeUnrounded(OpBuilder &b, Location loc, Operation *op,
                         ValueRange indices);
  /// The element of a concatenation: the input whose range holds the index
  /// along the axis, read only in its own branch.
  Value readConcat(OpBuilder &b, Location loc, ConcatOp concat,
                   ValueRange indices);
  /// Indices into an operand of shape `shape` broadcast to `indices`.
  SmallVector<Value> broadcastIndices(OpBuilder &b, Location loc,
                                      ArrayRef<int64_t> shape,
                                      ArrayRef<int64_t> resultShape,
                                      ValueRange indices);
  /// Folds `f` over `count` values of `axis` with an scf.for.
  Value reduceAxis(OpBuilder &b, Location loc, int64_t count, Value init,
                   function_ref<Value(OpBuilder &, Location, Value, Value)> f);

  /// A value read earlier at the same indices, if it is visible at `b`'s
  /// insertion point: x*x or silu's two reads of x compute x once.
  Value lookupRead(OpBuilder &b, Value value, ValueRange indices);

  FloatType f32;
  struct Read {
    SmallVector<Value> indices;
    Value result;
  };
  llvm::DenseMap<Value, SmallVector<Read>> reads;
  llvm::DenseMap<Value, Value> tensors;
  llvm::DenseMap<Value, Value> aliases;
};

/// Which values of a kernel body get a scratch tensor: with `allowScratch`,
/// a reduction or contraction whose elements would otherwise be recomputed
/// more than once per kernel run; in any case every attention (it has no
/// per-element form). Yielded values are not included (they are computed
/// into the kernel's results).
llvm::DenseSet<Value> chooseScratchValues(Block &body, bool allowScratch);

/// The FlashAttention loop nest of `op`, writing into `dest`.
Value emitFlashAttention(OpBuilder &b, AttentionOp op, ElementEmitter &emitter,
                         Value dest, int64_t blockSize);

} // namespace lowering
} // namespace mlir::cs349

#endif // CS349_LIB_CONVERSION_CS349TOLINALG_ELEMENTEMITTER_H
