//===- MemoryReportJson.cpp - the JSON memory report ----------------------===//
//
// The machine-readable report: scripts/lecture-demos.sh and benchmarks read
// it with any JSON parser, so field names are stable and every number is an
// exact byte count (no units).
//
//===----------------------------------------------------------------------===//

#include "MemoryReport.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

using namespace mlir;
using namespace mlir::cs349;

void report::writeJson(ArrayRef<FunctionReport> reports, raw_ostream &os) {
  llvm::json::Array functions;
  for (const FunctionReport &report : reports) {
    llvm::json::Array buffers;
    for (const BufferRow &row : report.buffers) {
      llvm::json::Array shape;
      for (int64_t dim : row.shape)
        shape.push_back(dim);
      buffers.push_back(llvm::json::Object{
          {"name", row.name},
          {"producer", row.producer},
          {"shape", std::move(shape)},
          {"dtype", row.dtype},
          {"bytes", row.bytes},
          {"first", row.first},
          {"last", row.last},
          {"offset", row.offset},
          {"function_result", row.isFunctionResult},
      });
    }
    llvm::json::Value peak = nullptr;
    if (report.peak) {
      llvm::json::Array live;
      for (size_t index : report.peak->live)
        live.push_back(report.buffers[index].name);
      peak = llvm::json::Object{
          {"kernel", report.peak->kernel},
          {"kernel_name", report.peak->kernelName},
          {"bytes", report.peak->bytes},
          {"live", std::move(live)},
      };
    }
    functions.push_back(llvm::json::Object{
        {"name", report.name},
        {"strategy", report.strategy},
        {"alignment", report.alignment},
        {"kernels", report.kernels},
        {"arena_bytes", report.arenaBytes},
        {"naive_bytes", report.naiveBytes},
        {"lower_bound_bytes", report.lowerBoundBytes},
        {"buffers", std::move(buffers)},
        {"peak", std::move(peak)},
    });
  }
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(functions)))
     << "\n";
}
