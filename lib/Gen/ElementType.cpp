//===- ElementType.cpp - element types the generators emit ----------------===//

#include "cs349/Gen/ElementType.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::cs349::gen;

std::optional<ElementKind>
mlir::cs349::gen::parseElementKind(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<ElementKind>>(name)
      .Case("bf16", ElementKind::BF16)
      .Case("f16", ElementKind::F16)
      .Case("f32", ElementKind::F32)
      .Default(std::nullopt);
}

llvm::StringRef mlir::cs349::gen::elementKindName(ElementKind kind) {
  switch (kind) {
  case ElementKind::BF16:
    return "bf16";
  case ElementKind::F16:
    return "f16";
  case ElementKind::F32:
    return "f32";
  }
  llvm_unreachable("unknown element kind");
}

FloatType mlir::cs349::gen::getElementType(MLIRContext *context,
                                           ElementKind kind) {
  switch (kind) {
  case ElementKind::BF16:
    return BFloat16Type::get(context);
  case ElementKind::F16:
    return Float16Type::get(context);
  case ElementKind::F32:
    return Float32Type::get(context);
  }
  llvm_unreachable("unknown element kind");
}

int64_t mlir::cs349::gen::elementBytes(ElementKind kind) {
  return kind == ElementKind::F32 ? 4 : 2;
}

std::optional<int64_t>
mlir::cs349::gen::checkedProduct(llvm::ArrayRef<int64_t> factors) {
  int64_t product = 1;
  for (int64_t factor : factors)
    if (llvm::MulOverflow(product, factor, product))
      return std::nullopt;
  return product;
}
