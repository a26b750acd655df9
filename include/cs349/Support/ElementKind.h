//===- ElementKind.h - the element types of cs349 tensors --------*- C++ -*-===//
//
// Header-only and free of LLVM and MLIR: cs349-run's tensor data (plain C++)
// and the generators' --dtype flag speak of element types by this enum. Its
// bridge to MLIR types is ElementType.h.
//
//===----------------------------------------------------------------------===//

#ifndef CS349_SUPPORT_ELEMENTKIND_H
#define CS349_SUPPORT_ELEMENTKIND_H

#include <cstdint>
#include <optional>
#include <string_view>

namespace cs349 {

/// The element types a cs349 tensor may have.
enum class ElementKind { BF16, F16, F32 };

/// Bytes of one element in memory.
constexpr int64_t elementBytes(ElementKind kind) {
  return kind == ElementKind::F32 ? 4 : 2;
}

/// "bf16", "f16" or "f32": the spelling of MLIR's types and of --dtype.
constexpr const char *elementKindName(ElementKind kind) {
  switch (kind) {
  case ElementKind::BF16:
    return "bf16";
  case ElementKind::F16:
    return "f16";
  case ElementKind::F32:
    return "f32";
  }
  return "?";
}

/// The kind named `name` (as elementKindName spells it), or nullopt.
inline std::optional<ElementKind> parseElementKind(std::string_view name) {
  for (ElementKind kind : {ElementKind::BF16, ElementKind::F16, ElementKind::F32})
    if (name == elementKindName(kind))
      return kind;
  return std::nullopt;
}

} // namespace cs349

#endif // CS349_SUPPORT_ELEMENTKIND_H
