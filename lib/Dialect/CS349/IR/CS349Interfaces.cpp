//===- CS349Interfaces.cpp - what passes ask cs349 ops --------------------===//
//
// The interfaces' definitions and the ops' recompute costs, which tell the
// kernel lowering (its scratch policy) how often one element of an op reads
// its operands.
//
//===----------------------------------------------------------------------===//

#include "cs349/Dialect/CS349/IR/CS349Interfaces.h"
#include "cs349/Dialect/CS349/IR/CS349Ops.h"

using namespace mlir;
using namespace mlir::cs349;

#include "cs349/Dialect/CS349/IR/CS349Interfaces.cpp.inc"

Value mlir::cs349::followViews(Value value) {
  while (auto view = value.getDefiningOp<ViewLikeOpInterface>())
    value = view.getViewSource();
  return value;
}

namespace {
double numElements(Value value) {
  return double(cast<ShapedType>(value.getType()).getNumElements());
}
} // namespace

double mlir::cs349::broadcastReadsPerElement(Operation *op,
                                             unsigned operandIndex) {
  return numElements(op->getResult(0)) /
         numElements(op->getOperand(operandIndex));
}

//===----------------------------------------------------------------------===//
// Recompute costs
//===----------------------------------------------------------------------===//

double ReduceSumOp::getReadsPerElement(unsigned) { return 1.0; }
double ReduceMaxOp::getReadsPerElement(unsigned) { return 1.0; }

double SoftmaxOp::getReadsPerElement(unsigned) {
  // Row max, row sum, and the element itself.
  return 2.0 * double(getType().getDimSize(getAxis())) + 1.0;
}

double RmsNormOp::getReadsPerElement(unsigned operandIndex) {
  // The input: the row's sum of squares and the element itself.
  if (operandIndex == 0)
    return double(getType().getShape().back()) + 1.0;
  return broadcastReadsPerElement(*this, operandIndex);
}

double LayerNormOp::getReadsPerElement(unsigned operandIndex) {
  // The input: the row's sum, its sum of squared deviations, and the element.
  if (operandIndex == 0)
    return 2.0 * double(getType().getShape().back()) + 1.0;
  return broadcastReadsPerElement(*this, operandIndex);
}

double RopeOp::getReadsPerElement(unsigned operandIndex) {
  // The input: the element and its rotate-half partner.
  if (operandIndex == 0)
    return 2.0;
  return broadcastReadsPerElement(*this, operandIndex);
}
bool RopeOp::isCostlyToRecompute() { return false; }

double MatmulOp::getReadsPerElement(unsigned operandIndex) {
  return broadcastReadsPerElement(*this, operandIndex) *
         double(getLhs().getType().getShape().back());
}

// Each input element lands in exactly one result element.
double ConcatOp::getReadsPerElement(unsigned) { return 1.0; }
bool ConcatOp::isCostlyToRecompute() { return false; }

double AttentionOp::getReadsPerElement(unsigned operandIndex) {
  // The query row is loaded once; every key and value row is read once per
  // query row.
  if (operandIndex == 0)
    return 1.0;
  auto q = getQuery().getType();
  auto k = getKey().getType();
  return double(q.getDimSize(0) * q.getDimSize(1)) / k.getDimSize(0);
}
