//===- LayerBuilder.h - a transformer decoder layer in cs349 ops -*- C++ -*-===//
//
// Builds the Llama-style decoder layer with MLIR builders, in the
// layer-level ops every pass codes against (see docs/generator.md). Every op
// carries a NameLoc that names its step ("layer0.attn.q_proj"), so that
// diagnostics, fusion reports and memory plans can say which step they mean.
//
//===----------------------------------------------------------------------===//

#ifndef CS349_GEN_LAYERBUILDER_H
#define CS349_GEN_LAYERBUILDER_H

#include "cs349/Support/ElementType.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>

namespace mlir::func {
class FuncOp;
} // namespace mlir::func

namespace mlir::cs349::gen {

/// Where the weights come from.
enum class WeightSource {
  /// Function arguments: the graph is generic in its weights.
  Arguments,
  /// Deterministic random `cs349.constant`s, so that folding has data to fold.
  Random,
};

/// The most layers one function stacks. Each layer is about 34 ops of IR
/// held in memory at once (some 30 KB, 1.4 s per thousand layers to print):
/// 10000 is far more than any model has, and a count that would exhaust the
/// host's memory is an error instead.
constexpr int64_t kMaxLayers = 10000;

/// The shape of a decoder layer and of the function that stacks them.
struct LayerConfig {
  int64_t modelDim = 0;   // d
  int64_t heads = 0;      // H
  int64_t kvHeads = 0;    // G: each key/value head serves H/G query heads
  int64_t headDim = 0;    // dh; H*dh need not equal d
  int64_t ffnDim = 0;     // f
  int64_t seqLen = 0;     // T
  ElementKind dtype = ElementKind::BF16;
  double epsilon = 1e-5;
  double ropeTheta = 500000.0;
  int64_t layers = 1;
  WeightSource weights = WeightSource::Arguments;
  uint64_t seed = 0;
};

/// The configuration of a named model with seqLen left at 0: "llama3.1-8b"
/// (4096, 32, 8, 128, 14336) or "tiny" (128, 8, 2, 16, 344).
std::optional<LayerConfig> getPreset(llvm::StringRef name);
/// The names getPreset knows, for help texts and error messages.
llvm::ArrayRef<llvm::StringRef> getPresetNames();

/// Checks that `config` describes a layer the dialect can express: positive
/// sizes, heads a multiple of kvHeads, an even head dim (rotary embeddings
/// rotate pairs), tensors whose byte size fits in int64, and random weights
/// that fit in memory. The message names the offending setting.
llvm::Error verifyConfig(const LayerConfig &config);

/// The weights of one layer, in the order they appear as arguments.
struct LayerWeights {
  Value attnNorm, wq, wk, wv, wo, mlpNorm, wGate, wUp, wDown;
};

/// Builds decoder layers at the builder's insertion point.
class LayerBuilder {
public:
  LayerBuilder(OpBuilder &builder, const LayerConfig &config);

  /// The number of weights per layer and their names, in argument order.
  static constexpr unsigned kNumWeights = 9;
  static llvm::ArrayRef<llvm::StringRef> getWeightNames();
  /// The type of weight `index` (in getWeightNames() order).
  RankedTensorType getWeightType(unsigned index) const;
  /// The type of the layer's input and output, [T, d].
  RankedTensorType getActivationType() const;

  /// Emits the random weights of layer `layer` as cs349.constant ops.
  LayerWeights buildRandomWeights(int64_t layer);

  /// Emits layer `layer` reading `x` and returns its output. Locations are
  /// named "layer<layer>.<step>".
  Value buildLayer(int64_t layer, Value x, const LayerWeights &weights);

private:
  Location loc(int64_t layer, llvm::StringRef step) const;
  RankedTensorType tensor(llvm::ArrayRef<int64_t> shape) const;
  Value splitHeads(int64_t layer, llvm::StringRef name, Value value,
                   int64_t numHeads);

  OpBuilder &builder;
  LayerConfig config;
  Type elementType;
};

/// Builds `func.func @layer(%x, <9 weights per layer>...) -> tensor<Txdx...>`
/// (only `%x` with random weights) stacking config.layers layers, in a new
/// module. `config` must pass verifyConfig.
OwningOpRef<ModuleOp> buildLayerModule(MLIRContext &context,
                                       const LayerConfig &config);

} // namespace mlir::cs349::gen

#endif // CS349_GEN_LAYERBUILDER_H
