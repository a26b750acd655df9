//===- FloatRoundingTest.cpp - f32 to bf16 and f16 ------------------------===//

#include "cs349/Support/FloatRounding.h"

#include "llvm/ADT/APFloat.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

using llvm::APFloat;

namespace {

float floatOf(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, 4);
  return value;
}

uint16_t reference(float value, const llvm::fltSemantics &to) {
  APFloat converted(value);
  bool losesInfo = false;
  converted.convert(to, APFloat::rmNearestTiesToEven, &losesInfo);
  return uint16_t(converted.bitcastToAPInt().getZExtValue());
}

bool isBF16NaN(uint16_t bits) {
  return (bits & 0x7F80) == 0x7F80 && (bits & 0x007F) != 0;
}

// A NaN whose payload is in the low bits came out as an infinity, and
// 0xFFFFFFFF wrapped to +0, in the generator's copy of the bf16 rounding.
TEST(FloatRoundingTest, BF16KeepsNaN) {
  for (uint32_t bits : {0x7F800001u, 0x7FBFFFFFu, 0x7FC00000u, 0x7FFFFFFFu,
                        0xFF800001u, 0xFFFFFFFFu}) {
    uint16_t rounded = cs349::roundToBF16Bits(floatOf(bits));
    EXPECT_TRUE(isBF16NaN(rounded)) << std::hex << bits << " -> " << rounded;
    EXPECT_EQ(rounded >> 15, bits >> 31) << "sign of " << std::hex << bits;
    EXPECT_TRUE(std::isnan(cs349::bf16BitsToFloat(rounded)));
  }
}

TEST(FloatRoundingTest, BF16TiesToEven) {
  // 1 + 2^-8 is halfway between 1 and 1 + 2^-7: the even one is 1.
  EXPECT_EQ(cs349::roundToBF16Bits(floatOf(0x3F808000u)), 0x3F80);
  // 1 + 3 * 2^-8 is halfway between 1 + 2^-7 and 1 + 2^-6: the even one.
  EXPECT_EQ(cs349::roundToBF16Bits(floatOf(0x3F818000u)), 0x3F82);
  // Just above halfway rounds up, just below down.
  EXPECT_EQ(cs349::roundToBF16Bits(floatOf(0x3F808001u)), 0x3F81);
  EXPECT_EQ(cs349::roundToBF16Bits(floatOf(0x3F807FFFu)), 0x3F80);
  // The largest float is past bf16's largest finite value plus half an ulp.
  EXPECT_EQ(cs349::roundToBF16Bits(floatOf(0x7F7FFFFFu)), 0x7F80);
  EXPECT_EQ(cs349::roundToBF16Bits(floatOf(0xFF800000u)), 0xFF80);
}

// The bit-level fast path is APFloat's rounding on every class of value.
TEST(FloatRoundingTest, BF16AgreesWithAPFloat) {
  for (uint64_t bits = 0; bits <= 0xFFFFFFFFu; bits += 0x10001) {
    float value = floatOf(uint32_t(bits));
    if (std::isnan(value))
      continue;
    ASSERT_EQ(cs349::roundToBF16Bits(value), reference(value, APFloat::BFloat()))
        << std::hex << bits;
  }
}

TEST(FloatRoundingTest, F16TiesToEvenAndNaN) {
  // 1 + 2^-11 is halfway between 1 and 1 + 2^-10.
  EXPECT_EQ(cs349::roundToF16Bits(1.0f + 0x1p-11f), 0x3C00);
  EXPECT_EQ(cs349::roundToF16Bits(1.0f + 3 * 0x1p-11f), 0x3C02);
  // 65520 is halfway between the largest half (65504) and 65536: infinity.
  EXPECT_EQ(cs349::roundToF16Bits(65520.0f), 0x7C00);
  EXPECT_EQ(cs349::roundToF16Bits(65519.0f), 0x7BFF);
  // The smallest subnormal, and half of it (a tie, to even: zero).
  EXPECT_EQ(cs349::roundToF16Bits(0x1p-24f), 0x0001);
  EXPECT_EQ(cs349::roundToF16Bits(0x1p-25f), 0x0000);
  EXPECT_EQ(cs349::roundToF16Bits(-0x1.8p-25f), 0x8001);
  uint16_t nan = cs349::roundToF16Bits(floatOf(0xFF800001u));
  EXPECT_EQ(nan & 0xFC00, 0xFC00);
  EXPECT_NE(nan & 0x03FF, 0);
}

TEST(FloatRoundingTest, EveryHalfRoundTrips) {
  for (uint32_t bits = 0; bits <= 0xFFFF; ++bits) {
    float f16 = cs349::f16BitsToFloat(uint16_t(bits));
    float bf16 = cs349::bf16BitsToFloat(uint16_t(bits));
    if (std::isnan(f16))
      EXPECT_TRUE(std::isnan(APFloat(APFloat::IEEEhalf(), llvm::APInt(16, bits))
                                 .convertToDouble()));
    else
      ASSERT_EQ(cs349::roundToF16Bits(f16), bits) << std::hex << bits;
    if (!std::isnan(bf16))
      ASSERT_EQ(cs349::roundToBF16Bits(bf16), bits) << std::hex << bits;
  }
}

} // namespace
