//===- GenOptions.cpp - cs349-gen's option texts to configs ---------------===//

#include "cs349/Gen/GenOptions.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"

using namespace mlir::cs349::gen;
using ::cs349::ElementKind;

namespace {
/// The options of one subcommand as given, with readers that name the option
/// in their errors.
class GivenOptions {
public:
  GivenOptions(const OptionTexts &given) : given(given) {}

  bool has(llvm::StringRef name) const { return given.count(name) != 0; }

  /// Rejects what the subcommand does not know (the tool's command line
  /// parser already does; other callers may not).
  llvm::Error onlyKnown(llvm::ArrayRef<llvm::StringRef> known) const {
    for (const auto &[name, text] : given)
      if (!llvm::is_contained(known, name))
        return llvm::createStringError("unknown option '--" + name + "'");
    return llvm::Error::success();
  }

  std::string text(llvm::StringRef name, llvm::StringRef otherwise) const {
    auto it = given.find(name);
    return it == given.end() ? otherwise.str() : it->second;
  }

  // Numbers are decimal: radix auto-detection would read "010" as eight.
  llvm::Error readInt(llvm::StringRef name, int64_t &out) const {
    auto it = given.find(name);
    if (it == given.end())
      return llvm::Error::success();
    if (llvm::StringRef(it->second).trim().getAsInteger(10, out))
      return llvm::createStringError("--" + name + " expects an integer, got '" +
                                     it->second + "'");
    return llvm::Error::success();
  }

  llvm::Error readUnsigned(llvm::StringRef name, uint64_t &out) const {
    auto it = given.find(name);
    if (it == given.end())
      return llvm::Error::success();
    if (llvm::StringRef(it->second).trim().getAsInteger(10, out))
      return llvm::createStringError(
          "--" + name + " expects a non-negative integer, got '" + it->second +
          "'");
    return llvm::Error::success();
  }

  llvm::Error readReal(llvm::StringRef name, double &out) const {
    auto it = given.find(name);
    if (it == given.end())
      return llvm::Error::success();
    if (llvm::StringRef(it->second).trim().getAsDouble(out))
      return llvm::createStringError("--" + name + " expects a number, got '" +
                                     it->second + "'");
    return llvm::Error::success();
  }

  llvm::Error readBool(llvm::StringRef name, bool &out) const {
    auto it = given.find(name);
    if (it == given.end())
      return llvm::Error::success();
    llvm::StringRef text(it->second);
    if (text.empty() || text == "true" || text == "1")
      out = true;
    else if (text == "false" || text == "0")
      out = false;
    else
      return llvm::createStringError("--" + name +
                                     " expects true or false, got '" + text +
                                     "'");
    return llvm::Error::success();
  }

  llvm::Error readDtype(ElementKind &out) const {
    auto it = given.find("dtype");
    if (it == given.end())
      return llvm::Error::success();
    std::optional<ElementKind> kind = ::cs349::parseElementKind(it->second);
    if (!kind || !::cs349::isFloatKind(*kind))
      return llvm::createStringError("unknown dtype '" + it->second +
                                     "' (expected bf16, f16 or f32)");
    out = *kind;
    return llvm::Error::success();
  }

private:
  const OptionTexts &given;
};
} // namespace

namespace {
/// Reads `--<name>` with `parse` into `out`; an unknown value names the ones
/// accepted.
template <typename Kind>
llvm::Error readChoice(const GivenOptions &given, llvm::StringRef name,
                       std::optional<Kind> (*parse)(llvm::StringRef),
                       llvm::StringRef expected, Kind &out) {
  if (!given.has(name))
    return llvm::Error::success();
  std::string text = given.text(name, "");
  std::optional<Kind> kind = parse(llvm::StringRef(text).trim());
  if (!kind)
    return llvm::createStringError("unknown --" + name + " '" + text +
                                   "' (expected " + expected + ")");
  out = *kind;
  return llvm::Error::success();
}

// causal, none or sliding=W.
llvm::Error readMask(const GivenOptions &given, LayerConfig &config) {
  if (!given.has("mask"))
    return llvm::Error::success();
  std::string text = given.text("mask", "");
  llvm::StringRef mask = llvm::StringRef(text).trim();
  int64_t window = 0;
  if (mask == "causal") {
    config.mask = MaskKind::Causal;
  } else if (mask == "none") {
    config.mask = MaskKind::None;
  } else if (mask == "padding") {
    config.mask = MaskKind::Padding;
  } else if (mask.consume_front("sliding=")) {
    if (mask.getAsInteger(10, window) || window <= 0)
      return llvm::createStringError(
          "--mask sliding=W expects a positive integer W, got '" + text + "'");
    config.mask = MaskKind::SlidingWindow;
    config.slidingWindow = window;
  } else {
    return llvm::createStringError("unknown --mask '" + text +
                                   "' (expected causal, none, sliding=W or "
                                   "padding)");
  }
  return llvm::Error::success();
}

llvm::Error readArchitecture(const GivenOptions &given, LayerConfig &config) {
  if (llvm::Error error = readChoice(given, "norm", parseNormKind,
                                     "rms, rms1p or layer", config.norm))
    return error;
  if (llvm::Error error =
          readChoice(given, "act", parseActivationKind,
                     "silu, gelu or gelu-tanh", config.activation))
    return error;
  if (llvm::Error error = readChoice(given, "mlp", parseMlpKind,
                                     "gated or plain", config.mlp))
    return error;
  if (llvm::Error error = readChoice(given, "bias", parseBiasKind,
                                     "none, qkv or all", config.bias))
    return error;
  if (llvm::Error error = readChoice(given, "pos", parsePositionKind,
                                     "rope, learned or none",
                                     config.positions))
    return error;
  if (llvm::Error error =
          readChoice(given, "norm-placement", parseNormPlacement,
                     "pre or post", config.normPlacement))
    return error;
  if (llvm::Error error = readChoice(given, "qkv", parseQkvKind,
                                     "separate or fused", config.qkv))
    return error;
  return readMask(given, config);
}
} // namespace

llvm::Expected<LayerRequest>
mlir::cs349::gen::readLayerOptions(const OptionTexts &texts) {
  GivenOptions given(texts);
  if (llvm::Error error = given.onlyKnown(
          {"preset", "d", "heads", "kv-heads", "head-dim", "ffn", "seq", "eps",
           "rope-theta", "layers", "weights", "seed", "dtype", "locations",
           "norm", "act", "mlp", "bias", "mask", "pos", "norm-placement",
           "qkv"}))
    return std::move(error);

  LayerRequest request;
  LayerConfig &config = request.config;
  if (given.has("preset")) {
    std::string name = given.text("preset", "");
    std::optional<LayerConfig> known = getPreset(name);
    if (!known)
      return llvm::createStringError(
          "unknown preset '" + name + "' (expected one of " +
          llvm::join(getPresetNames(), ", ") + ")");
    config = *known;
  } else {
    for (llvm::StringRef size : {"d", "heads", "kv-heads", "head-dim", "ffn"})
      if (!given.has(size))
        return llvm::createStringError(
            "--" + size + " is required without --preset (" +
            llvm::join(getPresetNames(), ", ") + ")");
  }
  if (!given.has("seq"))
    return llvm::createStringError("--seq is required");

  for (auto [name, field] : {std::pair<llvm::StringRef, int64_t *>{
                                 "d", &config.modelDim},
                             {"heads", &config.heads},
                             {"kv-heads", &config.kvHeads},
                             {"head-dim", &config.headDim},
                             {"ffn", &config.ffnDim},
                             {"seq", &config.seqLen},
                             {"layers", &config.layers}})
    if (llvm::Error error = given.readInt(name, *field))
      return std::move(error);
  if (llvm::Error error = given.readReal("eps", config.epsilon))
    return std::move(error);
  if (llvm::Error error = given.readReal("rope-theta", config.ropeTheta))
    return std::move(error);
  if (llvm::Error error = given.readDtype(config.dtype))
    return std::move(error);
  if (llvm::Error error = readArchitecture(given, config))
    return std::move(error);

  std::string weights = given.text("weights", "args");
  if (weights == "random")
    config.weights = WeightSource::Random;
  else if (weights != "args")
    return llvm::createStringError("unknown --weights '" + weights +
                                   "' (expected args or random)");
  if (given.has("seed") && config.weights != WeightSource::Random)
    return llvm::createStringError("--seed needs --weights=random");
  if (llvm::Error error = given.readUnsigned("seed", config.seed))
    return std::move(error);

  if (llvm::Error error = given.readBool("locations", request.locations))
    return std::move(error);
  if (llvm::Error error = verifyConfig(config))
    return std::move(error);
  return request;
}

llvm::Expected<LayerRequest>
mlir::cs349::gen::readModelOptions(const OptionTexts &texts) {
  OptionTexts layerTexts = texts;
  layerTexts.erase("vocab");
  llvm::Expected<LayerRequest> request = readLayerOptions(layerTexts);
  if (!request)
    return request.takeError();
  GivenOptions given(texts);
  if (!given.has("vocab") && !given.has("preset"))
    return llvm::createStringError(
        "--vocab is required without --preset (" +
        llvm::join(getPresetNames(), ", ") + ")");
  if (llvm::Error error = given.readInt("vocab", request->config.vocab))
    return std::move(error);
  if (llvm::Error error = verifyModelConfig(request->config))
    return std::move(error);
  return request;
}

llvm::Expected<BranchesRequest>
mlir::cs349::gen::readBranchesOptions(const OptionTexts &texts) {
  GivenOptions given(texts);
  if (llvm::Error error = given.onlyKnown(
          {"k", "order", "rows", "d", "width", "dtype", "locations"}))
    return std::move(error);

  BranchesRequest request;
  BranchesConfig &config = request.config;
  for (auto [name, field] : {std::pair<llvm::StringRef, int64_t *>{
                                 "k", &config.branches},
                             {"rows", &config.rows},
                             {"d", &config.modelDim},
                             {"width", &config.width}})
    if (llvm::Error error = given.readInt(name, *field))
      return std::move(error);
  if (llvm::Error error = given.readDtype(config.dtype))
    return std::move(error);
  std::string order = given.text("order", "breadth");
  std::optional<BranchOrder> parsedOrder = parseBranchOrder(order);
  if (!parsedOrder)
    return llvm::createStringError("unknown --order '" + order +
                                   "' (expected breadth or depth)");
  config.order = *parsedOrder;
  if (llvm::Error error = given.readBool("locations", request.locations))
    return std::move(error);
  if (llvm::Error error = verifyConfig(config))
    return std::move(error);
  return request;
}

namespace {
/// --ops N or MIN:MAX of the random generators; the range is checked with
/// the rest of their configuration.
llvm::Error readStepRange(const GivenOptions &given, int64_t &minSteps,
                          int64_t &maxSteps) {
  if (!given.has("ops"))
    return llvm::Error::success();
  std::string ops = given.text("ops", "");
  auto [minText, maxText] = llvm::StringRef(ops).split(':');
  if (!llvm::StringRef(ops).contains(':'))
    maxText = minText;
  if (minText.trim().getAsInteger(10, minSteps) ||
      maxText.trim().getAsInteger(10, maxSteps))
    return llvm::createStringError("--ops expects N or MIN:MAX, got '" + ops +
                                   "'");
  return llvm::Error::success();
}

/// --without's comma-separated step names.
void readWithout(const GivenOptions &given,
                 llvm::SmallVectorImpl<std::string> &without) {
  llvm::SmallVector<llvm::StringRef> names;
  std::string text = given.text("without", "");
  llvm::StringRef(text).split(names, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef name : names)
    without.push_back(name.trim().str());
}
} // namespace

llvm::Expected<RandomProgramConfig>
mlir::cs349::gen::readRandomOptions(const OptionTexts &texts) {
  GivenOptions given(texts);
  if (llvm::Error error = given.onlyKnown({"seed", "ops", "dtype", "without"}))
    return std::move(error);

  RandomProgramConfig config;
  if (llvm::Error error = given.readUnsigned("seed", config.seed))
    return std::move(error);

  if (llvm::Error error =
          readStepRange(given, config.minSteps, config.maxSteps))
    return std::move(error);
  if (llvm::Error error = given.readDtype(config.dtype))
    return std::move(error);

  readWithout(given, config.without);

  if (llvm::Error error = verifyConfig(config))
    return std::move(error);
  return config;
}

llvm::Expected<RandomTosaProgramConfig>
mlir::cs349::gen::readRandomImportOptions(const OptionTexts &texts) {
  GivenOptions given(texts);
  if (llvm::Error error =
          given.onlyKnown({"seed", "ops", "form", "without", "dynamic"}))
    return std::move(error);

  RandomTosaProgramConfig config;
  if (llvm::Error error = given.readUnsigned("seed", config.seed))
    return std::move(error);
  if (llvm::Error error =
          readStepRange(given, config.minSteps, config.maxSteps))
    return std::move(error);
  std::string form = given.text("form", "tosa");
  if (form == "tosa")
    config.form = ImportForm::Tosa;
  else if (form == "linalg")
    config.form = ImportForm::Linalg;
  else
    return llvm::createStringError("unknown --form '" + form +
                                   "' (expected tosa or linalg)");

  readWithout(given, config.without);
  if (llvm::Error error = given.readBool("dynamic", config.dynamic))
    return std::move(error);
  // Upstream's TOSA-to-linalg lowering fails on such programs (a reduction
  // over dynamic dims builds an expand_shape without its output shape; a
  // transpose of a constant leaves a cast it cannot materialize).
  if (config.dynamic && config.form == ImportForm::Linalg)
    return llvm::createStringError(
        "--dynamic is for --form tosa: upstream's TOSA-to-linalg lowering "
        "fails on programs whose dims are all dynamic");

  if (llvm::Error error = verifyConfig(config))
    return std::move(error);
  return config;
}
