//===- StepNamesFromSource.h - SSA names in the input become step names ---===//
//
// cs349-opt prints every result under its step name (`%layer0.attn.norm =`)
// rather than a number. Reading such a file back, the parser keeps only the
// op's position; this pass gives each op the name its first result had in
// the text, so a step run on its own file names results as the whole
// pipeline would (in reports, pictures and diagnostics).
//
//===----------------------------------------------------------------------===//

#ifndef CS349_TOOLS_CS349OPT_STEPNAMESFROMSOURCE_H
#define CS349_TOOLS_CS349OPT_STEPNAMESFROMSOURCE_H

#include "llvm/Support/MemoryBufferRef.h"

#include <memory>

namespace mlir {
class Pass;
namespace cs349 {

/// A pass that, for every op and block argument located at a position in
/// `source` where the text names its (first) value `%name` rather than `%0`,
/// wraps that position in the step name `name`. Explicit locations
/// (`loc("...")`) and positions in other files are left as they are. The
/// buffer must outlive the pass.
std::unique_ptr<Pass> createStepNamesFromSourcePass(llvm::MemoryBufferRef source);

} // namespace cs349
} // namespace mlir

#endif // CS349_TOOLS_CS349OPT_STEPNAMESFROMSOURCE_H
