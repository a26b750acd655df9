//===- ElementType.h - ElementKind and MLIR's float types --------*- C++ -*-===//

#ifndef CS349_SUPPORT_ELEMENTTYPE_H
#define CS349_SUPPORT_ELEMENTTYPE_H

#include "cs349/Support/ElementKind.h"

#include "mlir/IR/BuiltinTypes.h"

#include <optional>

namespace mlir::cs349 {

using ::cs349::ElementKind;

/// The kind of a bf16, f16, f32, i1, i32 or i64 type; nullopt for any other
/// type.
std::optional<ElementKind> getElementKind(Type type);
/// The MLIR type of a float `kind`.
FloatType getElementType(MLIRContext *context, ElementKind kind);

} // namespace mlir::cs349

#endif // CS349_SUPPORT_ELEMENTTYPE_H
