//===- ProgramCheck.h - one random program through every pipeline --------===//
//
// In one process: generate the program of a seed, run it as written, then
// after each pipeline, and compare. Each pipeline's output goes through text
// (printed and parsed again, as between cs349-opt and cs349-run), so what
// the tools would see is what runs.
//
//===----------------------------------------------------------------------===//

#ifndef CS349_TOOLS_CS349DIFFTEST_PROGRAMCHECK_H
#define CS349_TOOLS_CS349DIFFTEST_PROGRAMCHECK_H

#include "Pipelines.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include "mlir/IR/MLIRContext.h"

#include <functional>
#include <string>
#include <vector>

namespace cs349::difftest {

/// What a check reports as it goes: a pipeline begins (so that a crash can
/// be blamed on it), a check ends, a finding. The kinds are those of
/// scripts/difftest.py: rejected, wrong-numbers, bits-differ.
struct CheckListener {
  std::function<void(const std::string &pipeline)> begin;
  std::function<void()> checked;
  std::function<void(const std::string &pipeline, const std::string &kind,
                     const std::string &detail)>
      finding;
};

struct CheckOptions {
  double rtol = 1e-5;
  double atol = 1e-5;
  /// The JIT's LLVM optimization level (cs349-run -O).
  unsigned optLevel = 2;
  /// To test the harness itself: "KIND:PIPELINE" makes that pipeline fail
  /// that way (crash, rejected, wrong-numbers).
  std::string injectFault;
  /// Which table the pipelines' references are looked up in.
  FrontEnd frontEnd = FrontEnd::CS349;
};

/// Builds the program to check (null if it cannot).
using ProgramGenerator =
    std::function<mlir::OwningOpRef<mlir::ModuleOp>(mlir::MLIRContext &)>;

/// Checks `rows` on the program `generate` builds; findings go to
/// `listener`, one per pipeline at most.
void checkProgram(mlir::MLIRContext &context, const ProgramGenerator &generate,
                  const std::vector<Pipeline> &rows,
                  const CheckOptions &options, const CheckListener &listener);

} // namespace cs349::difftest

#endif // CS349_TOOLS_CS349DIFFTEST_PROGRAMCHECK_H
