//===- FloatRounding.h - f32 to and from bf16 and f16 bits -------*- C++ -*-===//
//
// The generators' random weights and cs349-run's tensors store bf16 and f16
// elements as raw bits. Rounding is to nearest, ties to even, as IEEE 754 and
// MLIR's own constant folding round; NaN stays NaN (quiet, sign kept).
// The interface is plain C++ so that plain-C++ callers can use it; the
// implementation is APFloat's, with a bit-level fast path for finite bf16
// values that the unit tests hold to APFloat.
//
//===----------------------------------------------------------------------===//

#ifndef CS349_SUPPORT_FLOATROUNDING_H
#define CS349_SUPPORT_FLOATROUNDING_H

#include <cstdint>

namespace cs349 {

/// `value` rounded to bfloat16, as its bits.
uint16_t roundToBF16Bits(float value);
/// `value` rounded to IEEE half precision, as its bits.
uint16_t roundToF16Bits(float value);

/// The float that bfloat16 `bits` stand for (exact).
float bf16BitsToFloat(uint16_t bits);
/// The float that IEEE half `bits` stand for (exact).
float f16BitsToFloat(uint16_t bits);

} // namespace cs349

#endif // CS349_SUPPORT_FLOATROUNDING_H
