//===- PlanPicture.cpp - --plan-svg: draw the memory plan -----------------===//

#include "MemoryReport.h"
#include "PlanPicture.h"

#include "cs349/Analysis/MemoryPlan.h"
#include "cs349/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringSet.h"

namespace mlir::cs349 {
#define GEN_PASS_DEF_PLANSVG
#include "cs349/Transforms/Passes.h.inc"
} // namespace mlir::cs349

using namespace mlir;
using namespace mlir::cs349;

namespace {
struct PlanSvgPass : public mlir::cs349::impl::PlanSvgBase<PlanSvgPass> {
  using PlanSvgBase::PlanSvgBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::vector<report::FunctionReport> reports;
    bool ok = true;
    llvm::StringSet<> wanted(llvm::from_range, functions);
    for (const std::string &name : functions) {
      auto func = module.lookupSymbol<func::FuncOp>(name);
      if (!func || !hasMemoryPlan(func)) {
        module.emitError("plan-svg: no planned function @") << name;
        ok = false;
      }
    }
    for (auto func : module.getOps<func::FuncOp>()) {
      // Unplanned functions (declarations, helpers) are not drawn; a module
      // with no plan at all is an error below.
      if (func.isExternal() || !hasMemoryPlan(func))
        continue;
      if (!wanted.empty() && !wanted.contains(func.getSymName()))
        continue;
      // An overlapping plan is still drawn (the picture shows the overlap);
      // a plan that does not describe this IR is not.
      FailureOr<FunctionMemoryPlan> plan = readMemoryPlan(func);
      if (failed(plan)) {
        ok = false;
        continue;
      }
      reports.push_back(report::buildFunctionReport(func, *plan));
    }
    if (!ok)
      return signalPassFailure();
    if (reports.empty()) {
      module.emitError("no function has a memory plan (cs349.arena): run "
                       "--plan-memory before --plan-svg");
      return signalPassFailure();
    }
    if (failed(report::writeOutput(output, module, [&](raw_ostream &os) {
          report::writePlanSvg(reports, os);
        })))
      return signalPassFailure();
    markAllAnalysesPreserved();
  }
};
} // namespace
