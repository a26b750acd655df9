//===- CS349ToLinalg.cpp - the convert-cs349-to-linalg pass ----------------===//
//
// Lowers each function in program order: kernels in place (their results go
// to the arena when the function is planned), other compute ops as kernels
// of their own, views and constant data nowhere (their readers absorb them).
// A planned function gets exactly one allocation, the arena; every kernel
// result is a view of it at the planned offset.
//
//===----------------------------------------------------------------------===//

#include "ElementEmitter.h"

#include "cs349/Conversion/Passes.h"
#include "cs349/Dialect/CS349/IR/CS349Attrs.h"
#include "cs349/Dialect/CS349/IR/CS349Dialect.h"
#include "cs349/Dialect/CS349/IR/CS349Folds.h"
#include "cs349/Dialect/CS349/IR/CS349Ops.h"
#include "cs349/Dialect/CS349/IR/CS349Traits.h"
#include "cs349/Support/TensorBytes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::cs349 {
#define GEN_PASS_DEF_CONVERTCS349TOLINALG
#include "cs349/Conversion/Passes.h.inc"
} // namespace mlir::cs349


using namespace mlir;
using namespace mlir::cs349;
using namespace mlir::cs349::lowering;

namespace {

bool isCS349(Operation *op) { return isa<CS349Dialect>(op->getDialect()); }

bool isStoredConstant(Operation *op) {
  auto constant = dyn_cast<ConstantOp>(op);
  return constant && !isa<SplatElementsAttr>(constant.getValue());
}

/// Ops that produce a tensor of their own when they are lowered (as opposed
/// to views and constant data, which their readers absorb).
bool isCompute(Operation *op) {
  return isa<AttentionOp>(op) ||
         (ElementEmitter::isComputable(op) && !isView(op) &&
          !isConstantData(op));
}

/// Lowers one function. `planned` selects the arena route; `kernelScratch`
/// lets kernels store expensive intermediates outside it.
class FunctionLowering {
public:
  FunctionLowering(func::FuncOp func, bool planned, int64_t attentionBlock,
                   bool kernelScratch)
      : func(func), planned(planned), attentionBlock(attentionBlock),
        kernelScratch(kernelScratch), emitter(func.getContext()) {}

  LogicalResult run();

private:
  LogicalResult verifyInput();
  LogicalResult verifyPlan(KernelOp kernel, ArrayAttr &plan);
  void lowerKernel(OpBuilder &b, KernelOp kernel);
  /// Inlines an opaque kernel's body; its results are copied into `dests`
  /// (the arena) when planned.
  void lowerOpaqueKernel(OpBuilder &b, KernelOp kernel,
                         ArrayRef<Value> dests);
  /// Stores `value` (computed by its defining op) in `dest`.
  Value store(OpBuilder &b, Value value, Value dest);
  Value emptyLike(OpBuilder &b, Location loc, Value value) {
    auto type = cast<RankedTensorType>(value.getType());
    return tensor::EmptyOp::create(b, loc, type.getShape(),
                                   type.getElementType());
  }

  func::FuncOp func;
  bool planned;
  int64_t attentionBlock;
  bool kernelScratch;
  ElementEmitter emitter;
  Value arena;
  ArenaAttr arenaAttr;
};
} // namespace

/// Lanes of the largest vector the FlashAttention loop may use.
constexpr int64_t kMaxAttentionVector = int64_t(1) << 16;

LogicalResult FunctionLowering::verifyInput() {
  if (!func.getBody().hasOneBlock())
    return func.emitOpError("expected a single block to lower");
  WalkResult walk = func.getBody().walk([&](Operation *op) -> WalkResult {
    if (isa<func::ReturnOp>(op))
      return WalkResult::advance();
    if (auto kernel = op->getParentOfType<KernelOp>();
        kernel && kernel.isOpaque())
      return WalkResult::advance();
    if (!isCS349(op))
      return op->emitOpError("cannot be lowered inside a cs349 function: "
                             "expected cs349 ops and func.return");
    if (!ElementEmitter::isComputable(op) &&
        !isa<AttentionOp, KernelOp, YieldOp>(op))
      return op->emitOpError("has no lowering to linalg yet");
    if (auto attention = dyn_cast<AttentionOp>(op)) {
      // The FlashAttention loop keeps a query row and a block of scores in
      // vectors (registers). Real head dims are at most a few hundred; a
      // row past kMaxAttentionVector lanes no longer fits any register file,
      // and at 2^32 lanes LLVM cannot even represent the vector type.
      int64_t headDim = attention.getQuery().getType().getDimSize(2);
      int64_t block = std::min<int64_t>(
          attentionBlock, attention.getKey().getType().getDimSize(1));
      if (headDim > kMaxAttentionVector || block > kMaxAttentionVector)
        return attention.emitOpError("cannot be lowered as FlashAttention: "
                                     "its loop holds vectors of ")
               << headDim << " (head dim) and " << block
               << " (key block) lanes, at most " << kMaxAttentionVector
               << " are supported; lower it unfused (match-attention off) "
                  "or use a smaller attention-block";
    }
    if (isa<KernelOp>(op) && op->getParentOfType<KernelOp>())
      return op->emitOpError("expected kernels at function level, found one "
                             "nested in another");
    if (planned && isCompute(op) && !op->getParentOfType<KernelOp>())
      return op->emitOpError(
          "expected every compute op of a planned function inside a "
          "cs349.kernel: outside one its result would live outside the arena");
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

LogicalResult FunctionLowering::verifyPlan(KernelOp kernel, ArrayAttr &plan) {
  CS349Dialect::PlanAttrHelper planAttr(kernel.getContext());
  plan = planAttr.getAttr(kernel);
  if (!plan)
    return kernel.emitOpError("expected a '")
           << planAttr.getName().getValue()
           << "' attribute in a planned function";
  // The dialect verified one #cs349.buffer per result.
  for (auto [index, attr] : llvm::enumerate(plan)) {
    auto buffer = cast<BufferAttr>(attr);
    auto type = cast<RankedTensorType>(kernel.getResult(index).getType());
    // The dialect's verifier proved that every cs349 tensor's bytes fit.
    uint64_t bytes = getTensorBytes(type).value_or(0);
    int64_t elementBytes = getElementBytes(type.getElementType()).value_or(1);
    if (buffer.getBytes() != bytes)
      return kernel.emitOpError("expected buffer #")
             << index << " to hold " << bytes << " bytes for " << type
             << ", got " << buffer.getBytes();
    if (buffer.getOffset() % elementBytes != 0)
      return kernel.emitOpError("expected buffer #")
             << index << " at an offset aligned to its " << elementBytes
             << "-byte elements, got " << buffer.getOffset();
    if (buffer.getOffset() + buffer.getBytes() > arenaAttr.getBytes())
      return kernel.emitOpError("expected buffer #")
             << index << " [" << buffer.getOffset() << ", "
             << buffer.getOffset() + buffer.getBytes()
             << ") inside the arena of " << arenaAttr.getBytes() << " bytes";
  }
  return success();
}

Value FunctionLowering::store(OpBuilder &b, Value value, Value dest) {
  Operation *op = value.getDefiningOp();
  if (auto attention = dyn_cast_or_null<AttentionOp>(op))
    return emitFlashAttention(b, attention, emitter, dest, attentionBlock);
  return emitter.materialize(b, value.getLoc(), value, dest);
}

void FunctionLowering::lowerKernel(OpBuilder &b, KernelOp kernel) {
  Location loc = kernel.getLoc();
  Block &body = kernel.getBody().front();
  for (auto [argument, input] :
       llvm::zip(body.getArguments(), kernel.getInputs()))
    emitter.setAlias(argument, input);

  SmallVector<Value> dests;
  ArrayAttr plan = CS349Dialect::PlanAttrHelper(kernel.getContext())
                       .getAttr(kernel);
  for (auto [index, result] : llvm::enumerate(kernel.getResults())) {
    if (!planned) {
      dests.push_back(emptyLike(b, loc, result));
      continue;
    }
    auto tensorType = cast<RankedTensorType>(result.getType());
    auto buffer = cast<BufferAttr>(plan[index]);
    Value offset = emitter.index(b, loc, buffer.getOffset());
    auto memrefType = MemRefType::get(tensorType.getShape(),
                                      tensorType.getElementType());
    Value view =
        memref::ViewOp::create(b, loc, memrefType, arena, offset, ValueRange{});
    // restrict: bufferization may write the kernel's result straight into
    // the view; the plan guarantees that nothing live shares those bytes.
    dests.push_back(bufferization::ToTensorOp::create(
        b, loc, tensorType, view, /*restrict=*/true, /*writable=*/true));
  }

  // An opaque kernel's body is upstream MLIR already: it is inlined.
  if (kernel.isOpaque())
    return lowerOpaqueKernel(b, kernel, dests);

  // The first result that yields a value computed in this body computes it
  // into its destination; later duplicates copy it.
  auto yield = cast<YieldOp>(body.getTerminator());
  llvm::DenseMap<Value, unsigned> computedInto;
  for (auto [index, value] : llvm::enumerate(yield.getValues())) {
    Operation *op = value.getDefiningOp();
    if (op && op->getBlock() == &body && isCompute(op))
      computedInto.try_emplace(value, index);
  }
  llvm::DenseSet<Value> scratch = chooseScratchValues(body, kernelScratch);

  SmallVector<Value> results(kernel.getNumResults());
  for (Operation &op : body.without_terminator()) {
    if (isStoredConstant(&op)) {
      auto constant = cast<ConstantOp>(op);
      emitter.setTensor(constant, arith::ConstantOp::create(
                                      b, op.getLoc(), constant.getValue()));
      continue;
    }
    if (op.getNumResults() != 1)
      continue;
    Value value = op.getResult(0);
    auto into = computedInto.find(value);
    if (into != computedInto.end()) {
      Value tensor = store(b, value, dests[into->second]);
      emitter.setTensor(value, tensor);
      results[into->second] = tensor;
    } else if (scratch.contains(value)) {
      emitter.setTensor(value,
                        store(b, value, emptyLike(b, op.getLoc(), value)));
    }
  }
  for (auto [index, value] : llvm::enumerate(yield.getValues()))
    if (!results[index])
      results[index] = emitter.materialize(b, loc, value, dests[index]);
  for (auto [result, tensor] : llvm::zip(kernel.getResults(), results))
    emitter.setTensor(result, tensor);
}

void FunctionLowering::lowerOpaqueKernel(OpBuilder &b, KernelOp kernel,
                                         ArrayRef<Value> dests) {
  Location loc = kernel.getLoc();
  Block &body = kernel.getBody().front();
  IRMapping mapping;
  for (auto [argument, input] :
       llvm::zip(body.getArguments(), kernel.getInputs())) {
    // An input that is a view or constant data has no tensor yet.
    Value tensor = emitter.getTensor(input);
    if (!tensor)
      tensor = emitter.materialize(b, loc, input, emptyLike(b, loc, input));
    mapping.map(argument, tensor);
  }
  for (Operation &op : body.without_terminator())
    b.clone(op, mapping);
  auto yield = cast<YieldOp>(body.getTerminator());
  for (auto [index, value] : llvm::enumerate(yield.getValues())) {
    Value tensor = mapping.lookupOrDefault(value);
    // Planned: the result is written to its place in the arena (the body's
    // own temporaries are outside the plan, which cannot see into it).
    if (planned)
      tensor = linalg::CopyOp::create(b, loc, tensor, dests[index])
                   .getResult(0);
    emitter.setTensor(kernel.getResult(index), tensor);
  }
}

LogicalResult FunctionLowering::run() {
  if (planned) {
    CS349Dialect::ArenaAttrHelper arena(func.getContext());
    arenaAttr = arena.getAttr(func);
    if (!arenaAttr)
      return func.emitOpError("expected a '")
             << arena.getName().getValue()
             << "' attribute (run --plan-memory first) to lower it planned";
  }
  if (failed(verifyInput()))
    return failure();
  if (planned) {
    for (KernelOp kernel : func.getBody().getOps<KernelOp>()) {
      ArrayAttr plan;
      if (failed(verifyPlan(kernel, plan)))
        return failure();
    }
  }

  Block &entry = func.getBody().front();
  SmallVector<Operation *> original =
      llvm::map_to_vector(entry.without_terminator(),
                          [](Operation &op) { return &op; });
  OpBuilder b(func.getContext());
  b.setInsertionPointToStart(&entry);
  for (BlockArgument argument : entry.getArguments())
    emitter.setTensor(argument, argument);
  if (planned) {
    // One allocation per call; its address is what the plan's offsets are
    // relative to.
    arena = memref::AllocOp::create(
        b, func.getLoc(),
        MemRefType::get({int64_t(arenaAttr.getBytes())}, b.getI8Type()));
  }

  for (Operation *op : original) {
    if (auto kernel = dyn_cast<KernelOp>(op)) {
      lowerKernel(b, kernel);
    } else if (isStoredConstant(op)) {
      auto constant = cast<ConstantOp>(op);
      emitter.setTensor(constant, arith::ConstantOp::create(
                                      b, op->getLoc(), constant.getValue()));
    } else if (isCompute(op)) {
      Value value = op->getResult(0);
      emitter.setTensor(value,
                        store(b, value, emptyLike(b, op->getLoc(), value)));
    }
  }

  auto ret = cast<func::ReturnOp>(entry.getTerminator());
  SmallVector<Value> returned;
  for (Value value : ret.getOperands()) {
    Value tensor = emitter.getTensor(value);
    if (!tensor)
      tensor = emitter.materialize(b, ret.getLoc(), value,
                                   emptyLike(b, ret.getLoc(), value));
    returned.push_back(tensor);
  }
  ret->setOperands(returned);
  for (Operation *op : llvm::reverse(original)) {
    op->dropAllUses();
    op->erase();
  }
  func->removeAttr(CS349Dialect::ArenaAttrHelper::getNameStr());
  return success();
}

namespace {
struct ConvertCS349ToLinalgPass
    : public mlir::cs349::impl::ConvertCS349ToLinalgBase<ConvertCS349ToLinalgPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (attentionBlock < 1) {
      module.emitError("expected attention-block >= 1, got ")
          << static_cast<int64_t>(attentionBlock);
      return signalPassFailure();
    }
    for (auto func : llvm::make_early_inc_range(module.getOps<func::FuncOp>())) {
      if (func.isExternal())
        continue;
      bool hasCS349 = false;
      func.walk([&](Operation *op) {
        if (isCS349(op))
          hasCS349 = true;
      });
      // TOSA or linalg input (a model before --import) is upstream's to
      // lower.
      if (!hasCS349)
        continue;
      bool planned = mode == LoweringMode::Planned ||
                     (mode == LoweringMode::Auto &&
                      func->hasAttr(CS349Dialect::ArenaAttrHelper::getNameStr()));
      if (failed(FunctionLowering(func, planned, attentionBlock, kernelScratch)
                     .run()))
        return signalPassFailure();
    }
  }
};
} // namespace
