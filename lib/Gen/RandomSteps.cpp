//===- RandomSteps.cpp - what the random program generators share --------===//

#include "RandomSteps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"

llvm::Error mlir::cs349::gen::random::verifySteps(
    int64_t minSteps, int64_t maxSteps, int64_t most,
    llvm::ArrayRef<std::string> without,
    llvm::ArrayRef<llvm::StringRef> names) {
  if (minSteps < 0 || maxSteps < minSteps)
    return llvm::createStringError(
        "--ops expects MIN:MAX with 0 <= MIN <= MAX, got " +
        llvm::Twine(minSteps) + ":" + llvm::Twine(maxSteps));
  if (maxSteps > most)
    return llvm::createStringError("--ops allows at most " + llvm::Twine(most) +
                                   " steps, got " + llvm::Twine(maxSteps));
  for (const std::string &name : without)
    if (!llvm::is_contained(names, name))
      return llvm::createStringError("unknown step '" + name +
                                     "' in --without (expected one of " +
                                     llvm::join(names, ", ") + ")");
  return llvm::Error::success();
}

mlir::OwningOpRef<mlir::ModuleOp> mlir::cs349::gen::random::buildRandomFunction(
    MLIRContext &context,
    llvm::function_ref<SmallVector<Value>(OpBuilder &, Block *)> build) {
  context.loadDialect<func::FuncDialect>();
  OpBuilder builder(&context);
  OwningOpRef<ModuleOp> module = ModuleOp::create(builder.getUnknownLoc());
  builder.setInsertionPointToEnd(module->getBody());
  auto function = func::FuncOp::create(
      builder, NameLoc::get(builder.getStringAttr("random")), "random",
      builder.getFunctionType({}, {}));
  Block *entry = function.addEntryBlock();
  builder.setInsertionPointToStart(entry);
  SmallVector<Value> results = build(builder, entry);
  func::ReturnOp::create(builder, NameLoc::get(builder.getStringAttr("return")),
                         results);
  function.setFunctionType(builder.getFunctionType(
      entry->getArgumentTypes(), ValueRange(results).getTypes()));
  return module;
}
