//===- CS349Dialect.cpp - the cs349 dialect -------------------------------===//

#include "cs349/Dialect/CS349/IR/CS349Dialect.h"
#include "cs349/Dialect/CS349/IR/CS349Attrs.h"
#include "cs349/Dialect/CS349/IR/CS349Ops.h"
#include "cs349/Support/TensorBytes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
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

bool mlir::cs349::hasRepresentableSize(Type type) {
  return getTensorBytes(type).has_value();
}

bool mlir::cs349::isStaticFloatTensor(Type type) {
  // getTensorBytes' count (the element count has to fit, then the bytes),
  // without building its answer and in one pass over the shape (checkedProduct
  // rejects a dynamic size): this runs for every operand and result each time
  // a module is verified.
  auto ranked = dyn_cast<RankedTensorType>(type);
  if (!ranked)
    return false;
  Type element = ranked.getElementType();
  if (!isa<BFloat16Type, Float16Type, Float32Type>(element))
    return false;
  std::optional<int64_t> elements = checkedProduct(ranked.getShape());
  return elements &&
         checkedMultiply(*elements, isa<Float32Type>(element) ? 4 : 2);
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
  detail::attachSymbolUserModels(*getContext());
}

Operation *CS349Dialect::materializeConstant(OpBuilder &builder,
                                             Attribute value, Type type,
                                             Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  return ConstantOp::create(builder, loc, type, elements);
}
