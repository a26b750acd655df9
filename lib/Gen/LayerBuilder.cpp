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
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/Twine.h"

#include <cmath>
#include <cstdio>
#include <limits>

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
  config.epsilon = 1e-5;
  config.ropeTheta = 500000.0;
  auto sizes = [&](int64_t d, int64_t h, int64_t g, int64_t dh, int64_t f) {
    config.modelDim = d;
    config.heads = h;
    config.kvHeads = g;
    config.headDim = dh;
    config.ffnDim = f;
  };
  // The encoder and GPT-2 blocks: LayerNorm with shifts, a plain GELU MLP,
  // biases on every projection, learned positions.
  auto gpt2Style = [&]() {
    sizes(768, 12, 12, 64, 3072);
    config.norm = NormKind::LayerNorm;
    config.mlp = MlpKind::Plain;
    config.bias = BiasKind::All;
    config.positions = PositionKind::Learned;
  };
  if (name == "llama3.1-8b") {
    sizes(4096, 32, 8, 128, 14336);
    config.vocab = 128256;
  } else if (name == "tiny") {
    sizes(128, 8, 2, 16, 344);
    config.vocab = 512;
  } else if (name == "gpt2") {
    gpt2Style();
    config.activation = ActivationKind::GeluTanh;
    config.qkv = QkvKind::Fused;
    config.vocab = 50257;
    config.tiedEmbeddings = true;
  } else if (name == "bert-base") {
    gpt2Style();
    config.vocab = 30522;
    config.tiedEmbeddings = true;
    config.activation = ActivationKind::Gelu;
    config.mask = MaskKind::None;
    config.normPlacement = NormPlacement::Post;
    config.epsilon = 1e-12;
  } else if (name == "qwen2.5-7b") {
    sizes(3584, 28, 4, 128, 18944);
    config.bias = BiasKind::Qkv;
    config.epsilon = 1e-6;
    config.ropeTheta = 1e6;
    config.vocab = 152064;
  } else if (name == "mistral-7b") {
    sizes(4096, 32, 8, 128, 14336);
    config.mask = MaskKind::SlidingWindow;
    config.slidingWindow = 4096;
    config.ropeTheta = 1e6;
    config.vocab = 32000;
  } else if (name == "gemma-2b") {
    sizes(2048, 8, 1, 256, 16384);
    config.norm = NormKind::RmsNormPlusOne;
    config.activation = ActivationKind::GeluTanh;
    config.epsilon = 1e-6;
    config.ropeTheta = 10000.0;
    config.vocab = 256000;
    config.tiedEmbeddings = true;
    config.scaleEmbeddings = true;
  } else {
    return std::nullopt;
  }
  return config;
}

llvm::ArrayRef<llvm::StringRef> mlir::cs349::gen::getPresetNames() {
  static const llvm::StringRef names[] = {"llama3.1-8b", "tiny",
                                          "gpt2",        "bert-base",
                                          "qwen2.5-7b",  "mistral-7b",
                                          "gemma-2b"};
  return names;
}

std::optional<NormKind> mlir::cs349::gen::parseNormKind(llvm::StringRef text) {
  return llvm::StringSwitch<std::optional<NormKind>>(text)
      .Case("rms", NormKind::RmsNorm)
      .Case("rms1p", NormKind::RmsNormPlusOne)
      .Case("layer", NormKind::LayerNorm)
      .Default(std::nullopt);
}

std::optional<ActivationKind>
mlir::cs349::gen::parseActivationKind(llvm::StringRef text) {
  return llvm::StringSwitch<std::optional<ActivationKind>>(text)
      .Case("silu", ActivationKind::Silu)
      .Case("gelu", ActivationKind::Gelu)
      .Case("gelu-tanh", ActivationKind::GeluTanh)
      .Default(std::nullopt);
}

std::optional<MlpKind> mlir::cs349::gen::parseMlpKind(llvm::StringRef text) {
  return llvm::StringSwitch<std::optional<MlpKind>>(text)
      .Case("gated", MlpKind::Gated)
      .Case("plain", MlpKind::Plain)
      .Default(std::nullopt);
}

std::optional<BiasKind> mlir::cs349::gen::parseBiasKind(llvm::StringRef text) {
  return llvm::StringSwitch<std::optional<BiasKind>>(text)
      .Case("none", BiasKind::None)
      .Case("qkv", BiasKind::Qkv)
      .Case("all", BiasKind::All)
      .Default(std::nullopt);
}

std::optional<PositionKind>
mlir::cs349::gen::parsePositionKind(llvm::StringRef text) {
  return llvm::StringSwitch<std::optional<PositionKind>>(text)
      .Case("rope", PositionKind::Rope)
      .Case("learned", PositionKind::Learned)
      .Case("none", PositionKind::None)
      .Default(std::nullopt);
}

std::optional<QkvKind> mlir::cs349::gen::parseQkvKind(llvm::StringRef text) {
  return llvm::StringSwitch<std::optional<QkvKind>>(text)
      .Case("separate", QkvKind::Separate)
      .Case("fused", QkvKind::Fused)
      .Default(std::nullopt);
}

std::optional<NormPlacement>
mlir::cs349::gen::parseNormPlacement(llvm::StringRef text) {
  return llvm::StringSwitch<std::optional<NormPlacement>>(text)
      .Case("pre", NormPlacement::Pre)
      .Case("post", NormPlacement::Post)
      .Default(std::nullopt);
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
  if (config.positions == PositionKind::Rope && config.headDim % 2 != 0)
    return configError("head-dim must be even (rotary embeddings rotate "
                       "pairs), got " +
                       llvm::Twine(config.headDim));
  if (config.mask == MaskKind::SlidingWindow) {
    if (config.slidingWindow <= 0)
      return configError("the sliding window must be positive, got " +
                         llvm::Twine(config.slidingWindow));
  }
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
  // The fused projection's width, (H + 2G) * dh.
  std::optional<int64_t> kvBoth = checkedProduct({2, config.kvHeads});
  int64_t qkvHeads = 0;
  std::optional<int64_t> qkvWidth;
  if (kvBoth && !llvm::AddOverflow(config.heads, *kvBoth, qkvHeads))
    qkvWidth = checkedProduct({qkvHeads, config.headDim});
  if (!qkvWidth)
    return configError("(heads + 2 * kv-heads) * head-dim overflows int64");
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
                    {{d, config.kvHeads, config.headDim}, true},
                    {{t, *qkvWidth}, false},
                    {{d, *qkvWidth}, config.qkv == QkvKind::Fused}};
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

Value &LayerWeights::operator[](WeightRole role) {
  Value *fields[] = {&attnNorm, &attnNormBias, &wq,  &bq,     &wk,   &bk,
                     &wv,       &bv,           &wo,  &bo,     &mlpNorm,
                     &mlpNormBias, &wGate,     &bGate, &wUp,  &bUp,  &wDown,
                     &bDown,    &wqkv,         &bqkv};
  return *fields[static_cast<unsigned>(role)];
}

LayerBuilder::LayerBuilder(OpBuilder &builder, const LayerConfig &config)
    : builder(builder), config(config),
      elementType(getElementType(builder.getContext(), config.dtype)) {
  // Llama's nine come in the order they always had; a bias follows its
  // weight, so each projection's arguments sit together.
  bool layerNorm = config.norm == NormKind::LayerNorm;
  bool allBiases = config.bias == BiasKind::All;
  bool qkvBiases = config.bias != BiasKind::None;
  bool gated = config.mlp == MlpKind::Gated;
  auto add = [&](bool wanted, WeightRole role) {
    if (wanted)
      roles.push_back(role);
  };
  using R = WeightRole;
  add(true, R::AttnNorm);
  add(layerNorm && allBiases, R::AttnNormBias);
  bool separate = config.qkv == QkvKind::Separate;
  add(!separate, R::Wqkv);
  add(!separate && qkvBiases, R::Bqkv);
  add(separate, R::Wq);
  add(separate && qkvBiases, R::Bq);
  add(separate, R::Wk);
  add(separate && qkvBiases, R::Bk);
  add(separate, R::Wv);
  add(separate && qkvBiases, R::Bv);
  add(true, R::Wo);
  add(allBiases, R::Bo);
  add(true, R::MlpNorm);
  add(layerNorm && allBiases, R::MlpNormBias);
  add(gated, R::WGate);
  add(gated && allBiases, R::BGate);
  add(true, R::WUp);
  add(allBiases, R::BUp);
  add(true, R::WDown);
  add(allBiases, R::BDown);
}

llvm::StringRef LayerBuilder::getWeightName(WeightRole role) {
  static const llvm::StringRef names[] = {
      "attn_norm", "attn_norm_bias", "wq",     "bq",     "wk",   "bk",
      "wv",        "bv",             "wo",     "bo",     "mlp_norm",
      "mlp_norm_bias", "w_gate",     "b_gate", "w_up",   "b_up", "w_down",
      "b_down",    "w_qkv",          "b_qkv"};
  return names[static_cast<unsigned>(role)];
}

RankedTensorType LayerBuilder::tensor(llvm::ArrayRef<int64_t> shape) const {
  return RankedTensorType::get(shape, elementType);
}

RankedTensorType LayerBuilder::getActivationType() const {
  return tensor({config.seqLen, config.modelDim});
}

RankedTensorType LayerBuilder::getWeightType(WeightRole role) const {
  int64_t d = config.modelDim, f = config.ffnDim;
  int64_t qWidth = config.heads * config.headDim;
  int64_t kvWidth = config.kvHeads * config.headDim;
  switch (role) {
  case WeightRole::AttnNorm:
  case WeightRole::AttnNormBias:
  case WeightRole::MlpNorm:
  case WeightRole::MlpNormBias:
  case WeightRole::Bo:
  case WeightRole::BDown:
    return tensor({d});
  case WeightRole::Wq:
    return tensor({d, qWidth});
  case WeightRole::Bq:
    return tensor({qWidth});
  case WeightRole::Wk:
  case WeightRole::Wv:
    return tensor({d, kvWidth});
  case WeightRole::Bk:
  case WeightRole::Bv:
    return tensor({kvWidth});
  case WeightRole::Wo:
    return tensor({qWidth, d});
  case WeightRole::WGate:
  case WeightRole::WUp:
    return tensor({d, f});
  case WeightRole::BGate:
  case WeightRole::BUp:
    return tensor({f});
  case WeightRole::WDown:
    return tensor({f, d});
  case WeightRole::Wqkv:
    return tensor({d, qWidth + 2 * kvWidth});
  case WeightRole::Bqkv:
    return tensor({qWidth + 2 * kvWidth});
  }
  llvm_unreachable("unknown weight role");
}

Location LayerBuilder::loc(int64_t layer, llvm::StringRef step) const {
  return NameLoc::get(builder.getStringAttr("layer" + llvm::Twine(layer) +
                                            "." + step));
}

LayerWeights LayerBuilder::buildRandomWeights(int64_t layer) {
  LayerWeights weights;
  int64_t count = static_cast<int64_t>(roles.size());
  for (auto [index, role] : llvm::enumerate(roles)) {
    RankedTensorType type = getWeightType(role);
    SplitMix64 rng(deriveSeed(config.seed, layer * count + index));
    // Norm gains near 1 keep activations at their scale (Gemma's stored gain
    // is the offset from 1); biases stay small; matrices use the usual
    // U(-1/sqrt(fan_in), 1/sqrt(fan_in)) so that outputs stay O(1).
    bool gain = role == WeightRole::AttnNorm || role == WeightRole::MlpNorm;
    double center = gain && config.norm != NormKind::RmsNormPlusOne ? 1.0 : 0.0;
    DenseElementsAttr value =
        type.getRank() == 1
            ? randomUniform(type, rng, center, /*halfWidth=*/0.1)
            : randomUniform(type, rng, 0.0,
                            1.0 / std::sqrt(double(type.getDimSize(0))));
    weights[role] = ConstantOp::create(builder, loc(layer, getWeightName(role)),
                                       type, value);
  }
  return weights;
}

Value LayerBuilder::buildRandomPositions() {
  RankedTensorType type = getActivationType();
  SplitMix64 rng(deriveSeed(config.seed, config.layers *
                                             static_cast<int64_t>(roles.size())));
  return ConstantOp::create(builder,
                            NameLoc::get(builder.getStringAttr("pos_embed")),
                            type, randomUniform(type, rng, 0.0, 0.1));
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

Value LayerBuilder::scalar(int64_t layer, llvm::StringRef step, double value) {
  auto scalarType = tensor({});
  auto elements = DenseElementsAttr::get(
      scalarType,
      llvm::ArrayRef<Attribute>{builder.getFloatAttr(elementType, value)});
  return ConstantOp::create(builder, loc(layer, step), scalarType,
                            llvm::cast<ElementsAttr>(elements));
}

Value LayerBuilder::normalize(int64_t layer, llvm::StringRef block, Value x,
                              Value gain, Value shift) {
  return buildNorm(loc(layer, (block + ".norm").str()), x, gain, shift);
}

Value LayerBuilder::buildNorm(Location location, Value x, Value gain,
                              Value shift) {
  FloatAttr epsilon = builder.getF64FloatAttr(config.epsilon);
  if (config.norm != NormKind::LayerNorm) {
    if (config.norm == NormKind::RmsNormPlusOne) {
      // Named after the norm: "<step>_one" and "<step>_gain".
      std::string step = "norm";
      if (auto name = dyn_cast<NameLoc>(location))
        step = name.getName().str();
      auto scalarType = tensor({});
      Value one = ConstantOp::create(
          builder, NameLoc::get(builder.getStringAttr(step + "_one")),
          scalarType,
          cast<ElementsAttr>(DenseElementsAttr::get(
              scalarType, llvm::ArrayRef<Attribute>{
                              builder.getFloatAttr(elementType, 1.0)})));
      gain = AddOp::create(builder,
                           NameLoc::get(builder.getStringAttr(step + "_gain")),
                           gain, one);
    }
    return RmsNormOp::create(builder, location, getActivationType(), x, gain,
                             epsilon);
  }
  return LayerNormOp::create(builder, location, getActivationType(), x, gain,
                             shift, epsilon);
}

Value LayerBuilder::project(int64_t layer, llvm::StringRef step, Value x,
                            Value weight, Value bias, int64_t width) {
  Value result = MatmulOp::create(builder, loc(layer, step),
                                  tensor({config.seqLen, width}), x, weight);
  if (bias)
    result = AddOp::create(builder, loc(layer, (step + "_bias").str()), result,
                           bias);
  return result;
}

Value LayerBuilder::activate(int64_t layer, Value x) {
  switch (config.activation) {
  case ActivationKind::Silu:
    return SiluOp::create(builder, loc(layer, "mlp.silu"), x);
  case ActivationKind::Gelu:
    return GeluOp::create(builder, loc(layer, "mlp.gelu"), x, GeluMode::Erf);
  case ActivationKind::GeluTanh:
    return GeluOp::create(builder, loc(layer, "mlp.gelu"), x, GeluMode::Tanh);
  }
  llvm_unreachable("unknown activation");
}

Value LayerBuilder::attention(int64_t layer, Value normed,
                              const LayerWeights &w) {
  int64_t t = config.seqLen, d = config.modelDim, h = config.heads,
          g = config.kvHeads, dh = config.headDim;
  Value q, k, v;
  if (config.qkv == QkvKind::Fused) {
    // One projection, then q, k and v as column ranges of its result: views,
    // so the one kernel's [T, (H+2G)*dh] result is what the plan places.
    Value qkv = project(layer, "attn.qkv_proj", normed, w.wqkv, w.bqkv,
                        (h + 2 * g) * dh);
    auto columns = [&](llvm::StringRef name, int64_t offset, int64_t width) {
      return SliceOp::create(builder, loc(layer, "attn." + name.str()),
                             tensor({t, width}), qkv,
                             llvm::ArrayRef<int64_t>{1},
                             llvm::ArrayRef<int64_t>{offset},
                             llvm::ArrayRef<int64_t>{width},
                             llvm::ArrayRef<int64_t>{1});
    };
    q = columns("q_slice", 0, h * dh);
    k = columns("k_slice", h * dh, g * dh);
    v = columns("v_slice", (h + g) * dh, g * dh);
  } else {
    q = project(layer, "attn.q_proj", normed, w.wq, w.bq, h * dh);
    k = project(layer, "attn.k_proj", normed, w.wk, w.bk, g * dh);
    v = project(layer, "attn.v_proj", normed, w.wv, w.bv, g * dh);
  }
  Value qHeads = splitHeads(layer, "q", q, h);
  Value kHeads = splitHeads(layer, "k", k, g);
  Value vHeads = splitHeads(layer, "v", v, g);

  if (config.positions == PositionKind::Rope) {
    APFloat theta(config.ropeTheta);
    Value cos = RopeTableOp::create(builder, loc(layer, "attn.rope_cos"),
                                    tensor({t, dh}), RopeTableKind::Cos, theta);
    Value sin = RopeTableOp::create(builder, loc(layer, "attn.rope_sin"),
                                    tensor({t, dh}), RopeTableKind::Sin, theta);
    qHeads = RopeOp::create(builder, loc(layer, "attn.q_rope"),
                            tensor({h, t, dh}), qHeads, cos, sin);
    kHeads = RopeOp::create(builder, loc(layer, "attn.k_rope"),
                            tensor({g, t, dh}), kHeads, cos, sin);
  }
  // Always emitted, even for times = 1, so that every pass sees one form.
  uint64_t group = static_cast<uint64_t>(h / g);
  Value kRep = RepeatOp::create(builder, loc(layer, "attn.k_repeat"),
                                tensor({h, t, dh}), kHeads, 0, group);
  Value vRep = RepeatOp::create(builder, loc(layer, "attn.v_repeat"),
                                tensor({h, t, dh}), vHeads, 0, group);

  Value scores = MatmulOp::create(builder, loc(layer, "attn.scores"),
                                  tensor({h, t, t}), qHeads, kRep,
                                  /*transpose_b=*/true);
  Value scale = scalar(layer, "attn.scale", 1.0 / std::sqrt(double(dh)));
  Value masked =
      MulOp::create(builder, loc(layer, "attn.scaled_scores"), scores, scale);
  if (config.mask == MaskKind::Padding) {
    // key_valid [T] broadcasts along the key axis of the [H, T, T] scores.
    auto scalarType = tensor({});
    Value hidden = ConstantOp::create(
        builder, loc(layer, "attn.hidden_score"), scalarType,
        cast<ElementsAttr>(DenseElementsAttr::get(
            scalarType,
            llvm::ArrayRef<Attribute>{builder.getFloatAttr(
                elementType, -std::numeric_limits<double>::infinity())})));
    masked = SelectOp::create(builder, loc(layer, "attn.masked_scores"),
                              tensor({h, t, t}), keyMask, masked, hidden);
  } else if (config.mask != MaskKind::None) {
    IntegerAttr window;
    if (config.mask == MaskKind::SlidingWindow)
      window = builder.getI64IntegerAttr(config.slidingWindow);
    Value mask = CausalMaskOp::create(builder, loc(layer, "attn.causal_mask"),
                                      tensor({t, t}), window);
    masked =
        AddOp::create(builder, loc(layer, "attn.masked_scores"), masked, mask);
  }
  Value probs = SoftmaxOp::create(builder, loc(layer, "attn.softmax"), masked,
                                  uint64_t{2});
  Value context = MatmulOp::create(builder, loc(layer, "attn.context"),
                                   tensor({h, t, dh}), probs, vRep);
  Value merged = TransposeOp::create(
      builder, loc(layer, "attn.context_transpose"), tensor({t, h, dh}),
      context, llvm::ArrayRef<int64_t>{1, 0, 2});
  merged = ReshapeOp::create(builder, loc(layer, "attn.context_merge"),
                             tensor({t, h * dh}), merged);
  return project(layer, "attn.o_proj", merged, w.wo, w.bo, d);
}

Value LayerBuilder::mlp(int64_t layer, Value normed, const LayerWeights &w) {
  int64_t d = config.modelDim, f = config.ffnDim;
  if (config.mlp == MlpKind::Plain) {
    Value up = project(layer, "mlp.up_proj", normed, w.wUp, w.bUp, f);
    return project(layer, "mlp.down_proj", activate(layer, up), w.wDown,
                   w.bDown, d);
  }
  Value gate = project(layer, "mlp.gate_proj", normed, w.wGate, w.bGate, f);
  Value up = project(layer, "mlp.up_proj", normed, w.wUp, w.bUp, f);
  Value activated = activate(layer, gate);
  Value gated = MulOp::create(builder, loc(layer, "mlp.gated"), activated, up);
  return project(layer, "mlp.down_proj", gated, w.wDown, w.bDown, d);
}

Value LayerBuilder::buildLayer(int64_t layer, Value x,
                               const LayerWeights &w) {
  if (config.normPlacement == NormPlacement::Post) {
    Value attended = attention(layer, x, w);
    Value x2 = AddOp::create(builder, loc(layer, "attn.residual"), x, attended);
    x2 = normalize(layer, "attn", x2, w.attnNorm, w.attnNormBias);
    Value transformed = mlp(layer, x2, w);
    Value out =
        AddOp::create(builder, loc(layer, "mlp.residual"), x2, transformed);
    return normalize(layer, "mlp", out, w.mlpNorm, w.mlpNormBias);
  }
  Value attended =
      attention(layer, normalize(layer, "attn", x, w.attnNorm, w.attnNormBias),
                w);
  Value x2 = AddOp::create(builder, loc(layer, "attn.residual"), x, attended);
  Value transformed =
      mlp(layer, normalize(layer, "mlp", x2, w.mlpNorm, w.mlpNormBias), w);
  return AddOp::create(builder, loc(layer, "mlp.residual"), x2, transformed);
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
  bool learnedPositions = config.positions == PositionKind::Learned;
  bool argumentWeights = config.weights == WeightSource::Arguments;
  bool padding = config.mask == MaskKind::Padding;
  llvm::SmallVector<Type> argTypes = {activation};
  llvm::SmallVector<Location> argLocs = {
      NameLoc::get(builder.getStringAttr("x"))};
  // The padding mask is data, an argument whatever the weights are.
  if (padding) {
    argTypes.push_back(
        RankedTensorType::get({config.seqLen}, builder.getI1Type()));
    argLocs.push_back(NameLoc::get(builder.getStringAttr("key_valid")));
  }
  if (argumentWeights) {
    if (learnedPositions) {
      argTypes.push_back(activation);
      argLocs.push_back(NameLoc::get(builder.getStringAttr("pos_embed")));
    }
    for (int64_t layer = 0; layer < config.layers; ++layer) {
      for (WeightRole role : layers.getWeightRoles()) {
        argTypes.push_back(layers.getWeightType(role));
        argLocs.push_back(NameLoc::get(builder.getStringAttr(
            "layer" + llvm::Twine(layer) + "." +
            LayerBuilder::getWeightName(role))));
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
  if (padding)
    layers.setKeyMask(entry->getArgument(1));
  auto nextArgument = entry->getArguments().drop_front(padding ? 2 : 1).begin();
  if (learnedPositions) {
    Value positions = argumentWeights ? Value(*nextArgument++)
                                      : layers.buildRandomPositions();
    x = AddOp::create(builder,
                      NameLoc::get(builder.getStringAttr("pos_embed.add")), x,
                      positions);
  }
  for (int64_t layer = 0; layer < config.layers; ++layer) {
    LayerWeights weights;
    if (config.weights == WeightSource::Random) {
      weights = layers.buildRandomWeights(layer);
    } else {
      for (WeightRole role : layers.getWeightRoles())
        weights[role] = *nextArgument++;
    }
    x = layers.buildLayer(layer, x, weights);
  }
  func::ReturnOp::create(builder, NameLoc::get(builder.getStringAttr("return")),
                         x);
  return module;
}

//===----------------------------------------------------------------------===//
// The model function
//===----------------------------------------------------------------------===//

llvm::Error mlir::cs349::gen::verifyModelConfig(const LayerConfig &config) {
  if (llvm::Error error = verifyConfig(config))
    return error;
  if (config.vocab <= 0)
    return configError("vocab must be positive, got " +
                       llvm::Twine(config.vocab));
  int64_t bytes = elementBytes(config.dtype);
  for (int64_t rows : {config.modelDim, config.seqLen})
    if (!checkedProduct({config.vocab, rows, bytes}))
      return configError("a [" + llvm::Twine(config.vocab) + ", " +
                         llvm::Twine(rows) +
                         "] tensor (the embedding table or the logits) has "
                         "more bytes than fit in int64");
  if (config.weights == WeightSource::Random &&
      *checkedProduct({config.vocab, config.modelDim, bytes}) >
          kMaxRandomWeightBytes)
    return configError("a random embedding table would take more than " +
                       llvm::Twine(kMaxRandomWeightBytes >> 30) +
                       " GiB; use --weights=args for a vocabulary this large");
  return llvm::Error::success();
}

OwningOpRef<ModuleOp>
mlir::cs349::gen::buildModelModule(MLIRContext &context,
                                   const LayerConfig &config) {
  context.loadDialect<CS349Dialect, func::FuncDialect>();
  OpBuilder builder(&context);
  OwningOpRef<ModuleOp> module = ModuleOp::create(builder.getUnknownLoc());
  builder.setInsertionPointToEnd(module->getBody());
  LayerBuilder layers(builder, config);
  Type elementType = getElementType(&context, config.dtype);
  auto tensor = [&](llvm::ArrayRef<int64_t> shape) {
    return RankedTensorType::get(shape, elementType);
  };
  auto named = [&](const llvm::Twine &name) {
    return NameLoc::get(builder.getStringAttr(name));
  };
  int64_t t = config.seqLen, d = config.modelDim, v = config.vocab;
  bool learnedPositions = config.positions == PositionKind::Learned;
  bool normBias =
      config.norm == NormKind::LayerNorm && config.bias == BiasKind::All;
  // A post-norm model (BERT) normalizes the embeddings; a pre-norm one the
  // last layer's output.
  bool post = config.normPlacement == NormPlacement::Post;
  std::string normName = post ? "embed_norm" : "final_norm";

  // The model's own weights, in argument order around the layers'.
  struct ModelWeight {
    std::string name;
    RankedTensorType type;
    bool isGain = false;
  };
  llvm::SmallVector<ModelWeight> before = {{"embed", tensor({v, d})}};
  if (learnedPositions)
    before.push_back({"pos_embed", tensor({t, d})});
  llvm::SmallVector<ModelWeight> after = {{normName, tensor({d}), true}};
  if (normBias)
    after.push_back({normName + "_bias", tensor({d})});
  if (!config.tiedEmbeddings)
    after.push_back({"lm_head", tensor({d, v})});

  RankedTensorType idsType =
      RankedTensorType::get({t}, builder.getI32Type());
  RankedTensorType logitsType = tensor({t, v});
  bool argumentWeights = config.weights == WeightSource::Arguments;
  llvm::SmallVector<Type> argTypes = {idsType};
  llvm::SmallVector<Location> argLocs = {named("ids")};
  auto addArgument = [&](Type type, Location location) {
    argTypes.push_back(type);
    argLocs.push_back(location);
  };
  bool padding = config.mask == MaskKind::Padding;
  if (padding)
    addArgument(RankedTensorType::get({t}, builder.getI1Type()),
                named("key_valid"));
  if (argumentWeights) {
    for (const ModelWeight &weight : before)
      addArgument(weight.type, named(weight.name));
    for (int64_t layer = 0; layer < config.layers; ++layer)
      for (WeightRole role : layers.getWeightRoles())
        addArgument(layers.getWeightType(role),
                    named("layer" + llvm::Twine(layer) + "." +
                          LayerBuilder::getWeightName(role)));
    for (const ModelWeight &weight : after)
      addArgument(weight.type, named(weight.name));
  }
  auto function =
      func::FuncOp::create(builder, named("model"), "model",
                           builder.getFunctionType(argTypes, {logitsType}));
  Block *entry = function.addEntryBlock();
  for (auto [argument, location] : llvm::zip(entry->getArguments(), argLocs))
    argument.setLoc(location);
  builder.setInsertionPointToStart(entry);

  // Random model weights are seeded after every layer's and the positions'.
  int64_t seedBase =
      (config.layers + 1) * static_cast<int64_t>(layers.getWeightRoles().size());
  int64_t nextSeed = 0;
  if (padding)
    layers.setKeyMask(entry->getArgument(1));
  auto nextArgument = entry->getArguments().drop_front(padding ? 2 : 1).begin();
  auto weightValue = [&](const ModelWeight &weight) -> Value {
    if (argumentWeights)
      return *nextArgument++;
    SplitMix64 rng(deriveSeed(config.seed, seedBase + nextSeed++));
    bool offsetGain = config.norm == NormKind::RmsNormPlusOne;
    DenseElementsAttr value =
        weight.type.getRank() == 1
            ? randomUniform(weight.type, rng,
                            weight.isGain && !offsetGain ? 1.0 : 0.0, 0.1)
            : randomUniform(weight.type, rng, 0.0, 1.0 / std::sqrt(double(d)));
    return ConstantOp::create(builder, named(weight.name), weight.type, value);
  };
  llvm::StringMap<Value> model;
  for (const ModelWeight &weight : before)
    model[weight.name] = weightValue(weight);

  Value x = GatherOp::create(builder, named("embed.lookup"), tensor({t, d}),
                             model["embed"], entry->getArgument(0),
                             uint64_t{0});
  if (config.scaleEmbeddings) {
    auto scalarType = tensor({});
    Value scale = ConstantOp::create(
        builder, named("embed.scale_const"), scalarType,
        cast<ElementsAttr>(DenseElementsAttr::get(
            scalarType, llvm::ArrayRef<Attribute>{builder.getFloatAttr(
                            elementType, std::sqrt(double(d)))})));
    x = MulOp::create(builder, named("embed.scale"), x, scale);
  }
  if (learnedPositions)
    x = AddOp::create(builder, named("pos_embed.add"), x, model["pos_embed"]);

  llvm::SmallVector<LayerWeights> layerWeights;
  for (int64_t layer = 0; layer < config.layers; ++layer) {
    LayerWeights weights;
    if (config.weights == WeightSource::Random) {
      weights = layers.buildRandomWeights(layer);
    } else {
      for (WeightRole role : layers.getWeightRoles())
        weights[role] = *nextArgument++;
    }
    layerWeights.push_back(weights);
  }
  // The norm's and the head's weights come after the layers' arguments, so
  // they are read now, before the layers are built.
  for (const ModelWeight &weight : after)
    model[weight.name] = weightValue(weight);
  Value normBiasValue = normBias ? model[normName + "_bias"] : Value();

  if (post)
    x = layers.buildNorm(named(normName), x, model[normName], normBiasValue);
  for (int64_t layer = 0; layer < config.layers; ++layer)
    x = layers.buildLayer(layer, x, layerWeights[layer]);
  if (!post)
    x = layers.buildNorm(named(normName), x, model[normName], normBiasValue);

  // Tied: the logits are the hidden states against every embedding row.
  Value logits =
      config.tiedEmbeddings
          ? MatmulOp::create(builder, named("lm_head"), logitsType, x,
                             model["embed"], /*transpose_b=*/true)
          : MatmulOp::create(builder, named("lm_head"), logitsType, x,
                             model["lm_head"]);
  func::ReturnOp::create(builder, named("return"), logits);
  return module;
}
