//===- PlanPage.cpp - --plan-html: the plan as an interactive page --------===//

#include "MemoryReport.h"
#include "PlanPage.h"

#include "cs349/Analysis/Lifetimes.h"
#include "cs349/Analysis/MemoryPlan.h"
#include "cs349/Planner/MemoryPlanner.h"
#include "cs349/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringExtras.h"

namespace mlir::cs349 {
#define GEN_PASS_DEF_PLANHTML
#include "cs349/Transforms/Passes.h.inc"
} // namespace mlir::cs349

using namespace mlir;
using namespace mlir::cs349;
namespace planner = ::cs349::planner;

namespace {
std::string stepName(Location loc) {
  if (auto name = dyn_cast<NameLoc>(loc))
    return name.getName().str();
  if (auto fused = dyn_cast<FusedLoc>(loc))
    for (Location inner : fused.getLocations())
      if (auto name = dyn_cast<NameLoc>(inner))
        return name.getName().str();
  return "";
}

std::vector<report::KernelRow> listKernels(func::FuncOp func) {
  std::vector<report::KernelRow> kernels;
  for (auto kernel : func.getOps<KernelOp>()) {
    report::KernelRow row;
    row.name = stepName(kernel.getLoc());
    if (row.name.empty())
      row.name = "k" + std::to_string(kernels.size());
    kernel.getBody().walk([&](Operation *op) {
      if (!op->hasTrait<OpTrait::IsTerminator>())
        row.ops.push_back(op->getName().stripDialect().str());
    });
    kernels.push_back(std::move(row));
  }
  return kernels;
}

struct PlanHtmlPass : public mlir::cs349::impl::PlanHtmlBase<PlanHtmlPass> {
  using PlanHtmlBase::PlanHtmlBase;

  /// The strategy names that are not the planner's, or "" when all are.
  std::string unknownStrategies() const {
    std::vector<std::string> unknown;
    for (const std::string &name : strategies)
      if (!planner::parseStrategy(name))
        unknown.push_back("'" + name + "'");
    if (unknown.empty())
      return "";
    std::vector<std::string> names;
    for (std::string_view name : planner::strategyNames())
      names.emplace_back(name);
    return "unknown strategy " + llvm::join(unknown, ", ") +
           "; expected any of: " + llvm::join(names, ", ");
  }

  LogicalResult initializeOptions(
      StringRef options,
      function_ref<LogicalResult(const Twine &)> errorHandler) override {
    if (failed(PlanHtmlBase::initializeOptions(options, errorHandler)))
      return failure();
    if (std::string problem = unknownStrategies(); !problem.empty())
      return errorHandler("plan-html: " + problem);
    return success();
  }

  /// The recorded plan's lifetimes placed again by `strategy`, with the
  /// recorded alignment, as a report to show next to the recorded one.
  FailureOr<report::FunctionReport>
  replan(func::FuncOp func, const FunctionMemoryPlan &recorded,
         planner::Strategy strategy) {
    planner::Problem problem =
        toPlannerProblem(recorded.lifetimes, recorded.arena.getAlignment());
    planner::PlanOptions options;
    options.strategy = strategy;
    options.timeLimitSeconds = timeLimit;
    planner::Plan plan = planner::plan(problem, options);
    if (!planner::verify(problem, plan).empty())
      return func.emitOpError("got an invalid memory plan from strategy '")
             << planner::strategyName(strategy) << "'; please report this input";
    FunctionMemoryPlan alternative = recorded;
    alternative.offsets.assign(plan.offsets.begin(), plan.offsets.end());
    ArenaAttr arena = recorded.arena;
    alternative.arena = ArenaAttr::get(
        &getContext(), plan.arenaSize, arena.getNaive(), arena.getLowerBound(),
        arena.getAlignment(), arena.getKernels(),
        planner::strategyName(strategy));
    return report::buildFunctionReport(func, alternative);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (std::string problem = unknownStrategies(); !problem.empty()) {
      module.emitError("plan-html: ") << problem;
      return signalPassFailure();
    }
    std::vector<report::FunctionPage> pages;
    bool ok = true;
    for (auto func : module.getOps<func::FuncOp>()) {
      if (func.isExternal() || !hasMemoryPlan(func))
        continue;
      FailureOr<FunctionMemoryPlan> recorded = readMemoryPlan(func);
      if (failed(recorded)) {
        ok = false;
        continue;
      }
      report::FunctionPage page;
      page.name = func.getSymName().str();
      page.kernels = listKernels(func);
      page.plans.push_back(report::buildFunctionReport(func, *recorded));
      for (const std::string &name : strategies) {
        FailureOr<report::FunctionReport> other =
            replan(func, *recorded, *planner::parseStrategy(name));
        if (failed(other)) {
          ok = false;
          continue;
        }
        page.plans.push_back(std::move(*other));
      }
      pages.push_back(std::move(page));
    }
    if (!ok)
      return signalPassFailure();
    if (pages.empty()) {
      module.emitError("no function has a memory plan (cs349.arena): run "
                       "--plan-memory before --plan-html");
      return signalPassFailure();
    }
    if (failed(report::writeOutput(output, module, [&](raw_ostream &os) {
          report::writePlanPage(pages, os);
        })))
      return signalPassFailure();
    markAllAnalysesPreserved();
  }
};
} // namespace
