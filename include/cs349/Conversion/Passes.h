//===- Passes.h - cs349 conversion passes and pipelines ----------*- C++ -*-===//

#ifndef CS349_CONVERSION_PASSES_H
#define CS349_CONVERSION_PASSES_H

#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassOptions.h"

#include <memory>
#include <string>

namespace mlir {
class DialectRegistry;
class OpPassManager;
namespace cs349 {

/// Which route convert-cs349-to-linalg takes for a function.
enum class LoweringMode {
  /// Planned when the function carries a memory plan.
  Auto,
  /// Every function must carry a plan; one without is an error.
  Planned,
  /// Any plan is ignored: the reference.
  Unplanned,
};

/// The spellings of LoweringMode, for every option that takes one.
inline llvm::cl::ValuesClass loweringModeValues() {
  return llvm::cl::values(
      clEnumValN(LoweringMode::Auto, "auto",
                 "planned when the function carries cs349.arena"),
      clEnumValN(LoweringMode::Planned, "planned",
                 "an error when a function has no plan"),
      clEnumValN(LoweringMode::Unplanned, "unplanned",
                 "ignore any plan: the reference"));
}

#define GEN_PASS_DECL
#include "cs349/Conversion/Passes.h.inc"

/// Options of the lowering pipelines (`bufferize`,
/// `lower-to-llvm`).
struct LoweringPipelineOptions
    : public PassPipelineOptions<LoweringPipelineOptions> {
  PassOptions::Option<LoweringMode> mode{
      *this, "mode",
      llvm::cl::desc("Which route to take: see convert-cs349-to-linalg"),
      llvm::cl::init(LoweringMode::Auto), loweringModeValues()};
  PassOptions::Option<int64_t> attentionBlock{
      *this, "attention-block",
      llvm::cl::desc("Keys per block of the FlashAttention loop (>= 1)"),
      llvm::cl::init(32)};
  PassOptions::Option<bool> kernelScratch{
      *this, "kernel-scratch",
      llvm::cl::desc("Scratch tensors for reductions/contractions a kernel "
                     "would recompute (faster; memory outside the plan): see "
                     "convert-cs349-to-linalg"),
      llvm::cl::init(false)};
};

/// cs349 on tensors -> memrefs: convert-cs349-to-linalg, one-shot
/// bufferization across function boundaries, results turned into
/// out-parameters, and upstream buffer deallocation.
void buildBufferizePipeline(OpPassManager &pm,
                            const LoweringPipelineOptions &options);

/// The bufferize pipeline, then loops and the LLVM dialect: what the JIT
/// (cs349-run) translates to LLVM IR. Allocations call the
/// `_mlir_memref_to_llvm_{alloc,aligned_alloc,free}` functions so that a
/// runtime can count them.
void buildLowerToLLVMPipeline(OpPassManager &pm,
                              const LoweringPipelineOptions &options);

/// Adds the dialects that the lowering produces, with the bufferization and
/// deallocation interfaces that the pipelines need, to `registry`.
void registerLoweringDialects(DialectRegistry &registry);

/// Registers the conversion passes and both pipelines.
void registerConversionPassesAndPipelines();

#define GEN_PASS_REGISTRATION
#include "cs349/Conversion/Passes.h.inc"

} // namespace cs349
} // namespace mlir

#endif // CS349_CONVERSION_PASSES_H
