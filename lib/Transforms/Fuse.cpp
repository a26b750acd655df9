//===- Fuse.cpp - partition a function into cs349.kernel ops --------------===//
//
// The partition is decided first, on the ops as they are (groups of ops in
// program order), and only then materialised as kernels, so that the rules
// below read like the lecture's fuser and the IR surgery is in one place.
//
// Rules (docs/fusion-and-planning.md walks the Llama layer through them):
//  * matmul: starts a kernel; absorbs elementwise consumers no larger than
//    its output (epilogue); never absorbs producers.
//  * reduction: joins the elementwise kernel producing its input (prologue)
//    or a reduction kernel over the same rows (softmax's second reduction);
//    never a matmul kernel.
//  * elementwise: joins the most recent kernel producing one of its operands
//    that may take it (matmul: no larger than the matmul output; reduction:
//    no larger than the reduced input; elementwise: always), else starts one.
//  * sinking: an elementwise op whose readers are all in one later reduction
//    or elementwise kernel, and whose operands are written anyway, moves into
//    that kernel: it then costs no write at all.
//  * attention, composites, unknown ops and existing kernels stand alone.
// A merge that would make two kernels depend on each other is never made.
//
//===----------------------------------------------------------------------===//

#include "FusionRules.h"

#include "cs349/Analysis/MemoryPlan.h"
#include "cs349/Dialect/CS349/IR/CS349Ops.h"
#include "cs349/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <functional>
#include <queue>

namespace mlir::cs349 {
#define GEN_PASS_DEF_FUSE
#include "cs349/Transforms/Passes.h.inc"
} // namespace mlir::cs349

using namespace mlir;
using namespace mlir::cs349;

namespace {

using Kind = FusionKind;

/// How an op takes part in fusion, or std::nullopt for ops that are not
/// computed by kernels (views, constant data, the terminator). Ops declare
/// their kind (FusionOpInterface); any other op stands alone.
std::optional<Kind> classify(Operation *op) {
  if (auto fusion = dyn_cast<FusionOpInterface>(op))
    return fusion.getFusionKind();
  if (op->hasTrait<OpTrait::IsTerminator>() || isView(op) ||
      isConstantData(op))
    return std::nullopt;
  return Kind::Single;
}

int64_t numElements(Value value) {
  return cast<ShapedType>(value.getType()).getNumElements();
}

struct Group {
  Kind kind;
  /// Member ops in program order.
  SmallVector<Operation *> ops;
  /// The op whose location the kernel takes.
  Operation *anchor;
  /// Matmul: output elements; reduction: elements of the reduced input.
  int64_t capacity = 0;
  /// Reduction: the reduced input's shape and axes (the "rows").
  SmallVector<int64_t> rowShape, rowAxes;
  /// Direct predecessor groups (they produce values this group reads) and
  /// successor groups (the reverse edges).
  llvm::SmallSetVector<unsigned, 4> preds, succs;
  /// Program positions of the first and last member (the first orders the
  /// kernels).
  unsigned firstPos = 0, lastPos = 0;
};

class Partitioner {
public:
  Partitioner(Block &block, bool enable) : block(block), enable(enable) {
    for (auto [index, op] : llvm::enumerate(block))
      position[&op] = index;
  }

  LogicalResult partition();
  LogicalResult materialize();
  /// Whether the partition has a kernel that is not already in the IR.
  bool formsNewKernels() const {
    return llvm::any_of(groups, [](const Group &group) {
      return !group.ops.empty() && !isa<KernelOp>(group.ops.front());
    });
  }

private:
  /// The group computing the root of `value`, if a grouped op computes it.
  std::optional<unsigned> producerGroup(Value value) const {
    Operation *def = followViews(value).getDefiningOp();
    return def ? groupIndexOf(def) : std::nullopt;
  }
  /// The group of a member op.
  std::optional<unsigned> groupIndexOf(Operation *op) const {
    auto it = groupOf.find(op);
    if (it == groupOf.end())
      return std::nullopt;
    return it->second;
  }
  /// Groups producing the operands of `op`, most recent first.
  SmallVector<unsigned> operandGroups(Operation *op) const;
  /// Whether group `from` reads, transitively, a value of group `to`.
  bool dependsOn(unsigned from, unsigned to) const;
  /// Records that group `to` reads a value of group `from` (an edge that
  /// acyclicJoin allowed) and keeps `rank` topological.
  void addEdge(unsigned from, unsigned to);
  /// Whether an op reading the groups `producers` (its operandGroups) can
  /// join `group` without a cycle between kernels.
  bool acyclicJoin(ArrayRef<unsigned> producers, unsigned group) const;
  unsigned newGroup(Operation *op, Kind kind, ArrayRef<unsigned> producers);
  void join(Operation *op, unsigned group, ArrayRef<unsigned> producers);
  static void setRows(Group &group, Operation *reduction);
  static bool sameRows(const Group &group, Operation *reduction);
  bool mayTakeElementwise(const Group &group, Operation *op) const;
  /// Whether some reader of `value` (through views) is outside `group` and is
  /// not `except`: then the kernel of `group` writes it anyway.
  bool readOutside(Value value, unsigned group, Operation *except) const;
  /// Readers of `value` through views; false if the function returns it.
  bool collectReaders(Value value, SmallVectorImpl<Operation *> &readers) const;
  void sink();
  void sortGroupOps(Group &group) {
    llvm::sort(group.ops, [&](Operation *a, Operation *b) {
      return position.lookup(a) < position.lookup(b);
    });
    group.firstPos = position.lookup(group.ops.front());
    group.lastPos = position.lookup(group.ops.back());
  }
  FailureOr<SmallVector<unsigned>> kernelOrder();
  void buildKernel(Group &group, Operation *terminator);
  void placeViewsAfter(Operation *kernel);

  Block &block;
  bool enable;
  llvm::DenseMap<Operation *, unsigned> position;
  llvm::DenseMap<Operation *, unsigned> groupOf;
  std::vector<Group> groups;
  /// A topological order of the groups (a permutation of their indices):
  /// every edge goes from a lower to a higher rank. Joins add edges from
  /// groups made later, so it is maintained as in Pearce and Kelly's dynamic
  /// topological sort; it bounds the cycle search of dependsOn.
  std::vector<unsigned> rank;
};

SmallVector<unsigned> Partitioner::operandGroups(Operation *op) const {
  llvm::SmallSetVector<unsigned, 4> found;
  for (Value operand : op->getOperands())
    if (std::optional<unsigned> group = producerGroup(operand))
      found.insert(*group);
  SmallVector<unsigned> result(found.begin(), found.end());
  llvm::sort(result, std::greater<unsigned>());
  return result;
}

bool Partitioner::dependsOn(unsigned from, unsigned to) const {
  // Positions cannot prune this search (a group that ends early can still
  // read a group that grew later and now reads `to`), ranks can: whatever
  // reads `to` is ranked above it. Without the bound every check visited all
  // earlier groups, quadratic in the layers of a model.
  unsigned floor = rank[to];
  SmallVector<unsigned> worklist{from};
  llvm::SmallDenseSet<unsigned, 16> seen;
  while (!worklist.empty()) {
    unsigned current = worklist.pop_back_val();
    if (current == to)
      return true;
    if (rank[current] < floor || !seen.insert(current).second)
      continue;
    llvm::append_range(worklist, groups[current].preds);
  }
  return false;
}

void Partitioner::addEdge(unsigned from, unsigned to) {
  if (!groups[to].preds.insert(from))
    return;
  groups[from].succs.insert(to);
  unsigned low = rank[to], high = rank[from];
  if (high < low)
    return;
  // Pearce-Kelly: the groups `to` reaches below rank `high` and those
  // reaching `from` above rank `low` swap places within the ranks they hold,
  // readers of `from` first. The edge closes no cycle (acyclicJoin checked),
  // so the two sets are disjoint.
  auto collect = [&](unsigned start, bool forward) {
    SmallVector<unsigned> found, worklist{start};
    llvm::SmallDenseSet<unsigned, 16> seen;
    while (!worklist.empty()) {
      unsigned current = worklist.pop_back_val();
      if (!seen.insert(current).second)
        continue;
      found.push_back(current);
      for (unsigned next :
           forward ? groups[current].succs : groups[current].preds)
        if (forward ? rank[next] < high : rank[next] > low)
          worklist.push_back(next);
    }
    llvm::sort(found, [&](unsigned a, unsigned b) { return rank[a] < rank[b]; });
    return found;
  };
  SmallVector<unsigned> moved = collect(from, /*forward=*/false);
  llvm::append_range(moved, collect(to, /*forward=*/true));
  SmallVector<unsigned> ranks;
  for (unsigned group : moved)
    ranks.push_back(rank[group]);
  llvm::sort(ranks);
  for (auto [group, newRank] : llvm::zip_equal(moved, ranks))
    rank[group] = newRank;
}

bool Partitioner::acyclicJoin(ArrayRef<unsigned> producers,
                              unsigned group) const {
  return llvm::none_of(producers, [&](unsigned producer) {
    return producer != group && dependsOn(producer, group);
  });
}

unsigned Partitioner::newGroup(Operation *op, Kind kind,
                               ArrayRef<unsigned> producers) {
  unsigned index = groups.size();
  Group &group = groups.emplace_back();
  group.kind = kind;
  group.anchor = op;
  group.ops.push_back(op);
  group.firstPos = group.lastPos = position.lookup(op);
  if (kind == Kind::Matmul)
    group.capacity = numElements(op->getResult(0));
  if (kind == Kind::Reduction)
    setRows(group, op);
  groupOf[op] = index;
  // Every producer group exists already: ranked below the new one.
  rank.push_back(index);
  for (unsigned producer : producers)
    addEdge(producer, index);
  return index;
}

void Partitioner::join(Operation *op, unsigned index,
                       ArrayRef<unsigned> producers) {
  Group &group = groups[index];
  group.ops.push_back(op);
  group.lastPos = std::max(group.lastPos, position.lookup(op));
  group.firstPos = std::min(group.firstPos, position.lookup(op));
  groupOf[op] = index;
  for (unsigned producer : producers)
    if (producer != index)
      addEdge(producer, index);
}

void Partitioner::setRows(Group &group, Operation *reduction) {
  auto reduce = cast<ReductionOpInterface>(reduction);
  Value input = reduce.getInput();
  auto shape = cast<ShapedType>(input.getType()).getShape();
  group.rowShape.assign(shape.begin(), shape.end());
  ArrayRef<int64_t> axes = reduce.getAxes();
  group.rowAxes.assign(axes.begin(), axes.end());
  group.capacity = numElements(input);
}

bool Partitioner::sameRows(const Group &group, Operation *reduction) {
  Group probe;
  setRows(probe, reduction);
  return probe.rowShape == group.rowShape && probe.rowAxes == group.rowAxes;
}

bool Partitioner::mayTakeElementwise(const Group &group, Operation *op) const {
  int64_t largest = 0;
  for (Value result : op->getResults())
    largest = std::max(largest, numElements(result));
  return mlir::cs349::mayTakeElementwise(group.kind, group.capacity, largest);
}

LogicalResult Partitioner::partition() {
  for (Operation &op : block) {
    std::optional<Kind> kind = classify(&op);
    if (!kind)
      continue;
    if (*kind == Kind::Single && !isa<KernelOp>(op)) {
      if (op.getNumRegions() != 0 &&
          !isa_and_present<CS349Dialect>(op.getDialect()))
        return op.emitOpError("has regions: --fuse cannot place it in a "
                              "cs349.kernel");
      auto isKernelTensor = [](Type type) {
        auto tensor = dyn_cast<RankedTensorType>(type);
        return tensor && tensor.hasStaticShape() &&
               isa<BFloat16Type, Float16Type, Float32Type>(
                   tensor.getElementType());
      };
      if (!llvm::all_of(op.getOperandTypes(), isKernelTensor) ||
          !llvm::all_of(op.getResultTypes(), isKernelTensor))
        return op.emitOpError("reads or writes values that are not static "
                              "bf16/f16/f32 tensors: --fuse cannot place it "
                              "in a cs349.kernel");
    }
    // The groups of the op's producers stay as they are while it is placed.
    SmallVector<unsigned> producers = operandGroups(&op);
    if (!enable || *kind == Kind::Single || *kind == Kind::Matmul) {
      newGroup(&op, *kind, producers);
      continue;
    }
    if (*kind == Kind::Reduction) {
      std::optional<unsigned> producer =
          producerGroup(cast<ReductionOpInterface>(op).getInput());
      if (producer && acyclicJoin(producers, *producer)) {
        Group &group = groups[*producer];
        if (group.kind == Kind::Elementwise) {
          group.kind = Kind::Reduction;
          group.anchor = &op;
          setRows(group, &op);
          join(&op, *producer, producers);
          continue;
        }
        if (group.kind == Kind::Reduction && sameRows(group, &op)) {
          join(&op, *producer, producers);
          continue;
        }
      }
      newGroup(&op, Kind::Reduction, producers);
      continue;
    }
    // Elementwise: the most recent producer kernel that may take it.
    bool joined = false;
    for (unsigned candidate : producers) {
      if (mayTakeElementwise(groups[candidate], &op) &&
          acyclicJoin(producers, candidate)) {
        join(&op, candidate, producers);
        joined = true;
        break;
      }
    }
    if (!joined)
      newGroup(&op, Kind::Elementwise, producers);
  }
  if (enable)
    sink();
  return success();
}

bool Partitioner::collectReaders(Value value,
                                 SmallVectorImpl<Operation *> &readers) const {
  SmallVector<Value> aliases{value};
  for (size_t i = 0; i < aliases.size(); ++i) {
    for (Operation *user : aliases[i].getUsers()) {
      if (isView(user))
        llvm::append_range(aliases, user->getResults());
      else if (user->hasTrait<OpTrait::IsTerminator>())
        return false;
      else
        readers.push_back(user);
    }
  }
  return true;
}

bool Partitioner::readOutside(Value value, unsigned group,
                              Operation *except) const {
  SmallVector<Operation *> readers;
  if (!collectReaders(value, readers))
    return true;
  return llvm::any_of(readers, [&](Operation *reader) {
    return reader != except && groupIndexOf(reader) != group;
  });
}

void Partitioner::sink() {
  for (Operation &op : block) {
    auto it = groupOf.find(&op);
    if (it == groupOf.end() || classify(&op) != Kind::Elementwise)
      continue;
    unsigned from = it->second;
    SmallVector<Operation *> readers;
    if (!collectReaders(op.getResult(0), readers) || readers.empty())
      continue;
    // Every reader must be in one later kernel that takes producers.
    std::optional<unsigned> target = groupIndexOf(readers.front());
    if (!target)
      continue;
    unsigned to = *target;
    Group &dest = groups[to];
    if (to == from ||
        (dest.kind != Kind::Reduction && dest.kind != Kind::Elementwise) ||
        !mayTakeElementwise(dest, &op) ||
        llvm::any_of(readers, [&](Operation *reader) {
          return groupIndexOf(reader) != to;
        }))
      continue;
    // Moving must not create a write: each operand computed in the same
    // kernel has to be written for another reader anyway.
    bool writesAnyway = llvm::all_of(op.getOperands(), [&](Value operand) {
      std::optional<unsigned> producer = producerGroup(operand);
      return !producer || *producer != from ||
             readOutside(followViews(operand), from, &op);
    });
    if (!writesAnyway)
      continue;
    SmallVector<unsigned> producers = operandGroups(&op);
    if (!acyclicJoin(producers, to))
      continue;
    Group &source = groups[from];
    llvm::erase(source.ops, &op);
    groupOf[&op] = to;
    dest.ops.push_back(&op);
    for (unsigned producer : producers)
      if (producer != to)
        addEdge(producer, to);
    sortGroupOps(dest);
    if (!source.ops.empty())
      sortGroupOps(source);
  }
}

FailureOr<SmallVector<unsigned>> Partitioner::kernelOrder() {
  // Edges from the final membership; Kahn's algorithm, earliest first op
  // first, keeps the kernels in the order the function computed its ops.
  size_t count = groups.size();
  std::vector<llvm::SmallSetVector<unsigned, 4>> succs(count);
  std::vector<unsigned> indegree(count, 0);
  for (unsigned index = 0; index < count; ++index) {
    for (Operation *op : groups[index].ops)
      for (Value operand : op->getOperands())
        if (std::optional<unsigned> producer = producerGroup(operand);
            producer && *producer != index &&
            succs[*producer].insert(index))
          ++indegree[index];
  }
  using Entry = std::pair<unsigned, unsigned>; // (first position, group)
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> ready;
  for (unsigned index = 0; index < count; ++index)
    if (!groups[index].ops.empty() && indegree[index] == 0)
      ready.push({groups[index].firstPos, index});
  SmallVector<unsigned> order;
  while (!ready.empty()) {
    unsigned index = ready.top().second;
    ready.pop();
    order.push_back(index);
    for (unsigned succ : succs[index])
      if (--indegree[succ] == 0)
        ready.push({groups[succ].firstPos, succ});
  }
  size_t nonEmpty = llvm::count_if(
      groups, [](const Group &group) { return !group.ops.empty(); });
  if (order.size() != nonEmpty)
    return failure();
  return order;
}

void Partitioner::placeViewsAfter(Operation *kernel) {
  // Views of a kernel's results stay at function level (they never copy);
  // they go right after the kernel so that later kernels see them defined.
  // Breadth first, so a view of a view lands after the view it reads.
  Operation *insertAfter = kernel;
  SmallVector<Value> worklist(kernel->getResults());
  for (size_t i = 0; i < worklist.size(); ++i) {
    SmallVector<Operation *> views;
    for (Operation *user : worklist[i].getUsers())
      if (isView(user) && user->getBlock() == &block &&
          !llvm::is_contained(views, user))
        views.push_back(user);
    llvm::sort(views, [&](Operation *a, Operation *b) {
      return position.lookup(a) < position.lookup(b);
    });
    for (Operation *view : views) {
      view->moveAfter(insertAfter);
      insertAfter = view;
      llvm::append_range(worklist, view->getResults());
    }
  }
}

void Partitioner::buildKernel(Group &group, Operation *terminator) {
  if (auto existing = dyn_cast<KernelOp>(group.ops.front())) {
    existing->moveBefore(terminator);
    placeViewsAfter(existing);
    return;
  }
  unsigned index = groupOf.lookup(group.ops.front());
  llvm::SmallPtrSet<Operation *, 16> members(group.ops.begin(),
                                             group.ops.end());
  auto isMember = [&](Operation *op) { return members.contains(op); };

  // Values a member reads are computed inside (members, views of members,
  // constant data and views of it: cloned in) or read from memory (inputs).
  auto isInside = [&](Value value) {
    Operation *def = followViews(value).getDefiningOp();
    return def && (isMember(def) || isConstantData(def));
  };
  llvm::SetVector<Value> inputs;
  for (Operation *op : group.ops)
    for (Value operand : op->getOperands())
      if (!isInside(operand))
        inputs.insert(operand);

  // A member result is written when something outside the kernel reads it.
  SmallVector<Value> written;
  for (Operation *op : group.ops)
    for (Value result : op->getResults())
      if (readOutside(result, index, nullptr))
        written.push_back(result);

  OpBuilder builder(terminator);
  auto kernel = KernelOp::create(builder, group.anchor->getLoc(),
                                 ValueRange(written).getTypes(),
                                 inputs.getArrayRef());
  Block &body = kernel.getBody().front();
  // What a member reads inside the kernel in place of a value outside it:
  // its block argument for an input, its copy for a view or constant data.
  IRMapping mapping;
  for (auto [input, argument] : llvm::zip(inputs, body.getArguments()))
    mapping.map(input, argument);
  builder.setInsertionPointToStart(&body);
  // Clones the views and constant data a member reads, once each (other
  // kernels may read them too).
  std::function<void(Value)> materialize = [&](Value value) {
    Operation *def = value.getDefiningOp();
    if (mapping.contains(value) || isMember(def))
      return;
    for (Value operand : def->getOperands())
      materialize(operand);
    builder.clone(*def, mapping);
  };
  // Members move in whole (only this kernel computes them), which keeps
  // their storage instead of copying every op and erasing the original.
  for (Operation *op : group.ops) {
    for (Value operand : op->getOperands())
      materialize(operand);
    op->moveBefore(&body, body.end());
    op->walk([&](Operation *nested) {
      for (OpOperand &use : nested->getOpOperands())
        if (Value inside = mapping.lookupOrNull(use.get()))
          use.set(inside);
    });
    groupOf.erase(op);
  }
  YieldOp::create(builder, kernel.getLoc(), written);

  for (auto [value, result] : llvm::zip(written, kernel.getResults()))
    value.replaceUsesWithIf(result, [&](OpOperand &use) {
      return !kernel->isProperAncestor(use.getOwner());
    });

  group.ops.clear();
  placeViewsAfter(kernel);
}

LogicalResult Partitioner::materialize() {
  FailureOr<SmallVector<unsigned>> order = kernelOrder();
  if (failed(order))
    return block.getParentOp()->emitOpError(
        "--fuse formed kernels that depend on each other; please report "
        "this input");
  // The group of an op is needed while later groups are built (to tell
  // member reads from kernel reads), so groups are emptied one by one.
  Operation *terminator = block.getTerminator();
  for (unsigned index : *order)
    buildKernel(groups[index], terminator);

  // Constant data and views no kernel reads any more, among them the
  // function-level views of members whose readers all moved into a kernel
  // (they read the kernel's copy now).
  bool changed = true;
  while (changed) {
    changed = false;
    for (Operation &op : llvm::make_early_inc_range(llvm::reverse(block)))
      if ((isView(&op) || isConstantData(&op)) && op.use_empty()) {
        op.erase();
        changed = true;
      }
  }
  return success();
}

struct FusePass : public mlir::cs349::impl::FuseBase<FusePass> {
  using FuseBase::FuseBase;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    if (!func.getBody().hasOneBlock()) {
      func.emitOpError("expected a single-block body to fuse, got ")
          << func.getBody().getBlocks().size() << " blocks";
      return signalPassFailure();
    }
    Partitioner partitioner(func.getBody().front(), enable);
    if (failed(partitioner.partition()))
      return signalPassFailure();
    // A plan describes one partition: new kernels make it stale.
    if (partitioner.formsNewKernels() && hasMemoryPlan(func)) {
      func->removeAttr(CS349Dialect::ArenaAttrHelper::getNameStr());
      for (KernelOp kernel : func.getBody().front().getOps<KernelOp>())
        kernel->removeAttr(CS349Dialect::PlanAttrHelper::getNameStr());
    }
    if (failed(partitioner.materialize()))
      return signalPassFailure();
  }
};

} // namespace
