//===- MemoryReport.h - reports of memory plans -----------------*- C++ -*-===//
//
// Private to lib/Transforms: --plan-memory writes the JSON report and
// --memory-report prints it or a table, both from this one model of a plan.
//
//===----------------------------------------------------------------------===//

#ifndef CS349_LIB_TRANSFORMS_MEMORYREPORT_H
#define CS349_LIB_TRANSFORMS_MEMORYREPORT_H

#include "cs349/Analysis/MemoryPlan.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::cs349::report {

/// One written result as the reports show it.
struct BufferRow {
  std::string name;
  /// The op inside the kernel that produces the result ("matmul", ...).
  std::string producer;
  std::vector<int64_t> shape;
  std::string dtype;
  uint64_t bytes = 0;
  int64_t first = 0;
  int64_t last = 0;
  uint64_t offset = 0;
  bool isFunctionResult = false;

  /// The tensor type as the reports write it: "16x128xbf16", "f32".
  std::string typeText() const;
};

/// The kernel at which the most bytes are live: the lower bound, reached
/// there, and what makes it up.
struct PeakReport {
  int64_t kernel = 0;
  /// The kernel's step name (the location of the op it was built around),
  /// else "k<kernel>".
  std::string kernelName;
  uint64_t bytes = 0;
  /// Indices into FunctionReport::buffers of the results live at `kernel`.
  std::vector<size_t> live;
};

/// The plan of one function.
struct FunctionReport {
  std::string name;
  std::string strategy;
  uint64_t alignment = 0;
  int64_t kernels = 0;
  uint64_t arenaBytes = 0;
  uint64_t naiveBytes = 0;
  uint64_t lowerBoundBytes = 0;
  /// In kernel order, then result order.
  std::vector<BufferRow> buffers;
  /// Absent for a function without kernels.
  std::optional<PeakReport> peak;
};

/// How the table prints sizes and offsets.
enum class ByteUnits {
  /// Three significant digits in decimal units ("22.0 kB"): easy to read.
  Decimal,
  /// Exact byte counts, and each result's end offset: overlaps can be
  /// checked by hand.
  Exact,
};

/// The report of a plan that readMemoryPlan has read and checked.
FunctionReport buildFunctionReport(func::FuncOp func,
                                   const FunctionMemoryPlan &plan);

/// A JSON array with one object per function: name, strategy, alignment,
/// kernels, arena_bytes, naive_bytes, lower_bound_bytes, buffers (name,
/// producer, shape, dtype, bytes, first, last, offset, function_result) and
/// peak (kernel, kernel_name, bytes, live: buffer names).
void writeJson(llvm::ArrayRef<FunctionReport> reports, llvm::raw_ostream &os);

/// The lecture's demo 1 table for each function, then its totals.
void writeTable(llvm::ArrayRef<FunctionReport> reports, ByteUnits units,
                llvm::raw_ostream &os);

/// Decimal units with three significant digits: "541 MB", "8.6 GB", "4.1 kB".
std::string formatBytes(uint64_t bytes);

/// Calls `write` on standard output ("-") or on the file `path`; a file that
/// cannot be opened is an error located at `anchor`.
LogicalResult writeOutput(llvm::StringRef path, Operation *anchor,
                          llvm::function_ref<void(llvm::raw_ostream &)> write);

} // namespace mlir::cs349::report

#endif // CS349_LIB_TRANSFORMS_MEMORYREPORT_H
