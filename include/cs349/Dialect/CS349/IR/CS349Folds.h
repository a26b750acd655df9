//===- CS349Folds.h - constant data helpers for folding ----------*- C++ -*-===//

#ifndef CS349_DIALECT_CS349_IR_CS349FOLDS_H
#define CS349_DIALECT_CS349_IR_CS349FOLDS_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"

#include <optional>
#include <vector>

namespace mlir::cs349 {

/// The largest tensor (in elements) that constant folding evaluates. Larger
/// results stay as ops: a [32, T, T] mask or score tensor is never built at
/// compile time by accident.
constexpr int64_t kMaxFoldElements = 1 << 16;

/// Whether a constant of this type may be produced by folding.
bool isFoldableSize(ShapedType type);

/// The value of a floating-point splat, if `attr` is one.
std::optional<double> getSplatValue(Attribute attr);

/// All elements of a dense float constant no larger than kMaxFoldElements.
std::optional<std::vector<double>> readValues(Attribute attr);

/// A dense constant of `type` holding `values`, rounded to its element type.
DenseElementsAttr makeElements(ShapedType type, ArrayRef<double> values);

} // namespace mlir::cs349

#endif // CS349_DIALECT_CS349_IR_CS349FOLDS_H
