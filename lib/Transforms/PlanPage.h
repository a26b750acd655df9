//===- PlanPage.h - a memory plan as an interactive HTML page ---*- C++ -*-===//
//
// Private to lib/Transforms: the page behind --plan-html, built from the same
// report model as --memory-report and --plan-svg.
//
//===----------------------------------------------------------------------===//

#ifndef CS349_LIB_TRANSFORMS_PLANPAGE_H
#define CS349_LIB_TRANSFORMS_PLANPAGE_H

#include "MemoryReport.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace mlir::cs349::report {

/// One kernel as the page lists it: its step name and the ops inside it.
struct KernelRow {
  std::string name;
  std::vector<std::string> ops;
};

/// Everything the page shows of one function: its kernels and one or more
/// plans of the same lifetimes (the recorded plan first, then other
/// strategies' plans to compare it with).
struct FunctionPage {
  std::string name;
  std::vector<KernelRow> kernels;
  std::vector<FunctionReport> plans;
};

/// Writes one self-contained HTML document (inline style and script, no
/// network): per function and plan, the plan's rectangles (kernel across,
/// offset down) with hover details, the live-bytes curve over kernels with
/// the lower bound and the arena size, and the kernel list; a selector
/// switches between functions and plans.
void writePlanPage(llvm::ArrayRef<FunctionPage> pages, llvm::raw_ostream &os);

} // namespace mlir::cs349::report

#endif // CS349_LIB_TRANSFORMS_PLANPAGE_H
