//===- ScratchPolicy.cpp - what a kernel body stores and what it recomputes ===//
//
// Inside a kernel every value that is not written back is recomputed where it
// is read: an elementwise chain becomes one loop nest and needs no memory.
// That is free for elementwise ops, but a reduction or a contraction read
// with broadcasting (the row sum of rms_norm, read once per column) would
// repeat its whole loop for every reader: such a value gets a scratch tensor
// instead. The decision needs, for every value, how many times each of its
// elements would be evaluated per kernel run; that is counted from the
// consumers back to the producers.
//
// Scratch is memory the memory plan does not know about. Without it (the
// default) every such value is recomputed as well: more arithmetic, but a
// planned function then allocates its arena and nothing else. Only an op
// computed whole (attention) has no per-element form and keeps its tensor
// either way. What an op costs is the op's RecomputeCostOpInterface.
//
//===----------------------------------------------------------------------===//

#include "ElementEmitter.h"

#include "cs349/Dialect/CS349/IR/CS349Ops.h"
#include "cs349/Dialect/CS349/IR/CS349Traits.h"

using namespace mlir;
using namespace mlir::cs349;

namespace {
/// How many times computing every element of `user` once reads each element
/// of its operand `operandIndex`.
double readsPerElement(Operation *user, unsigned operandIndex) {
  if (auto cost = dyn_cast<RecomputeCostOpInterface>(user))
    return cost.getReadsPerElement(operandIndex);
  // Elementwise ops and views read each result element's operand once.
  return broadcastReadsPerElement(user, operandIndex);
}

/// Whether one element of `op` is a loop of its own (a reduction, a
/// contraction, a row-wise composite).
bool isExpensive(Operation *op) {
  auto cost = dyn_cast<RecomputeCostOpInterface>(op);
  return cost && cost.isCostlyToRecompute();
}

/// Whether `user` reads its operand at the very indices of its own element:
/// two such reads in one loop nest are one (the emitter reuses the first).
bool readsAtSameIndices(Operation *user, unsigned operandIndex) {
  return isa<ElementwiseOpInterface>(user) &&
         user->getOperand(operandIndex).getType() ==
             user->getResult(0).getType();
}
} // namespace

llvm::DenseSet<Value>
mlir::cs349::lowering::chooseScratchValues(Block &body, bool allowScratch) {
  llvm::DenseSet<Value> yielded(llvm::from_range,
                                body.getTerminator()->getOperands());
  if (!allowScratch) {
    llvm::DenseSet<Value> scratch;
    for (Operation &op : body.without_terminator())
      if (isComputedWhole(&op) && !yielded.contains(op.getResult(0)))
        scratch.insert(op.getResult(0));
    return scratch;
  }
  // For every value: the stored values (roots) whose loop nests evaluate it,
  // and how many times per element of the value each of them does.
  llvm::DenseMap<Value, llvm::SmallDenseMap<Value, double, 2>> evaluations;
  llvm::DenseSet<Value> scratch;
  for (Operation &op : llvm::reverse(body.without_terminator())) {
    if (op.getNumResults() != 1)
      continue;
    Value value = op.getResult(0);
    if (yielded.contains(value)) {
      evaluations[value][value] = 1.0;
      continue;
    }
    // Reads at the element's own indices share one evaluation per root;
    // other reads (broadcasts, rotations, contractions) add up.
    llvm::SmallDenseMap<Value, double, 2> shared, counts;
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (user == body.getTerminator() || user->getNumResults() != 1)
        continue;
      unsigned operand = use.getOperandNumber();
      double factor = readsPerElement(user, operand);
      bool same = readsAtSameIndices(user, operand);
      for (auto [root, count] : evaluations.lookup(user->getResult(0))) {
        if (same)
          shared[root] = std::max(shared[root], count);
        else
          counts[root] += factor * count;
      }
    }
    for (auto [root, count] : shared)
      counts[root] += count;
    double total = 0.0;
    for (auto [root, count] : counts)
      total += count;
    if (isComputedWhole(&op) || (isExpensive(&op) && total > 1.0 + 1e-9)) {
      scratch.insert(value);
      counts.clear();
      counts[value] = 1.0;
    }
    evaluations[value] = std::move(counts);
  }
  return scratch;
}
