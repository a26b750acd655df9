//===- CS349DiscardableAttrs.cpp - what passes leave for later ------------===//
//
// The discardable attributes that passes write and later passes and the
// tools read (declared in CS349Dialect.td) are checked where they stand: on
// the right kind of op or argument, with the right type of value. A plan or a
// weight mapping edited by hand, or a misspelt cs349.* name, is then an error
// at the op that carries it instead of a surprise in whatever reads it.
//
//===----------------------------------------------------------------------===//

#include "cs349/Dialect/CS349/IR/CS349Dialect.h"
#include "cs349/Dialect/CS349/IR/CS349Ops.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::cs349;

namespace {

enum class Known {
  Plan,
  Arena,
  Initializer,
  InitializedBy,
  LayerArg,
  InitResult,
  FoldedFrom,
  Opaque,
  Unknown
};

Known classify(StringRef name) {
  return llvm::StringSwitch<Known>(name)
      .Case(CS349Dialect::PlanAttrHelper::getNameStr(), Known::Plan)
      .Case(CS349Dialect::ArenaAttrHelper::getNameStr(), Known::Arena)
      .Case(CS349Dialect::InitializerAttrHelper::getNameStr(),
            Known::Initializer)
      .Case(CS349Dialect::InitializedByAttrHelper::getNameStr(),
            Known::InitializedBy)
      .Case(CS349Dialect::LayerArgAttrHelper::getNameStr(), Known::LayerArg)
      .Case(CS349Dialect::InitResultAttrHelper::getNameStr(),
            Known::InitResult)
      .Case(CS349Dialect::FoldedFromAttrHelper::getNameStr(),
            Known::FoldedFrom)
      .Case(CS349Dialect::OpaqueAttrHelper::getNameStr(), Known::Opaque)
      .Default(Known::Unknown);
}

/// Where a known attribute belongs, for the message when it is elsewhere.
StringRef place(Known kind) {
  switch (kind) {
  case Known::Plan:
  case Known::Opaque:
    return "a cs349.kernel";
  case Known::Arena:
  case Known::Initializer:
  case Known::InitializedBy:
    return "a function";
  case Known::LayerArg:
  case Known::InitResult:
    return "a function argument";
  case Known::FoldedFrom:
    return "a function argument or result";
  case Known::Unknown:
    break;
  }
  return "nothing";
}

bool isStringArray(Attribute value) {
  auto array = dyn_cast<ArrayAttr>(value);
  return array && llvm::all_of(array, llvm::IsaPred<StringAttr>);
}

LogicalResult unknownAttribute(Operation *op, StringAttr name) {
  return op->emitOpError("carries '")
         << name.getValue()
         << "', which the cs349 dialect does not define; it defines "
            "cs349.plan, cs349.arena, cs349.initializer, "
            "cs349.initialized_by, cs349.layer_arg, cs349.init_result, "
            "cs349.folded_from and cs349.opaque";
}

/// A non-negative integer (a position or an index), or an error.
LogicalResult verifyIndex(Operation *op, NamedAttribute attr,
                          const Twine &where) {
  auto index = dyn_cast<IntegerAttr>(attr.getValue());
  if (!index || !index.getType().isSignlessInteger(64) ||
      index.getValue().isNegative())
    return op->emitOpError("expects '")
           << attr.getName().getValue() << "' on " << where
           << " to be a non-negative i64 integer, got " << attr.getValue();
  return success();
}

LogicalResult verifyFoldedFrom(Operation *op, NamedAttribute attr,
                               const Twine &where) {
  if (!isStringArray(attr.getValue()))
    return op->emitOpError("expects '")
           << attr.getName().getValue() << "' on " << where
           << " to be an array of strings, got " << attr.getValue();
  return success();
}

/// That the function `ref` names on `op` (its cs349.initialized_by, found by
/// `lookup`) is an initializer.
LogicalResult verifyInitializerReference(
    Operation *op, FlatSymbolRefAttr ref,
    function_ref<Operation *(Operation *, StringAttr)> lookup) {
  StringRef name = CS349Dialect::InitializedByAttrHelper::getNameStr();
  auto init = dyn_cast_or_null<FunctionOpInterface>(lookup(op, ref.getAttr()));
  if (!init)
    return op->emitOpError("names ")
           << ref << " in '" << name << "', which is not a function";
  if (!init->hasAttr(CS349Dialect::InitializerAttrHelper::getNameStr()))
    return op->emitOpError("names ")
           << ref << " in '" << name << "', which is not tagged '"
           << CS349Dialect::InitializerAttrHelper::getNameStr() << "'";
  return success();
}

/// Checks the cs349.initialized_by of a func.func with the symbol tables
/// that the module's verification builds once for all its symbol users: the
/// attribute's own verifier, run per function, would scan the module for
/// each (quadratic in the number of functions).
struct InitializedByUser
    : SymbolUserOpInterface::ExternalModel<InitializedByUser, func::FuncOp> {
  LogicalResult verifySymbolUses(Operation *op,
                                 SymbolTableCollection &symbols) const {
    auto ref = dyn_cast_or_null<FlatSymbolRefAttr>(
        op->getAttr(CS349Dialect::InitializedByAttrHelper::getNameStr()));
    if (!ref) // absent, or not a reference: verifyOperationAttribute says so
      return success();
    return verifyInitializerReference(
        op, ref, [&](Operation *from, StringAttr symbol) {
          return symbols.lookupNearestSymbolFrom(from, symbol);
        });
  }
};

} // namespace

void mlir::cs349::detail::attachSymbolUserModels(MLIRContext &context) {
  func::FuncOp::attachInterface<InitializedByUser>(context);
}

LogicalResult CS349Dialect::verifyOperationAttribute(Operation *op,
                                                     NamedAttribute attr) {
  Known kind = classify(attr.getName().getValue());
  Attribute value = attr.getValue();
  StringRef name = attr.getName().getValue();
  auto misplaced = [&]() {
    return op->emitOpError("carries '")
           << name << "', which belongs on " << place(kind);
  };
  switch (kind) {
  case Known::Plan: {
    auto kernel = dyn_cast<KernelOp>(op);
    if (!kernel)
      return misplaced();
    auto buffers = dyn_cast<ArrayAttr>(value);
    if (!buffers || !llvm::all_of(buffers, llvm::IsaPred<BufferAttr>))
      return op->emitOpError("expects '")
             << name << "' to be an array of #cs349.buffer, got " << value;
    if (buffers.size() != kernel->getNumResults())
      return op->emitOpError("has ")
             << buffers.size() << " buffers in '" << name << "' for its "
             << kernel->getNumResults() << " results; expected one per result";
    return success();
  }
  case Known::Opaque:
    if (!isa<KernelOp>(op))
      return misplaced();
    if (!isStringArray(value))
      return op->emitOpError("expects '")
             << name << "' to be an array of op names, got " << value;
    return success();
  case Known::Arena:
    if (!isa<FunctionOpInterface>(op))
      return misplaced();
    if (!isa<ArenaAttr>(value))
      return op->emitOpError("expects '")
             << name << "' to be a #cs349.arena, got " << value;
    return success();
  case Known::Initializer:
    if (!isa<FunctionOpInterface>(op))
      return misplaced();
    if (!isa<UnitAttr>(value))
      return op->emitOpError("expects '")
             << name << "' to be a unit attribute, got " << value;
    return success();
  case Known::InitializedBy: {
    if (!isa<FunctionOpInterface>(op))
      return misplaced();
    auto ref = dyn_cast<FlatSymbolRefAttr>(value);
    if (!ref)
      return op->emitOpError("expects '")
             << name << "' to be a symbol reference, got " << value;
    // A func.func's reference is resolved with its module's symbol users
    // (InitializedByUser); another kind of function's here.
    if (isa<func::FuncOp>(op))
      return success();
    return verifyInitializerReference(
        op, ref, [](Operation *from, StringAttr symbol) {
          return SymbolTable::lookupNearestSymbolFrom(from, symbol);
        });
  }
  case Known::LayerArg:
  case Known::InitResult:
  case Known::FoldedFrom:
    return misplaced();
  case Known::Unknown:
    break;
  }
  return unknownAttribute(op, attr.getName());
}

LogicalResult CS349Dialect::verifyRegionArgAttribute(Operation *op,
                                                     unsigned regionIndex,
                                                     unsigned argIndex,
                                                     NamedAttribute attr) {
  Known kind = classify(attr.getName().getValue());
  StringRef name = attr.getName().getValue();
  if (kind == Known::Unknown)
    return unknownAttribute(op, attr.getName());
  auto function = dyn_cast<FunctionOpInterface>(op);
  if (!function ||
      (kind != Known::LayerArg && kind != Known::InitResult &&
       kind != Known::FoldedFrom))
    return op->emitOpError("carries '")
           << name << "' on argument #" << argIndex << ", but it belongs on "
           << place(kind);
  std::string where = "argument #" + std::to_string(argIndex);
  switch (kind) {
  case Known::LayerArg:
    return verifyIndex(op, attr, where);
  case Known::InitResult:
    if (failed(verifyIndex(op, attr, where)))
      return failure();
    if (!op->hasAttr(InitializedByAttrHelper::getNameStr()))
      return op->emitOpError("carries '")
             << name << "' on " << where << " but names no initializer ('"
             << InitializedByAttrHelper::getNameStr() << "')";
    if (!isa<ShapedType>(function.getArgumentTypes()[argIndex]))
      return op->emitOpError("carries '")
             << name << "' on " << where << ", which is not a tensor (or, bufferized, a memref)";
    return success();
  default:
    if (!isa<ShapedType>(function.getArgumentTypes()[argIndex]))
      return op->emitOpError("carries '")
             << name << "' on " << where << ", which is not a tensor (or, bufferized, a memref)";
    return verifyFoldedFrom(op, attr, where);
  }
}

LogicalResult CS349Dialect::verifyRegionResultAttribute(Operation *op,
                                                        unsigned regionIndex,
                                                        unsigned resultIndex,
                                                        NamedAttribute attr) {
  Known kind = classify(attr.getName().getValue());
  StringRef name = attr.getName().getValue();
  if (kind == Known::Unknown)
    return unknownAttribute(op, attr.getName());
  auto function = dyn_cast<FunctionOpInterface>(op);
  if (!function || kind != Known::FoldedFrom)
    return op->emitOpError("carries '")
           << name << "' on result #" << resultIndex << ", but it belongs on "
           << place(kind);
  std::string where = "result #" + std::to_string(resultIndex);
  if (!op->hasAttr(InitializerAttrHelper::getNameStr()))
    return op->emitOpError("carries '")
           << name << "' on " << where << " but is not tagged '"
           << InitializerAttrHelper::getNameStr() << "'";
  if (!isa<ShapedType>(function.getResultTypes()[resultIndex]))
    return op->emitOpError("carries '")
           << name << "' on " << where << ", which is not a tensor (or, bufferized, a memref)";
  return verifyFoldedFrom(op, attr, where);
}
