//===- CS349Ops.h - cs349 operations -----------------------------*- C++ -*-===//

#ifndef CS349_DIALECT_CS349_IR_CS349OPS_H
#define CS349_DIALECT_CS349_IR_CS349OPS_H

#include "cs349/Dialect/CS349/IR/CS349Attrs.h"
#include "cs349/Dialect/CS349/IR/CS349Dialect.h"
#include "cs349/Dialect/CS349/IR/CS349Interfaces.h"
#include "cs349/Dialect/CS349/IR/CS349Traits.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#define GET_OP_CLASSES
#include "cs349/Dialect/CS349/IR/CS349Ops.h.inc"

#endif // CS349_DIALECT_CS349_IR_CS349OPS_H
