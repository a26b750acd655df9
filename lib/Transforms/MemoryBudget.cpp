//===- MemoryBudget.cpp - --memory-budget: weights, KV cache, activations -===//
//
// Demo 4 of the lecture, measured rather than typed in: the weights are the
// tensors the layer multiplies by, the KV cache is what the attention ops read
// as keys and values, and the activations are the arenas that --plan-memory
// gives after the two pipelines (with and without FlashAttention). Each
// pipeline runs on a copy of the module, nested in it for the duration of the
// run (a pass may only run pipelines on ops it owns) and erased afterwards, so
// the IR is not changed.
//
//===----------------------------------------------------------------------===//

#include "MemoryReport.h"

#include "cs349/Analysis/Lifetimes.h"
#include "cs349/Analysis/MemoryPlan.h"
#include "cs349/Dialect/CS349/IR/CS349Ops.h"
#include "cs349/Dialect/CS349/IR/CS349Traits.h"
#include "cs349/Support/TensorBytes.h"
#include "cs349/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

namespace mlir::cs349 {
#define GEN_PASS_DEF_MEMORYBUDGET
#include "cs349/Transforms/Passes.h.inc"
} // namespace mlir::cs349

using namespace mlir;
using namespace mlir::cs349;

namespace {

/// What one pipeline says about one function.
struct Measured {
  ArenaAttr arena;
  int64_t attentions = 0;
  uint64_t kvBytes = 0;
  /// Type of the first attention's key (for the report).
  Type keyType;
};

/// The weights of `func`: the arguments and constants that a matmul reads as
/// its right operand, a gather as its table (an embedding) or a norm as its
/// gain or bias (through views), each once.
llvm::SetVector<Value> findWeights(func::FuncOp func) {
  llvm::SetVector<Value> weights;
  auto consider = [&](Value value) {
    value = followViews(value);
    if (isa<BlockArgument>(value) ||
        isa_and_nonnull<ConstantOp>(value.getDefiningOp()))
      weights.insert(value);
  };
  func.walk([&](Operation *op) {
    if (auto matmul = dyn_cast<MatmulOp>(op))
      consider(matmul.getRhs());
    else if (auto gather = dyn_cast<GatherOp>(op))
      consider(gather.getTable());
    else if (auto norm = dyn_cast<RmsNormOp>(op))
      consider(norm.getGain());
    else if (auto norm = dyn_cast<LayerNormOp>(op)) {
      consider(norm.getGain());
      if (Value bias = norm.getBias())
        consider(bias);
    }
  });
  return weights;
}

uint64_t bytesOf(Value value) {
  return getTensorBytes(value.getType()).value_or(0);
}

std::string typeText(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return text;
}

struct MemoryBudgetPass
    : public mlir::cs349::impl::MemoryBudgetBase<MemoryBudgetPass> {
  using MemoryBudgetBase::MemoryBudgetBase;

  void getDependentDialects(DialectRegistry &registry) const override {
    // The pipelines' passes may create ops of other dialects; they must be
    // loaded before the pass manager goes multithreaded.
    for (const std::string &text :
         {fusedPipeline.getValue(), flashPipeline.getValue()}) {
      OpPassManager pm(ModuleOp::getOperationName());
      if (succeeded(parsePassPipeline(text, pm, llvm::nulls())))
        pm.getDependentDialects(registry);
    }
  }

  /// Runs `pipelineText` on a copy of `module` and measures each function.
  FailureOr<llvm::StringMap<Measured>>
  measure(ModuleOp module, StringRef optionName, StringRef pipelineText) {
    OpPassManager pm(ModuleOp::getOperationName());
    std::string error;
    llvm::raw_string_ostream errorStream(error);
    if (failed(parsePassPipeline(pipelineText, pm, errorStream)))
      return module.emitError("memory-budget: cannot parse ")
             << optionName << " '" << pipelineText << "': " << error;

    // Only the functions: a nested module of the same symbols is fine, but
    // nested modules of the input would be copied twice.
    OpBuilder builder(module.getBodyRegion());
    builder.setInsertionPointToEnd(module.getBody());
    auto copy = ModuleOp::create(builder, module.getLoc());
    IRMapping mapping;
    OpBuilder inner(copy.getBodyRegion());
    inner.setInsertionPointToEnd(copy.getBody());
    for (auto func : module.getOps<func::FuncOp>())
      inner.clone(*func, mapping);

    llvm::StringMap<Measured> measured;
    LogicalResult status = runPipeline(pm, copy);
    if (succeeded(status)) {
      for (auto func : copy.getOps<func::FuncOp>()) {
        if (func.isExternal())
          continue;
        Measured &m = measured[func.getSymName()];
        m.arena = CS349Dialect::ArenaAttrHelper(func.getContext()).getAttr(func);
        func.walk([&](AttentionOp attention) {
          if (m.attentions++ == 0)
            m.keyType = attention.getKey().getType();
          m.kvBytes += bytesOf(attention.getKey()) +
                       bytesOf(attention.getValue());
        });
      }
    }
    copy.erase();
    if (failed(status))
      return module.emitError("memory-budget: the ")
             << optionName << " '" << pipelineText << "' failed";
    return measured;
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (batch < 1 || layers < 0 || !(deviceMemory > 0)) {
      module.emitError("memory-budget: expected batch >= 1, layers >= 0 and "
                       "device-memory > 0, got batch=")
          << static_cast<int64_t>(batch)
          << " layers=" << static_cast<int64_t>(layers) << " device-memory="
          << llvm::formatv("{0}", static_cast<double>(deviceMemory)).str();
      return signalPassFailure();
    }
    FailureOr<llvm::StringMap<Measured>> fused =
        measure(module, "fused-pipeline", fusedPipeline);
    if (failed(fused))
      return signalPassFailure();
    FailureOr<llvm::StringMap<Measured>> flash =
        measure(module, "flash-pipeline", flashPipeline);
    if (failed(flash))
      return signalPassFailure();

    std::string text;
    llvm::raw_string_ostream os(text);
    bool ok = true;
    for (auto func : module.getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      if (failed(writeBudget(func, (*fused)[func.getSymName()],
                        (*flash)[func.getSymName()], os)))
        ok = false;
    }
    if (!ok)
      return signalPassFailure();
    if (failed(report::writeOutput(output, module, [&](raw_ostream &out) {
          out << text;
        })))
      return signalPassFailure();
    markAllAnalysesPreserved();
  }

  LogicalResult writeBudget(func::FuncOp func, const Measured &fused,
                       const Measured &flash, raw_ostream &os) {
    if (!fused.arena || !flash.arena)
      return func.emitError("memory-budget: the ")
             << (fused.arena ? "flash-pipeline" : "fused-pipeline")
             << " left no cs349.arena on this function (does it end with "
                "plan-memory?)";
    if (flash.attentions == 0)
      return func.emitError("memory-budget: no cs349.attention after the "
                            "flash-pipeline, so there is no KV cache to "
                            "measure (is this a transformer layer?)");

    llvm::SetVector<Value> weights = findWeights(func);
    uint64_t weightBytes = 0;
    for (Value weight : weights)
      weightBytes += bytesOf(weight);
    // One attention per layer: the layers in the IR share their totals.
    const int64_t inIR = flash.attentions;
    const int64_t n = layers > 0 ? static_cast<int64_t>(layers) : inIR;
    const uint64_t b = batch;
    uint64_t weightsPerLayer = weightBytes / inIR;
    uint64_t kvPerLayer = flash.kvBytes / inIR * b;
    // A batch of b sequences runs every kernel on b times the rows: every
    // written result is b times larger with the same lifetimes.
    uint64_t actFused = fused.arena.getBytes() * b;
    uint64_t actFlash = flash.arena.getBytes() * b;
    uint64_t device = static_cast<uint64_t>(deviceMemory * 1e9);

    auto line = [&](StringRef what, uint64_t bytes, const Twine &note) {
      os << llvm::format("  %-38s %9s", what.str().c_str(),
                         report::formatBytes(bytes).c_str())
         << "  (" << bytes << " B" << note << ")\n";
    };
    os << "memory budget of @" << func.getSymName() << ": " << inIR
       << (inIR == 1 ? " layer" : " layers") << " in the IR, batch " << b
       << ", decimal units (1 MB = 10^6 B)\n";
    line("weights per layer", weightsPerLayer,
         "; " + Twine(weights.size() / inIR) + " tensors");
    line("KV cache per layer", kvPerLayer,
         "; k and v after RoPE, each " + typeText(flash.keyType) +
             (b > 1 ? " x batch" : ""));
    const char *layerWord = n == 1 ? " layer" : " layers";
    line(("KV cache for " + Twine(n) + layerWord).str(), kvPerLayer * n, "");
    line("activations, fused", actFused,
         "; arena of " + Twine(fused.arena.getKernels()) +
             " kernels, lower bound " +
             Twine(fused.arena.getLowerBound() * b) + " B");
    line("activations, fused + FlashAttention", actFlash,
         "; arena of " + Twine(flash.arena.getKernels()) +
             " kernels, lower bound " +
             Twine(flash.arena.getLowerBound() * b) + " B");
    // Weights and KV cache stay for every layer; the activations of one
    // layer are reused by the next.
    for (auto [name, activations] :
         {std::pair<StringRef, uint64_t>{"fused", actFused},
          {"fused + FlashAttention", actFlash}}) {
      uint64_t total = (weightsPerLayer + kvPerLayer) * n + activations;
      os << "  " << n << layerWord << ", " << name << ": weights + KV cache + "
         << "activations = " << report::formatBytes(total) << ", "
         << (total <= device ? "fits" : "does not fit") << " in "
         << report::formatBytes(device) << "\n";
    }
    return success();
  }
};

} // namespace
