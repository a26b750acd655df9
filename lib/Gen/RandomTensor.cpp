//===- RandomTensor.cpp - deterministic random dense constants ------------===//

#include "cs349/Gen/RandomTensor.h"

#include "llvm/ADT/APFloat.h"

#include <cassert>
#include <cstring>
#include <vector>

using namespace mlir;
using namespace mlir::cs349::gen;

uint64_t SplitMix64::next() {
  uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

double SplitMix64::uniform() {
  return static_cast<double>(next() >> 11) * 0x1.0p-53;
}

uint64_t mlir::cs349::gen::deriveSeed(uint64_t seed, uint64_t stream) {
  SplitMix64 mixer(seed ^ (stream * 0xD1B54A32D192ED03ULL));
  return mixer.next();
}

namespace {
// Round to nearest even by hand: it is exact, and millions of weights go
// through it (APFloat would be two orders of magnitude slower).
uint16_t toBF16Bits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  bits += 0x7FFF + ((bits >> 16) & 1);
  return static_cast<uint16_t>(bits >> 16);
}

uint16_t toF16Bits(float value) {
  llvm::APFloat converted(value);
  bool losesInfo = false;
  converted.convert(llvm::APFloat::IEEEhalf(),
                    llvm::APFloat::rmNearestTiesToEven, &losesInfo);
  return static_cast<uint16_t>(converted.bitcastToAPInt().getZExtValue());
}
} // namespace

DenseElementsAttr mlir::cs349::gen::randomUniform(RankedTensorType type,
                                                  SplitMix64 &rng,
                                                  double center,
                                                  double halfWidth) {
  Type elementType = type.getElementType();
  assert((elementType.isF32() || elementType.isBF16() || elementType.isF16()) &&
         "the cs349 dialect has bf16, f16 and f32 tensors only");
  int64_t count = type.getNumElements();
  size_t width = elementType.isF32() ? 4 : 2;
  // DenseElementsAttr's raw storage is the host's in-memory representation.
  std::vector<char> raw(static_cast<size_t>(count) * width);
  for (int64_t i = 0; i < count; ++i) {
    float value =
        static_cast<float>(center + (2.0 * rng.uniform() - 1.0) * halfWidth);
    char *slot = raw.data() + static_cast<size_t>(i) * width;
    if (elementType.isF32()) {
      std::memcpy(slot, &value, 4);
    } else {
      uint16_t bits =
          elementType.isBF16() ? toBF16Bits(value) : toF16Bits(value);
      std::memcpy(slot, &bits, 2);
    }
  }
  return DenseElementsAttr::getFromRawBuffer(type, raw);
}
