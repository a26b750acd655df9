//===- ElementType.cpp - ElementKind and MLIR's float types ---------------===//

#include "cs349/Support/ElementType.h"

#include "llvm/Support/ErrorHandling.h"

using namespace mlir;

std::optional<::cs349::ElementKind> mlir::cs349::getElementKind(Type type) {
  if (type.isBF16())
    return ElementKind::BF16;
  if (type.isF16())
    return ElementKind::F16;
  if (type.isF32())
    return ElementKind::F32;
  if (type.isSignlessInteger(1))
    return ElementKind::I1;
  if (type.isSignlessInteger(32))
    return ElementKind::I32;
  if (type.isSignlessInteger(64))
    return ElementKind::I64;
  return std::nullopt;
}

FloatType mlir::cs349::getElementType(MLIRContext *context, ElementKind kind) {
  switch (kind) {
  case ElementKind::BF16:
    return BFloat16Type::get(context);
  case ElementKind::F16:
    return Float16Type::get(context);
  case ElementKind::F32:
    return Float32Type::get(context);
  case ElementKind::I1:
  case ElementKind::I32:
  case ElementKind::I64:
    break;
  }
  llvm_unreachable("the generators' element types are floats");
}
