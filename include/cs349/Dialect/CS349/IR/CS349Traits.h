//===- CS349Traits.h - marker traits of cs349 ops ----------------*- C++ -*-===//
//
// Marker traits that passes query instead of listing op classes, so a new op
// only has to declare what it is.
//
//===----------------------------------------------------------------------===//

#ifndef CS349_DIALECT_CS349_IR_CS349TRAITS_H
#define CS349_DIALECT_CS349_IR_CS349TRAITS_H

#include "mlir/IR/OpDefinition.h"

namespace mlir::cs349 {

/// The op reinterprets its operand's memory (reshape, transpose, repeat): it
/// never copies, never forms a kernel, and its result aliases its operand.
template <typename ConcreteType>
class IsView : public OpTrait::TraitBase<ConcreteType, IsView> {};

/// The op's value is known at compile time (dense constants, the causal mask,
/// RoPE tables): it is not an activation and never needs arena memory.
template <typename ConcreteType>
class IsConstantData : public OpTrait::TraitBase<ConcreteType, IsConstantData> {
};

/// The op is a layer-level composite that --decompose expands.
template <typename ConcreteType>
class IsComposite : public OpTrait::TraitBase<ConcreteType, IsComposite> {};

/// The op has no per-element form: the lowering computes its whole result
/// at once (attention), so a kernel that computes it always stores it.
template <typename ConcreteType>
class IsComputedWhole : public OpTrait::TraitBase<ConcreteType, IsComputedWhole> {
};

inline bool isView(Operation *op) { return op->hasTrait<IsView>(); }
inline bool isConstantData(Operation *op) {
  return op->hasTrait<IsConstantData>();
}
inline bool isComposite(Operation *op) { return op->hasTrait<IsComposite>(); }
inline bool isComputedWhole(Operation *op) {
  return op->hasTrait<IsComputedWhole>();
}

} // namespace mlir::cs349

#endif // CS349_DIALECT_CS349_IR_CS349TRAITS_H
