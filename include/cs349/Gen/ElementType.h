//===- ElementType.h - element types the generators emit --------*- C++ -*-===//
//
// The generators speak of element types by name (the --dtype flag) and need
// their byte size to refuse requests whose tensors could not be addressed.
//
//===----------------------------------------------------------------------===//

#ifndef CS349_GEN_ELEMENTTYPE_H
#define CS349_GEN_ELEMENTTYPE_H

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

namespace mlir::cs349::gen {

/// The element types of the cs349 dialect.
enum class ElementKind { BF16, F16, F32 };

/// Parses "bf16", "f16" or "f32".
std::optional<ElementKind> parseElementKind(llvm::StringRef name);
llvm::StringRef elementKindName(ElementKind kind);
mlir::FloatType getElementType(mlir::MLIRContext *context, ElementKind kind);
int64_t elementBytes(ElementKind kind);

/// The product of `factors`, or nullopt if it does not fit in an int64_t.
std::optional<int64_t> checkedProduct(llvm::ArrayRef<int64_t> factors);

} // namespace mlir::cs349::gen

#endif // CS349_GEN_ELEMENTTYPE_H
