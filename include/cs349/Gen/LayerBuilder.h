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

/// The normalisation before (or after) each block. RmsNormPlusOne is
/// Gemma's: the stored gain is an offset from 1, so the layer computes
/// rms_norm(x, 1 + gain).
enum class NormKind { RmsNorm, RmsNormPlusOne, LayerNorm };
/// The MLP's activation; GeluTanh is the tanh approximation (GPT-2, Gemma).
enum class ActivationKind { Silu, Gelu, GeluTanh };
/// Gated: down(act(x @ w_gate) * (x @ w_up)); plain: down(act(x @ w_up)).
enum class MlpKind { Gated, Plain };
/// Which matmuls add a bias vector: none, the Q/K/V projections, or every
/// projection of the layer (and LayerNorm gets its shift).
enum class BiasKind { None, Qkv, All };
/// What the attention scores are masked with before the softmax. Padding is
/// a runtime mask: a [T] i1 argument `key_valid`, and the scores of every
/// key it marks 0 are selected to -inf (cs349.select).
enum class MaskKind { Causal, None, SlidingWindow, Padding };
/// Rotary embeddings on q and k, a learned [T, d] table added to the input
/// once before the first layer, or no position information.
enum class PositionKind { Rope, Learned, None };
/// Pre: x + f(norm(x)) (Llama, GPT-2); post: norm(x + f(x)) (BERT).
enum class NormPlacement { Pre, Post };
/// Separate: three projections wq, wk, wv; fused: one [d, (H+2G)*dh]
/// projection w_qkv whose result is sliced into q, k and v (GPT-2's c_attn).
enum class QkvKind { Separate, Fused };

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
  NormKind norm = NormKind::RmsNorm;
  ActivationKind activation = ActivationKind::Silu;
  MlpKind mlp = MlpKind::Gated;
  BiasKind bias = BiasKind::None;
  MaskKind mask = MaskKind::Causal;
  int64_t slidingWindow = 0; // W of MaskKind::SlidingWindow
  PositionKind positions = PositionKind::Rope;
  NormPlacement normPlacement = NormPlacement::Pre;
  QkvKind qkv = QkvKind::Separate;
  // The whole model (cs349-gen model) only:
  int64_t vocab = 0;           // V, the rows of the embedding table
  bool tiedEmbeddings = false; // the LM head reads the embedding table
  bool scaleEmbeddings = false; // embeddings times sqrt(d) (Gemma)
};

/// The values each architecture flag accepts, in --help order, and their
/// parsers (std::nullopt for an unknown spelling).
std::optional<NormKind> parseNormKind(llvm::StringRef text);
std::optional<ActivationKind> parseActivationKind(llvm::StringRef text);
std::optional<MlpKind> parseMlpKind(llvm::StringRef text);
std::optional<BiasKind> parseBiasKind(llvm::StringRef text);
std::optional<PositionKind> parsePositionKind(llvm::StringRef text);
std::optional<NormPlacement> parseNormPlacement(llvm::StringRef text);
std::optional<QkvKind> parseQkvKind(llvm::StringRef text);

/// The configuration of a named model with seqLen left at 0: "llama3.1-8b"
/// (4096, 32, 8, 128, 14336), "tiny" (128, 8, 2, 16, 344), "gpt2",
/// "bert-base", "qwen2.5-7b", "mistral-7b" or "gemma-2b".
std::optional<LayerConfig> getPreset(llvm::StringRef name);
/// The names getPreset knows, for help texts and error messages.
llvm::ArrayRef<llvm::StringRef> getPresetNames();

/// Checks that `config` describes a layer the dialect can express: positive
/// sizes, heads a multiple of kvHeads, an even head dim (rotary embeddings
/// rotate pairs), tensors whose byte size fits in int64, and random weights
/// that fit in memory. The message names the offending setting.
llvm::Error verifyConfig(const LayerConfig &config);
/// verifyConfig, and a positive vocabulary whose embedding table [V, d] and
/// logits [T, V] have byte sizes that fit in int64.
llvm::Error verifyModelConfig(const LayerConfig &config);

/// What a weight is, which decides its shape and its random values.
enum class WeightRole {
  AttnNorm, AttnNormBias, Wq, Bq, Wk, Bk, Wv, Bv, Wo, Bo,
  MlpNorm, MlpNormBias, WGate, BGate, WUp, BUp, WDown, BDown, Wqkv, Bqkv,
};

/// The weights of one layer, in the order they appear as arguments; a weight
/// the configuration has no use for is null.
struct LayerWeights {
  Value attnNorm, attnNormBias, wq, bq, wk, bk, wv, bv, wo, bo, mlpNorm,
      mlpNormBias, wGate, bGate, wUp, bUp, wDown, bDown, wqkv, bqkv;
  Value &operator[](WeightRole role);
};

/// Builds decoder layers at the builder's insertion point.
class LayerBuilder {
public:
  LayerBuilder(OpBuilder &builder, const LayerConfig &config);

  /// The weights one layer of this configuration takes, in argument order
  /// (Llama's nine: attn_norm, wq, wk, wv, wo, mlp_norm, w_gate, w_up,
  /// w_down), with their names and types.
  llvm::ArrayRef<WeightRole> getWeightRoles() const { return roles; }
  static llvm::StringRef getWeightName(WeightRole role);
  RankedTensorType getWeightType(WeightRole role) const;
  /// The type of the layer's input and output, [T, d].
  RankedTensorType getActivationType() const;

  /// Emits the random weights of layer `layer` as cs349.constant ops.
  LayerWeights buildRandomWeights(int64_t layer);

  /// Emits layer `layer` reading `x` and returns its output. Locations are
  /// named "layer<layer>.<step>".
  Value buildLayer(int64_t layer, Value x, const LayerWeights &weights);

  /// The learned position table, [T, d], random (seeded after every layer's
  /// weights) for --weights=random.
  Value buildRandomPositions();

  /// The configured norm of `x` (rms_norm, Gemma's with gain 1 + γ, or
  /// layer_norm with its optional shift), at `location`.
  Value buildNorm(Location location, Value x, Value gain, Value shift);

  /// The [T] i1 argument of a padding mask, which every layer reads.
  void setKeyMask(Value keyValid) { keyMask = keyValid; }

private:
  Location loc(int64_t layer, llvm::StringRef step) const;
  RankedTensorType tensor(llvm::ArrayRef<int64_t> shape) const;
  Value splitHeads(int64_t layer, llvm::StringRef name, Value value,
                   int64_t numHeads);
  Value scalar(int64_t layer, llvm::StringRef step, double value);
  Value normalize(int64_t layer, llvm::StringRef block, Value x, Value gain,
                  Value shift);
  Value project(int64_t layer, llvm::StringRef step, Value x, Value weight,
                Value bias, int64_t width);
  Value activate(int64_t layer, Value x);
  Value attention(int64_t layer, Value normed, const LayerWeights &w);
  Value mlp(int64_t layer, Value normed, const LayerWeights &w);

  OpBuilder &builder;
  LayerConfig config;
  Type elementType;
  llvm::SmallVector<WeightRole, 18> roles;
  Value keyMask;
};

/// Builds `func.func @layer(%x, [%pos_embed,] <weights per layer>...) ->
/// tensor<Txdx...>` (only `%x` with random weights) stacking config.layers
/// layers, in a new module. `config` must pass verifyConfig.
OwningOpRef<ModuleOp> buildLayerModule(MLIRContext &context,
                                       const LayerConfig &config);

/// Builds `func.func @model(%ids: tensor<Txi32>, %embed [V, d],
/// [%pos_embed [T, d],] <weights per layer>..., %final_norm [d]
/// [, %final_norm_bias] [, %lm_head [d, V]]) -> tensor<TxV...>`: the
/// embedding gather, config.layers layers, the final norm (post-norm models:
/// the norm of the embeddings instead) and the logits. With random weights
/// only `%ids` is an argument. `config` must pass verifyModelConfig.
OwningOpRef<ModuleOp> buildModelModule(MLIRContext &context,
                                       const LayerConfig &config);

} // namespace mlir::cs349::gen

#endif // CS349_GEN_LAYERBUILDER_H
