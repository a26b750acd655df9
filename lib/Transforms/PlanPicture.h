//===- PlanPicture.h - a memory plan drawn as SVG ---------------*- C++ -*-===//
//
// Private to lib/Transforms: the drawing behind --plan-svg, separate from the
// pass so that it works from the same report model as --memory-report.
//
//===----------------------------------------------------------------------===//

#ifndef CS349_LIB_TRANSFORMS_PLANPICTURE_H
#define CS349_LIB_TRANSFORMS_PLANPICTURE_H

#include "MemoryReport.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::cs349::report {

/// Writes one SVG document with a panel per function: kernel index across,
/// arena offset down, a rectangle per written result spanning its lifetime
/// and its bytes (hover text: name, producer, shape, size, lifetime, offset),
/// a dashed line at the lower bound and a solid one at the arena size.
void writePlanSvg(llvm::ArrayRef<FunctionReport> reports,
                  llvm::raw_ostream &os);

} // namespace mlir::cs349::report

#endif // CS349_LIB_TRANSFORMS_PLANPICTURE_H
