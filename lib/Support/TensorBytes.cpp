//===- TensorBytes.cpp - the bytes a tensor occupies ----------------------===//

#include "cs349/Support/TensorBytes.h"

#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

std::optional<int64_t> mlir::cs349::getElementBytes(Type type) {
  // The element types of cs349 values first, by their TypeID: isIntOrFloat
  // and getIntOrFloatBitWidth go through the FloatType interface.
  if (isa<Float32Type>(type))
    return 4;
  if (isa<BFloat16Type, Float16Type>(type))
    return 2;
  if (auto integer = dyn_cast<IntegerType>(type))
    return llvm::divideCeil(integer.getWidth(), 8);
  if (!type.isIntOrFloat())
    return std::nullopt;
  return llvm::divideCeil(type.getIntOrFloatBitWidth(), 8);
}

std::optional<uint64_t> mlir::cs349::getTensorBytes(Type type,
                                                    std::string *whyNot) {
  auto explain = [&](auto &&...parts) -> std::optional<uint64_t> {
    if (whyNot) {
      whyNot->clear();
      llvm::raw_string_ostream os(*whyNot);
      (os << ... << parts);
    }
    return std::nullopt;
  };
  // Every operand and result of a cs349 op is checked here each time the
  // module is verified (after every pass by default): ranked tensors are read
  // directly, not through the ShapedType interface.
  ArrayRef<int64_t> shape;
  Type elementType;
  if (auto ranked = dyn_cast<RankedTensorType>(type)) {
    shape = ranked.getShape();
    elementType = ranked.getElementType();
  } else if (auto shaped = dyn_cast<ShapedType>(type);
             shaped && shaped.hasRank()) {
    shape = shaped.getShape();
    elementType = shaped.getElementType();
  } else {
    return explain(type, " is not a statically shaped type");
  }
  if (ShapedType::isDynamicShape(shape))
    return explain(type, " is not a statically shaped type");
  std::optional<int64_t> elementBytes = getElementBytes(elementType);
  if (!elementBytes)
    return explain("the elements of ", type, " are not integers or floats");
  std::optional<int64_t> elements = checkedProduct(shape);
  if (!elements)
    return explain("the element count of ", type,
                   " overflows a signed 64-bit integer");
  std::optional<int64_t> bytes = checkedMultiply(*elements, *elementBytes);
  if (!bytes)
    return explain("the bytes of ", type, " (", *elements, " elements x ",
                   *elementBytes, " bytes) overflow a signed 64-bit integer");
  return static_cast<uint64_t>(*bytes);
}
