//===- cs349-lsp-server.cpp - an editor's view of cs349 IR ----------------===//
//
// Upstream's MLIR language server with the dialects cs349-opt reads and
// writes: an editor shows the verifier's diagnostics as you type, types and
// generic forms on hover, and jumps from a use to its definition.
//
//===----------------------------------------------------------------------===//

#include "cs349/Conversion/Passes.h"
#include "cs349/Dialect/CS349/IR/CS349Dialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-lsp-server/MlirLspServerMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  registry.insert<mlir::cs349::CS349Dialect, mlir::func::FuncDialect>();
  mlir::cs349::registerLoweringDialects(registry);
  return mlir::failed(mlir::MlirLspServerMain(argc, argv, registry));
}
