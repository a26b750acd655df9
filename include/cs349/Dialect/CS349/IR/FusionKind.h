//===- FusionKind.h - what a kernel is built around -------------*- C++ -*-===//
//
// Public because ops declare their own kind (FusionOpInterface) and --fuse
// and its exercise (FusionRules.h) reason about kernels of these kinds.
//
//===----------------------------------------------------------------------===//

#ifndef CS349_DIALECT_CS349_IR_FUSIONKIND_H
#define CS349_DIALECT_CS349_IR_FUSIONKIND_H

namespace mlir::cs349 {

/// What a kernel is built around, as --fuse groups ops.
enum class FusionKind {
  /// A matmul: the kernel iterates over the matmul's output.
  Matmul,
  /// A row reduction (reduce_sum, reduce_max, softmax's statistics): the
  /// kernel iterates over the rows of the reduced input.
  Reduction,
  /// Only elementwise ops: the kernel iterates over its largest result.
  Elementwise,
  /// An op that stands alone (attention, composites, unknown ops).
  Single,
};

} // namespace mlir::cs349

#endif // CS349_DIALECT_CS349_IR_FUSIONKIND_H
