//===- MemoryReportTable.cpp - the human memory report --------------------===//
//
// The lecture's demo 1 table: one row per written result in kernel order,
// sizes and offsets in decimal units, then naive / plan / lower bound with
// exact byte counts next to the rounded ones.
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

void report::writeTable(ArrayRef<FunctionReport> reports, raw_ostream &os) {
  for (const FunctionReport &report : reports) {
    os << "@" << report.name << ": " << report.kernels << " kernels, "
       << report.buffers.size() << " written results, alignment "
       << report.alignment << "\n";
    std::vector<std::vector<std::string>> rows = {
        {"result", "op", "shape", "size", "first", "last", "offset"}};
    for (const BufferRow &row : report.buffers) {
      std::string shape = llvm::join(
          llvm::map_range(row.shape,
                          [](int64_t dim) { return std::to_string(dim); }),
          "x");
      rows.push_back({row.name, row.producer, shape + "x" + row.dtype,
                      formatBytes(row.bytes), std::to_string(row.first),
                      std::to_string(row.last) +
                          (row.isFunctionResult ? " (out)" : ""),
                      formatBytes(row.offset)});
    }
    writeRows(rows, os);
    auto total = [](uint64_t bytes) {
      return formatBytes(bytes) + " (" + std::to_string(bytes) + " B)";
    };
    os << "naive " << total(report.naiveBytes) << " | " << report.strategy
       << " " << total(report.arenaBytes) << " | lower bound "
       << total(report.lowerBoundBytes) << "\n";
  }
}
