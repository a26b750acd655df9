//===- FoldNormWeight.cpp - (n·γ)@W → n@(diag(γ)·W) -----------------------===//
//
// An RMSNorm gain γ multiplies the [T, d] activation although it only scales
// the rows of the [d, N] weights that follow: folding it into them removes an
// activation-sized multiply (and a written result) from every layer. The
// weight-only product diag(γ)·W is not an activation, so it must not stay in
// the layer:
//
//  * with constant weights it is computed here, element by element with the
//    element type's rounding (APFloat), without going through the folders:
//    weights are far larger than the folders' size limit, which exists to
//    keep [H, T, T] tensors from being built by accident;
//  * with weights as function arguments it moves into a new public function
//    `@<layer>_init` (tagged `cs349.initializer`) that a runtime calls once at
//    load time, and the layer takes the folded weights as arguments instead.
//
//===----------------------------------------------------------------------===//

#include "cs349/Dialect/CS349/IR/CS349Folds.h"
#include "cs349/Dialect/CS349/IR/CS349Ops.h"
#include "cs349/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Threading.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/Debug.h"

#include <cstring>
#include <numeric>

#define DEBUG_TYPE "fold-norm-weight"

namespace mlir::cs349 {
#define GEN_PASS_DEF_FOLDNORMWEIGHT
#include "cs349/Transforms/Passes.h.inc"
} // namespace mlir::cs349

using namespace mlir;
using namespace mlir::cs349;

namespace {

// Argument and result attributes are set as whole dictionaries (see below),
// which the dialect's attribute helpers do not build: they take names.
constexpr llvm::StringLiteral kFoldedFromAttr =
    CS349Dialect::FoldedFromAttrHelper::getNameStr();
constexpr llvm::StringLiteral kInitResultAttr =
    CS349Dialect::InitResultAttrHelper::getNameStr();
constexpr llvm::StringLiteral kLayerArgAttr =
    CS349Dialect::LayerArgAttrHelper::getNameStr();

/// A product n·γ (or a LayerNorm's n·γ + β) that every reader takes as the
/// left operand of a matmul.
struct NormSite {
  /// The cs349.mul (n·γ) or the cs349.rms_norm whose gain is γ.
  Operation *op;
  /// n, for a cs349.mul; the rms_norm itself is kept with a unit gain.
  Value normalized;
  Value gamma;
  /// The reshape that gave γ leading unit dims, if the site reads one.
  Operation *gammaView = nullptr;
  SmallVector<MatmulOp> matmuls;
  /// LayerNorm's shift: the cs349.add of n·γ and β that the matmuls read.
  Operation *shift = nullptr;
  Value beta;
};

/// β·W, the bias a shift β before a matmul by W becomes (plus the bias the
/// matmul already adds, if any): (n·γ + β)@W = n@(diag(γ)·W) + β@W.
struct BiasKey {
  Value beta, weight;
  bool transposed;
  /// The [N] bias already added to the matmul's result, or null.
  Value bias;
  bool operator==(const BiasKey &other) const {
    return beta == other.beta && weight == other.weight &&
           transposed == other.transposed && bias == other.bias;
  }
};

/// γ to fold into W; W is read as [..., N, d] with transpose_b.
struct FoldKey {
  Value gamma, weight;
  bool transposed;
  bool operator==(const FoldKey &other) const {
    return gamma == other.gamma && weight == other.weight &&
           transposed == other.transposed;
  }
};
} // namespace

// The keys index maps: a layer stack has thousands of folds, and a linear
// search per fold made the pass quadratic in the number of layers.
template <> struct llvm::DenseMapInfo<BiasKey> {
  using Tuple = std::tuple<Value, Value, unsigned, Value>;
  static Tuple tuple(const BiasKey &key) {
    return {key.beta, key.weight, key.transposed, key.bias};
  }
  static BiasKey getEmptyKey() {
    Value empty = DenseMapInfo<Value>::getEmptyKey();
    return {empty, empty, false, empty};
  }
  static BiasKey getTombstoneKey() {
    Value tombstone = DenseMapInfo<Value>::getTombstoneKey();
    return {tombstone, tombstone, false, tombstone};
  }
  static unsigned getHashValue(const BiasKey &key) {
    return DenseMapInfo<Tuple>::getHashValue(tuple(key));
  }
  static bool isEqual(const BiasKey &a, const BiasKey &b) { return a == b; }
};

template <> struct llvm::DenseMapInfo<FoldKey> {
  using Tuple = std::tuple<Value, Value, unsigned>;
  static Tuple tuple(const FoldKey &key) {
    return {key.gamma, key.weight, key.transposed};
  }
  static FoldKey getEmptyKey() {
    Value empty = DenseMapInfo<Value>::getEmptyKey();
    return {empty, empty, false};
  }
  static FoldKey getTombstoneKey() {
    Value tombstone = DenseMapInfo<Value>::getTombstoneKey();
    return {tombstone, tombstone, false};
  }
  static unsigned getHashValue(const FoldKey &key) {
    return DenseMapInfo<Tuple>::getHashValue(tuple(key));
  }
  static bool isEqual(const FoldKey &a, const FoldKey &b) { return a == b; }
};

namespace {

RankedTensorType tensorType(Value value) {
  return cast<RankedTensorType>(value.getType());
}

DenseElementsAttr denseConstant(Value value) {
  auto constant = value.getDefiningOp<ConstantOp>();
  return constant ? dyn_cast<DenseElementsAttr>(constant.getValue())
                  : DenseElementsAttr();
}

/// Weights are what the layer is given, not what it computes: arguments of
/// the function or constants.
bool isWeight(Value value, func::FuncOp func) {
  if (auto argument = dyn_cast<BlockArgument>(value))
    return argument.getOwner() == &func.getBody().front();
  return denseConstant(value) != nullptr;
}

/// The location of diag(γ)·W: both origins, named after W. It takes W's place
/// in the signature, and one γ scales several weights, so W's step name is
/// the one that tells the folded weights (and their memory-report rows)
/// apart.
Location foldedWeightLoc(const FoldKey &key) {
  MLIRContext *context = key.gamma.getContext();
  Location origin =
      FusedLoc::get(context, {key.gamma.getLoc(), key.weight.getLoc()});
  if (auto name = dyn_cast<NameLoc>(key.weight.getLoc()))
    return NameLoc::get(name.getName(), origin);
  return origin;
}

/// A name for the documentation attributes: the NameLoc the generator puts
/// on arguments and weight constants, else the argument number.
std::string describe(Value value) {
  if (auto name = dyn_cast<NameLoc>(value.getLoc()))
    return name.getName().str();
  if (auto argument = dyn_cast<BlockArgument>(value))
    return "%arg" + std::to_string(argument.getArgNumber());
  return "constant";
}

/// The weight a matmul multiplies by and whether it is read as [N, d]:
/// its right operand, or a weight seen through a transpose of the last two
/// dims (front ends transpose a [N, d] linear weight before a plain matmul).
std::pair<Value, bool> weightOperand(MatmulOp matmul) {
  Value rhs = matmul.getRhs();
  if (auto transpose = rhs.getDefiningOp<TransposeOp>()) {
    ArrayRef<int64_t> perm = transpose.getPerm();
    int64_t rank = perm.size();
    bool swapsLastTwo = rank >= 2 && perm[rank - 1] == rank - 2 &&
                        perm[rank - 2] == rank - 1;
    for (int64_t d = 0; d + 2 < rank; ++d)
      swapsLastTwo &= perm[d] == d;
    if (swapsLastTwo)
      return {transpose.getInput(), !matmul.getTransposeB()};
  }
  return {rhs, matmul.getTransposeB()};
}

/// γ as a rank-1 [d] value: itself, or the [d] that a reshape gave leading
/// unit dims ([1, 1, d], as front ends broadcast it by hand).
Value rankOneGain(Value gamma) {
  RankedTensorType type = tensorType(gamma);
  if (type.getRank() == 1)
    return gamma;
  auto reshape = gamma.getDefiningOp<ReshapeOp>();
  if (!reshape || tensorType(reshape.getInput()).getRank() != 1 ||
      llvm::any_of(type.getShape().drop_back(),
                   [](int64_t size) { return size != 1; }))
    return Value();
  return reshape.getInput();
}

std::optional<NormSite> matchSite(Operation *op, func::FuncOp func) {
  NormSite site{op, Value(), Value(), nullptr, {}};
  if (auto norm = dyn_cast<RmsNormOp>(op)) {
    site.gamma = norm.getGain();
  } else if (auto mul = dyn_cast<MulOp>(op)) {
    for (auto [n, gamma] : {std::pair(mul.getLhs(), mul.getRhs()),
                            std::pair(mul.getRhs(), mul.getLhs())}) {
      RankedTensorType nType = tensorType(n);
      Value gain = rankOneGain(gamma);
      if (nType == mul.getType() && nType.getRank() >= 2 && gain &&
          tensorType(gain).getDimSize(0) == nType.getShape().back()) {
        site.normalized = n;
        site.gamma = gain;
        if (gain != gamma)
          site.gammaView = gamma.getDefiningOp();
        break;
      }
    }
    if (!site.gamma) {
      LLVM_DEBUG({
        if (llvm::any_of(mul->getUsers(), llvm::IsaPred<MatmulOp>))
          llvm::dbgs() << "fold-norm-weight: " << op->getLoc()
                       << ": no rank-1 gain along the last dim\n";
      });
      return std::nullopt;
    }
  } else {
    return std::nullopt;
  }

  auto skip = [&](const char *why) -> std::optional<NormSite> {
    LLVM_DEBUG(llvm::dbgs()
               << "fold-norm-weight: " << op->getLoc() << ": " << why << "\n");
    return std::nullopt;
  };
  if (std::optional<double> splat = getSplatValue(denseConstant(site.gamma));
      splat && *splat == 1.0)
    return skip("the gain is already 1");
  if (!isWeight(site.gamma, func))
    return skip("the gain is computed, not a weight");
  Value product = op->getResult(0);
  if (product.use_empty())
    return skip("n·γ is not read");
  // LayerNorm's n·γ + β: β moves into the matmuls' biases, so the matmuls
  // may read the sum, as long as nothing else reads n·γ.
  if (isa<MulOp>(op) && product.hasOneUse()) {
    if (auto add = dyn_cast<AddOp>(*product.getUsers().begin())) {
      Value beta = add.getLhs() == product ? add.getRhs() : add.getLhs();
      RankedTensorType bType = tensorType(beta);
      if (beta != product && add.getType() == product.getType() &&
          bType.getRank() == 1 &&
          bType.getDimSize(0) == tensorType(product).getShape().back()) {
        if (!isWeight(beta, func))
          return skip("the shift β is computed, not a weight");
        site.shift = add;
        site.beta = beta;
        product = add.getResult();
      }
    }
  }
  for (OpOperand &use : product.getUses()) {
    auto matmul = dyn_cast<MatmulOp>(use.getOwner());
    if (!matmul || use.getOperandNumber() != 0 || matmul.getRhs() == product)
      return skip("n·γ is read by something else than a matmul's left "
                  "operand");
    if (!isWeight(weightOperand(matmul).first, func))
      return skip("a matmul reading n·γ multiplies it by a computed tensor, "
                  "not a weight");
    if (site.shift && tensorType(matmul.getRhs()).getRank() != 2)
      return skip("β would become a bias per batch of a batched weight");
    if (!llvm::is_contained(site.matmuls, matmul))
      site.matmuls.push_back(matmul);
  }
  // Use lists are in no particular order; keep the program's, so that the
  // folded weights appear in the order of their matmuls.
  auto blockIndex = [](Operation *op) {
    return std::distance(op->getParentRegion()->begin(),
                         Region::iterator(op->getBlock()));
  };
  llvm::sort(site.matmuls, [&](MatmulOp a, MatmulOp b) {
    if (a->getBlock() != b->getBlock())
      return blockIndex(a) < blockIndex(b);
    return a->isBeforeInBlock(b);
  });
  return site;
}

template <typename Word> Word loadWord(const char *data) {
  Word word;
  std::memcpy(&word, data, sizeof(Word));
  return word;
}

template <typename Word> void storeWord(char *data, Word word) {
  std::memcpy(data, &word, sizeof(Word));
}

/// diag(γ)·W evaluated in W's element type: every product rounded once, to
/// nearest-even, as the multiply would round it at run time. Reads and writes
/// W's raw storage so that a 58M-element weight never becomes a vector of
/// APFloats or doubles.
template <typename Word>
DenseElementsAttr scaleRows(MLIRContext *context, DenseElementsAttr gamma,
                            DenseElementsAttr weight, bool transposed) {
  auto type = cast<RankedTensorType>(weight.getType());
  const llvm::fltSemantics &semantics =
      cast<FloatType>(type.getElementType()).getFloatSemantics();
  ArrayRef<int64_t> shape = type.getShape();
  // Element i of W sits in row (i / stride) % depth of the contraction dim.
  int64_t depth = transposed ? shape.back() : shape.end()[-2];
  int64_t stride = transposed ? 1 : shape.back();
  SmallVector<APFloat> gains(gamma.getValues<APFloat>());

  ArrayRef<char> raw = weight.getRawData();
  int64_t count = type.getNumElements();
  std::vector<char> folded(count * sizeof(Word));
  bool splat = weight.isSplat();
  // Software floats cost ~50 ns an element: a Llama-8B layer folds 143M.
  constexpr int64_t kChunk = 1 << 16;
  parallelFor(context, 0, (count + kChunk - 1) / kChunk, [&](size_t chunk) {
    int64_t end = std::min<int64_t>(count, (chunk + 1) * kChunk);
    for (int64_t i = chunk * kChunk; i < end; ++i) {
      Word bits = loadWord<Word>(raw.data() + (splat ? 0 : i) * sizeof(Word));
      APFloat value(semantics, APInt(sizeof(Word) * 8, bits));
      value.multiply(gains[(i / stride) % depth], APFloat::rmNearestTiesToEven);
      storeWord<Word>(folded.data() + i * sizeof(Word),
                      static_cast<Word>(value.bitcastToAPInt().getZExtValue()));
    }
  });
  return DenseElementsAttr::getFromRawBuffer(type, folded);
}

DenseElementsAttr foldConstants(DenseElementsAttr gamma,
                                DenseElementsAttr weight, bool transposed) {
  MLIRContext *context = weight.getContext();
  switch (weight.getElementType().getIntOrFloatBitWidth()) {
  case 16:
    return scaleRows<uint16_t>(context, gamma, weight, transposed);
  case 32:
    return scaleRows<uint32_t>(context, gamma, weight, transposed);
  default:
    return {};
  }
}

/// The bias of a matmul's result: the [N] weight of the one cs349.add that
/// reads it, or null.
Value existingBias(MatmulOp matmul, func::FuncOp func) {
  if (!matmul->hasOneUse())
    return {};
  auto add = dyn_cast<AddOp>(*matmul->getUsers().begin());
  if (!add || add.getType() != matmul.getType())
    return {};
  Value bias = add.getLhs() == matmul.getResult() ? add.getRhs() : add.getLhs();
  RankedTensorType type = tensorType(bias);
  if (bias == matmul.getResult() || type.getRank() != 1 ||
      type.getDimSize(0) != matmul.getType().getShape().back() ||
      !isWeight(bias, func))
    return {};
  return bias;
}

/// β·W (+ b) evaluated in double and rounded once to the element type. W is
/// [d, N], or [N, d] when transposed.
DenseElementsAttr foldBias(DenseElementsAttr beta, DenseElementsAttr weight,
                           bool transposed, DenseElementsAttr bias) {
  auto type = cast<RankedTensorType>(weight.getType());
  int64_t n = transposed ? type.getDimSize(0) : type.getDimSize(1);
  SmallVector<double> shifts;
  for (APFloat value : beta.getValues<APFloat>())
    shifts.push_back(value.convertToDouble());
  std::vector<double> sums(n, 0.0);
  int64_t i = 0;
  for (APFloat value : weight.getValues<APFloat>()) {
    int64_t row = i / type.getDimSize(1), column = i % type.getDimSize(1);
    int64_t k = transposed ? column : row, j = transposed ? row : column;
    sums[j] += shifts[k] * value.convertToDouble();
    ++i;
  }
  if (bias) {
    int64_t j = 0;
    for (APFloat value : bias.getValues<APFloat>())
      sums[j++] += value.convertToDouble();
  }
  return makeElements(
      RankedTensorType::get({n}, type.getElementType()), sums);
}

/// What the folds of all functions share: the module's symbol table, and
/// which symbols are referenced (found by one walk of the module, when a
/// function first needs to know; asking per function would walk the module
/// once per function).  The folds add references only to the initializers
/// they create, so the first answer holds for the functions folded later.
class ModuleSymbols {
public:
  explicit ModuleSymbols(ModuleOp module) : module(module), table(module) {}

  /// Whether nothing in the module may refer to `func`.
  bool knownUnused(func::FuncOp func) {
    if (!referenced) {
      referenced.emplace();
      std::optional<SymbolTable::UseRange> uses =
          SymbolTable::getSymbolUses(&module.getBodyRegion());
      if (!uses)
        anyMayRefer = true;
      else
        for (const SymbolTable::SymbolUse &use : *uses)
          referenced->insert(use.getSymbolRef().getRootReference());
    }
    return !anyMayRefer && !referenced->contains(func.getSymNameAttr());
  }

  /// Inserts `op` into the module after `after`, renamed if its name is
  /// taken.
  void insertAfter(Operation *op, Operation *after) {
    table.insert(op, std::next(Block::iterator(after)));
  }

private:
  ModuleOp module;
  SymbolTable table;
  std::optional<llvm::DenseSet<StringAttr>> referenced;
  bool anyMayRefer = false; // an op whose references cannot be known
};

/// Rewrites the norm sites of one function.
class FunctionFolder {
public:
  FunctionFolder(func::FuncOp func, ModuleSymbols &symbols)
      : func(func), symbols(symbols), builder(func.getContext()) {}

  void run() {
    SmallVector<NormSite> sites;
    for (Block &block : func.getBody())
      for (Operation &op : block)
        if (std::optional<NormSite> site = matchSite(&op, func))
          sites.push_back(std::move(*site));
    if (sites.empty())
      return;

    // Arguments can only change when no caller passes the old ones.
    bool mayChangeSignature = symbols.knownUnused(func);
    bool warned = false;
    SmallVector<NormSite> kept;
    for (NormSite &site : sites) {
      bool needsArguments = llvm::any_of(site.matmuls, [&](MatmulOp matmul) {
        return !isConstantFold(keyOf(site, matmul)) ||
               (site.shift && !isConstantFold(biasKeyOf(site, matmul)));
      });
      if (needsArguments && !mayChangeSignature) {
        if (!warned)
          func.emitWarning("not folding norm gains into the weight arguments "
                           "of a function that has callers: they would have "
                           "to pass the folded weights");
        warned = true;
        continue;
      }
      kept.push_back(std::move(site));
    }

    llvm::SetVector<FoldKey> argumentKeys;
    llvm::SetVector<BiasKey> argumentBiasKeys;
    for (NormSite &site : kept)
      for (MatmulOp matmul : site.matmuls) {
        if (FoldKey key = keyOf(site, matmul); !isConstantFold(key))
          argumentKeys.insert(key);
        if (!site.shift)
          continue;
        if (BiasKey key = biasKeyOf(site, matmul); !isConstantFold(key))
          argumentBiasKeys.insert(key);
      }
    // Where every argument stood before the signature changes: arguments
    // that pass through unchanged record it too, so that a caller (or
    // cs349-run) can map the new signature back onto the original one.
    llvm::DenseMap<BlockArgument, int64_t> originalPosition;
    if (!argumentKeys.empty() || !argumentBiasKeys.empty()) {
      for (BlockArgument argument : func.getArguments())
        originalPosition[argument] = argument.getArgNumber();
      buildInitializer(argumentKeys.getArrayRef(),
                       argumentBiasKeys.getArrayRef());
    }

    for (NormSite &site : kept)
      rewrite(site);
    eraseDeadWeights();
    if (!originalPosition.empty()) {
      recordPassThroughPositions(originalPosition);
      placeFoldedArguments(originalPosition);
    }
  }

private:
  static FoldKey keyOf(const NormSite &site, MatmulOp matmul) {
    auto [weight, transposed] = weightOperand(matmul);
    return {site.gamma, weight, transposed};
  }

  static bool isConstantFold(const FoldKey &key) {
    return denseConstant(key.gamma) && denseConstant(key.weight);
  }

  BiasKey biasKeyOf(const NormSite &site, MatmulOp matmul) const {
    return {site.beta, matmul.getRhs(), matmul.getTransposeB(),
            existingBias(matmul, func)};
  }

  static bool isConstantFold(const BiasKey &key) {
    return denseConstant(key.beta) && denseConstant(key.weight) &&
           (!key.bias || denseConstant(key.bias));
  }

  /// The bias of `key`, as a constant (created on first use) or as the layer
  /// argument that buildInitializer added.
  Value foldedBias(const BiasKey &key) {
    if (Value known = foldedBiases.lookup(key))
      return known;
    DenseElementsAttr value =
        foldBias(denseConstant(key.beta), denseConstant(key.weight),
                 key.transposed,
                 key.bias ? denseConstant(key.bias) : DenseElementsAttr());
    builder.setInsertionPointToStart(&func.getBody().front());
    Value constant = ConstantOp::create(builder, biasLoc(key), value.getType(),
                                        value);
    foldedBiases[key] = constant;
    return constant;
  }

  static Location biasLoc(const BiasKey &key) {
    MLIRContext *context = key.beta.getContext();
    SmallVector<Location> origins = {key.beta.getLoc(), key.weight.getLoc()};
    if (key.bias)
      origins.push_back(key.bias.getLoc());
    Location origin = FusedLoc::get(context, origins);
    Value named = key.bias ? key.bias : key.weight;
    if (auto name = dyn_cast<NameLoc>(named.getLoc()))
      return NameLoc::get(
          StringAttr::get(context, name.getName().str() + (key.bias ? "" : "_bias")),
          origin);
    return origin;
  }

  /// The folded weight of `key`, as a constant (created on first use) or as
  /// the layer argument that buildInitializer added.
  Value foldedWeight(const FoldKey &key) {
    if (Value known = folded.lookup(key))
      return known;
    DenseElementsAttr value = foldConstants(
        denseConstant(key.gamma), denseConstant(key.weight), key.transposed);
    if (!value)
      return {};
    builder.setInsertionPointToStart(&func.getBody().front());
    Value constant = ConstantOp::create(builder, foldedWeightLoc(key),
                                        value.getType(), value);
    folded[key] = constant;
    return constant;
  }

  void rewrite(NormSite &site) {
    // All folded weights first: a site is rewritten entirely or not at all.
    SmallVector<Value> weights, biases;
    for (MatmulOp matmul : site.matmuls) {
      Value weight = foldedWeight(keyOf(site, matmul));
      if (!weight) {
        LLVM_DEBUG(llvm::dbgs() << "fold-norm-weight: " << site.op->getLoc()
                                << ": cannot evaluate this element type\n");
        return;
      }
      weights.push_back(weight);
    }
    if (site.shift) {
      for (MatmulOp matmul : site.matmuls)
        biases.push_back(foldedBias(biasKeyOf(site, matmul)));
      noteWeight(site.beta);
      for (auto [matmul, bias] : llvm::zip(site.matmuls, biases)) {
        if (Value old = existingBias(matmul, func)) {
          // The matmul's own bias add takes β·W + b in place of b.
          noteWeight(old);
          auto add = cast<AddOp>(*matmul->getUsers().begin());
          (add.getLhs() == old ? add.getLhsMutable() : add.getRhsMutable())
              .assign(bias);
          continue;
        }
        builder.setInsertionPointAfter(matmul);
        auto add = AddOp::create(builder, biasLoc(biasKeyOf(site, matmul)),
                                 matmul.getResult(), bias);
        matmul.getResult().replaceAllUsesExcept(add.getResult(), add);
      }
    }
    noteWeight(site.gamma);
    Value input = site.normalized;
    if (auto norm = dyn_cast<RmsNormOp>(site.op)) {
      builder.setInsertionPoint(norm);
      RankedTensorType gainType = tensorType(norm.getGain());
      auto one = DenseElementsAttr::get(
          gainType, builder.getFloatAttr(gainType.getElementType(), 1.0));
      norm.getGainMutable().assign(
          ConstantOp::create(builder, norm.getLoc(), gainType, one));
      input = norm.getResult();
    }
    // n now stands where n·γ stood: when only n·γ read it, it takes over
    // n·γ's location, so the norm's output keeps the norm's step name
    // ("layer0.attn.norm", not the "layer0.attn.norm.normalized" that
    // --decompose gives the intermediate).
    Operation *renamed = nullptr;
    if (isa<MulOp>(site.op) && input.getDefiningOp() && input.hasOneUse())
      renamed = input.getDefiningOp();
    llvm::SetVector<Operation *> views;
    for (auto [matmul, weight] : llvm::zip(site.matmuls, weights)) {
      auto [original, transposed] = weightOperand(matmul);
      noteWeight(original);
      if (matmul.getRhs() != original)
        views.insert(matmul.getRhs().getDefiningOp());
      matmul.getLhsMutable().assign(input);
      matmul.getRhsMutable().assign(weight);
      matmul.setTransposeB(transposed);
    }
    if (site.shift && site.shift->use_empty())
      site.shift->erase();
    if (site.op->use_empty()) {
      if (renamed)
        renamed->setLoc(site.op->getLoc());
      site.op->erase();
    }
    // The transposes and reshapes that showed W and γ to the site are dead
    // now, and would keep the original weights in the signature.
    if (site.gammaView)
      views.insert(site.gammaView);
    for (Operation *view : views)
      if (view->use_empty())
        view->erase();
  }

  void noteWeight(Value weight) { touchedWeights.insert(weight); }

  /// Builds `@<layer>_init` computing the folded weights of `keys` and
  /// gives the layer one argument per folded weight, each in place of the
  /// weight it replaces.
  void buildInitializer(ArrayRef<FoldKey> keys, ArrayRef<BiasKey> biasKeys) {
    MLIRContext *context = func.getContext();
    Block &entry = func.getBody().front();

    llvm::SetVector<BlockArgument> inputs;
    for (const FoldKey &key : keys)
      for (Value value : {key.gamma, key.weight})
        if (auto argument = dyn_cast<BlockArgument>(value))
          inputs.insert(argument);
    for (const BiasKey &key : biasKeys)
      for (Value value : {key.beta, key.weight, key.bias})
        if (auto argument = dyn_cast_or_null<BlockArgument>(value))
          inputs.insert(argument);
    SmallVector<BlockArgument> sortedInputs(inputs.begin(), inputs.end());
    llvm::sort(sortedInputs, [](BlockArgument a, BlockArgument b) {
      return a.getArgNumber() < b.getArgNumber();
    });

    SmallVector<Type> inputTypes, resultTypes;
    for (BlockArgument input : sortedInputs)
      inputTypes.push_back(input.getType());
    for (const FoldKey &key : keys)
      resultTypes.push_back(key.weight.getType());
    for (const BiasKey &key : biasKeys) {
      RankedTensorType weightType = tensorType(key.weight);
      resultTypes.push_back(RankedTensorType::get(
          {weightType.getDimSize(key.transposed ? 0 : 1)},
          weightType.getElementType()));
    }
    auto init = func::FuncOp::create(
        func.getLoc(), (func.getName() + "_init").str(),
        FunctionType::get(context, inputTypes, resultTypes));
    symbols.insertAfter(init, func);
    CS349Dialect::InitializerAttrHelper(context).setAttr(init,
                                                         UnitAttr::get(context));
    CS349Dialect::InitializedByAttrHelper(context).setAttr(
        func, FlatSymbolRefAttr::get(init));

    Block *body = init.addEntryBlock();
    IRMapping mapping;
    // Argument and result attributes are set all at once: setArgAttr rebuilds
    // the whole attribute array per call, quadratic in the number of layers.
    SmallVector<DictionaryAttr> argAttrs;
    for (auto [index, input] : llvm::enumerate(sortedInputs)) {
      body->getArgument(index).setLoc(input.getLoc());
      mapping.map(input, body->getArgument(index));
      argAttrs.push_back(DictionaryAttr::get(
          context, {builder.getNamedAttr(
                       kLayerArgAttr,
                       builder.getI64IntegerAttr(input.getArgNumber()))}));
    }
    init.setAllArgAttrs(argAttrs);
    builder.setInsertionPointToStart(body);
    SmallVector<Value> results;
    SmallVector<Attribute> provenance;
    auto lookup = [&](Value value) {
      if (!mapping.contains(value))
        mapping.map(value,
                    builder.clone(*value.getDefiningOp())->getResult(0));
      return mapping.lookup(value);
    };
    // A [d] gain or shift as a [d, 1] column or a [1, d] row, built once
    // however many weights it scales (--optimize runs no cse after this
    // pass); a constant becomes a constant (the reshape's fold hook, as no
    // canonicalizer runs after it either).
    llvm::DenseMap<std::pair<Value, Type>, Value> matrices;
    auto asMatrix = [&](Value vector, Location loc, bool column) {
      RankedTensorType type = tensorType(vector);
      int64_t d = type.getDimSize(0);
      auto matrixType = RankedTensorType::get(
          column ? ArrayRef<int64_t>{d, 1} : ArrayRef<int64_t>{1, d},
          type.getElementType());
      Value &matrix = matrices[{vector, matrixType}];
      if (!matrix)
        matrix = builder.createOrFold<ReshapeOp>(loc, matrixType, vector);
      return matrix;
    };
    for (const FoldKey &key : keys) {
      Location loc = foldedWeightLoc(key);
      Value gamma = lookup(key.gamma), weight = lookup(key.weight);
      // γ scales the rows of [d, N] (a [d, 1] column broadcast) or the
      // columns of a transposed [N, d] (a [d] row broadcast).
      if (!key.transposed)
        gamma = asMatrix(gamma, key.gamma.getLoc(), /*column=*/true);
      results.push_back(MulOp::create(builder, loc, weight, gamma));
      provenance.push_back(
          builder.getStrArrayAttr({describe(key.gamma), describe(key.weight)}));
    }
    // β·W as a [1, d] by [d, N] matmul (plus b): the initializer computes
    // it with the ops the layer would, once.
    for (auto [index, key] : llvm::enumerate(biasKeys)) {
      Location loc = biasLoc(key);
      Value beta = lookup(key.beta), weight = lookup(key.weight);
      auto resultType =
          cast<RankedTensorType>(resultTypes[keys.size() + index]);
      Value row = asMatrix(beta, key.beta.getLoc(), /*column=*/false);
      Value product = MatmulOp::create(
          builder, loc,
          RankedTensorType::get({1, resultType.getDimSize(0)},
                                resultType.getElementType()),
          row, weight, key.transposed);
      Value bias = ReshapeOp::create(builder, loc, resultType, product);
      if (key.bias)
        bias = AddOp::create(builder, loc, bias, lookup(key.bias));
      results.push_back(bias);
      SmallVector<StringRef> names;
      std::string betaName = describe(key.beta), weightName =
                                                    describe(key.weight),
                  biasName = key.bias ? describe(key.bias) : "";
      names.push_back(betaName);
      names.push_back(weightName);
      if (key.bias)
        names.push_back(biasName);
      provenance.push_back(builder.getStrArrayAttr(names));
    }
    func::ReturnOp::create(builder, func.getLoc(), results);
    // A constant γ whose column was folded is left unread.
    for (Operation &op : llvm::make_early_inc_range(llvm::reverse(*body)))
      if (isOpTriviallyDead(&op))
        op.erase();
    SmallVector<DictionaryAttr> resultAttrs;
    for (Attribute names : provenance)
      resultAttrs.push_back(DictionaryAttr::get(
          context, {builder.getNamedAttr(kFoldedFromAttr, names)}));
    init.setAllResultAttrs(resultAttrs);

    // Each folded weight takes the place of its W (or of γ when W is a
    // constant), so that the signature reads like the original one.
    SmallVector<std::pair<unsigned, unsigned>> order; // (position, result)
    for (auto [index, key] : llvm::enumerate(keys)) {
      auto anchor = dyn_cast<BlockArgument>(key.weight);
      if (!anchor)
        anchor = cast<BlockArgument>(key.gamma);
      order.push_back({anchor.getArgNumber(), index});
    }
    // A bias takes the place of b, else of β, else of W.
    for (auto [index, key] : llvm::enumerate(biasKeys)) {
      auto anchor = dyn_cast_or_null<BlockArgument>(key.bias);
      if (!anchor)
        anchor = dyn_cast<BlockArgument>(key.beta);
      if (!anchor)
        anchor = cast<BlockArgument>(key.weight);
      order.push_back({anchor.getArgNumber(), unsigned(keys.size() + index)});
    }
    auto resultLoc = [&](unsigned index) {
      return index < keys.size() ? foldedWeightLoc(keys[index])
                                 : biasLoc(biasKeys[index - keys.size()]);
    };
    llvm::sort(order);
    // The folded arguments are appended here and put in place by
    // placeFoldedArguments once the rewrite is done.
    SmallVector<unsigned> positions(order.size(), entry.getNumArguments());
    SmallVector<Type> types;
    SmallVector<DictionaryAttr> attrs;
    SmallVector<Location> locs;
    for (auto [position, index] : order) {
      types.push_back(resultTypes[index]);
      attrs.push_back(DictionaryAttr::get(
          context, {builder.getNamedAttr(kFoldedFromAttr, provenance[index]),
                    builder.getNamedAttr(kInitResultAttr,
                                         builder.getI64IntegerAttr(index))}));
      locs.push_back(resultLoc(index));
    }
    unsigned next = entry.getNumArguments();
    (void)func.insertArguments(positions, types, attrs, locs);
    for (auto [position, index] : order) {
      BlockArgument added = entry.getArgument(next++);
      replacedPosition[added] = position;
      if (index < keys.size())
        folded[keys[index]] = added;
      else
        foldedBiases[biasKeys[index - keys.size()]] = added;
    }
  }

  /// Moves each folded argument in front of the argument it replaces (by
  /// its position in the original signature), in one rebuild of the entry
  /// block: inserting them in place one by one renumbers every later
  /// argument each time, quadratic in a stack of thousands of layers.
  void placeFoldedArguments(
      const llvm::DenseMap<BlockArgument, int64_t> &originalPosition) {
    Block &entry = func.getBody().front();
    // (original position, after the folded ones placed there)
    SmallVector<std::pair<int64_t, bool>> slot;
    for (BlockArgument argument : entry.getArguments()) {
      auto replaced = replacedPosition.find(argument);
      if (replaced != replacedPosition.end())
        slot.push_back({replaced->second, false});
      else
        slot.push_back({originalPosition.lookup(argument), true});
    }
    SmallVector<unsigned> order(slot.size());
    std::iota(order.begin(), order.end(), 0u);
    llvm::stable_sort(order,
                      [&](unsigned a, unsigned b) { return slot[a] < slot[b]; });
    if (llvm::is_sorted(order))
      return;
    SmallVector<DictionaryAttr> oldAttrs, attrs;
    func.getAllArgAttrs(oldAttrs);
    SmallVector<Type> types;
    auto *placed = new Block();
    for (unsigned from : order) {
      BlockArgument argument = entry.getArgument(from);
      argument.replaceAllUsesWith(
          placed->addArgument(argument.getType(), argument.getLoc()));
      types.push_back(argument.getType());
      attrs.push_back(oldAttrs[from]);
    }
    placed->getOperations().splice(placed->end(), entry.getOperations());
    func.getBody().push_front(placed);
    entry.erase();
    func.setFunctionType(
        FunctionType::get(func.getContext(), types, func.getResultTypes()));
    func.setAllArgAttrs(attrs);
  }

  /// Tags each argument that kept its meaning with `cs349.layer_arg`, its
  /// position in the original signature (the folded weights carry
  /// `cs349.init_result` instead).
  void recordPassThroughPositions(
      const llvm::DenseMap<BlockArgument, int64_t> &originalPosition) {
    MLIRContext *context = func.getContext();
    SmallVector<DictionaryAttr> argAttrs;
    func.getAllArgAttrs(argAttrs);
    for (BlockArgument argument : func.getArguments()) {
      auto known = originalPosition.find(argument);
      if (known == originalPosition.end())
        continue;
      NamedAttrList attrs(argAttrs[argument.getArgNumber()]);
      attrs.set(kLayerArgAttr, builder.getI64IntegerAttr(known->second));
      argAttrs[argument.getArgNumber()] = attrs.getDictionary(context);
    }
    func.setAllArgAttrs(argAttrs);
  }

  /// γ and W that no longer have readers: unused arguments leave the
  /// signature (an initializer reads them now), dead constants are erased.
  void eraseDeadWeights() {
    llvm::BitVector deadArguments(func.getNumArguments());
    for (Value weight : touchedWeights) {
      if (!weight.use_empty())
        continue;
      if (auto argument = dyn_cast<BlockArgument>(weight))
        deadArguments.set(argument.getArgNumber());
      else
        weight.getDefiningOp()->erase();
    }
    if (deadArguments.any())
      (void)func.eraseArguments(deadArguments);
  }

  func::FuncOp func;
  ModuleSymbols &symbols;
  OpBuilder builder;
  llvm::DenseMap<FoldKey, Value> folded;
  llvm::DenseMap<BiasKey, Value> foldedBiases;
  /// The original position of the argument each folded argument replaces.
  llvm::DenseMap<BlockArgument, unsigned> replacedPosition;
  llvm::SetVector<Value> touchedWeights;
};

struct FoldNormWeightPass
    : mlir::cs349::impl::FoldNormWeightBase<FoldNormWeightPass> {
  using FoldNormWeightBase::FoldNormWeightBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Collected first: the pass adds initializer functions to the module.
    SmallVector<func::FuncOp> functions;
    CS349Dialect::InitializerAttrHelper initializer(&getContext());
    for (auto func : module.getOps<func::FuncOp>())
      if (!func.isDeclaration() && !initializer.isAttrPresent(func))
        functions.push_back(func);
    ModuleSymbols symbols(module);
    for (func::FuncOp func : functions) {
      // Sites inside kernels are out of reach: say so rather than leave the
      // gains in the layer without a word.
      if (llvm::any_of(func.getBody().front().getOps<KernelOp>(),
                       [](KernelOp kernel) { return !kernel.isOpaque(); })) {
        func.emitWarning("ops are already fused into kernels, which "
                         "fold-norm-weight does not look into; run "
                         "--fold-norm-weight (or --optimize) before --fuse");
        continue;
      }
      FunctionFolder(func, symbols).run();
    }
  }
};

} // namespace
