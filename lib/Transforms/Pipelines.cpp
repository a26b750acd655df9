//===- Pipelines.cpp - registration of cs349 passes and pipelines ---------===//

#include "cs349/Transforms/Pipelines.h"
#include "cs349/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

namespace {
/// The canonicalizer as --optimize runs it: upstream's patterns and fold
/// hooks through upstream's greedy driver, with three differences.
///  * No region (control-flow) simplification. The layer's functions are
///    single blocks of pure ops, where that simplification can only delete
///    dead ops, which the greedy driver deletes anyway as it visits them; it
///    still walked and re-liveness-analysed the whole function after every
///    driver iteration (about a third of the canonicalizer's instructions on
///    a 32-layer model).
///  * A run that changes nothing preserves every analysis, so the pass
///    manager does not verify again the function it did not touch (upstream's
///    pass does not say so; cse does): each verification of a whole model
///    costs about 3 % of the pipeline.
///  * Equal constants are left for the cse that follows. The driver would
///    merge them itself, moving the one it keeps to the top of the function
///    and dropping its location (and with it the step name it prints under);
///    cse keeps the first one where it is.
struct LayerCanonicalizerPass
    : PassWrapper<LayerCanonicalizerPass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(LayerCanonicalizerPass)

  // Upstream's name and argument, so that timings, IR dumps and the step
  // files of cs349-steps read as before; the pass is not registered (the
  // `canonicalize` flag stays upstream's).
  StringRef getName() const override { return "Canonicalizer"; }
  StringRef getArgument() const override { return "canonicalize"; }
  StringRef getDescription() const override {
    return "canonicalize without region simplification, preserving analyses "
           "when nothing changes";
  }

  LogicalResult initialize(MLIRContext *context) override {
    RewritePatternSet owning(context);
    for (Dialect *dialect : context->getLoadedDialects())
      dialect->getCanonicalizationPatterns(owning);
    for (RegisteredOperationName op : context->getRegisteredOperations())
      op.getCanonicalizationPatterns(owning, context);
    patterns = std::make_shared<FrozenRewritePatternSet>(std::move(owning));
    return success();
  }

  void runOnOperation() override {
    GreedyRewriteConfig config;
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    config.enableConstantCSE(false);
    bool changed = false;
    (void)applyPatternsGreedily(getOperation(), *patterns, config, &changed);
    if (!changed)
      markAllAnalysesPreserved();
  }

  std::shared_ptr<const FrozenRewritePatternSet> patterns;
};

std::unique_ptr<Pass> createLayerCanonicalizerPass() {
  return std::make_unique<LayerCanonicalizerPass>();
}
} // namespace

//===----------------------------------------------------------------------===//
// optimize
//===----------------------------------------------------------------------===//

void mlir::cs349::buildOptimizePipeline(OpPassManager &pm,
                                        const OptimizeOptions &options) {
  // Attention is matched first, on the layer-level softmax: once decomposed,
  // the pattern is longer and a later cse/canonicalize could reshape it.
  OpPassManager &funcPm = pm.nest<func::FuncOp>();
  if (options.attention)
    funcPm.addPass(createMatchAttention());
  funcPm.addPass(createDecompose());
  // Constant folding (fold hooks, size-limited) and simplification
  // (canonicalization patterns) are both the canonicalizer's job. The cse
  // after it merges what decomposition repeats (one constant per site) and
  // what canonicalization made equal (`0 - x` and `-1 * x`).
  funcPm.addPass(createLayerCanonicalizerPass());
  funcPm.addPass(createCSEPass());
  // A module pass: with weights as arguments it moves the gain products into
  // an initializer function, building each shared value once and folding
  // what it builds of constants itself, so no cse is needed after it.
  pm.addPass(createFoldNormWeight());
}

void mlir::cs349::registerPassesAndPipelines() {
  registerCS349Passes();

  PassPipelineRegistration<OptimizeOptions>(
      "optimize",
      "The lecture's optimize(): match-attention (attention=true), decompose, "
      "canonicalize, cse, fold-norm-weight",
      buildOptimizePipeline);
}
