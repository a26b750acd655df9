//===- cs349-opt.cpp - the cs349 optimizer driver -------------------------===//
//
// mlir-opt for the cs349 dialect: upstream's driver with the cs349 dialect,
// the dialects its passes produce, the cs349 passes and pipelines, and the
// upstream passes a user expects next to them (cse, canonicalize, ...). Its
// command line (CommandLine.h) and its diagnostics on step-named IR
// (StepNameLocations.h) are tuned for people reading them.
//
//===----------------------------------------------------------------------===//

#include "CommandLine.h"
#include "StepNameLocations.h"
#include "StepNamesFromSource.h"
#include "VerifiedOutput.h"

#include "cs349/Conversion/Passes.h"
#include "cs349/Dialect/CS349/IR/CS349Dialect.h"
#include "cs349/Import/Passes.h"
#include "cs349/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  mlir::registerTransformsPasses();
  mlir::cs349::registerPassesAndPipelines();
  mlir::cs349::registerConversionPassesAndPipelines();
  mlir::cs349::registerCS349ImportPasses();

  mlir::DialectRegistry registry;
  registry.insert<mlir::cs349::CS349Dialect, mlir::func::FuncDialect>();
  mlir::cs349::registerLoweringDialects(registry);
  // What other front ends write (TOSA, linalg on tensors): --import's input.
  mlir::cs349::registerImportedDialects(registry);
  // The cs349 dialect is loaded while the input is parsed, after the
  // driver's own diagnostic handlers: the step-name handler goes first.
  registry.addExtension(+[](mlir::MLIRContext *context,
                            mlir::cs349::CS349Dialect *) {
    mlir::cs349::locateStepNames(context);
  });

  std::optional<mlir::cs349::InputOutputFiles> files =
      mlir::cs349::parseCommandLine(
          argc, argv,
          "cs349 optimizer: from a transformer layer to a memory plan\n",
          registry);
  if (!files)
    return EXIT_FAILURE;

  std::string errorMessage;
  std::unique_ptr<llvm::MemoryBuffer> input =
      mlir::openInputFile(files->input, &errorMessage);
  if (!input) {
    llvm::errs() << errorMessage << "\n";
    return EXIT_FAILURE;
  }
  std::unique_ptr<llvm::ToolOutputFile> output =
      mlir::openOutputFile(files->output, &errorMessage);
  if (!output) {
    llvm::errs() << errorMessage << "\n";
    return EXIT_FAILURE;
  }
  mlir::cs349::setStepNameSource(input->getMemBufferRef(), registry);

  mlir::MlirOptMainConfig config = mlir::MlirOptMainConfig::createFromCLOptions();
  // Results are printed under their step names (CommandLine.cpp); reading
  // such a file back, those names become the ops' step names again before
  // the user's passes run.
  mlir::MlirOptMainConfig userPipeline = config;
  llvm::MemoryBufferRef source = input->getMemBufferRef();
  std::string tool = llvm::sys::path::filename(argv[0]).str();
  config.setPassPipelineSetupFn(
      [userPipeline, source, tool](mlir::PassManager &pm) {
        pm.addPass(mlir::cs349::createStepNamesFromSourcePass(source));
        // A pipeline or pass option that does not parse is a command-line
        // error, not one in the IR: said like the tool's other ones, and
        // without the empty error that follows llvm::cl's own message.
        mlir::ScopedDiagnosticHandler commandLineErrors(
            pm.getContext(), [&tool](mlir::Diagnostic &diagnostic) {
              if (!llvm::isa<mlir::UnknownLoc>(diagnostic.getLocation()))
                return mlir::failure();
              std::string text = diagnostic.str();
              llvm::StringRef message = llvm::StringRef(text).trim();
              message.consume_front("<Pass-Options-Parser>: ");
              if (!message.empty())
                llvm::errs() << tool << ": error: " << message << "\n";
              return mlir::success();
            });
        if (mlir::failed(userPipeline.setupPassPipeline(pm)))
          return mlir::failure();
        mlir::cs349::assumeVerifiedAfterPipeline(pm, userPipeline);
        return mlir::success();
      });
  if (mlir::failed(
          mlir::MlirOptMain(output->os(), std::move(input), registry, config)))
    return EXIT_FAILURE;
  output->keep();
  return EXIT_SUCCESS;
}
