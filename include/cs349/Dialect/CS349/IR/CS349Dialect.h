//===- CS349Dialect.h - the cs349 dialect ------------------------*- C++ -*-===//

#ifndef CS349_DIALECT_CS349_IR_CS349DIALECT_H
#define CS349_DIALECT_CS349_IR_CS349DIALECT_H

#include "cs349/Dialect/CS349/IR/CS349Attrs.h"

#include "mlir/IR/Dialect.h"

// The dialect's discardable attributes are typed with its attributes.
#include "cs349/Dialect/CS349/IR/CS349OpsDialect.h.inc"

namespace mlir::cs349 {
/// True when the static tensor `type` has a byte size that fits in int64.
/// Every size computed from a cs349 type (folds, fusion, the memory plan,
/// the lowering) relies on it; the builtin type accepts shapes whose element
/// count overflows.
bool hasRepresentableSize(Type type);
/// The float tensors of cs349 arithmetic: static, ranked, of bf16, f16 or
/// f32, with a representable size. The type constraint of their operands and
/// results: it runs on every one of them each time a module is verified.
bool isStaticFloatTensor(Type type);
/// The integer element types of cs349 tensors: i1 masks, i32 and i64
/// indices (signless, as arith reads them).
bool isIntegerElementType(Type type);

namespace detail {
/// Makes func.func a symbol user that checks the cs349 symbol references it
/// carries; the dialect calls it when it is loaded.
void attachSymbolUserModels(MLIRContext &context);
} // namespace detail
} // namespace mlir::cs349

#endif // CS349_DIALECT_CS349_IR_CS349DIALECT_H
