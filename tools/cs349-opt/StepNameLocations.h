//===- StepNameLocations.h - file positions for step-named diagnostics ----===//
//
// cs349-gen names every op by its step (loc("layer0.attn.q_proj")), and the
// parser keeps such an explicit location instead of the op's position in the
// file. A diagnostic at a step name alone would print "<unknown>:0"; this
// gives it the file:line:col of the op that carries the name in the input.
//
//===----------------------------------------------------------------------===//

#ifndef CS349_TOOLS_CS349OPT_STEPNAMELOCATIONS_H
#define CS349_TOOLS_CS349OPT_STEPNAMELOCATIONS_H

#include "llvm/Support/MemoryBufferRef.h"

namespace mlir {
class DialectRegistry;
class MLIRContext;

namespace cs349 {

/// Makes `input` the text whose op positions diagnostics are located in. The
/// buffer must outlive every context that `locateStepNames` is called on.
void setStepNameSource(llvm::MemoryBufferRef input,
                       const DialectRegistry &registry);

/// Installs, in `context`, a diagnostic handler that re-emits a diagnostic
/// located only by step names at the position of the op with that name in
/// the source set above (its notes too). Other diagnostics pass through.
void locateStepNames(MLIRContext *context);

} // namespace cs349
} // namespace mlir

#endif // CS349_TOOLS_CS349OPT_STEPNAMELOCATIONS_H
