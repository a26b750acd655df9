//===- TensorBytes.h - the bytes a tensor occupies ---------------*- C++ -*-===//
//
// The one definition of a tensor's size in memory, for the dialect's verifier,
// the lifetimes the planner places, the lowering that checks the plan against
// its memrefs, the scheduler, the memory budget, the generators and cs349-run.
// A tensor is laid out as its memref is: every element in whole bytes
// (ceil(bits / 8), an i1 takes a byte), and both the element count and the
// bytes must fit in int64_t, as memref sizes and offsets do.
//
//===----------------------------------------------------------------------===//

#ifndef CS349_SUPPORT_TENSORBYTES_H
#define CS349_SUPPORT_TENSORBYTES_H

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace mlir::cs349 {

/// a * b, or nullopt when it overflows int64_t. (llvm::checkedMul goes
/// through APInt: on a whole model's shapes that was a few per cent of the
/// pipeline.)
inline std::optional<int64_t> checkedMultiply(int64_t a, int64_t b) {
  int64_t product;
  if (__builtin_mul_overflow(a, b, &product))
    return std::nullopt;
  return product;
}

/// The product of `factors`, or nullopt if one is negative (a dynamic size
/// of a shape) or the product does not fit in an int64_t. Inline: the
/// verifier's type constraints call it for every operand and result.
inline std::optional<int64_t> checkedProduct(llvm::ArrayRef<int64_t> factors) {
  std::optional<int64_t> product = 1;
  for (int64_t factor : factors)
    if (factor < 0 || !(product = checkedMultiply(*product, factor)))
      return std::nullopt;
  return product;
}

/// Bytes of one element of `type` in memory (ceil(bits / 8)); nullopt unless
/// it is an integer or float type.
std::optional<int64_t> getElementBytes(Type type);

/// Bytes of a statically shaped tensor (or memref) of int or float elements:
/// elements x element bytes. nullopt for any other type or when the element
/// count or the bytes do not fit in int64_t; `whyNot` (when given) then says
/// which, e.g. "the element count 2^62 x 4 overflows".
std::optional<uint64_t> getTensorBytes(Type type,
                                       std::string *whyNot = nullptr);

} // namespace mlir::cs349

#endif // CS349_SUPPORT_TENSORBYTES_H
