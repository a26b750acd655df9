//===- CS349Folds.h - constant data helpers for folding ---------*- C++ -*-===//

#ifndef CS349_DIALECT_CS349_IR_CS349FOLDS_H
#define CS349_DIALECT_CS349_IR_CS349FOLDS_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"

#include <optional>
#include <vector>

namespace mlir::cs349 {

/// The largest tensor (in elements) that constant folding evaluates or
/// produces element by element. Larger results stay as ops: a [32, T, T] mask
/// or score tensor is never built at compile time by accident. Splats are the
/// exception: a splat result costs one element whatever its shape.
constexpr int64_t kMaxFoldElements = 1 << 16;

/// The most multiply-adds a matmul fold may spend; a fold with small operands
/// and result can still be a large contraction.
constexpr int64_t kMaxFoldWork = int64_t(1) << 22;

/// Whether a constant of this type may be produced by folding.
bool isFoldableSize(ShapedType type);

/// The value of a floating-point splat, if `attr` is one.
std::optional<double> getSplatValue(Attribute attr);

/// Whether `attr` is a floating-point splat equal to `value`.
bool isSplatOf(Attribute attr, double value);

/// All elements of a dense float constant no larger than kMaxFoldElements.
std::optional<std::vector<double>> readValues(Attribute attr);

/// A dense constant of `type` holding `values`, rounded to its element type;
/// one value makes a splat of any shape.
DenseElementsAttr makeElements(ShapedType type, ArrayRef<double> values);

/// The elements of `cs349.rope_table` (cos or sin) of `type` [T, dh]: column j
/// of row t is cos/sin(t * theta^(-2 (j mod dh/2) / dh)). None if the table is
/// larger than kMaxFoldElements.
std::optional<std::vector<double>> ropeTableValues(bool isSin, double theta,
                                                   ShapedType type);

} // namespace mlir::cs349

#endif // CS349_DIALECT_CS349_IR_CS349FOLDS_H
