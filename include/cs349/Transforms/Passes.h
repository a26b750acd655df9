//===- Passes.h - cs349 passes -----------------------------------*- C++ -*-===//

#ifndef CS349_TRANSFORMS_PASSES_H
#define CS349_TRANSFORMS_PASSES_H

#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassOptions.h"

#include <memory>

namespace mlir::cs349 {

#define GEN_PASS_DECL
#include "cs349/Transforms/Passes.h.inc"

/// Registers every cs349 pass and pipeline with the global registry.
void registerPassesAndPipelines();

#define GEN_PASS_REGISTRATION
#include "cs349/Transforms/Passes.h.inc"

} // namespace mlir::cs349

#endif // CS349_TRANSFORMS_PASSES_H
