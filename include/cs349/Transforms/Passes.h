//===- Passes.h - cs349 passes -----------------------------------*- C++ -*-===//

#ifndef CS349_TRANSFORMS_PASSES_H
#define CS349_TRANSFORMS_PASSES_H

#include "cs349/Planner/MemoryPlanner.h"
#include "cs349/Scheduler/MemoryScheduler.h"

#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassOptions.h"

#include <memory>

namespace mlir::cs349 {

/// What --memory-report prints.
enum class ReportFormat { Table, Json };

/// The spellings of the planner's strategies, for every option that takes
/// one: --help lists them and the option parser rejects any other.
inline llvm::cl::ValuesClass planStrategyValues() {
  using ::cs349::planner::Strategy;
  return llvm::cl::values(
      clEnumValN(Strategy::Naive, "naive", "end to end, no reuse"),
      clEnumValN(Strategy::GreedyBySize, "greedy-by-size",
                 "the lecture's: largest first, lowest offset free of every "
                 "placed buffer whose lifetime overlaps"),
      clEnumValN(Strategy::BestFit, "best-fit",
                 "greedy placement over several orderings; the smallest "
                 "plan wins"),
      clEnumValN(Strategy::Search, "search",
                 "branch and bound from the greedy plan"),
      clEnumValN(Strategy::Best, "best", "all of them within the time limit"));
}

#define GEN_PASS_DECL
#include "cs349/Transforms/Passes.h.inc"

/// Registers every cs349 pass and pipeline with the global registry.
void registerPassesAndPipelines();

#define GEN_PASS_REGISTRATION
#include "cs349/Transforms/Passes.h.inc"

} // namespace mlir::cs349

#endif // CS349_TRANSFORMS_PASSES_H
