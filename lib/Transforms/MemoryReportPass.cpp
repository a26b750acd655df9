//===- MemoryReportPass.cpp - print the memory plan of each function ------===//

#include "MemoryReport.h"

#include "cs349/Analysis/MemoryPlan.h"
#include "cs349/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::cs349 {
#define GEN_PASS_DEF_MEMORYREPORT
#include "cs349/Transforms/Passes.h.inc"
} // namespace mlir::cs349

using namespace mlir;
using namespace mlir::cs349;

namespace {
struct MemoryReportPass : public mlir::cs349::impl::MemoryReportBase<MemoryReportPass> {
  using MemoryReportBase::MemoryReportBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::vector<report::FunctionReport> reports;
    bool ok = true;
    for (auto func : module.getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      if (!hasMemoryPlan(func)) {
        func.emitOpError("has no memory plan: run --plan-memory before "
                         "--memory-report");
        ok = false;
        continue;
      }
      FailureOr<FunctionMemoryPlan> plan = readMemoryPlan(func);
      if (failed(plan) || failed(verifyMemoryPlan(*plan))) {
        ok = false;
        continue;
      }
      reports.push_back(report::buildFunctionReport(func, *plan));
    }
    if (!ok)
      return signalPassFailure();
    if (failed(report::writeOutput(output, module, [&](raw_ostream &os) {
          if (format == ReportFormat::Json)
            report::writeJson(reports, os);
          else
            report::writeTable(reports,
                               exact ? report::ByteUnits::Exact
                                     : report::ByteUnits::Decimal,
                               os);
        })))
      return signalPassFailure();
    markAllAnalysesPreserved();
  }
};
} // namespace
