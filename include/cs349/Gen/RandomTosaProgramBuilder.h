//===- RandomTosaProgramBuilder.h - random programs for the importer -*- C++ -*-===//
//
// Programs no front end wrote, for differential testing of --import: a
// random DAG of the TOSA ops a transformer exports to (elementwise math with
// TOSA's equal-rank broadcasting, reductions that keep their axis, batched
// matmuls, reshapes, transposes, slices, concats, pads, tiles, clamps), and
// the subgraphs front ends spell them with (softmax as reciprocal · mul,
// RMSNorm, LayerNorm, GELU, SiLU, attention with and without a mask). The
// linalg form is the same program through upstream's TOSA-to-linalg
// lowering, which is what linalg-on-tensors front ends hand over. The same
// seed gives the same program everywhere, and fewer steps give a prefix.
//
//===----------------------------------------------------------------------===//

#ifndef CS349_GEN_RANDOMTOSAPROGRAMBUILDER_H
#define CS349_GEN_RANDOMTOSAPROGRAMBUILDER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>

namespace mlir::cs349::gen {

/// The dialects a random import program is written in.
enum class ImportForm { Tosa, Linalg };

struct RandomTosaProgramConfig {
  uint64_t seed = 0;
  /// The number of generation steps is drawn from [minSteps, maxSteps]; a
  /// step emits one op or a subgraph (a softmax, an attention).
  int64_t minSteps = 3;
  int64_t maxSteps = 40;
  ImportForm form = ImportForm::Tosa;
  /// Step names (getRandomTosaStepNames()) never to emit.
  llvm::SmallVector<std::string> without;
  /// Every dim of the arguments, of the results and of every value but
  /// the constants is `?`, as a front end exports symbolic sizes. TOSA
  /// form only: readRandomImportOptions refuses it with the linalg form,
  /// whose upstream lowering fails on such programs.
  bool dynamic = false;
};

/// The names of the generation steps, in table order.
llvm::SmallVector<llvm::StringRef> getRandomTosaStepNames();

/// Checks the step range and that every name in `without` is a step.
llvm::Error verifyConfig(const RandomTosaProgramConfig &config);

/// Builds `func.func @random(...) -> (...)` in a new module, in TOSA or,
/// for ImportForm::Linalg, lowered to linalg, tensor and arith by upstream's
/// passes. `config` must pass verifyConfig. Null (with a diagnostic) only if
/// upstream's lowering fails. With config.dynamic, `argShapes` (when given)
/// receives the `--import=arg-shapes` value that gives the arguments their
/// sizes back.
OwningOpRef<ModuleOp>
buildRandomTosaProgram(MLIRContext &context,
                       const RandomTosaProgramConfig &config,
                       std::string *argShapes = nullptr);

} // namespace mlir::cs349::gen

#endif // CS349_GEN_RANDOMTOSAPROGRAMBUILDER_H
