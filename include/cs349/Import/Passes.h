//===- Passes.h - importing other front ends' IR into cs349 -----*- C++ -*-===//

#ifndef CS349_IMPORT_PASSES_H
#define CS349_IMPORT_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir {
class DialectRegistry;
namespace cs349 {

#define GEN_PASS_DECL
#include "cs349/Import/Passes.h.inc"

/// The dialects a front end's IR may be written in (TOSA, linalg, tensor,
/// arith, math), for a tool that parses it.
void registerImportedDialects(DialectRegistry &registry);

#define GEN_PASS_REGISTRATION
#include "cs349/Import/Passes.h.inc"

} // namespace cs349
} // namespace mlir

#endif // CS349_IMPORT_PASSES_H
