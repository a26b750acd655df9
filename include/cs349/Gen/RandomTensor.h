//===- RandomTensor.h - deterministic random dense constants -----*- C++ -*-===//
//
// Random weights must be the same on every machine and every standard library,
// so that a test can check them and folding results can be compared: the
// generator uses splitmix64 and the project's float rounding instead of
// <random> distributions, whose output is implementation-defined.
//
//===----------------------------------------------------------------------===//

#ifndef CS349_GEN_RANDOMTENSOR_H
#define CS349_GEN_RANDOMTENSOR_H

#include "cs349/Support/SplitMix64.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"

#include <cstdint>

namespace mlir::cs349::gen {

using ::cs349::SplitMix64;

/// Mixes a seed with a stream number, so that each weight has a stream of its
/// own: layer 0's weights do not change when more layers are generated.
uint64_t deriveSeed(uint64_t seed, uint64_t stream);

/// A dense constant of `type` (bf16, f16 or f32 elements) whose elements are
/// `center + u * halfWidth` with u uniform in [-1, 1), rounded to nearest even.
DenseElementsAttr randomUniform(RankedTensorType type, SplitMix64 &rng,
                                double center, double halfWidth);

} // namespace mlir::cs349::gen

#endif // CS349_GEN_RANDOMTENSOR_H
