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

/// The element types a cs349 tensor may have: floats for the values,
/// integers for indices (I32, I64) and masks (I1).
enum class ElementKind { BF16, F16, F32, I1, I32, I64 };

/// Whether `kind` is one of the float types (what --dtype chooses from).
constexpr bool isFloatKind(ElementKind kind) {
  return kind == ElementKind::BF16 || kind == ElementKind::F16 ||
         kind == ElementKind::F32;
}

/// Bytes of one element in memory (an i1 takes a byte).
constexpr int64_t elementBytes(ElementKind kind) {
  switch (kind) {
  case ElementKind::BF16:
  case ElementKind::F16:
    return 2;
  case ElementKind::F32:
  case ElementKind::I32:
    return 4;
  case ElementKind::I1:
    return 1;
  case ElementKind::I64:
    return 8;
  }
  return 0;
}

/// "bf16", "f16", "f32", "i1", "i32" or "i64": the spelling of MLIR's types.
constexpr const char *elementKindName(ElementKind kind) {
  switch (kind) {
  case ElementKind::BF16:
    return "bf16";
  case ElementKind::F16:
    return "f16";
  case ElementKind::F32:
    return "f32";
  case ElementKind::I1:
    return "i1";
  case ElementKind::I32:
    return "i32";
  case ElementKind::I64:
    return "i64";
  }
  return "?";
}

/// The kind named `name` (as elementKindName spells it), or nullopt.
inline std::optional<ElementKind> parseElementKind(std::string_view name) {
  for (ElementKind kind : {ElementKind::BF16, ElementKind::F16, ElementKind::F32,
                           ElementKind::I1, ElementKind::I32, ElementKind::I64})
    if (name == elementKindName(kind))
      return kind;
  return std::nullopt;
}

} // namespace cs349

#endif // CS349_SUPPORT_ELEMENTKIND_H
