//===- ScheduleMemory.cpp - reorder ops or kernels to lower the peak ------===//
//
// Translates a function body into the scheduler's graph (a node per op that
// writes memory, a buffer per result), asks the scheduler for an order, and
// moves the ops into it. Views and constant data are not nodes: they cost no
// memory, so they are placed right before their first user in the new order.
// A view is transparent: reading it reads (and keeps alive) the buffer it
// views, which is how --plan-memory computes lifetimes too.
//
//===----------------------------------------------------------------------===//

#include "cs349/Dialect/CS349/IR/CS349Ops.h"
#include "cs349/Dialect/CS349/IR/CS349Traits.h"
#include "cs349/Scheduler/MemoryScheduler.h"
#include "cs349/Support/TensorBytes.h"
#include "cs349/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <functional>

namespace mlir::cs349 {
#define GEN_PASS_DEF_SCHEDULEMEMORY
#include "cs349/Transforms/Passes.h.inc"
} // namespace mlir::cs349

using namespace mlir;
using namespace mlir::cs349;
namespace sched = ::cs349::scheduler;

namespace {

/// Ops that take no memory of their own and may move anywhere after their
/// operands: views alias their source, constant data is not in the arena.
bool isFree(Operation *op) {
  return isView(op) || isConstantData(op) ||
         op->hasTrait<OpTrait::ConstantLike>();
}

/// Bytes of a static tensor result; 0 for anything else (no cs349 op has
/// such results, but they must still order their readers).
uint64_t resultBytes(Type type) { return getTensorBytes(type).value_or(0); }

/// Calls `fn` on every value `op` reads (in nested regions too) that is
/// defined by an op of `block`.
template <typename Fn>
void forEachBlockValueUsed(Operation *op, Block &block, Fn fn) {
  op->walk([&](Operation *inner) {
    for (Value operand : inner->getOperands())
      if (Operation *def = operand.getDefiningOp())
        if (def->getBlock() == &block)
          fn(operand);
  });
}

/// The function body as a scheduling graph.
struct BodyGraph {
  sched::Graph graph;
  /// nodes[i] is graph node i, in block order.
  SmallVector<Operation *> nodes;
  /// The buffer a node result is, for node results.
  DenseMap<Value, int64_t> bufferOfResult;
};

/// The buffer `value` reads: its own if a node computes it, the viewed one
/// for a view, none for arguments and constant data.
std::optional<int64_t> resolveBuffer(Value value, const BodyGraph &body,
                                     DenseMap<Value, int64_t> &cache) {
  auto it = cache.find(value);
  if (it != cache.end())
    return it->second < 0 ? std::nullopt : std::optional<int64_t>(it->second);
  std::optional<int64_t> buffer;
  auto own = body.bufferOfResult.find(value);
  if (own != body.bufferOfResult.end())
    buffer = own->second;
  else if (auto view = value.getDefiningOp<ViewLikeOpInterface>())
    buffer = resolveBuffer(view.getViewSource(), body, cache);
  cache[value] = buffer.value_or(-1);
  return buffer;
}

BodyGraph buildGraph(Block &block) {
  BodyGraph body;
  Operation *terminator = block.getTerminator();
  for (Operation &op : block.without_terminator()) {
    if (isFree(&op))
      continue;
    int64_t node = static_cast<int64_t>(body.nodes.size());
    body.nodes.push_back(&op);
    for (OpResult result : op.getResults()) {
      uint64_t bytes = resultBytes(result.getType());
      body.bufferOfResult[result] =
          static_cast<int64_t>(body.graph.buffers.size());
      body.graph.buffers.push_back({node, bytes, {}, false});
    }
  }
  body.graph.numNodes = static_cast<int64_t>(body.nodes.size());

  DenseMap<Value, int64_t> cache;
  std::optional<int64_t> lastEffecting;
  for (int64_t node = 0; node < body.graph.numNodes; ++node) {
    Operation *op = body.nodes[node];
    forEachBlockValueUsed(op, block, [&](Value value) {
      if (std::optional<int64_t> buffer = resolveBuffer(value, body, cache))
        body.graph.buffers[*buffer].consumers.push_back(node);
    });
    // Ops with side effects keep their relative order.
    if (!isMemoryEffectFree(op)) {
      if (lastEffecting)
        body.graph.orderEdges.push_back({*lastEffecting, node});
      lastEffecting = node;
    }
  }
  for (Value value : terminator->getOperands())
    if (std::optional<int64_t> buffer = resolveBuffer(value, body, cache))
      body.graph.buffers[*buffer].liveOut = true;
  return body;
}

/// Moves the ops of `block` into `order` (graph nodes), each free op right
/// before the first op that needs it; free ops nothing reads keep their
/// relative order at the end.
void reorder(Block &block, const BodyGraph &body, const sched::Order &order) {
  DenseSet<Operation *> placed;
  SmallVector<Operation *> sequence;
  // Free ops form short chains (constant -> reshape -> transpose -> repeat),
  // so recursion depth is small.
  std::function<void(Operation *)> place = [&](Operation *op) {
    if (!placed.insert(op).second)
      return;
    forEachBlockValueUsed(op, block, [&](Value value) {
      Operation *def = value.getDefiningOp();
      if (isFree(def))
        place(def);
    });
    sequence.push_back(op);
  };
  for (int64_t node : order)
    place(body.nodes[node]);
  for (Operation &op : block.without_terminator())
    if (isFree(&op))
      place(&op);
  Operation *terminator = block.getTerminator();
  for (Operation *op : sequence)
    op->moveBefore(terminator);
}

struct ScheduleMemoryPass
    : public mlir::cs349::impl::ScheduleMemoryBase<ScheduleMemoryPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    if (!func.getBody().hasOneBlock()) {
      func.emitWarning("expected a function body of one block; the order of "
                       "its ops is left as it is");
      return;
    }

    Block &block = func.front();
    BodyGraph body = buildGraph(block);
    sched::ScheduleOptions options;
    options.algorithm = algorithm;
    options.maxStates = maxStates;
    sched::ScheduleResult result = sched::schedule(body.graph, options);
    if (!result.schedule) {
      func.emitError("cannot schedule this function: ")
          << result.error
          << (options.algorithm == sched::Algorithm::Exhaustive
                  ? "; raise max-states or use algorithm=best"
                  : "");
      return signalPassFailure();
    }
    const sched::Schedule &schedule = *result.schedule;
    peakBefore += schedule.inputPeak;
    peakAfter += schedule.peak;
    if (emitRemarks)
      func.emitRemark() << "peak " << schedule.inputPeak << " B -> "
                        << schedule.peak << " B over " << body.nodes.size()
                        << " nodes (order from " << schedule.source
                        << (schedule.optimal ? ", optimal)" : ")");
    if (schedule.source != "input")
      reorder(block, body, schedule.order);
    else
      markAllAnalysesPreserved();
  }
};

} // namespace
