//===- CS349Attrs.h - cs349 attributes ---------------------------*- C++ -*-===//

#ifndef CS349_DIALECT_CS349_IR_CS349ATTRS_H
#define CS349_DIALECT_CS349_IR_CS349ATTRS_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectImplementation.h"

#include "cs349/Dialect/CS349/IR/CS349Enums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "cs349/Dialect/CS349/IR/CS349Attrs.h.inc"

#endif // CS349_DIALECT_CS349_IR_CS349ATTRS_H
