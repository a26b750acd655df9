//===- ImportPatterns.h - the steps of --import ------------------*- C++ -*-===//
//
// One file per concern: TOSA ops with a cs349 equivalent (TosaPatterns.cpp),
// upstream's lowering of the other TOSA ops (TosaLowering.cpp), raising
// linalg to cs349 (LinalgRaising.cpp) and moving data (DataMovement.cpp),
// simplifications of what front ends
// write (Simplify.cpp), opaque kernels for the rest (OpaqueKernels.cpp);
// static shapes for dynamic arguments first (StaticShapes.cpp).
// Adding a mapping is adding one pattern to one of these sets.
//
//===----------------------------------------------------------------------===//

#ifndef CS349_LIB_IMPORT_IMPORTPATTERNS_H
#define CS349_LIB_IMPORT_IMPORTPATTERNS_H

#include "cs349/Import/ArgumentShapes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"
#include "mlir/Support/LLVM.h"

namespace mlir {
namespace func {
class FuncOp;
}
namespace cs349::import {

/// Whether a value of `type` can be a cs349 tensor: statically shaped bf16,
/// f16 or f32 (what kernels read and write, and the planner places).
bool isCS349TensorType(Type type);

/// Whether a value of `type` can cross kernels: a statically shaped tensor
/// of a cs349 element type, float or i1/i32/i64.
bool isKernelTensorType(Type type);

/// A statically shaped tensor of i1: a mask, as cs349.compare makes and
/// cs349.select reads.
bool isMaskTensorType(Type type);

/// Whether the scalar op `op` of a linalg body (or the same op on whole
/// tensors) has a cs349 counterpart.
bool isRaisableScalarOp(Operation *op);

/// A value of `type`, holding `value` (a rank-0 cs349.constant when `type`
/// is a scalar float type).
Value createSplat(PatternRewriter &rewriter, Location loc, Type type,
                  double value);

/// TOSA ops that mean a cs349 op: rewritten directly.
void populateTosaPatterns(RewritePatternSet &patterns);

/// Lowers every TOSA op still in `func` with upstream's TOSA -> linalg,
/// tensor and arith patterns.
LogicalResult lowerRemainingTosa(func::FuncOp func);

/// linalg (generic and named), tensor reshapes and arith constants on
/// tensors that compute what cs349 ops compute.
void populateLinalgRaisingPatterns(RewritePatternSet &patterns);

/// Slices, concatenations (also as insert_slice chains), lookups by id and
/// the rotate-half they spell: cs349.slice, concat, gather, rotate_half.
void populateDataMovementPatterns(RewritePatternSet &patterns);

/// cs349 ops whose result has a leading unit dim (rank >= 3), on operands
/// without it: [1, T, D] -> [T, D], [1, H, T, dh] -> [H, T, dh].
void populateUnitDimPatterns(RewritePatternSet &patterns);

/// Rewrites of what front ends write into the ops cs349 has:
/// reciprocal-multiply, sigmoid-times-x, GQA as a broadcasting add of zeros.
void populateSimplifyPatterns(RewritePatternSet &patterns);

/// Wraps every op of `func` that is still not cs349 in an opaque
/// cs349.kernel. With `report`, a remark at each one says what it holds.
LogicalResult wrapOpaqueOps(func::FuncOp func, bool report);

/// Masks that opaque kernels compute from constants alone, evaluated:
/// those that are causal (or a sliding window) become cs349.causal_mask.
/// Returns whether any did.
bool foldConstantMasks(func::FuncOp func);

/// Why `op` has no cs349 equivalent, for the report.
std::string opaqueReason(Operation *op);

/// Gives each dynamic argument of `func` the first shape for its index that
/// fits it (its rank, its static sizes; any rank for an unranked tensor).
/// Users that are not TOSA ops see the old type through a tensor.cast.
void giveArgumentShapes(func::FuncOp func, ArrayRef<ArgumentShape> shapes);

/// Whether `func`'s values may get static shapes from its arguments: they
/// are static (given or as written), some op computes a dynamic shape, and
/// no other function calls it (the calls expect its types).
bool mayInferShapes(func::FuncOp func);

/// Folding that upstream's canonicalizations lack for propagateStaticShapes:
/// casts that hide static sizes into tensor.concat.
void populateStaticShapePatterns(RewritePatternSet &patterns);

/// What propagateStaticShapes applies: the canonicalizations of every
/// loaded dialect and registered op (as `canonicalize` gathers them) and
/// populateStaticShapePatterns.
FrozenRewritePatternSet buildStaticShapeCanonicalization(MLIRContext *context);

/// After TOSA's shape inference, where mayInferShapes: canonicalizes the
/// ops that are not TOSA ops, so that they take static shapes from their
/// operands, and returns the results that became static as such. A
/// cf.assert that the static sizes fail (sizes that contradict each other)
/// is a located error.
LogicalResult
propagateStaticShapes(func::FuncOp func,
                      const FrozenRewritePatternSet &canonicalization);

/// Dynamic shapes have no size to plan: the first value with one (an
/// argument, or a result) is reported, as an error or, when the function
/// is to be skipped, as a warning. `shapes` (arg-shapes) that were given
/// for a dynamic argument but did not fit it are named in a note.
LogicalResult checkStaticShapes(func::FuncOp func, bool skip,
                                ArrayRef<ArgumentShape> shapes);

} // namespace cs349::import
} // namespace mlir

#endif // CS349_LIB_IMPORT_IMPORTPATTERNS_H
