//===- CS349Dialect.cpp - the cs349 dialect -------------------------------===//

#include "cs349/Dialect/CS349/IR/CS349Dialect.h"
#include "cs349/Dialect/CS349/IR/CS349Attrs.h"
#include "cs349/Dialect/CS349/IR/CS349Ops.h"
#include "cs349/Support/TensorBytes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::cs349;

#include "cs349/Dialect/CS349/IR/CS349OpsDialect.cpp.inc"
#include "cs349/Dialect/CS349/IR/CS349Enums.cpp.inc"
#define GET_ATTRDEF_CLASSES
#include "cs349/Dialect/CS349/IR/CS349Attrs.cpp.inc"

namespace {
/// Bytes of an f32, bf16 or f16 element; 0 for any other type.
int64_t floatElementBytes(Type element) {
  if (isa<Float32Type>(element))
    return 4;
  if (isa<BFloat16Type, Float16Type>(element))
    return 2;
  return 0;
}

/// Whether the elements of a static `shape`, then their bytes, fit in
/// int64, counted as getTensorBytes counts them.
bool fitsInInt64(ArrayRef<int64_t> shape, int64_t elementBytes) {
  int64_t elements = 1;
  for (int64_t extent : shape)
    if (extent < 0 || __builtin_mul_overflow(elements, extent, &elements))
      return false;
  int64_t bytes;
  return !__builtin_mul_overflow(elements, elementBytes, &bytes);
}
} // namespace

bool mlir::cs349::hasRepresentableSize(Type type) {
  if (auto ranked = dyn_cast<RankedTensorType>(type))
    if (int64_t bytes = floatElementBytes(ranked.getElementType()))
      return fitsInInt64(ranked.getShape(), bytes);
  return getTensorBytes(type).has_value();
}

bool mlir::cs349::isStaticFloatTensor(Type type) {
  auto ranked = dyn_cast<RankedTensorType>(type);
  if (!ranked)
    return false;
  int64_t bytes = floatElementBytes(ranked.getElementType());
  return bytes != 0 && fitsInInt64(ranked.getShape(), bytes);
}

bool mlir::cs349::isIntegerElementType(Type type) {
  return type.isSignlessInteger(1) || type.isSignlessInteger(32) ||
         type.isSignlessInteger(64);
}

void CS349Dialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "cs349/Dialect/CS349/IR/CS349Ops.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "cs349/Dialect/CS349/IR/CS349Attrs.cpp.inc"
      >();
}

Operation *CS349Dialect::materializeConstant(OpBuilder &builder,
                                             Attribute value, Type type,
                                             Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  return ConstantOp::create(builder, loc, type, elements);
}
