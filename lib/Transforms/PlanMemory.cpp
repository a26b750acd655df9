//===- PlanMemory.cpp - place every written result in one arena -----------===//
//
// The pass is a translator: Lifetimes turns the IR into the planner's
// intervals, the planner library (no MLIR types) chooses offsets, and the plan
// goes back into the IR as annotations, which are then read back and verified
// exactly as --verify-memory-plan would: what FileCheck sees is what was
// checked.
//
//===----------------------------------------------------------------------===//

#include "MemoryReport.h"

#include "cs349/Analysis/Lifetimes.h"
#include "cs349/Analysis/MemoryPlan.h"
#include "cs349/Dialect/CS349/IR/CS349Dialect.h"
#include "cs349/Dialect/CS349/IR/CS349Ops.h"
#include "cs349/Planner/MemoryPlanner.h"
#include "cs349/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::cs349 {
#define GEN_PASS_DEF_PLANMEMORY
#include "cs349/Transforms/Passes.h.inc"
} // namespace mlir::cs349

using namespace mlir;
using namespace mlir::cs349;
namespace planner = ::cs349::planner;

namespace {
struct PlanMemoryPass : public mlir::cs349::impl::PlanMemoryBase<PlanMemoryPass> {
  using PlanMemoryBase::PlanMemoryBase;

  /// The problem with the options, or "" when they are usable.
  std::string checkOptions() const {
    if (alignment == 0 || !llvm::isPowerOf2_64(alignment) ||
        alignment > planner::kMaxArenaBytes)
      return "alignment must be a power of two (bytes) of at most 2^62, got " +
             std::to_string(alignment);
    if (!(timeLimit >= 0.0))
      return "time-limit must be a non-negative number of seconds, got " +
             std::to_string(timeLimit);
    return "";
  }

  // Options given on the command line are checked where they are parsed, so
  // a typo is reported before any input is read.
  LogicalResult initializeOptions(
      StringRef options,
      function_ref<LogicalResult(const Twine &)> errorHandler) override {
    if (failed(PlanMemoryBase::initializeOptions(options, errorHandler)))
      return failure();
    std::string problem = checkOptions();
    if (!problem.empty())
      return errorHandler("plan-memory: " + problem);
    return success();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Passes built in C++ skip initializeOptions.
    std::string problem = checkOptions();
    if (!problem.empty()) {
      module.emitError("plan-memory: ") << problem;
      return signalPassFailure();
    }
    planner::PlanOptions planOptions;
    planOptions.strategy = strategy;
    planOptions.timeLimitSeconds = timeLimit;

    std::vector<report::FunctionReport> reports;
    bool ok = true;
    for (auto func : module.getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      if (failed(planFunction(func, planOptions, reports)))
        ok = false;
    }
    if (!ok)
      return signalPassFailure();
    // The pass only adds attributes (a #cs349.buffer per written result, a
    // #cs349.arena per function), which planFunction has read back, checked
    // as a memory plan and checked by the dialect's rules: every op, use and
    // region is as the pass manager last verified it, and no analysis
    // depends on these attributes. Saying so spares verifying the whole
    // module again (upstream skips it after a pass that preserves all), a
    // twentieth of the pipeline on a 1000-layer model.
    markAllAnalysesPreserved();
    if (!report.empty() &&
        failed(report::writeOutput(report, module, [&](raw_ostream &os) {
          report::writeJson(reports, os);
        })))
      return signalPassFailure();
  }

  /// What the verifier checks of the attributes the plan was written in
  /// (the dialect's rules for discardable attributes), on the function and
  /// its kernels: the pass manager does not verify them after this pass.
  LogicalResult verifyAnnotations(func::FuncOp func) {
    Dialect *dialect = getContext().getLoadedDialect<CS349Dialect>();
    auto verifyOn = [&](Operation *op) {
      for (NamedAttribute attr : op->getDiscardableAttrs())
        if (attr.getNameDialect() == dialect &&
            failed(dialect->verifyOperationAttribute(op, attr)))
          return failure();
      return success();
    };
    if (failed(verifyOn(func)))
      return failure();
    // Pre-order, so that each kernel's body is skipped.
    WalkResult walk = func.walk<WalkOrder::PreOrder>([&](KernelOp kernel) {
      return failed(verifyOn(kernel)) ? WalkResult::interrupt()
                                      : WalkResult::skip();
    });
    return failure(walk.wasInterrupted());
  }

  LogicalResult planFunction(func::FuncOp func,
                             const planner::PlanOptions &planOptions,
                             std::vector<report::FunctionReport> &reports) {
    FailureOr<FunctionLifetimes> lifetimes = computeLifetimes(func);
    if (failed(lifetimes))
      return failure();
    planner::Problem problem = toPlannerProblem(*lifetimes, alignment);
    // Checked before planning: past the largest arena the planner's offset
    // arithmetic would wrap and place live buffers on top of each other.
    if (std::string unplannable = planner::checkProblem(problem);
        !unplannable.empty())
      return func.emitError("cannot plan memory: ") << unplannable;
    planner::Plan plan = planner::plan(problem, planOptions);
    ArenaAttr arena = ArenaAttr::get(
        &getContext(), plan.arenaSize, planner::naiveSize(problem),
        planner::lowerBound(problem), alignment, lifetimes->numKernels(),
        planner::strategyName(planOptions.strategy));
    annotateMemoryPlan(func, *lifetimes, plan.offsets, arena);

    // The plan is read back from the attributes just written, with the
    // lifetimes they were computed from: annotating changes no kernel, view
    // or use, so walking the function again would find the same ones.
    FailureOr<FunctionMemoryPlan> recorded =
        readMemoryPlan(func, std::move(*lifetimes));
    if (failed(recorded) || failed(verifyMemoryPlan(*recorded)) ||
        failed(verifyAnnotations(func)))
      return func.emitOpError("got an invalid memory plan from strategy '")
             << arena.getStrategy() << "'; please report this input";
    uint64_t capacityBytes = capacity;
    if (capacityBytes != 0 && arena.getBytes() > capacityBytes) {
      // The lower bound holds for this kernel order only: a different order
      // (--schedule-memory) can lower it, a better strategy cannot beat it.
      InFlightDiagnostic diag = func.emitError("the memory plan needs ")
                                << arena.getBytes() << " B but capacity is "
                                << capacityBytes << " B";
      if (arena.getLowerBound() > capacityBytes)
        diag.attachNote() << "even the lower bound, " << arena.getLowerBound()
                          << " B at this kernel order, exceeds it: try "
                             "--schedule-memory, FlashAttention (--optimize) "
                             "or a shorter sequence";
      else
        diag.attachNote() << "the lower bound is " << arena.getLowerBound()
                          << " B: a stronger strategy (best) may fit";
      return failure();
    }
    // The report re-derives names and totals for every buffer: only worth it
    // when one was asked for.
    if (!report.empty())
      reports.push_back(report::buildFunctionReport(func, *recorded));
    return success();
  }
};
} // namespace
