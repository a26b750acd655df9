//===- Pipelines.h - cs349 pass pipelines -----------------------*- C++ -*-===//
//
// Pipelines that tools and benchmarks build programmatically; the same
// pipelines are registered for the command line by registerPassesAndPipelines.
//
//===----------------------------------------------------------------------===//

#ifndef CS349_TRANSFORMS_PIPELINES_H
#define CS349_TRANSFORMS_PIPELINES_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir::cs349 {

/// Options of the `optimize` pipeline (`--optimize=attention=false`).
struct OptimizeOptions : public PassPipelineOptions<OptimizeOptions> {
  Option<bool> attention{
      *this, "attention",
      llvm::cl::desc("Fuse q.kT -> scale -> mask -> softmax -> .v into one "
                     "cs349.attention op before decomposing (FlashAttention)"),
      llvm::cl::init(true)};
};

/// The lecture's optimize(g, attention): match-attention (if `attention`),
/// decompose, canonicalize (constant folding and algebraic simplification),
/// cse, fold-norm-weight. `pm` must be anchored on builtin.module.
void buildOptimizePipeline(OpPassManager &pm, const OptimizeOptions &options);

} // namespace mlir::cs349

#endif // CS349_TRANSFORMS_PIPELINES_H
