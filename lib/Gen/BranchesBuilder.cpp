//===- BranchesBuilder.cpp - the order demo: k independent branches -------===//

#include "cs349/Gen/BranchesBuilder.h"

#include "cs349/Dialect/CS349/IR/CS349Dialect.h"
#include "cs349/Dialect/CS349/IR/CS349Ops.h"
#include "cs349/Support/TensorBytes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/Twine.h"

using namespace mlir;
using namespace mlir::cs349;
using namespace mlir::cs349::gen;

std::optional<BranchOrder>
mlir::cs349::gen::parseBranchOrder(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<BranchOrder>>(name)
      .Case("breadth", BranchOrder::BreadthFirst)
      .Case("depth", BranchOrder::DepthFirst)
      .Default(std::nullopt);
}

llvm::Error mlir::cs349::gen::verifyConfig(const BranchesConfig &config) {
  struct Setting {
    const char *name;
    int64_t value;
  };
  for (Setting setting : {Setting{"k", config.branches},
                          Setting{"rows", config.rows},
                          Setting{"d", config.modelDim},
                          Setting{"width", config.width}})
    if (setting.value <= 0)
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          llvm::Twine(setting.name) + " must be positive, got " +
              llvm::Twine(setting.value));
  int64_t bytes = elementBytes(config.dtype);
  if (!checkedProduct({config.rows, config.modelDim, bytes}) ||
      !checkedProduct({config.rows, config.width, bytes}) ||
      !checkedProduct({config.modelDim, config.width, bytes}))
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "a tensor of the branches has more bytes than fit in int64");
  // Likewise the k weights together (the function takes all of them).
  if (!checkedProduct({config.branches, config.modelDim, config.width, bytes}))
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "the weights of " + llvm::Twine(config.branches) +
            " branches have more bytes than fit in int64");
  if (config.branches > kMaxBranches)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "k must be at most " + llvm::Twine(kMaxBranches) + ", got " +
            llvm::Twine(config.branches) + " (each branch is IR built in memory)");
  return llvm::Error::success();
}

namespace {
class BranchEmitter {
public:
  BranchEmitter(OpBuilder &builder, const BranchesConfig &config)
      : builder(builder), config(config),
        elementType(getElementType(builder.getContext(), config.dtype)) {}

  Location loc(const llvm::Twine &name) const {
    return NameLoc::get(builder.getStringAttr(name));
  }

  RankedTensorType tensor(llvm::ArrayRef<int64_t> shape) const {
    return RankedTensorType::get(shape, elementType);
  }

  Value activation(int64_t branch, Value x, Value w) {
    Value product = MatmulOp::create(
        builder, loc("branch" + llvm::Twine(branch) + ".matmul"),
        tensor({config.rows, config.width}), x, w);
    return TanhOp::create(builder,
                          loc("branch" + llvm::Twine(branch) + ".tanh"),
                          product);
  }

  Value rowSum(int64_t branch, Value y) {
    return ReduceSumOp::create(
        builder, loc("branch" + llvm::Twine(branch) + ".sum"),
        tensor({config.rows, 1}), y, llvm::ArrayRef<int64_t>{1},
        /*keepdims=*/true);
  }

  // The running total of the first `branch` sums plus this one.
  Value accumulate(int64_t branch, Value total, Value sum) {
    if (!total)
      return sum;
    return AddOp::create(builder,
                         loc("branch" + llvm::Twine(branch) + ".add"), total,
                         sum);
  }

private:
  OpBuilder &builder;
  const BranchesConfig &config;
  Type elementType;
};
} // namespace

OwningOpRef<ModuleOp>
mlir::cs349::gen::buildBranchesModule(MLIRContext &context,
                                      const BranchesConfig &config) {
  context.loadDialect<CS349Dialect, func::FuncDialect>();
  OpBuilder builder(&context);
  OwningOpRef<ModuleOp> module = ModuleOp::create(builder.getUnknownLoc());
  builder.setInsertionPointToEnd(module->getBody());
  BranchEmitter emit(builder, config);

  llvm::SmallVector<Type> argTypes = {
      emit.tensor({config.rows, config.modelDim})};
  llvm::SmallVector<Location> argLocs = {emit.loc("x")};
  for (int64_t branch = 0; branch < config.branches; ++branch) {
    argTypes.push_back(emit.tensor({config.modelDim, config.width}));
    argLocs.push_back(emit.loc("branch" + llvm::Twine(branch) + ".w"));
  }
  auto function = func::FuncOp::create(
      builder, emit.loc("branches"), "branches",
      builder.getFunctionType(argTypes, {emit.tensor({config.rows, 1})}));
  Block *entry = function.addEntryBlock();
  for (auto [argument, location] : llvm::zip(entry->getArguments(), argLocs))
    argument.setLoc(location);
  builder.setInsertionPointToStart(entry);

  Value x = entry->getArgument(0);
  auto weight = [&](int64_t branch) { return entry->getArgument(1 + branch); };
  Value total;
  if (config.order == BranchOrder::DepthFirst) {
    for (int64_t branch = 0; branch < config.branches; ++branch) {
      Value y = emit.activation(branch, x, weight(branch));
      total = emit.accumulate(branch, total, emit.rowSum(branch, y));
    }
  } else {
    llvm::SmallVector<Value> ys, sums;
    for (int64_t branch = 0; branch < config.branches; ++branch)
      ys.push_back(emit.activation(branch, x, weight(branch)));
    for (int64_t branch = 0; branch < config.branches; ++branch)
      sums.push_back(emit.rowSum(branch, ys[branch]));
    for (int64_t branch = 0; branch < config.branches; ++branch)
      total = emit.accumulate(branch, total, sums[branch]);
  }
  func::ReturnOp::create(builder, emit.loc("return"), total);
  return module;
}
