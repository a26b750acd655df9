//===- OpaqueKernels.cpp - what cs349 has no op for, in kernels ------------===//
//
// The importer never refuses a program it does not fully understand: an op
// without a cs349 equivalent runs as it is, inside a cs349.kernel of its
// own, whose results are written like any kernel's. Lifetimes, the plan
// and the lowering (which inlines the body) then cover the whole program.
// A kernel reads and writes tensors of the dialect's element types (float,
// i1, i32, i64: token ids and positions arrive as i64 arguments, masks are
// i1); ops joined by values of other types share one kernel.
//
//===----------------------------------------------------------------------===//

#include "ImportPatterns.h"

#include "cs349/Dialect/CS349/IR/CS349Dialect.h"
#include "cs349/Dialect/CS349/IR/CS349Ops.h"

#include "mlir/Analysis/TopologicalSortUtils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::cs349;

namespace {

/// Whether a value of `type` can be a kernel's operand or written result.
bool crossesKernels(Type type) { return import::isKernelTensorType(type); }

bool isCS349Op(Operation *op) {
  return isa_and_present<CS349Dialect>(op->getDialect());
}

/// Ops that compute nothing a kernel would have to read (constants, empty
/// tensors, TOSA shapes): cloned into each kernel that uses them.
bool isFreeOp(Operation *op) {
  return !isCS349Op(op) && op->getNumOperands() == 0 &&
         op->getNumRegions() == 0 && isMemoryEffectFree(op);
}

std::string describe(Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "'" << op->getName() << "'";
  return text;
}

} // namespace

std::string mlir::cs349::import::opaqueReason(Operation *op) {
  if (auto generic = dyn_cast<linalg::GenericOp>(op)) {
    for (Operation &bodyOp : generic.getRegion().front().without_terminator()) {
      if (isRaisableScalarOp(&bodyOp))
        continue;
      if (isa<math::FPowIOp>(bodyOp))
        return "linalg.generic whose body computes 'math.fpowi' by a power "
               "that is not a constant within +-256";
      return "linalg.generic whose body computes " + describe(&bodyOp) +
             ", which no cs349 op computes";
    }
    if (llvm::any_of(op->getOperandTypes(), [](Type type) {
          return !isCS349TensorType(type) && !isMaskTensorType(type);
        }))
      return "linalg.generic on tensors that are neither float nor i1";
    return "linalg.generic whose indexing maps are not a broadcast, a "
           "permutation or a sum/max reduction of its inputs";
  }
  for (Type type : op->getResultTypes())
    if (!isCS349TensorType(type))
      return describe(op) + " computes a " +
             [&] {
               std::string text;
               llvm::raw_string_ostream os(text);
               os << type;
               return text;
             }() +
             ", not a float tensor";
  return "no cs349 op computes " + describe(op);
}

LogicalResult mlir::cs349::import::wrapOpaqueOps(func::FuncOp func,
                                                  bool report) {
  Block &block = func.getBody().front();
  SmallVector<Operation *> foreign;
  llvm::DenseMap<Operation *, unsigned> position;
  for (Operation &op : block) {
    position[&op] = position.size();
    if (!isCS349Op(&op) && !op.hasTrait<OpTrait::IsTerminator>() &&
        !isFreeOp(&op))
      foreign.push_back(&op);
  }
  if (foreign.empty())
    return success();

  // Values that cannot cross a kernel boundary tie their producer and
  // their readers into one kernel.
  llvm::EquivalenceClasses<Operation *> clusters;
  for (Operation *op : foreign)
    clusters.insert(op);
  for (Operation *op : foreign) {
    for (Value result : op->getResults()) {
      if (crossesKernels(result.getType()))
        continue;
      for (Operation *user : result.getUsers()) {
        if (clusters.contains(user)) {
          clusters.unionSets(op, user);
          continue;
        }
        return user->emitOpError("reads a value of type ")
               << result.getType() << " computed by " << describe(op)
               << ": cs349 plans only statically shaped float, i1, i32 or "
                  "i64 tensors";
      }
    }
  }

  SmallVector<SmallVector<Operation *>> groups;
  llvm::DenseMap<Operation *, unsigned> groupOf;
  for (Operation *op : foreign) {
    Operation *leader = clusters.getLeaderValue(op);
    auto [it, inserted] = groupOf.try_emplace(leader, groups.size());
    if (inserted)
      groups.emplace_back();
    groups[it->second].push_back(op);
  }

  for (SmallVector<Operation *> &members : groups) {
    llvm::SmallPtrSet<Operation *, 8> memberSet(members.begin(), members.end());
    llvm::SetVector<Value> inputs;
    llvm::SetVector<Operation *> freeOps;
    for (Operation *op : members) {
      auto collect = [&](Value operand) -> LogicalResult {
        Operation *def = operand.getDefiningOp();
        if (def && memberSet.contains(def))
          return success();
        if (def && isFreeOp(def)) {
          freeOps.insert(def);
          return success();
        }
        if (!crossesKernels(operand.getType()))
          return op->emitOpError("reads a value of type ")
                 << operand.getType()
                 << " from outside: a cs349 kernel reads only statically "
                    "shaped float, i1, i32 or i64 tensors";
        inputs.insert(operand);
        return success();
      };
      // Operands, and values a region (a generic's body) captures.
      for (Value operand : op->getOperands())
        if (failed(collect(operand)))
          return failure();
      WalkResult captured = op->walk([&](Operation *nested) {
        if (nested == op)
          return WalkResult::advance();
        for (Value operand : nested->getOperands())
          if (!op->isAncestor(operand.getParentBlock()->getParentOp()) &&
              failed(collect(operand)))
            return WalkResult::interrupt();
        return WalkResult::advance();
      });
      if (captured.wasInterrupted())
        return failure();
    }
    SmallVector<Value> written;
    for (Operation *op : members)
      for (Value result : op->getResults())
        if (llvm::any_of(result.getUsers(), [&](Operation *user) {
              return !memberSet.contains(user);
            }))
          written.push_back(result);
    for (Value value : written)
      if (!crossesKernels(value.getType()))
        return value.getDefiningOp()->emitOpError("writes a value of type ")
               << value.getType()
               << " that is read outside: cs349 plans only statically "
                  "shaped float, i1, i32 or i64 tensors";

    Operation *last = members.back();
    OpBuilder builder(last->getContext());
    builder.setInsertionPointAfter(last);
    auto kernel = KernelOp::create(builder, members.front()->getLoc(),
                                   ValueRange(written).getTypes(),
                                   inputs.getArrayRef());
    Block &body = kernel.getBody().front();
    IRMapping mapping;
    for (auto [input, argument] : llvm::zip(inputs, body.getArguments()))
      mapping.map(input, argument);
    builder.setInsertionPointToStart(&body);
    SmallVector<Operation *> orderedFree(freeOps.begin(), freeOps.end());
    llvm::sort(orderedFree, [&](Operation *a, Operation *b) {
      return position.lookup(a) < position.lookup(b);
    });
    for (Operation *op : orderedFree)
      builder.clone(*op, mapping);
    SmallVector<Attribute> names;
    for (Operation *op : members) {
      builder.clone(*op, mapping);
      names.push_back(builder.getStringAttr(op->getName().getStringRef()));
    }
    SmallVector<Value> yielded;
    for (Value value : written)
      yielded.push_back(mapping.lookup(value));
    YieldOp::create(builder, kernel.getLoc(), yielded);
    CS349Dialect::OpaqueAttrHelper(builder.getContext())
        .setAttr(kernel, builder.getArrayAttr(names));
    for (auto [value, result] : llvm::zip(written, kernel.getResults()))
      value.replaceUsesWithIf(result, [&](OpOperand &use) {
        return !memberSet.contains(use.getOwner());
      });
    if (report) {
      InFlightDiagnostic remark = kernel.emitRemark("opaque kernel: ");
      llvm::interleaveComma(members, remark, [&](Operation *op) {
        remark << opaqueReason(op);
      });
    }
    for (Operation *op : members)
      op->dropAllReferences();
    for (Operation *op : llvm::reverse(members))
      op->erase();
  }
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(block)))
    if (isFreeOp(&op) && op.use_empty())
      op.erase();
  // A kernel sits where its last op was; readers of its earlier ops' results
  // may come before that.
  if (!sortTopologically(&block))
    return func.emitOpError("--import formed opaque kernels that depend on "
                            "each other; please report this input");
  return success();
}
