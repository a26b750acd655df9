//===- Pipelines.cpp - registration of cs349 passes and pipelines ---------===//

#include "cs349/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

void mlir::cs349::registerPassesAndPipelines() { registerCS349Passes(); }
