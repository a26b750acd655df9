//===- UnitDims.cpp - dropping the batch dim front ends add ----------------===//
//
// Front ends export a batch of one: every activation is [1, T, D] and
// attention is [1, H, T, dh], with reshapes that add or remove the 1 around
// the ops that want 3-D (tosa.matmul). cs349 writes a layer as [T, D] and
// attention as [H, T, dh], and --match-attention and the fusion rules look
// for those forms. Each op whose result has a leading unit dim (rank >= 3)
// is rewritten on operands without it, with a reshape back for its readers;
// the reshapes then fold against each other (reshape of reshape), so only
// the function's arguments and results keep the unit dim.
//
//===----------------------------------------------------------------------===//

#include "ImportPatterns.h"

#include "cs349/Dialect/CS349/IR/CS349Ops.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

using namespace mlir;
using namespace mlir::cs349;

namespace {

bool hasLeadingUnitDim(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.getRank() >= 3 && tensor.getDimSize(0) == 1;
}

RankedTensorType withoutLeadingDim(Type type) {
  auto tensor = cast<RankedTensorType>(type);
  return RankedTensorType::get(tensor.getShape().drop_front(),
                               tensor.getElementType());
}

/// Axis attributes after dropping dim 0; std::nullopt when dim 0 is one of
/// them (a reduction or softmax over the batch is left as it is).
std::optional<SmallVector<int64_t>> shiftedAxes(ArrayRef<int64_t> axes) {
  SmallVector<int64_t> shifted;
  for (int64_t axis : axes) {
    if (axis == 0)
      return std::nullopt;
    shifted.push_back(axis - 1);
  }
  return shifted;
}

/// How an op's operands and attributes change when dim 0 goes: which
/// operands lose it (those of the result's rank: the others broadcast from
/// the right and never had it) and the op's axis attributes, shifted.
struct DropPlan {
  SmallVector<bool> dropOperand;
  std::function<void(Operation *)> updateAttributes = [](Operation *) {};
};

std::optional<DropPlan> planDrop(Operation *op) {
  DropPlan plan;
  auto resultRank = cast<RankedTensorType>(op->getResult(0).getType()).getRank();
  auto sameRankAsResult = [&](Operation *of) {
    for (Value operand : of->getOperands())
      plan.dropOperand.push_back(
          cast<RankedTensorType>(operand.getType()).getRank() == resultRank);
  };
  // Elementwise ops (comparisons, selects and casts too), matmul and
  // rotate_half (which permutes within the last dim) have no axis to shift.
  if (isa<ElementwiseOpInterface, MatmulOp, RotateHalfOp>(op)) {
    sameRankAsResult(op);
    return plan;
  }
  // The input carries the batch dim; a gain or cos/sin table does not.
  if (isa<RmsNormOp, RopeOp>(op)) {
    plan.dropOperand.assign(op->getNumOperands(), false);
    plan.dropOperand[0] = true;
    return plan;
  }
  // Ops of one input with an `axes` list or one `axis`, shifted down.
  auto withAxes = [&](auto typed) -> std::optional<DropPlan> {
    auto axes = shiftedAxes(typed.getAxes());
    if (!axes)
      return std::nullopt;
    plan.dropOperand = {true};
    plan.updateAttributes = [axes = *axes](Operation *clone) {
      cast<decltype(typed)>(clone).setAxes(axes);
    };
    return plan;
  };
  auto withAxis = [&](auto typed) -> std::optional<DropPlan> {
    if (typed.getAxis() == 0)
      return std::nullopt;
    plan.dropOperand = {true};
    plan.updateAttributes = [axis = typed.getAxis() - 1](Operation *clone) {
      cast<decltype(typed)>(clone).setAxis(axis);
    };
    return plan;
  };
  if (auto reduction = dyn_cast<ReduceSumOp>(op))
    return withAxes(reduction);
  if (auto reduction = dyn_cast<ReduceMaxOp>(op))
    return withAxes(reduction);
  if (auto slice = dyn_cast<SliceOp>(op))
    return withAxes(slice);
  if (auto softmax = dyn_cast<SoftmaxOp>(op))
    return withAxis(softmax);
  if (auto repeat = dyn_cast<RepeatOp>(op))
    return withAxis(repeat);
  if (auto concat = dyn_cast<ConcatOp>(op)) {
    if (concat.getAxis() == 0)
      return std::nullopt;
    plan.dropOperand.assign(op->getNumOperands(), true);
    plan.updateAttributes = [axis = concat.getAxis() - 1](Operation *clone) {
      cast<ConcatOp>(clone).setAxis(axis);
    };
    return plan;
  }
  // Rows looked up by ids [1, T]: the ids carry the unit dim, the table
  // does not.
  if (auto gather = dyn_cast<GatherOp>(op)) {
    if (gather.getAxis() != 0 ||
        cast<RankedTensorType>(gather.getIndices().getType()).getRank() < 2)
      return std::nullopt;
    plan.dropOperand = {false, true};
    return plan;
  }
  // A transpose that keeps the unit dim in front.
  if (auto transpose = dyn_cast<TransposeOp>(op)) {
    ArrayRef<int64_t> perm = transpose.getPerm();
    if (perm.empty() || perm[0] != 0)
      return std::nullopt;
    SmallVector<int64_t> shifted;
    for (int64_t from : perm.drop_front())
      shifted.push_back(from - 1);
    plan.dropOperand = {true};
    plan.updateAttributes = [shifted](Operation *clone) {
      cast<TransposeOp>(clone).setPerm(shifted);
    };
    return plan;
  }
  return std::nullopt;
}

struct DropLeadingUnitDim : RewritePattern {
  DropLeadingUnitDim(MLIRContext *context)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    // Views that only add or remove the dim fold away; constants and
    // kernels are what they are.
    if (!isa_and_nonnull<CS349Dialect>(op->getDialect()) ||
        isa<ReshapeOp, ConstantOp, KernelOp>(op) ||
        !isa<func::FuncOp>(op->getParentOp()) || op->getNumResults() != 1 ||
        op->getNumOperands() == 0)
      return failure();
    // A reduction without keepdims may end below rank 3: its input decides.
    Type decisive = isa<ReduceSumOp, ReduceMaxOp>(op)
                        ? op->getOperand(0).getType()
                        : op->getResult(0).getType();
    auto resultType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!hasLeadingUnitDim(decisive) || !resultType ||
        resultType.getRank() < 2 || resultType.getDimSize(0) != 1)
      return failure();
    std::optional<DropPlan> plan = planDrop(op);
    if (!plan)
      return failure();
    for (auto [operand, drop] : llvm::zip(op->getOperands(), plan->dropOperand))
      if (drop && cast<RankedTensorType>(operand.getType()).getDimSize(0) != 1)
        return failure();

    Location loc = op->getLoc();
    SmallVector<Value> operands;
    for (auto [operand, drop] : llvm::zip(op->getOperands(), plan->dropOperand))
      operands.push_back(drop ? Value(ReshapeOp::create(
                                    rewriter, loc,
                                    withoutLeadingDim(operand.getType()),
                                    operand))
                              : operand);
    Operation *narrowed = rewriter.clone(*op);
    narrowed->setOperands(operands);
    narrowed->getResult(0).setType(withoutLeadingDim(resultType));
    plan->updateAttributes(narrowed);
    rewriter.replaceOpWithNewOp<ReshapeOp>(op, resultType,
                                           narrowed->getResult(0));
    return success();
  }
};

} // namespace

void mlir::cs349::import::populateUnitDimPatterns(
    RewritePatternSet &patterns) {
  patterns.add<DropLeadingUnitDim>(patterns.getContext());
}
