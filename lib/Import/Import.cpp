//===- Import.cpp - the --import pass --------------------------------------===//
//
// Runs the importer's steps on each function (ImportPatterns.h says where
// each lives): static shapes for dynamic arguments where arg-shapes gives
// them, TOSA ops that are cs349 ops, upstream's lowering for the other TOSA
// ops, raising linalg, simplifying, opaque kernels for the rest.
//
//===----------------------------------------------------------------------===//

#include "ImportPatterns.h"

#include "cs349/Dialect/CS349/IR/CS349Dialect.h"
#include "cs349/Dialect/CS349/IR/CS349Ops.h"
#include "cs349/Import/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Tosa/Transforms/Passes.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::cs349 {
#define GEN_PASS_DEF_IMPORT
#include "cs349/Import/Passes.h.inc"
} // namespace mlir::cs349

using namespace mlir;
using namespace mlir::cs349;

void mlir::cs349::registerImportedDialects(DialectRegistry &registry) {
  registry.insert<arith::ArithDialect, linalg::LinalgDialect,
                  math::MathDialect, tensor::TensorDialect,
                  tosa::TosaDialect>();
}

namespace {

/// A `tosa.tile` whose result type is not its input's shape times its
/// multiples passes TOSA's verifier but lowers to IR that does not verify:
/// a located error instead.
LogicalResult checkTileShapes(func::FuncOp func) {
  WalkResult walk = func.walk([](tosa::TileOp tile) {
    SmallVector<int64_t> multiples;
    auto input = dyn_cast<RankedTensorType>(tile.getInput1().getType());
    auto result = dyn_cast<RankedTensorType>(tile.getType());
    if (!input || !result || failed(tile.getConstantMultiples(multiples)) ||
        multiples.size() != size_t(input.getRank()))
      return WalkResult::advance();
    SmallVector<int64_t> expected;
    for (auto [size, times] : llvm::zip_equal(input.getShape(), multiples))
      expected.push_back(ShapedType::isDynamic(size) || times < 0
                             ? ShapedType::kDynamic
                             : size * times);
    for (auto [want, got] : llvm::zip_equal(expected, result.getShape()))
      if (!ShapedType::isDynamic(want) && !ShapedType::isDynamic(got) &&
          want != got) {
        tile.emitOpError("has the result type ")
            << result << " where its input and multiples give "
            << RankedTensorType::get(expected, result.getElementType());
        return WalkResult::interrupt();
      }
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

/// TOSA's matmul multiplies equal batches, but its verifier lets different
/// ones through, which cs349.matmul would broadcast (upstream's lowering
/// rejects them): a located error instead of a meaning TOSA does not give.
LogicalResult checkMatmulBatches(func::FuncOp func) {
  WalkResult walk = func.walk([](tosa::MatMulOp matmul) {
    auto a = dyn_cast<RankedTensorType>(matmul.getA().getType());
    auto b = dyn_cast<RankedTensorType>(matmul.getB().getType());
    if (!a || !b || a.getRank() != 3 || b.getRank() != 3 ||
        a.isDynamicDim(0) || b.isDynamicDim(0) ||
        a.getDimSize(0) == b.getDimSize(0))
      return WalkResult::advance();
    matmul.emitOpError("multiplies a batch of ")
        << a.getDimSize(0) << " by a batch of " << b.getDimSize(0)
        << ": TOSA's matmul needs equal batches";
    return WalkResult::interrupt();
  });
  return failure(walk.wasInterrupted());
}

struct ImportPass : public mlir::cs349::impl::ImportBase<ImportPass> {
  using ImportBase::ImportBase;

  LogicalResult initializeOptions(
      StringRef options,
      function_ref<LogicalResult(const Twine &)> errorHandler) override {
    if (failed(ImportBase::initializeOptions(options, errorHandler)))
      return failure();
    std::string error;
    FailureOr<SmallVector<ArgumentShape>> shapes =
        parseArgumentShapes(argShapes, error);
    if (failed(shapes))
      return errorHandler("import: " + error);
    argumentShapes = std::move(*shapes);
    return success();
  }

  LogicalResult initialize(MLIRContext *context) override {
    RewritePatternSet tosa(context);
    import::populateTosaPatterns(tosa);
    import::populateSimplifyPatterns(tosa);
    tosaPatterns = std::move(tosa);
    RewritePatternSet linalg(context);
    import::populateLinalgRaisingPatterns(linalg);
    import::populateDataMovementPatterns(linalg);
    import::populateSimplifyPatterns(linalg);
    import::populateUnitDimPatterns(linalg);
    // Results nothing reads go first (upstream's pattern): torch-mlir's
    // row max also computes the argmax, an i64 result the softmax after it
    // never reads, and the max alone is a cs349.reduce_max.
    linalg::populateEraseUnusedOperandsAndResultsPatterns(linalg);
    linalgPatterns = std::move(linalg);
    canonicalization.reset();
    return success();
  }

  /// Infers the shapes of `func`'s ops from its static arguments: TOSA's
  /// shape inference, then upstream's canonicalizations (gathered as the
  /// canonicalize pass does, on first need: most imports are static
  /// throughout).
  LogicalResult inferShapes(func::FuncOp func) {
    if (!canonicalization)
      canonicalization.emplace(
          import::buildStaticShapeCanonicalization(func.getContext()));
    OpPassManager inferTosaShapes(func::FuncOp::getOperationName());
    inferTosaShapes.addPass(tosa::createTosaInferShapesPass());
    if (failed(runPipeline(inferTosaShapes, func)))
      return failure();
    return import::propagateStaticShapes(func, *canonicalization);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<func::FuncOp> skipped;
    for (auto func : module.getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      import::giveArgumentShapes(func, argumentShapes);
      if (import::mayInferShapes(func) && failed(inferShapes(func)))
        return signalPassFailure();
      if (skipDynamic && failed(import::checkStaticShapes(
                             func, /*skip=*/true, argumentShapes))) {
        skipped.push_back(func);
        continue;
      }
      if (failed(importFunction(func)))
        return signalPassFailure();
    }
    // Calls among the skipped functions go with them; a call from a
    // function that stays would dangle.
    llvm::SmallPtrSet<Operation *, 4> leftOut(skipped.begin(), skipped.end());
    for (func::FuncOp func : skipped)
      if (auto uses = SymbolTable::getSymbolUses(func, module))
        for (const SymbolTable::SymbolUse &use : *uses) {
          auto user = use.getUser()->getParentOfType<func::FuncOp>();
          if (user && leftOut.contains(user))
            continue;
          InFlightDiagnostic error = func.emitOpError(
              "has a dynamic shape and is used by a function that stays: it "
              "cannot be left out");
          error.attachNote(use.getUser()->getLoc()) << "used here";
          return signalPassFailure();
        }
    for (func::FuncOp func : skipped)
      func.erase();
  }

  LogicalResult importFunction(func::FuncOp func) {
    bool foreign = false;
    func.walk([&](Operation *op) {
      if (op != func && !isa<func::ReturnOp>(op) &&
          !isa<CS349Dialect>(op->getDialect()))
        foreign = true;
    });
    if (!foreign)
      return success();
    if (!func.getBody().hasOneBlock())
      return func.emitOpError("expected a single-block body to import, got ")
             << func.getBody().getBlocks().size() << " blocks";
    if (failed(import::checkStaticShapes(func, /*skip=*/false,
                                         argumentShapes)) ||
        failed(checkTileShapes(func)) || failed(checkMatmulBatches(func)))
      return failure();
    GreedyRewriteConfig config;
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    // No folding while TOSA ops are there: upstream folds a tosa.cast of
    // an i1 `true` to -1.0 where its lowering computes 1.0 (a padding mask
    // built as 1 - cast(mask) then comes out 2).
    GreedyRewriteConfig tosaConfig = config;
    tosaConfig.enableFolding(false);
    (void)applyPatternsGreedily(func, tosaPatterns, tosaConfig);
    if (failed(import::lowerRemainingTosa(func)))
      return failure();
    (void)applyPatternsGreedily(func, linalgPatterns, config);
    if (failed(import::wrapOpaqueOps(func, reportOpaque)))
      return failure();
    // The reshapes around a mask that became causal_mask fold against the
    // ones the batch of one left, so that --match-attention sees the mask.
    // Only the function's own ops: the linalg patterns must not raise what
    // the opaque kernels hold.
    if (import::foldConstantMasks(func)) {
      SmallVector<Operation *> ops;
      for (Operation &op : func.getBody().front())
        if (!isa<KernelOp>(op))
          ops.push_back(&op);
      (void)applyOpPatternsGreedily(ops, linalgPatterns, config);
    }
    return success();
  }

  FrozenRewritePatternSet tosaPatterns, linalgPatterns;
  SmallVector<ArgumentShape> argumentShapes;
  std::optional<FrozenRewritePatternSet> canonicalization;
};

} // namespace
