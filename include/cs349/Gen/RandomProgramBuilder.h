//===- RandomProgramBuilder.h - random valid cs349 programs -----*- C++ -*-===//
//
// Programs nobody wrote, for differential testing: a random DAG over every op
// of the dialect, with small shapes, broadcasts, views, constants, several
// results, and attention written in every spelling --match-attention accepts
// and in near-misses it must reject. The same seed gives the same program on
// every machine (splitmix64), and a program with fewer ops is a prefix of one
// with more, so a failure can be shrunk by lowering the op count.
//
//===----------------------------------------------------------------------===//

#ifndef CS349_GEN_RANDOMPROGRAMBUILDER_H
#define CS349_GEN_RANDOMPROGRAMBUILDER_H

#include "cs349/Support/ElementType.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>

namespace mlir::cs349::gen {

struct RandomProgramConfig {
  uint64_t seed = 0;
  /// The number of generation steps is drawn from [minSteps, maxSteps]; a
  /// step emits one op or a small subgraph (an attention, a masked softmax).
  int64_t minSteps = 3;
  int64_t maxSteps = 40;
  ElementKind dtype = ElementKind::F32;
  /// Step names (getRandomStepNames()) never to emit.
  llvm::SmallVector<std::string> without;
};

/// The names of the generation steps, in table order: one per op of the
/// dialect plus the subgraphs and program features (e.g. "attention-pattern",
/// "return-twice"). `--without` takes these.
llvm::SmallVector<llvm::StringRef> getRandomStepNames();

/// Checks the step range and that every name in `without` is a step.
llvm::Error verifyConfig(const RandomProgramConfig &config);

/// Builds `func.func @random(...) -> (...)` in a new module. `config` must
/// pass verifyConfig.
OwningOpRef<ModuleOp> buildRandomProgram(MLIRContext &context,
                                         const RandomProgramConfig &config);

} // namespace mlir::cs349::gen

#endif // CS349_GEN_RANDOMPROGRAMBUILDER_H
