//===- MemoryReportTable.cpp - the human memory report --------------------===//
//
// The lecture's demo 1 table: one row per written result in kernel order,
// sizes and offsets in decimal units (or exact bytes), then naive / plan /
// lower bound with exact byte counts next to the rounded ones, then the
// kernel where the live bytes peak and the results live there.
//
//===----------------------------------------------------------------------===//

#include "MemoryReport.h"

#include "llvm/ADT/StringExtras.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::cs349;

namespace {
void writeRows(ArrayRef<std::vector<std::string>> rows, raw_ostream &os) {
  std::vector<size_t> widths;
  for (const std::vector<std::string> &row : rows) {
    widths.resize(std::max(widths.size(), row.size()), 0);
    for (auto [column, cell] : llvm::enumerate(row))
      widths[column] = std::max(widths[column], cell.size());
  }
  for (const std::vector<std::string> &row : rows) {
    std::string line;
    for (auto [column, cell] : llvm::enumerate(row)) {
      line += cell;
      if (column + 1 < row.size())
        line += std::string(widths[column] - cell.size() + 2, ' ');
    }
    os << line << "\n";
  }
}
} // namespace

void report::writeTable(ArrayRef<FunctionReport> reports, ByteUnits units,
                        raw_ostream &os) {
  bool exact = units == ByteUnits::Exact;
  auto size = [&](uint64_t bytes) {
    return exact ? std::to_string(bytes) : formatBytes(bytes);
  };
  auto total = [&](uint64_t bytes) {
    return exact ? std::to_string(bytes) + " B"
                 : formatBytes(bytes) + " (" + std::to_string(bytes) + " B)";
  };
  for (const FunctionReport &report : reports) {
    os << "@" << report.name << ": " << report.kernels << " kernels, "
       << report.buffers.size() << " written results, alignment "
       << report.alignment << "\n";
    std::vector<std::vector<std::string>> rows = {
        {"result", "op", "shape", "size", "first", "last", "offset"}};
    if (exact)
      rows.front().push_back("end");
    for (const BufferRow &row : report.buffers) {
      rows.push_back({row.name, row.producer, row.typeText(),
                      size(row.bytes), std::to_string(row.first),
                      std::to_string(row.last) +
                          (row.isFunctionResult ? " (out)" : ""),
                      size(row.offset)});
      // [offset, end): two results overlap in time and in these intervals
      // only if the plan is wrong.
      if (exact)
        rows.back().push_back(std::to_string(row.offset + row.bytes));
    }
    writeRows(rows, os);
    os << "naive " << total(report.naiveBytes) << " | " << report.strategy
       << " " << total(report.arenaBytes) << " | lower bound "
       << total(report.lowerBoundBytes) << "\n";
    if (!report.peak)
      continue;
    const PeakReport &peak = *report.peak;
    os << "peak " << total(peak.bytes) << " at kernel " << peak.kernel << " ("
       << peak.kernelName << "), live: "
       << llvm::join(llvm::map_range(peak.live,
                                     [&](size_t index) {
                                       return report.buffers[index].name;
                                     }),
                     ", ")
       << "\n";
  }
}
