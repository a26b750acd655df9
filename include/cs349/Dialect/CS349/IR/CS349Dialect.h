//===- CS349Dialect.h - the cs349 dialect ------------------------*- C++ -*-===//

#ifndef CS349_DIALECT_CS349_IR_CS349DIALECT_H
#define CS349_DIALECT_CS349_IR_CS349DIALECT_H

#include "mlir/IR/Dialect.h"

#include "cs349/Dialect/CS349/IR/CS349OpsDialect.h.inc"

#endif // CS349_DIALECT_CS349_IR_CS349DIALECT_H
