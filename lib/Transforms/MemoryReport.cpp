//===- MemoryReport.cpp - the model behind the memory reports -------------===//

#include "MemoryReport.h"

#include "cs349/Dialect/CS349/IR/CS349Ops.h"
#include "cs349/Support/LiveBytes.h"

#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;
using namespace mlir::cs349;

namespace {
std::string kernelName(KernelOp kernel, int64_t index) {
  if (auto named = dyn_cast<NameLoc>(kernel.getLoc()))
    return named.getName().str();
  if (auto named = kernel.getLoc()->findInstanceOf<NameLoc>())
    return named.getName().str();
  return "k" + std::to_string(index);
}

std::optional<report::PeakReport> findPeak(const FunctionLifetimes &lifetimes) {
  if (lifetimes.kernels.empty())
    return std::nullopt;
  // A result lives from its producer through its last reader (inclusive).
  std::vector<::cs349::LiveRange> ranges;
  ranges.reserve(lifetimes.results.size());
  for (const WrittenResult &result : lifetimes.results)
    ranges.push_back({result.first, result.last + 1, result.bytes});
  ::cs349::LivePeak live = ::cs349::peakLiveBytes(ranges);
  report::PeakReport peak;
  peak.kernel = live.time;
  peak.bytes = live.bytes;
  peak.kernelName = kernelName(lifetimes.kernels[peak.kernel], peak.kernel);
  for (auto [index, result] : llvm::enumerate(lifetimes.results))
    if (result.first <= peak.kernel && peak.kernel <= result.last)
      peak.live.push_back(index);
  return peak;
}
} // namespace

report::FunctionReport
report::buildFunctionReport(func::FuncOp func, const FunctionMemoryPlan &plan) {
  FunctionReport report;
  report.name = func.getSymName().str();
  report.strategy = plan.arena.getStrategy().str();
  report.alignment = plan.arena.getAlignment();
  report.kernels = plan.arena.getKernels();
  report.arenaBytes = plan.arena.getBytes();
  report.naiveBytes = plan.arena.getNaive();
  report.lowerBoundBytes = plan.arena.getLowerBound();
  for (auto [index, result] : llvm::enumerate(plan.lifetimes.results)) {
    BufferRow row;
    row.name = result.name;
    row.producer = result.producerOp;
    auto type = cast<ShapedType>(result.value.getType());
    row.shape.assign(type.getShape().begin(), type.getShape().end());
    llvm::raw_string_ostream dtype(row.dtype);
    dtype << type.getElementType();
    row.bytes = result.bytes;
    row.first = result.first;
    row.last = result.last;
    row.offset = plan.offsets[index];
    row.isFunctionResult = result.isFunctionResult;
    report.buffers.push_back(std::move(row));
  }
  report.peak = findPeak(plan.lifetimes);
  return report;
}

std::string report::BufferRow::typeText() const {
  std::string text;
  for (int64_t dim : shape)
    text += std::to_string(dim) + "x";
  return text + dtype;
}

std::string report::formatBytes(uint64_t bytes) {
  static const char *const units[] = {"kB", "MB", "GB", "TB", "PB", "EB"};
  if (bytes < 1000)
    return std::to_string(bytes) + " B";
  double value = static_cast<double>(bytes);
  int unit = -1;
  while (value >= 1000.0 && unit < 5) {
    value /= 1000.0;
    ++unit;
  }
  // 999.6 kB would print as "1000 kB": one unit up reads better.
  if (value >= 999.5 && unit < 5) {
    value /= 1000.0;
    ++unit;
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  if (value >= 99.95)
    os << llvm::format("%.0f", value);
  else
    os << llvm::format("%.1f", value);
  os << ' ' << units[unit];
  return text;
}

LogicalResult
report::writeOutput(StringRef path, Operation *anchor,
                    llvm::function_ref<void(llvm::raw_ostream &)> write) {
  if (path == "-") {
    write(llvm::outs());
    llvm::outs().flush();
    return success();
  }
  std::string error;
  std::unique_ptr<llvm::ToolOutputFile> file = openOutputFile(path, &error);
  if (!file)
    return anchor->emitError("cannot write the memory report to '")
           << path << "': " << error;
  write(file->os());
  file->keep();
  return success();
}
