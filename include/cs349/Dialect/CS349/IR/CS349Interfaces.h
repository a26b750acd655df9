//===- CS349Interfaces.h - what passes ask cs349 ops ------------*- C++ -*-===//

#ifndef CS349_DIALECT_CS349_IR_CS349INTERFACES_H
#define CS349_DIALECT_CS349_IR_CS349INTERFACES_H

#include "cs349/Dialect/CS349/IR/FusionKind.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir::cs349 {

/// The folder of ElementwiseOpInterface: evaluates the op element by element
/// when every operand is known (a constant, or a RoPE table no larger than
/// kMaxFoldElements), and at any size when every operand is a splat.
OpFoldResult foldElementwise(Operation *op, ArrayRef<Attribute> operands);

/// Result elements per element of operand `operandIndex`: how often an op
/// that reads its operands at the result's (broadcast) indices reads each.
double broadcastReadsPerElement(Operation *op, unsigned operandIndex);

/// The value `value` aliases: through any chain of views (ops declaring
/// ViewLikeOpInterface) to the first value no view defines.
Value followViews(Value value);

} // namespace mlir::cs349

#include "cs349/Dialect/CS349/IR/CS349Interfaces.h.inc"

#endif // CS349_DIALECT_CS349_IR_CS349INTERFACES_H
