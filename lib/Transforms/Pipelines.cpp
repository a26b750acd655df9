//===- Pipelines.cpp - registration of cs349 passes and pipelines ---------===//

#include "cs349/Transforms/Pipelines.h"
#include "cs349/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

namespace {
/// The canonicalizer as --optimize runs it: upstream's, without its region
/// (control-flow) simplification. The layer's functions are single blocks of
/// pure ops, where that simplification can only delete dead ops, which the
/// greedy driver deletes anyway as it visits them; it still walked and
/// re-liveness-analysed the whole function after every driver iteration
/// (about a third of the canonicalizer's instructions on a 32-layer model).
std::unique_ptr<Pass> createLayerCanonicalizerPass() {
  GreedyRewriteConfig config;
  config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
  return createCanonicalizerPass(config);
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
  funcPm.addPass(createCSEPass());
  // Constant folding (fold hooks, size-limited) and simplification
  // (canonicalization patterns) are both the canonicalizer's job.
  funcPm.addPass(createLayerCanonicalizerPass());
  // A module pass: with weights as arguments it moves the gain products into
  // an initializer function. The canonicalize and cse after it clean up what
  // it leaves (folded constants, gains of 1, duplicate reshapes).
  pm.addPass(createFoldNormWeight());
  pm.addPass(createLayerCanonicalizerPass());
  pm.addPass(createCSEPass());
}

void mlir::cs349::registerPassesAndPipelines() {
  registerCS349Passes();

  PassPipelineRegistration<OptimizeOptions>(
      "optimize",
      "The lecture's optimize(): match-attention (attention=true), decompose, "
      "cse, canonicalize, fold-norm-weight, canonicalize, cse",
      buildOptimizePipeline);
}
