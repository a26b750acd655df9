//===- LayerBuilder.cpp - a transformer decoder layer in cs349 ops --------===//
//
// The op sequence here is the contract every pass codes against
// (docs/generator.md): change it only together with the passes' tests.
//
//===----------------------------------------------------------------------===//

#include "cs349/Gen/LayerBuilder.h"

#include "cs349/Dialect/CS349/IR/CS349Dialect.h"
#include "cs349/Dialect/CS349/IR/CS349Ops.h"
#include "cs349/Gen/RandomTensor.h"
#include "cs349/Support/TensorBytes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"

#include <cmath>
#include <cstdio>

using namespace mlir;
using namespace mlir::cs349;
using namespace mlir::cs349::gen;

namespace {
// One Llama-3.1-8B layer of random bf16 weights is 436 MB; beyond this the
// request is a mistake (use argument weights), not a test input.
constexpr int64_t kMaxRandomWeightBytes = int64_t(4) << 30;

std::string formatDouble(double value) {
  char text[32];
  std::snprintf(text, sizeof(text), "%g", value);
  return text;
}

llvm::Error configError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}
} // namespace

//===----------------------------------------------------------------------===//
// Configurations
//===----------------------------------------------------------------------===//

std::optional<LayerConfig> mlir::cs349::gen::getPreset(llvm::StringRef name) {
  LayerConfig config;
  if (name == "llama3.1-8b") {
    config.modelDim = 4096;
    config.heads = 32;
    config.kvHeads = 8;
    config.headDim = 128;
    config.ffnDim = 14336;
  } else if (name == "tiny") {
    config.modelDim = 128;
    config.heads = 8;
    config.kvHeads = 2;
    config.headDim = 16;
    config.ffnDim = 344;
  } else {
    return std::nullopt;
  }
  config.epsilon = 1e-5;
  config.ropeTheta = 500000.0;
  return config;
}

llvm::ArrayRef<llvm::StringRef> mlir::cs349::gen::getPresetNames() {
  static const llvm::StringRef names[] = {"llama3.1-8b", "tiny"};
  return names;
}

llvm::Error mlir::cs349::gen::verifyConfig(const LayerConfig &config) {
  struct Setting {
    const char *name;
    int64_t value;
  };
  for (Setting setting : {Setting{"d", config.modelDim},
                          Setting{"heads", config.heads},
                          Setting{"kv-heads", config.kvHeads},
                          Setting{"head-dim", config.headDim},
                          Setting{"ffn", config.ffnDim},
                          Setting{"seq", config.seqLen},
                          Setting{"layers", config.layers}})
    if (setting.value <= 0)
      return configError(llvm::Twine(setting.name) + " must be positive, got " +
                         llvm::Twine(setting.value));
  if (config.heads % config.kvHeads != 0)
    return configError("heads (" + llvm::Twine(config.heads) +
                       ") must be a multiple of kv-heads (" +
                       llvm::Twine(config.kvHeads) + ")");
  if (config.headDim % 2 != 0)
    return configError("head-dim must be even (rotary embeddings rotate "
                       "pairs), got " +
                       llvm::Twine(config.headDim));
  if (!(config.epsilon >= 0.0) || std::isinf(config.epsilon))
    return configError("eps must be a finite non-negative number, got " +
                       formatDouble(config.epsilon));
  if (!(config.ropeTheta > 0.0) || std::isinf(config.ropeTheta))
    return configError("rope-theta must be a finite positive number, got " +
                       formatDouble(config.ropeTheta));

  // Every tensor of the layer must have a byte size that fits in int64, or
  // the memory planner's arithmetic (and the dialect's) would overflow.
  int64_t bytes = elementBytes(config.dtype);
  std::optional<int64_t> qWidth = checkedProduct({config.heads, config.headDim});
  if (!qWidth)
    return configError("heads * head-dim overflows int64");
  int64_t t = config.seqLen, d = config.modelDim, f = config.ffnDim;
  int64_t weightBytes = 0;
  struct Shape {
    llvm::SmallVector<int64_t, 4> dims;
    bool isWeight;
  };
  Shape shapes[] = {{{t, d}, false},           {{t, *qWidth}, false},
                    {{config.heads, t, t}, false}, {{t, f}, false},
                    {{d, *qWidth}, true},      {{*qWidth, d}, true},
                    {{d, f}, true},            {{d, f}, true},
                    {{f, d}, true},
                    {{d, config.kvHeads, config.headDim}, true},
                    {{d, config.kvHeads, config.headDim}, true}};
  for (const Shape &shape : shapes) {
    llvm::SmallVector<int64_t, 5> factors(shape.dims.begin(), shape.dims.end());
    factors.push_back(bytes);
    std::optional<int64_t> size = checkedProduct(factors);
    if (!size)
      return configError("a tensor of shape [" +
                         llvm::join(llvm::map_range(shape.dims,
                                                    [](int64_t dim) {
                                                      return llvm::itostr(dim);
                                                    }),
                                    ", ") +
                         "] has more bytes than fit in int64");
    if (shape.isWeight && llvm::AddOverflow(weightBytes, *size, weightBytes))
      weightBytes = std::numeric_limits<int64_t>::max();
  }
  // The function takes every layer's weights: their sum is planned and
  // reported like any tensor's size, and stacking 2^60 layers would
  // otherwise build IR until memory runs out.
  if (!checkedProduct({weightBytes, config.layers}))
    return configError("the weights of " + llvm::Twine(config.layers) +
                       " layers have more bytes than fit in int64");
  if (config.layers > kMaxLayers)
    return configError("layers must be at most " + llvm::Twine(kMaxLayers) +
                       ", got " + llvm::Twine(config.layers) +
                       " (each layer is IR built in memory)");
  if (config.weights == WeightSource::Random) {
    std::optional<int64_t> total = checkedProduct({weightBytes, config.layers});
    if (!total || *total > kMaxRandomWeightBytes)
      return configError(
          "random weights would take more than " +
          llvm::Twine(kMaxRandomWeightBytes >> 30) +
          " GiB; use --weights=args for a model this large");
  }
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// LayerBuilder
//===----------------------------------------------------------------------===//

LayerBuilder::LayerBuilder(OpBuilder &builder, const LayerConfig &config)
    : builder(builder), config(config),
      elementType(getElementType(builder.getContext(), config.dtype)) {}

llvm::ArrayRef<llvm::StringRef> LayerBuilder::getWeightNames() {
  static const llvm::StringRef names[kNumWeights] = {
      "attn_norm", "wq", "wk", "wv", "wo", "mlp_norm", "w_gate", "w_up",
      "w_down"};
  return names;
}

RankedTensorType LayerBuilder::tensor(llvm::ArrayRef<int64_t> shape) const {
  return RankedTensorType::get(shape, elementType);
}

RankedTensorType LayerBuilder::getActivationType() const {
  return tensor({config.seqLen, config.modelDim});
}

RankedTensorType LayerBuilder::getWeightType(unsigned index) const {
  int64_t d = config.modelDim, f = config.ffnDim;
  int64_t qWidth = config.heads * config.headDim;
  int64_t kvWidth = config.kvHeads * config.headDim;
  switch (index) {
  case 0: // attn_norm
  case 5: // mlp_norm
    return tensor({d});
  case 1: // wq
    return tensor({d, qWidth});
  case 2: // wk
  case 3: // wv
    return tensor({d, kvWidth});
  case 4: // wo
    return tensor({qWidth, d});
  case 6: // w_gate
  case 7: // w_up
    return tensor({d, f});
  default: // w_down
    return tensor({f, d});
  }
}

Location LayerBuilder::loc(int64_t layer, llvm::StringRef step) const {
  return NameLoc::get(builder.getStringAttr("layer" + llvm::Twine(layer) +
                                            "." + step));
}

LayerWeights LayerBuilder::buildRandomWeights(int64_t layer) {
  Value values[kNumWeights];
  for (unsigned index = 0; index < kNumWeights; ++index) {
    RankedTensorType type = getWeightType(index);
    SplitMix64 rng(deriveSeed(config.seed, layer * kNumWeights + index));
    // Norm gains near 1 keep activations at their scale; matrices use the
    // usual U(-1/sqrt(fan_in), 1/sqrt(fan_in)) so that outputs stay O(1).
    DenseElementsAttr value =
        type.getRank() == 1
            ? randomUniform(type, rng, /*center=*/1.0, /*halfWidth=*/0.1)
            : randomUniform(type, rng, 0.0,
                            1.0 / std::sqrt(double(type.getDimSize(0))));
    values[index] = ConstantOp::create(builder,
                                       loc(layer, getWeightNames()[index]),
                                       type, value);
  }
  return LayerWeights{values[0], values[1], values[2], values[3], values[4],
                      values[5], values[6], values[7], values[8]};
}

// [T, n*dh] -> reshape [T, n, dh] -> transpose [n, T, dh]: heads first, so
// that attention is a batched matmul over heads.
Value LayerBuilder::splitHeads(int64_t layer, llvm::StringRef name,
                               Value value, int64_t numHeads) {
  int64_t t = config.seqLen, dh = config.headDim;
  Value split = ReshapeOp::create(builder, loc(layer, "attn." + name.str() +
                                                          "_split"),
                                  tensor({t, numHeads, dh}), value);
  return TransposeOp::create(builder, loc(layer, "attn." + name.str() +
                                                     "_heads"),
                             tensor({numHeads, t, dh}), split,
                             llvm::ArrayRef<int64_t>{1, 0, 2});
}

Value LayerBuilder::buildLayer(int64_t layer, Value x,
                               const LayerWeights &w) {
  int64_t t = config.seqLen, d = config.modelDim, h = config.heads,
          g = config.kvHeads, dh = config.headDim, f = config.ffnDim;
  FloatAttr epsilon = builder.getF64FloatAttr(config.epsilon);

  // Attention block.
  Value normed = RmsNormOp::create(builder, loc(layer, "attn.norm"),
                                   tensor({t, d}), x, w.attnNorm, epsilon);
  Value q = MatmulOp::create(builder, loc(layer, "attn.q_proj"),
                             tensor({t, h * dh}), normed, w.wq);
  Value k = MatmulOp::create(builder, loc(layer, "attn.k_proj"),
                             tensor({t, g * dh}), normed, w.wk);
  Value v = MatmulOp::create(builder, loc(layer, "attn.v_proj"),
                             tensor({t, g * dh}), normed, w.wv);
  Value qHeads = splitHeads(layer, "q", q, h);
  Value kHeads = splitHeads(layer, "k", k, g);
  Value vHeads = splitHeads(layer, "v", v, g);

  APFloat theta(config.ropeTheta);
  Value cos = RopeTableOp::create(builder, loc(layer, "attn.rope_cos"),
                                  tensor({t, dh}), RopeTableKind::Cos, theta);
  Value sin = RopeTableOp::create(builder, loc(layer, "attn.rope_sin"),
                                  tensor({t, dh}), RopeTableKind::Sin, theta);
  Value qRot = RopeOp::create(builder, loc(layer, "attn.q_rope"),
                              tensor({h, t, dh}), qHeads, cos, sin);
  Value kRot = RopeOp::create(builder, loc(layer, "attn.k_rope"),
                              tensor({g, t, dh}), kHeads, cos, sin);
  // Always emitted, even for times = 1, so that every pass sees one form.
  uint64_t group = static_cast<uint64_t>(h / g);
  Value kRep = RepeatOp::create(builder, loc(layer, "attn.k_repeat"),
                                tensor({h, t, dh}), kRot, 0, group);
  Value vRep = RepeatOp::create(builder, loc(layer, "attn.v_repeat"),
                                tensor({h, t, dh}), vHeads, 0, group);

  Value scores = MatmulOp::create(builder, loc(layer, "attn.scores"),
                                  tensor({h, t, t}), qRot, kRep,
                                  /*transpose_b=*/true);
  auto scalarType = tensor({});
  auto scaleValue = DenseElementsAttr::get(
      scalarType,
      llvm::ArrayRef<Attribute>{
          builder.getFloatAttr(elementType, 1.0 / std::sqrt(double(dh)))});
  Value scale = ConstantOp::create(builder, loc(layer, "attn.scale"),
                                   scalarType,
                                   llvm::cast<ElementsAttr>(scaleValue));
  Value scaled =
      MulOp::create(builder, loc(layer, "attn.scaled_scores"), scores, scale);
  Value mask = CausalMaskOp::create(builder, loc(layer, "attn.causal_mask"),
                                    tensor({t, t}));
  Value masked =
      AddOp::create(builder, loc(layer, "attn.masked_scores"), scaled, mask);
  Value probs = SoftmaxOp::create(builder, loc(layer, "attn.softmax"), masked,
                                  uint64_t{2});
  Value context = MatmulOp::create(builder, loc(layer, "attn.context"),
                                   tensor({h, t, dh}), probs, vRep);
  Value merged = TransposeOp::create(
      builder, loc(layer, "attn.context_transpose"), tensor({t, h, dh}),
      context, llvm::ArrayRef<int64_t>{1, 0, 2});
  merged = ReshapeOp::create(builder, loc(layer, "attn.context_merge"),
                             tensor({t, h * dh}), merged);
  Value projected = MatmulOp::create(builder, loc(layer, "attn.o_proj"),
                                     tensor({t, d}), merged, w.wo);
  Value x2 =
      AddOp::create(builder, loc(layer, "attn.residual"), x, projected);

  // MLP block.
  Value normed2 = RmsNormOp::create(builder, loc(layer, "mlp.norm"),
                                    tensor({t, d}), x2, w.mlpNorm, epsilon);
  Value gate = MatmulOp::create(builder, loc(layer, "mlp.gate_proj"),
                                tensor({t, f}), normed2, w.wGate);
  Value up = MatmulOp::create(builder, loc(layer, "mlp.up_proj"),
                              tensor({t, f}), normed2, w.wUp);
  Value activated = SiluOp::create(builder, loc(layer, "mlp.silu"), gate);
  Value gated = MulOp::create(builder, loc(layer, "mlp.gated"), activated, up);
  Value down = MatmulOp::create(builder, loc(layer, "mlp.down_proj"),
                                tensor({t, d}), gated, w.wDown);
  return AddOp::create(builder, loc(layer, "mlp.residual"), x2, down);
}

//===----------------------------------------------------------------------===//
// The layer function
//===----------------------------------------------------------------------===//

OwningOpRef<ModuleOp>
mlir::cs349::gen::buildLayerModule(MLIRContext &context,
                                   const LayerConfig &config) {
  context.loadDialect<CS349Dialect, func::FuncDialect>();
  OpBuilder builder(&context);
  OwningOpRef<ModuleOp> module = ModuleOp::create(builder.getUnknownLoc());
  builder.setInsertionPointToEnd(module->getBody());
  LayerBuilder layers(builder, config);

  RankedTensorType activation = layers.getActivationType();
  llvm::SmallVector<Type> argTypes = {activation};
  llvm::SmallVector<Location> argLocs = {
      NameLoc::get(builder.getStringAttr("x"))};
  if (config.weights == WeightSource::Arguments) {
    for (int64_t layer = 0; layer < config.layers; ++layer) {
      for (unsigned index = 0; index < LayerBuilder::kNumWeights; ++index) {
        argTypes.push_back(layers.getWeightType(index));
        argLocs.push_back(NameLoc::get(builder.getStringAttr(
            "layer" + llvm::Twine(layer) + "." +
            LayerBuilder::getWeightNames()[index])));
      }
    }
  }

  auto function = func::FuncOp::create(
      builder, NameLoc::get(builder.getStringAttr("layer")), "layer",
      builder.getFunctionType(argTypes, {activation}));
  Block *entry = function.addEntryBlock();
  for (auto [argument, location] : llvm::zip(entry->getArguments(), argLocs))
    argument.setLoc(location);
  builder.setInsertionPointToStart(entry);

  Value x = entry->getArgument(0);
  for (int64_t layer = 0; layer < config.layers; ++layer) {
    LayerWeights weights;
    if (config.weights == WeightSource::Random) {
      weights = layers.buildRandomWeights(layer);
    } else {
      auto args = entry->getArguments().drop_front(
          1 + layer * LayerBuilder::kNumWeights);
      weights = LayerWeights{args[0], args[1], args[2], args[3], args[4],
                             args[5], args[6], args[7], args[8]};
    }
    x = layers.buildLayer(layer, x, weights);
  }
  func::ReturnOp::create(builder, NameLoc::get(builder.getStringAttr("return")),
                         x);
  return module;
}
