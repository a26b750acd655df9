//===- FloatRounding.cpp - f32 to and from bf16 and f16 bits --------------===//

#include "cs349/Support/FloatRounding.h"

#include "llvm/ADT/APFloat.h"

#include <cstring>

using llvm::APFloat;

namespace {
uint32_t bitsOf(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return bits;
}

float floatOf(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

uint16_t roundWithAPFloat(float value, const llvm::fltSemantics &to) {
  APFloat converted(value);
  bool losesInfo = false;
  converted.convert(to, APFloat::rmNearestTiesToEven, &losesInfo);
  return static_cast<uint16_t>(converted.bitcastToAPInt().getZExtValue());
}

APFloat fromBits(uint16_t bits, const llvm::fltSemantics &semantics) {
  return APFloat(semantics, llvm::APInt(16, bits));
}
} // namespace

namespace cs349 {

uint16_t roundToBF16Bits(float value) {
  uint32_t bits = bitsOf(value);
  // A NaN's payload may carry into the exponent below and come out as an
  // infinity (or wrap to zero): APFloat makes it a quiet NaN instead.
  if ((bits & 0x7F800000u) == 0x7F800000u && (bits & 0x007FFFFFu) != 0)
    return roundWithAPFloat(value, APFloat::BFloat());
  // Millions of weights come through here, and APFloat is two orders of
  // magnitude slower. bf16 is f32's upper half, so rounding to nearest even
  // is adding just under half of the dropped part plus the kept part's last
  // bit; a carry out of the mantissa is the correct round-up (into the next
  // binade, or to infinity).
  bits += 0x7FFFu + ((bits >> 16) & 1u);
  return static_cast<uint16_t>(bits >> 16);
}

uint16_t roundToF16Bits(float value) {
  return roundWithAPFloat(value, APFloat::IEEEhalf());
}

float bf16BitsToFloat(uint16_t bits) {
  return floatOf(static_cast<uint32_t>(bits) << 16);
}

float f16BitsToFloat(uint16_t bits) {
  APFloat value = fromBits(bits, APFloat::IEEEhalf());
  bool losesInfo = false;
  value.convert(APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven,
                &losesInfo);
  return value.convertToFloat();
}

} // namespace cs349
