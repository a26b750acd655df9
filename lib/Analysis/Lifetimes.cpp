//===- Lifetimes.cpp - written results of a fused function ----------------===//
//
// The kernels of a function in order, each result with its size, name and
// live interval; the interval itself is LiveInterval.cpp's.
//
//===----------------------------------------------------------------------===//

#include "cs349/Analysis/Lifetimes.h"

#include "LiveInterval.h"

#include "cs349/Planner/MemoryPlanner.h"
#include "cs349/Support/TensorBytes.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"

using namespace mlir;
using namespace mlir::cs349;

SmallVector<size_t> FunctionLifetimes::resultsOf(KernelOp kernel) const {
  // `results` is in kernel order and `first` is the producer's index, so a
  // kernel's results are one run found by binary search: a scan per kernel
  // made planning and reading a plan quadratic in the number of kernels.
  SmallVector<size_t> indices;
  auto it = kernelIndex.find(kernel);
  if (it == kernelIndex.end())
    return indices;
  int64_t index = it->second;
  const WrittenResult *begin = llvm::partition_point(
      results, [&](const WrittenResult &r) { return r.first < index; });
  for (size_t i = begin - results.begin();
       i < results.size() && results[i].producer == kernel; ++i)
    indices.push_back(i);
  return indices;
}

uint64_t FunctionLifetimes::lowerBound() const {
  return ::cs349::planner::lowerBound(toPlannerProblem(*this, 1));
}

::cs349::planner::Problem
mlir::cs349::toPlannerProblem(const FunctionLifetimes &lifetimes,
                              uint64_t alignment) {
  ::cs349::planner::Problem problem;
  problem.alignment = alignment;
  problem.buffers.reserve(lifetimes.results.size());
  for (auto [index, result] : llvm::enumerate(lifetimes.results))
    problem.buffers.push_back({static_cast<int64_t>(index), result.first,
                               result.last + 1, result.bytes});
  return problem;
}

namespace {
/// A compute op is anything at function level that produces a tensor and is
/// not a view or constant data: after --fuse only kernels do.
bool computesTensor(Operation *op) {
  if (isa<KernelOp>(op) || isView(op) || isConstantData(op))
    return false;
  return llvm::any_of(op->getResultTypes(),
                      [](Type type) { return isa<TensorType>(type); });
}

std::string locationName(Location loc) {
  // cs349-gen's ops carry a NameLoc at the top: the generic search below
  // (a pre-order walk that would find this one first) sets up an attribute
  // walker with a visited set for every result of every plan read.
  if (auto named = dyn_cast<NameLoc>(loc))
    return named.getName().str();
  if (auto named = loc->findInstanceOf<NameLoc>())
    return named.getName().str();
  return "";
}

/// The op that computes yielded value `index` of `kernel`, and its name.
std::pair<std::string, std::string> describeResult(KernelOp kernel,
                                                   unsigned index) {
  Value yielded =
      kernel.getBody().front().getTerminator()->getOperand(index);
  Operation *def = yielded.getDefiningOp();
  if (!def)
    return {"copy", ""};
  return {def->getName().stripDialect().str(), locationName(def->getLoc())};
}
} // namespace

FailureOr<FunctionLifetimes>
mlir::cs349::computeLifetimes(func::FuncOp func) {
  FunctionLifetimes lifetimes;
  if (func.isExternal())
    return lifetimes;
  if (!func.getBody().hasOneBlock())
    return func.emitOpError("expected a single-block body to plan, got ")
           << func.getBody().getBlocks().size() << " blocks";
  Block &block = func.getBody().front();

  Operation *firstUnfused = nullptr;
  for (Operation &op : block) {
    if (auto kernel = dyn_cast<KernelOp>(op)) {
      lifetimes.kernelIndex[kernel] = lifetimes.numKernels();
      lifetimes.kernels.push_back(kernel);
      continue;
    }
    if (!firstUnfused && computesTensor(&op))
      firstUnfused = &op;
    WalkResult nested = op.walk([&](KernelOp inner) {
      inner.emitOpError("is nested in '")
          << op.getName() << "': plans cover top-level kernels only";
      return WalkResult::interrupt();
    });
    if (nested.wasInterrupted())
      return failure();
  }
  if (firstUnfused) {
    InFlightDiagnostic diag =
        lifetimes.kernels.empty()
            ? func.emitOpError("has no cs349.kernel ops: run --fuse before "
                               "planning memory")
            : firstUnfused->emitOpError("computes a tensor outside any "
                                        "cs349.kernel: run --fuse first");
    if (lifetimes.kernels.empty())
      diag.attachNote(firstUnfused->getLoc())
          << "this op computes a tensor outside any kernel";
    return diag;
  }

  llvm::StringMap<unsigned> nameCount;
  for (auto [index, kernel] : llvm::enumerate(lifetimes.kernels)) {
    for (OpResult result : kernel->getResults()) {
      WrittenResult written;
      written.value = result;
      written.producer = kernel;
      written.first = written.last = static_cast<int64_t>(index);
      std::string whyNot;
      std::optional<uint64_t> bytes = getTensorBytes(result.getType(), &whyNot);
      if (!bytes)
        return kernel.emitOpError("result #")
               << result.getResultNumber() << " has no size in bytes: "
               << whyNot;
      written.bytes = *bytes;

      FailureOr<LiveInterval> interval = findLiveInterval(result, lifetimes);
      if (failed(interval))
        return failure();
      written.last = interval->last;
      written.isFunctionResult = interval->returned;

      auto [op, name] = describeResult(kernel, result.getResultNumber());
      written.producerOp = op;
      written.name = name;
      if (!name.empty())
        ++nameCount[name];
      lifetimes.results.push_back(std::move(written));
    }
  }

  // A location name is a stable name only when it is unique in the function
  // (stacked layers repeat "q", "k", ...); otherwise the kernel position is.
  for (WrittenResult &written : lifetimes.results) {
    std::string position = "k" + std::to_string(written.first) + "#" +
                           std::to_string(written.value.getResultNumber());
    if (written.name.empty())
      written.name = position;
    else if (nameCount.lookup(written.name) > 1)
      written.name += "@" + position;
  }
  return lifetimes;
}
