//===- Runner.h - JIT-run a cs349 function on deterministic inputs -*- C++ -*-===//
//
// What cs349-run does, as a library, so that a tool checking many programs
// (cs349-difftest) runs them exactly as cs349-run would without starting a
// process for each: choose the function, make its argument values, lower the
// module with the lower-to-llvm pipeline, JIT-compile it with MLIR's
// ExecutionEngine, call it (after its initializer, if it has one), and hand
// back the results and what the compiled code allocated.
//
//===----------------------------------------------------------------------===//

#ifndef CS349_EXECUTION_RUNNER_H
#define CS349_EXECUTION_RUNNER_H

#include "cs349/Conversion/Passes.h"
#include "cs349/Dialect/CS349/IR/CS349Attrs.h"
#include "cs349/Execution/AllocationCounter.h"
#include "cs349/Support/ElementKind.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace cs349::run {

/// A tensor's values in host memory and the memref descriptor the C
/// interface passes for it: allocated and aligned pointers, offset, sizes,
/// strides (all 8-byte words).
struct Buffer {
  mlir::RankedTensorType type;
  ElementKind kind;
  std::vector<char> data;
  std::vector<int64_t> descriptor;
  void *descriptorPointer = nullptr;

  Buffer(mlir::RankedTensorType type, ElementKind kind);
  // A copy's descriptor would point at the original's data.
  Buffer(const Buffer &) = delete;
  Buffer &operator=(const Buffer &) = delete;
  Buffer(Buffer &&) noexcept = default;
  Buffer &operator=(Buffer &&) noexcept = default;
  int64_t size() const { return type.getNumElements(); }
  /// Element `i` widened to float.
  float element(int64_t i) const;
};

struct RunOptions {
  /// Argument values come from (seed, original position, shape).
  uint64_t seed = 1;
  /// When set, the argument values of the original signature in order, as
  /// little-endian 32-bit floats, instead of values made from `seed`.
  std::string inputsFile;
  /// The function to run; empty: the only public one that is not an
  /// initializer.
  std::string functionName;
  /// Sizes for the function's dynamic arguments, `INDEX:SHAPE` entries as
  /// `--import=arg-shapes` takes them: it runs as written, its arguments
  /// cast to their dynamic types on entry, and its results come back in
  /// the static types the importer derives (checked at run time).
  std::vector<std::string> argShapes;
  mlir::cs349::LoweringMode mode = mlir::cs349::LoweringMode::Auto;
  int64_t attentionBlock = 32;
  bool kernelScratch = false;
  /// LLVM optimization level of the JIT (0-3).
  unsigned optLevel = 2;
  /// Called on the lowering's pass manager before it runs (cs349-run:
  /// the pass manager's command-line options, such as --mlir-timing).
  std::function<mlir::LogicalResult(mlir::PassManager &)> configureLowering;
};

struct RunResult {
  std::string functionName;
  bool planned = false;
  /// The function's plan; null when it has none.
  mlir::cs349::ArenaAttr arena;
  std::vector<Buffer> inputs;
  std::vector<Buffer> outputs;
  /// The allocations of the function's call (the initializer's are load
  /// time, not counted).
  AllocationStats stats;
};

/// The dialects a module that cs349-run accepts may contain (cs349, what it
/// lowers to, and the front ends' dialects of an imported program's
/// original), and their translations to LLVM IR.
void registerRunnerDialects(mlir::DialectRegistry &registry);

/// Lowers `module` in place, compiles and runs the chosen function. The
/// lowering's diagnostics go to the context's handler; an error says what
/// failed.
llvm::Expected<RunResult> runModule(mlir::ModuleOp module,
                                    const RunOptions &options);

} // namespace cs349::run

#endif // CS349_EXECUTION_RUNNER_H
