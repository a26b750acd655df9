//===- MemoryPlan.cpp - the memory plan as IR annotations -----------------===//
//
// Reading re-derives everything that can be derived (sizes, lifetimes,
// totals) and only trusts the offsets and the arena size: a hand-edited plan
// can then be wrong only in ways the verifier reports by buffer name.
//
//===----------------------------------------------------------------------===//

#include "cs349/Analysis/MemoryPlan.h"

#include "cs349/Planner/MemoryPlanner.h"

#include "mlir/IR/Builders.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::cs349;

void mlir::cs349::annotateMemoryPlan(func::FuncOp func,
                                     const FunctionLifetimes &lifetimes,
                                     ArrayRef<uint64_t> offsets,
                                     ArenaAttr arena) {
  MLIRContext *context = func.getContext();
  CS349Dialect::PlanAttrHelper plan(context);
  for (KernelOp kernel : lifetimes.kernels) {
    SmallVector<Attribute> buffers;
    for (size_t index : lifetimes.resultsOf(kernel)) {
      const WrittenResult &result = lifetimes.results[index];
      buffers.push_back(BufferAttr::get(context, offsets[index], result.bytes,
                                        result.first, result.last));
    }
    plan.setAttr(kernel, ArrayAttr::get(context, buffers));
  }
  CS349Dialect::ArenaAttrHelper(context).setAttr(func, arena);
}

bool mlir::cs349::hasMemoryPlan(func::FuncOp func) {
  if (CS349Dialect::ArenaAttrHelper(func.getContext()).isAttrPresent(func))
    return true;
  // A kernel plan without the function's arena is a damaged plan, not none.
  return !func.isExternal() &&
         llvm::any_of(func.getBody().front().getOps<KernelOp>(),
                      [](KernelOp kernel) {
                        return kernel->hasAttr(
                            CS349Dialect::PlanAttrHelper::getNameStr());
                      });
}

namespace {
/// "'q' (kernel 3 result #0)" so that a diagnostic names a buffer both ways.
std::string describe(const WrittenResult &result) {
  return "'" + result.name + "' (kernel " + std::to_string(result.first) +
         " result #" + std::to_string(result.value.getResultNumber()) + ")";
}

/// Checks one kernel's cs349.plan against its lifetimes; records offsets.
LogicalResult readKernelPlan(KernelOp kernel, const FunctionLifetimes &lifetimes,
                             SmallVectorImpl<uint64_t> &offsets) {
  ArrayAttr plan = CS349Dialect::PlanAttrHelper(kernel.getContext())
                       .getAttr(kernel);
  if (!plan)
    return kernel.emitOpError("has no '")
           << CS349Dialect::PlanAttrHelper::getNameStr()
           << "' array of #cs349.buffer: run --plan-memory";
  // The dialect verified one #cs349.buffer per result.
  SmallVector<size_t> indices = lifetimes.resultsOf(kernel);
  bool ok = true;
  for (auto [position, entry] : llvm::enumerate(plan)) {
    const WrittenResult &result = lifetimes.results[indices[position]];
    auto buffer = cast<BufferAttr>(entry);
    offsets[indices[position]] = buffer.getOffset();
    if (buffer.getBytes() != result.bytes) {
      kernel.emitOpError("buffer ")
          << describe(result) << " records " << buffer.getBytes()
          << " bytes but its type " << result.value.getType() << " needs "
          << result.bytes;
      ok = false;
    }
    if (buffer.getFirst() != result.first || buffer.getLast() != result.last) {
      kernel.emitOpError("buffer ")
          << describe(result) << " records the lifetime [" << buffer.getFirst()
          << ", " << buffer.getLast() << "] but it is written by kernel "
          << result.first << " and last read by kernel " << result.last;
      ok = false;
    }
  }
  return success(ok);
}
} // namespace

FailureOr<FunctionMemoryPlan> mlir::cs349::readMemoryPlan(func::FuncOp func) {
  FailureOr<FunctionLifetimes> lifetimes = computeLifetimes(func);
  if (failed(lifetimes))
    return failure();
  return readMemoryPlan(func, std::move(*lifetimes));
}

FailureOr<FunctionMemoryPlan>
mlir::cs349::readMemoryPlan(func::FuncOp func, FunctionLifetimes lifetimes) {
  FunctionMemoryPlan plan;
  plan.lifetimes = std::move(lifetimes);
  const FunctionLifetimes &lt = plan.lifetimes;

  CS349Dialect::ArenaAttrHelper arena(func.getContext());
  plan.arena = arena.getAttr(func);
  if (!plan.arena)
    return func.emitOpError("has no '")
           << arena.getName().getValue()
           << "' #cs349.arena attribute: run --plan-memory";

  bool ok = true;
  plan.offsets.assign(lt.results.size(), 0);
  for (KernelOp kernel : lt.kernels)
    ok &= succeeded(readKernelPlan(kernel, lt, plan.offsets));

  uint64_t alignment = plan.arena.getAlignment();
  if (alignment == 0 || !llvm::isPowerOf2_64(alignment)) {
    func.emitOpError("records the alignment ")
        << alignment << ", expected a power of two";
    return failure();
  }
  if (plan.arena.getKernels() != lt.numKernels()) {
    func.emitOpError("records ")
        << plan.arena.getKernels() << " kernels but has " << lt.numKernels();
    ok = false;
  }
  ::cs349::planner::Problem problem = toPlannerProblem(lt, alignment);
  uint64_t naive = ::cs349::planner::naiveSize(problem);
  if (plan.arena.getNaive() != naive) {
    func.emitOpError("records the naive size ")
        << plan.arena.getNaive() << " but its buffers, each aligned to "
        << alignment << ", add up to " << naive;
    ok = false;
  }
  uint64_t lowerBound = ::cs349::planner::lowerBound(problem);
  if (plan.arena.getLowerBound() != lowerBound) {
    func.emitOpError("records the lower bound ")
        << plan.arena.getLowerBound() << " but the most bytes live at one "
        << "kernel are " << lowerBound;
    ok = false;
  }
  if (!ok)
    return failure();
  return plan;
}

LogicalResult mlir::cs349::verifyMemoryPlan(const FunctionMemoryPlan &plan) {
  const FunctionLifetimes &lt = plan.lifetimes;
  ::cs349::planner::Problem problem =
      toPlannerProblem(lt, plan.arena.getAlignment());
  ::cs349::planner::Plan placement;
  placement.offsets.assign(plan.offsets.begin(), plan.offsets.end());
  placement.arenaSize = plan.arena.getBytes();

  std::vector<::cs349::planner::Violation> violations =
      ::cs349::planner::verify(problem, placement);
  for (const ::cs349::planner::Violation &violation : violations) {
    const WrittenResult &a = lt.results[violation.a];
    KernelOp kernelA = a.producer;
    uint64_t offsetA = plan.offsets[violation.a];
    switch (violation.kind) {
    case ::cs349::planner::Violation::Misaligned:
      kernelA.emitOpError("buffer ")
          << describe(a) << " at offset " << offsetA
          << " is not a multiple of the alignment "
          << plan.arena.getAlignment();
      break;
    case ::cs349::planner::Violation::PastArenaEnd:
      kernelA.emitOpError("buffer ")
          << describe(a) << " occupies [" << offsetA << ", "
          << offsetA + a.bytes << ") past the end of the "
          << plan.arena.getBytes() << "-byte arena";
      break;
    case ::cs349::planner::Violation::Overlap: {
      const WrittenResult &b = lt.results[violation.b];
      uint64_t offsetB = plan.offsets[violation.b];
      InFlightDiagnostic diag = kernelA.emitOpError("buffer ");
      diag << describe(a) << " at [" << offsetA << ", " << offsetA + a.bytes
           << ") live in kernels [" << a.first << ", " << a.last
           << "] overlaps buffer " << describe(b) << " at [" << offsetB << ", "
           << offsetB + b.bytes << ") live in kernels [" << b.first << ", "
           << b.last << "]";
      diag.attachNote(KernelOp(b.producer).getLoc())
          << "buffer " << describe(b) << " is written here";
      break;
    }
    case ::cs349::planner::Violation::WrongPlanSize:
      // readMemoryPlan sized the offsets from the lifetimes.
      llvm_unreachable("offsets are parallel to the results by construction");
    }
  }
  return success(violations.empty());
}
