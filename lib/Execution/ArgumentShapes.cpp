//===- ArgumentShapes.cpp - run a dynamic function at given sizes ---------===//
//
// A front end's program with dynamic sizes runs as written once its
// arguments have sizes: it is called with static tensors of the sizes
// `--arg-shapes` gives, cast to the dynamic types on entry, so that its ops
// compute with the types they were written with (and upstream's lowering
// decides what to make of them). Its results come back in the static types
// the importer derives for the same sizes, so that a run of the original
// and a run of its import compare value for value. Those types are the
// importer's word, not the program's: each result's sizes are compared at
// run time, and a result whose sizes differ is reported, never read.
//
//===----------------------------------------------------------------------===//

#include "ArgumentShapes.h"

#include "cs349/Import/ArgumentShapes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/Support/DebugStringHelper.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;

namespace cs349::run {
namespace {
bool hasDynamicShape(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  return shaped && !shaped.hasStaticShape();
}

/// `value` (written as a dynamic tensor) in the static type `type` when its
/// sizes at run time are those, else zeros of that type; `same` says which.
Value castIfSameSizes(OpBuilder &builder, Location loc, Value value,
                      RankedTensorType type, Value &same) {
  auto written = cast<RankedTensorType>(value.getType());
  same = arith::ConstantIntOp::create(builder, loc, /*value=*/1, /*width=*/1);
  for (int64_t dim = 0; dim < type.getRank(); ++dim) {
    if (!written.isDynamicDim(dim))
      continue;
    Value size = tensor::DimOp::create(builder, loc, value, dim);
    Value expected =
        arith::ConstantIndexOp::create(builder, loc, type.getDimSize(dim));
    Value equal = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                                        size, expected);
    same = arith::AndIOp::create(builder, loc, same, equal);
  }
  auto choice = scf::IfOp::create(builder, loc, TypeRange{type}, same,
                                  /*addThenBlock=*/true,
                                  /*addElseBlock=*/true);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(choice.thenBlock());
  Value cast = tensor::CastOp::create(builder, loc, type, value);
  scf::YieldOp::create(builder, loc, cast);
  builder.setInsertionPointToStart(choice.elseBlock());
  Value empty = tensor::EmptyOp::create(builder, loc, type.getShape(),
                                        type.getElementType());
  Value zero = arith::ConstantOp::create(
      builder, loc, builder.getZeroAttr(type.getElementType()));
  Value zeros = linalg::FillOp::create(builder, loc, zero, empty).getResult(0);
  scf::YieldOp::create(builder, loc, zeros);
  return choice.getResult(0);
}
} // namespace

llvm::Expected<bool> giveArgumentShapes(func::FuncOp func,
                                        ArrayRef<std::string> entries) {
  const std::string name = "@" + func.getName().str();
  ArrayRef<Type> written = func.getArgumentTypes();
  auto firstDynamic = llvm::find_if(written, hasDynamicShape);
  if (firstDynamic == written.end())
    return false;
  if (entries.empty())
    return llvm::createStringError(name + ": argument #" +
                   llvm::Twine(firstDynamic - written.begin()) + " is " +
                   debugString(*firstDynamic) +
                   ": give dynamic arguments sizes with "
                   "--arg-shapes=INDEX:SHAPE,... (e.g. 0:1x128)");
  std::string error;
  FailureOr<SmallVector<mlir::cs349::ArgumentShape>> shapes =
      mlir::cs349::parseArgumentShapes(entries, error);
  if (failed(shapes))
    return llvm::createStringError("--" + error);
  if (func.isExternal())
    return llvm::createStringError(name + " has no body");
  FailureOr<FunctionType> inferred =
      mlir::cs349::inferStaticSignature(func, *shapes);
  if (failed(inferred))
    return llvm::createStringError(name + " does not take the sizes --arg-shapes gives "
                          "(the error above says where)");
  for (auto [index, type] : llvm::enumerate(inferred->getInputs()))
    if (hasDynamicShape(type))
      return llvm::createStringError(name + ": no --arg-shapes entry fits argument #" +
                     llvm::Twine(index) + " (" + debugString(type) +
                     "): an entry for index " + llvm::Twine(index) +
                     " must have its rank and repeat its static sizes");
  ArrayRef<Type> results = inferred->getResults();
  for (auto [index, type] : llvm::enumerate(results)) {
    if (hasDynamicShape(type))
      return llvm::createStringError(name + ": the sizes of result #" + llvm::Twine(index) +
                     " (" + debugString(type) +
                     ") do not follow from the argument sizes before the run");
    if (!isa<RankedTensorType>(func.getResultTypes()[index]) &&
        func.getResultTypes()[index] != type)
      return llvm::createStringError(name + ": result #" + llvm::Twine(index) + " is " +
                     debugString(func.getResultTypes()[index]) +
                     "; a result with dynamic sizes runs only ranked");
  }

  // Upstream's TOSA-to-linalg lowering of a reduction with dynamic sizes
  // builds a tensor.expand_shape from the result type, and crashes doing
  // it (Debian's LLVM has no assertions to stop it first) unless that type
  // is the operand's with 1 on the reduced axis, as TOSA defines it.
  WalkResult reduction = func.walk([](Operation *op) {
    bool unlowerable =
        llvm::TypeSwitch<Operation *, bool>(op)
            .Case<tosa::ReduceAllOp, tosa::ReduceAnyOp, tosa::ReduceMaxOp,
                  tosa::ReduceMinOp, tosa::ReduceProductOp,
                  tosa::ReduceSumOp>([](auto reduce) {
              auto input =
                  dyn_cast<RankedTensorType>(reduce.getInput().getType());
              auto result = dyn_cast<RankedTensorType>(reduce.getType());
              if (!input || !result)
                return true;
              if (input.hasStaticShape() && result.hasStaticShape())
                return false;
              SmallVector<int64_t> defined(input.getShape());
              defined[reduce.getAxis()] = 1;
              return result.getShape() != ArrayRef<int64_t>(defined);
            })
            .Default(false);
    if (!unlowerable)
      return WalkResult::advance();
    op->emitOpError("cannot be run as written: upstream's lowering to linalg "
                    "of a reduction with dynamic sizes needs the result type "
                    "to be the operand's with 1 on the reduced axis");
    return WalkResult::interrupt();
  });
  if (reduction.wasInterrupted())
    return llvm::createStringError(name + " cannot run with --arg-shapes (the error above "
                          "says why)");

  // The ops built below may be of dialects the program does not use.
  MLIRContext *context = func.getContext();
  context->loadDialect<arith::ArithDialect, linalg::LinalgDialect,
                       scf::SCFDialect, tensor::TensorDialect>();
  Block &entry = func.getBody().front();
  OpBuilder builder = OpBuilder::atBlockBegin(&entry);
  for (auto [argument, type] :
       llvm::zip_equal(entry.getArguments(), inferred->getInputs())) {
    if (argument.getType() == type)
      continue;
    Type asWritten = argument.getType();
    argument.setType(type);
    Value cast =
        tensor::CastOp::create(builder, argument.getLoc(), asWritten, argument);
    argument.replaceAllUsesExcept(cast, cast.getDefiningOp());
  }
  SmallVector<Type> resultTypes(results.begin(), results.end());
  if (!results.empty()) {
    auto flagsType = RankedTensorType::get({int64_t(results.size())},
                                           builder.getI1Type());
    for (Block &block : func.getBody()) {
      auto ret = dyn_cast<func::ReturnOp>(block.getTerminator());
      if (!ret)
        continue;
      builder.setInsertionPoint(ret);
      SmallVector<Value> values, flags;
      for (auto [value, type] : llvm::zip_equal(ret.getOperands(), results)) {
        Value same;
        if (value.getType() == type) {
          same = arith::ConstantIntOp::create(builder, ret.getLoc(), 1, 1);
          values.push_back(value);
        } else {
          values.push_back(castIfSameSizes(builder, ret.getLoc(), value,
                                           cast<RankedTensorType>(type), same));
        }
        flags.push_back(same);
      }
      values.push_back(tensor::FromElementsOp::create(builder, ret.getLoc(),
                                                      flagsType, flags));
      func::ReturnOp::create(builder, ret.getLoc(), values);
      ret.erase();
    }
    resultTypes.push_back(flagsType);
  }
  func.setType(FunctionType::get(context, entry.getArgumentTypes(),
                                 resultTypes));
  return true;
}

} // namespace cs349::run
