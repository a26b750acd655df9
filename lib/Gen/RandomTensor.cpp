//===- RandomTensor.cpp - deterministic random dense constants ------------===//

#include "cs349/Gen/RandomTensor.h"

#include "cs349/Support/FloatRounding.h"
#include "cs349/Support/TensorBytes.h"

#include <cassert>
#include <cstring>
#include <vector>

using namespace mlir;
using namespace mlir::cs349::gen;

uint64_t mlir::cs349::gen::deriveSeed(uint64_t seed, uint64_t stream) {
  return ::cs349::mixBits(seed ^ (stream * 0xD1B54A32D192ED03ULL));
}

DenseElementsAttr mlir::cs349::gen::randomUniform(RankedTensorType type,
                                                  SplitMix64 &rng,
                                                  double center,
                                                  double halfWidth) {
  Type elementType = type.getElementType();
  assert((elementType.isF32() || elementType.isBF16() || elementType.isF16()) &&
         "the cs349 dialect has bf16, f16 and f32 tensors only");
  int64_t count = type.getNumElements();
  size_t width = static_cast<size_t>(*cs349::getElementBytes(elementType));
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
          elementType.isBF16() ? ::cs349::roundToBF16Bits(value)
                              : ::cs349::roundToF16Bits(value);
      std::memcpy(slot, &bits, 2);
    }
  }
  return DenseElementsAttr::getFromRawBuffer(type, raw);
}
