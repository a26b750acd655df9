//===- cs349-opt.cpp - the cs349 optimizer driver -------------------------===//
//
// mlir-opt for the cs349 dialect: upstream's driver with the cs349 dialect,
// the dialects its passes produce, the cs349 passes and pipelines, and the
// upstream passes a user expects next to them (cse, canonicalize, ...).
//
//===----------------------------------------------------------------------===//

#include "cs349/Conversion/Passes.h"
#include "cs349/Dialect/CS349/IR/CS349Dialect.h"
#include "cs349/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::registerTransformsPasses();
  mlir::cs349::registerPassesAndPipelines();
  mlir::cs349::registerConversionPassesAndPipelines();

  mlir::DialectRegistry registry;
  registry.insert<mlir::cs349::CS349Dialect, mlir::func::FuncDialect>();
  mlir::cs349::registerLoweringDialects(registry);

  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "cs349 optimizer: from a transformer layer to a memory plan\n",
      registry));
}
