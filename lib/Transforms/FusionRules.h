//===- FusionRules.h - which kernel may take which op -----------*- C++ -*-===//
//
// Private to lib/Transforms: the epilogue rule of --fuse, in a file of its
// own because a course exercise (exercises/fusion-rule) builds a student's
// answer in its place.
//
//===----------------------------------------------------------------------===//

#ifndef CS349_LIB_TRANSFORMS_FUSIONRULES_H
#define CS349_LIB_TRANSFORMS_FUSIONRULES_H

#include "cs349/Dialect/CS349/IR/FusionKind.h"

#include <cstdint>

namespace mlir::cs349 {

/// Whether a kernel of `kernel` kind may compute one more elementwise op,
/// reading a result of the kernel, as part of the same loop nest. `capacity`
/// is the number of elements the kernel iterates over (the matmul's output,
/// the reduced input; unused for the other kinds) and `elements` the number
/// of elements of the op's largest result. A kernel may take an op only if
/// its loop nest computes every element of the op's result once: an op
/// larger than the iteration space (a broadcast past it) would be computed
/// partially or more than once, so it starts a kernel of its own.
bool mayTakeElementwise(FusionKind kernel, int64_t capacity, int64_t elements);

} // namespace mlir::cs349

#endif // CS349_LIB_TRANSFORMS_FUSIONRULES_H
