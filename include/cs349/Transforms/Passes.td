//===- Passes.td - cs349 passes -----------------------------*- tablegen -*-===//
//
// The passes of the cs349 pipeline, in the order the lecture runs them. Each
// pass has its own .cpp in lib/Transforms and its own test in test/Transforms.
//
//===----------------------------------------------------------------------===//

#ifndef CS349_TRANSFORMS_PASSES_TD
#define CS349_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

#endif // CS349_TRANSFORMS_PASSES_TD
