//===- VerifiedOutput.h - print the verified output without verifying it --===//
//
// Before printing a module, MLIR's printer verifies it once more, so that an
// invalid op comes out in the generic form rather than through a custom
// printer that expects a valid one. For the module cs349-opt prints at the
// end that walk repeats one just done: the module was verified after parsing
// and after every pass that changed it. On a whole model that repetition
// costs about 5 % of `--optimize --fuse --plan-memory`.
//
//===----------------------------------------------------------------------===//

#ifndef CS349_TOOLS_CS349OPT_VERIFIEDOUTPUT_H
#define CS349_TOOLS_CS349OPT_VERIFIEDOUTPUT_H

namespace mlir {
class MlirOptMainConfig;
class PassManager;
namespace cs349 {

/// Makes the printer take the module as verified once the last pass of `pm`
/// has succeeded (and been verified), when `config` verifies after parsing
/// and after each pass and the command line does not set
/// --mlir-print-assume-verified itself. Until then, and with either
/// verification off, the printer verifies as usual, so that dumps and
/// diagnostics during the pipeline still print invalid IR generically. Call
/// it after the pipeline is set up, once per pass manager.
void assumeVerifiedAfterPipeline(PassManager &pm,
                                 const MlirOptMainConfig &config);

} // namespace cs349
} // namespace mlir

#endif // CS349_TOOLS_CS349OPT_VERIFIEDOUTPUT_H
