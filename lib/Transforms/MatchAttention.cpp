//===- MatchAttention.cpp - q·kᵀ → scale → mask → softmax → ·v as one op --===//
//
// Attention written op by op materialises the [H, T, S] scores and
// probabilities; cs349.attention computes them tile by tile and never writes
// them (FlashAttention). The pattern is rooted at the final `p @ v` matmul and
// walks up through the softmax (layer-level, decomposed, or log-sum-exp as
// front ends write it), an optional mask (a cs349.causal_mask, with or
// without a window, or any other tensor added to the scores) and splat scales
// to the `q @ kᵀ` matmul. Anything it does not recognise
// is left alone: a partial match that rewrites an almost-attention would
// change the program's meaning, so every condition is checked before the
// rewrite, and the reason for a miss is kept so that users can ask why their
// attention was not fused.
//
//===----------------------------------------------------------------------===//

#include "cs349/Dialect/CS349/IR/CS349Folds.h"
#include "cs349/Dialect/CS349/IR/CS349Ops.h"
#include "cs349/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/Debug.h"

#include <cmath>
#include <type_traits>

#define DEBUG_TYPE "match-attention"

namespace mlir::cs349 {
#define GEN_PASS_DEF_MATCHATTENTION
#include "cs349/Transforms/Passes.h.inc"
} // namespace mlir::cs349

using namespace mlir;
using namespace mlir::cs349;

namespace {

/// The operands of the cs349.attention that replaces a matched chain.
struct AttentionMatch {
  Value query, key, value;
  double scale = 1.0;
  AttentionMask mask = AttentionMask::None;
  std::optional<int64_t> window;
  Value additiveMask;
  /// Set instead of `key` when the scores read kᵀ as it is: the key is
  /// its transpose.
  Value transposedKey;
  /// The factor applied after the additive mask: cs349.attention adds its
  /// mask to the scaled scores, so the mask operand is the mask times it.
  double additiveMaskScale = 1.0;
};

/// The outcome of looking at one `p @ v` candidate. `reason` is empty when
/// the matmul does not even look like the end of an attention (most matmuls
/// of a layer are projections), so that only real near-misses are reported.
struct MatchResult {
  std::optional<AttentionMatch> match;
  std::string reason;
};

std::string opName(Value value) {
  if (Operation *op = value.getDefiningOp())
    return ("'" + op->getName().getStringRef() + "'").str();
  return "a block argument";
}

/// The value of a splat float constant, looked through cs349.constant (or any
/// ConstantLike op the dialect materialises).
std::optional<double> splatConstant(Value value) {
  Attribute attr;
  if (!matchPattern(value, m_Constant(&attr)))
    return std::nullopt;
  return getSplatValue(attr);
}

/// `x * c`, `c * x` or `x / c` with `c` a splat constant that does not
/// broadcast `x` to a larger shape: returns `x` and the factor.
std::optional<std::pair<Value, double>> splatScale(Value value) {
  Operation *op = value.getDefiningOp();
  if (auto mul = dyn_cast_or_null<MulOp>(op)) {
    for (auto [x, c] : {std::pair(mul.getLhs(), mul.getRhs()),
                        std::pair(mul.getRhs(), mul.getLhs())})
      if (auto factor = splatConstant(c);
          factor && x.getType() == mul.getType())
        return std::pair(x, *factor);
    return std::nullopt;
  }
  if (auto div = dyn_cast_or_null<DivOp>(op)) {
    auto divisor = splatConstant(div.getRhs());
    if (divisor && *divisor != 0.0 && div.getLhs().getType() == div.getType())
      return std::pair(div.getLhs(), 1.0 / *divisor);
  }
  return std::nullopt;
}

std::string axesString(ArrayRef<int64_t> axes) {
  std::string text = "[";
  llvm::raw_string_ostream os(text);
  llvm::interleaveComma(axes, os);
  os << "]";
  return text;
}

bool isLastAxisKeepdims(ArrayRef<int64_t> axes, bool keepdims, int64_t rank) {
  return keepdims && axes.size() == 1 && axes[0] == rank - 1;
}

/// Matches `p @ v` against attention; see the file comment.
class AttentionMatcher {
public:
  explicit AttentionMatcher(MatmulOp root) : root(root) {}

  MatchResult run() {
    MatchResult result;
    if (succeeded(matchChain(result.reason)))
      result.match = match;
    return result;
  }

private:
  /// A value of the chain whose only readers must be the chain itself.
  struct Internal {
    Value value;
    std::string what;
  };

  LogicalResult miss(std::string &reason, const Twine &why) {
    reason = why.str();
    return failure();
  }

  LogicalResult matchChain(std::string &reason) {
    Value probs = root.getLhs();
    auto probsType = cast<RankedTensorType>(probs.getType());
    Value scores;
    if (failed(matchSoftmax(probs, scores, reason)) || !scores)
      return failure();
    // From here on the matmul reads a softmax: it is a candidate, and every
    // failure below says why it is not attention.
    if (root.getTransposeB())
      return miss(reason, "the values are read with transpose_b");
    if (probsType.getRank() != 3)
      return miss(reason,
                  "expected [heads, seq, seq] probabilities, got rank " +
                      Twine(probsType.getRank()));
    if (scores.getType() != probs.getType())
      return miss(reason, "the softmax broadcasts its input");

    Value raw;
    if (failed(matchScaleAndMask(scores, raw, reason)))
      return failure();
    auto qk = raw.getDefiningOp<MatmulOp>();
    if (!qk)
      return miss(reason, "the scores are not a q·kᵀ matmul (found " +
                              opName(raw) + ")");
    internals.push_back({raw, "the raw scores q·kᵀ"});

    Value keyView;
    if (qk.getTransposeB()) {
      keyView = qk.getRhs();
    } else if (auto transpose = qk.getRhs().getDefiningOp<TransposeOp>();
               transpose &&
               transpose.getPerm() == ArrayRef<int64_t>{0, 2, 1}) {
      keyView = transpose.getInput();
    } else {
      // Any [H, dh, S] right operand is the transpose of its [H, S, dh]
      // transpose: front ends pass kᵀ itself (buddy-mlir's LLaMA core), and
      // the rewrite reads it through a transpose view.
      match.transposedKey = qk.getRhs();
    }

    match.query = qk.getLhs();
    // q pre-multiplied by the scale (scaling [H,T,dh] instead of [H,T,S]).
    if (auto scaled = splatScale(match.query)) {
      match.query = scaled->first;
      match.scale *= scaled->second;
    }
    if (keyView)
      match.key = unrepeat(keyView);
    match.value = unrepeat(root.getRhs());

    if (failed(checkUses(reason)) || failed(checkHeads(reason)) ||
        failed(checkMaskIsInput(reason)))
      return failure();
    return success();
  }

  /// Sets `scores` to the softmax input when `probs` is a softmax over the
  /// last axis; leaves it null (and `reason` empty) when `probs` is no
  /// softmax at all. Besides cs349.softmax, the decomposed spellings front
  /// ends write: exp(s - max) divided by its row sum (`div`, or `mul` by
  /// `1 / sum` when no simplification ran), and log-sum-exp
  /// exp(s - (max + log(sum(exp(s - max))))). The row reductions may keep
  /// the key axis or drop it and have it put back by a reshape.
  LogicalResult matchSoftmax(Value probs, Value &scores, std::string &reason) {
    int64_t rank = cast<RankedTensorType>(probs.getType()).getRank();
    if (auto softmax = probs.getDefiningOp<SoftmaxOp>()) {
      scores = softmax.getInput();
      internals.push_back({probs, "the probabilities"});
      if (static_cast<int64_t>(softmax.getAxis()) != rank - 1)
        return miss(reason, "the softmax is over axis " +
                                Twine(softmax.getAxis()) +
                                ", not the key axis " + Twine(rank - 1));
      return success();
    }

    if (auto exp = probs.getDefiningOp<ExpOp>()) {
      auto sub = exp.getInput().getDefiningOp<SubOp>();
      auto lse = sub ? sub.getRhs().getDefiningOp<AddOp>() : AddOp();
      if (!lse)
        return success();
      for (auto [max, log] : {std::pair(lse.getLhs(), lse.getRhs()),
                              std::pair(lse.getRhs(), lse.getLhs())}) {
        if (!log.getDefiningOp<LogOp>())
          continue;
        // exp(s - (m + log ...)): a candidate from here on.
        scores = sub.getLhs();
        internals.push_back({probs, "the probabilities"});
        internals.push_back({sub.getResult(), "the shifted scores"});
        internals.push_back({lse.getResult(), "the log-sum-exp"});
        internals.push_back({log, "the log of the row sums"});
        auto shifted = log.getDefiningOp<LogOp>().getInput();
        Value sumInput;
        if (failed(rowReduction<ReduceSumOp>(shifted, rank, sumInput, "sums",
                                             reason)))
          return failure();
        auto innerExp = sumInput.getDefiningOp<ExpOp>();
        if (!innerExp)
          return miss(reason, "the log-sum-exp does not sum exponentials");
        internals.push_back({sumInput, "the exponentials"});
        return matchShift(innerExp.getInput(), max, rank, sub.getLhs(), scores,
                          reason);
      }
      return success();
    }

    // exp(s - max(s)) / sum(exp(s - max(s))).
    Value numerator, denominator;
    if (auto div = probs.getDefiningOp<DivOp>()) {
      numerator = div.getLhs();
      denominator = div.getRhs();
    } else if (auto mul = probs.getDefiningOp<MulOp>()) {
      for (auto [x, r] : {std::pair(mul.getLhs(), mul.getRhs()),
                          std::pair(mul.getRhs(), mul.getLhs())}) {
        auto reciprocal = r.getDefiningOp<DivOp>();
        auto one = reciprocal ? splatConstant(reciprocal.getLhs())
                              : std::optional<double>();
        if (one && *one == 1.0 && x.getDefiningOp<ExpOp>()) {
          numerator = x;
          denominator = reciprocal.getRhs();
          internals.push_back({r, "the reciprocals of the row sums"});
          break;
        }
      }
    }
    auto exp = numerator ? numerator.getDefiningOp<ExpOp>() : ExpOp();
    if (!exp)
      return success();
    scores = exp.getInput(); // Provisional: a candidate from here on.
    internals.push_back({probs, "the probabilities"});
    internals.push_back({exp.getResult(), "the exponentials"});
    Value sumInput;
    if (failed(rowReduction<ReduceSumOp>(denominator, rank, sumInput, "sums",
                                         reason)))
      return failure();
    if (sumInput != exp.getResult())
      return miss(reason, "the softmax denominator is not a reduce_sum of "
                          "its exponentials");
    auto sub = exp.getInput().getDefiningOp<SubOp>();
    if (!sub)
      return miss(reason, "the exponent is not the scores minus their row "
                          "maximum");
    return matchShift(exp.getInput(), sub.getRhs(), rank, Value(), scores,
                      reason);
  }

  /// `shifted` is `s - max(s)` over the key axis, with that max being
  /// `expectedMax` (the one a log-sum-exp adds back) and `s` being
  /// `expectedScores` when given (the scores the log-sum-exp subtracts
  /// from); sets `scores` to `s`.
  LogicalResult matchShift(Value shifted, Value expectedMax, int64_t rank,
                           Value expectedScores, Value &scores,
                           std::string &reason) {
    auto sub = shifted.getDefiningOp<SubOp>();
    if (!sub || sub.getRhs() != expectedMax)
      return miss(reason, "the exponent is not the scores minus their row "
                          "maximum");
    internals.push_back({sub.getResult(), "the shifted scores"});
    Value maxInput;
    if (failed(rowReduction<ReduceMaxOp>(expectedMax, rank, maxInput,
                                         "maxima", reason)))
      return failure();
    // A row maximum that skips NaN (`maxnum(s, -inf)` reduced, how
    // `--import` writes `maxnumf`) gives the same softmax: a row holding a
    // NaN comes out NaN either way, through its exponential and the sum.
    if (auto skipNaN = maxInput.getDefiningOp<MaxNumOp>()) {
      std::optional<double> floor = splatConstant(skipNaN.getRhs());
      if (floor && std::isinf(*floor) && *floor < 0 &&
          skipNaN.getType() == skipNaN.getLhs().getType()) {
        internals.push_back({maxInput, "the scores with NaN skipped"});
        maxInput = skipNaN.getLhs();
      }
    }
    if (maxInput != sub.getLhs() ||
        (expectedScores && expectedScores != sub.getLhs()))
      return miss(reason, "the exponent is not the scores minus their row "
                          "maximum");
    scores = sub.getLhs();
    return success();
  }

  /// `value` is a reduction over the last axis with the axis kept, or
  /// without it and reshaped to have it again (what raised linalg
  /// reductions look like). Sets `input` to the reduced tensor.
  template <typename ReduceOp>
  LogicalResult rowReduction(Value value, int64_t rank, Value &input,
                             const char *what, std::string &reason) {
    std::string name = Twine("the softmax row ").concat(what).str();
    Value reduced = value;
    // A reshape that only puts the key axis back as a size-1 dim.
    if (auto reshape = value.getDefiningOp<ReshapeOp>()) {
      auto type = reshape.getType();
      if (type.getRank() == rank && type.getShape().back() == 1 &&
          reshape.getInput().getType().getShape() ==
              type.getShape().drop_back()) {
        internals.push_back({value, "the reshaped " + name});
        reduced = reshape.getInput();
      }
    }
    bool droppedAxis = reduced != value;
    auto reduce = reduced.getDefiningOp<ReduceOp>();
    if (!reduce)
      return miss(reason, name + " are not a " +
                              ReduceOp::getOperationName() + " (found " +
                              opName(reduced) + ")");
    internals.push_back({reduced, name});
    bool overKeyAxis =
        droppedAxis ? !reduce.getKeepdims() && reduce.getAxes().size() == 1 &&
                          reduce.getAxes()[0] == rank - 1
                    : isLastAxisKeepdims(reduce.getAxes(),
                                         reduce.getKeepdims(), rank);
    if (!overKeyAxis && std::is_same_v<ReduceOp, ReduceMaxOp>)
      return miss(reason, "the softmax row maximum is not over the key axis " +
                              Twine(rank - 1) + " with keepdims");
    if (!overKeyAxis)
      return miss(reason, "the softmax is over axes " +
                              axesString(reduce.getAxes()) +
                              (reduce.getKeepdims() ? "" : " without keepdims") +
                              ", not the key axis " + Twine(rank - 1));
    input = reduce.getInput();
    return success();
  }

  /// Peels splat scales and at most one mask off the scores, in either
  /// order, and sets `raw` to what is left.
  LogicalResult matchScaleAndMask(Value scores, Value &raw,
                                  std::string &reason) {
    internals.push_back({scores, "the scores"});
    Value current = scores;
    // Peeling walks from the softmax backwards, so a scale seen before the
    // mask is applied after it.
    bool nonPositiveAfterMask = false;
    double scaleAfterMask = 1.0;
    bool masked = false;
    while (true) {
      if (auto scaled = splatScale(current)) {
        if (!masked) {
          nonPositiveAfterMask |= scaled->second <= 0.0;
          scaleAfterMask *= scaled->second;
        }
        match.scale *= scaled->second;
        current = scaled->first;
      } else if (auto add = current.getDefiningOp<AddOp>()) {
        if (masked)
          return miss(reason, "the scores are masked twice");
        Value unmasked;
        if (failed(matchMask(add, unmasked, reason)))
          return failure();
        // A negative factor after the mask would turn -inf into +inf.
        if (nonPositiveAfterMask)
          return miss(reason, "a non-positive scale is applied after the "
                              "mask");
        // cs349.attention adds its mask operand to the scaled scores, so a
        // factor after the mask scales the mask too: c (s + m) = c s + c m.
        if (match.mask == AttentionMask::Additive)
          match.additiveMaskScale = scaleAfterMask;
        masked = true;
        current = unmasked;
      } else if (isa_and_nonnull<MulOp, DivOp>(current.getDefiningOp())) {
        Operation *scale = current.getDefiningOp();
        return miss(reason, "the scores are scaled, but not by a splat "
                            "constant (" +
                                scale->getName().getStringRef() + " of " +
                                opName(scale->getOperand(0)) + " and " +
                                opName(scale->getOperand(1)) + ")");
      } else {
        break;
      }
      internals.push_back({current, "the intermediate scores"});
    }
    internals.pop_back(); // `current` is the raw q·kᵀ: recorded by the caller.
    raw = current;
    return success();
  }

  /// `add` of the scores and a mask: a cs349.causal_mask (causal, or a
  /// sliding window with its `window`) or any other tensor that broadcasts
  /// to the scores (additive). Sets `unmasked` to the scores' side.
  LogicalResult matchMask(AddOp add, Value &unmasked, std::string &reason) {
    std::pair<Value, Value> sides[] = {{add.getLhs(), add.getRhs()},
                                       {add.getRhs(), add.getLhs()}};
    // A causal_mask on either side is the mask.
    for (auto [x, maskValue] : sides) {
      auto causalMask = causalMaskThrough(maskValue);
      if (!causalMask || x.getType() != add.getType())
        continue;
      if (failed(checkCausalMaskCoversScores(causalMask, add.getType(),
                                             reason)))
        return failure();
      match.window = causalMask.getWindow();
      match.mask = match.window ? AttentionMask::SlidingWindow
                                : AttentionMask::Causal;
      unmasked = x;
      return success();
    }
    // Otherwise the side that keeps the scores' shape and leads to a
    // matmul through splat scales is the scores, the other the mask.
    auto leadsToMatmul = [](Value value) {
      while (auto scaled = splatScale(value))
        value = scaled->first;
      return static_cast<bool>(value.getDefiningOp<MatmulOp>());
    };
    std::optional<std::pair<Value, Value>> chosen;
    for (auto [x, maskValue] : sides)
      if (x.getType() == add.getType() && !chosen && leadsToMatmul(x))
        chosen = std::pair(x, maskValue);
    for (auto [x, maskValue] : sides)
      if (x.getType() == add.getType() && !chosen)
        chosen = std::pair(x, maskValue);
    if (!chosen)
      return miss(reason, "the mask broadcasts the scores to " +
                              shapeText(add.getType().getShape()));
    unmasked = chosen->first;
    match.mask = AttentionMask::Additive;
    match.additiveMask = chosen->second;
    return success();
  }

  /// The causal_mask `value` is, as importers write it: reshaped to have
  /// leading unit dims (the batch and head dims it broadcasts over), and
  /// with -inf raised to the lowest finite value (torch's finfo.min). The
  /// lowest value hides a key as -inf does: s + lowest rounds to lowest
  /// (or -inf) for any score below 2^103, and exp(lowest - max) is 0 when
  /// the row maximum is a visible score, which a causal row always has.
  static CausalMaskOp causalMaskThrough(Value value) {
    if (auto reshape = value.getDefiningOp<ReshapeOp>()) {
      ArrayRef<int64_t> from = reshape.getInput().getType().getShape();
      ArrayRef<int64_t> to = reshape.getType().getShape();
      if (to.size() < from.size() || to.take_back(from.size()) != from ||
          llvm::any_of(to.drop_back(from.size()),
                       [](int64_t size) { return size != 1; }))
        return CausalMaskOp();
      value = reshape.getInput();
    }
    if (auto max = value.getDefiningOp<MaxOp>()) {
      Type elementType = max.getType().getElementType();
      for (auto [mask, floor] : {std::pair(max.getLhs(), max.getRhs()),
                                 std::pair(max.getRhs(), max.getLhs())}) {
        std::optional<double> hidden = splatConstant(floor);
        auto causal = mask.getDefiningOp<CausalMaskOp>();
        if (causal && hidden && mask.getType() == max.getType() &&
            *hidden == APFloat::getLargest(
                           cast<FloatType>(elementType).getFloatSemantics(),
                           /*Negative=*/true)
                           .convertToDouble())
          return causal;
      }
      return CausalMaskOp();
    }
    return value.getDefiningOp<CausalMaskOp>();
  }

  /// `causal` hides key j from query i exactly when j > i over the scores'
  /// last two dims [T, S]; the mask must be that [T, S] itself. A smaller
  /// mask broadcast over the scores hides less (a [1, 1] one is a single 0
  /// and hides nothing), and since a causal_mask is square, this also
  /// rejects T != S, for which there is no causal attention to rewrite into.
  LogicalResult checkCausalMaskCoversScores(CausalMaskOp mask,
                                            RankedTensorType scores,
                                            std::string &reason) {
    ArrayRef<int64_t> maskShape = mask.getType().getShape();
    ArrayRef<int64_t> queryKey = scores.getShape().take_back(2);
    if (maskShape != queryKey)
      return miss(reason, "the causal mask is " + shapeText(maskShape) +
                              " but the scores' [query, key] dims are " +
                              shapeText(queryKey) +
                              ": it is not the causal mask of these scores");
    return success();
  }

  /// An additive mask becomes an operand of the fused op, so it must exist
  /// without the chain: a mask computed from the scores or probabilities
  /// would need the very values the fused op never materialises.
  LogicalResult checkMaskIsInput(std::string &reason) {
    if (!match.additiveMask)
      return success();
    llvm::SmallPtrSet<Operation *, 16> chain;
    for (const Internal &internal : internals)
      chain.insert(internal.value.getDefiningOp());
    SmallVector<Value> pending = {match.additiveMask};
    llvm::SmallPtrSet<Operation *, 16> seen;
    while (!pending.empty()) {
      Operation *op = pending.pop_back_val().getDefiningOp();
      if (!op || !seen.insert(op).second)
        continue;
      if (chain.contains(op))
        return miss(reason, "the additive mask is computed from the scores");
      llvm::append_range(pending, op->getOperands());
    }
    return success();
  }

  static std::string shapeText(ArrayRef<int64_t> shape) {
    std::string text = "[";
    llvm::raw_string_ostream os(text);
    llvm::interleave(shape, os, "x");
    os << "]";
    return text;
  }

  /// GQA: attention reads [G, S, dh] keys and values itself, so the repeat
  /// that widened them to H heads is not needed.
  static Value unrepeat(Value value) {
    if (auto repeat = value.getDefiningOp<RepeatOp>())
      if (repeat.getAxis() == 0)
        return repeat.getInput();
    return value;
  }

  /// Every intermediate must be read only inside the chain: the fused op
  /// never materialises them.
  LogicalResult checkUses(std::string &reason) {
    llvm::SmallPtrSet<Operation *, 16> chain;
    chain.insert(root);
    for (const Internal &internal : internals)
      chain.insert(internal.value.getDefiningOp());
    for (const Internal &internal : internals)
      for (Operation *user : internal.value.getUsers())
        if (!chain.contains(user))
          return miss(reason, Twine(internal.what) + " are also read by '" +
                                  user->getName().getStringRef() +
                                  "' outside the attention");
    return success();
  }

  LogicalResult checkHeads(std::string &reason) {
    auto q = cast<RankedTensorType>(match.query.getType());
    if (match.transposedKey &&
        cast<RankedTensorType>(match.transposedKey.getType()).getRank() != 3)
      return miss(reason, "expected [heads, seq, head_dim] q, k and v");
    auto k = match.transposedKey ? transposedType(match.transposedKey)
                                 : cast<RankedTensorType>(match.key.getType());
    auto v = cast<RankedTensorType>(match.value.getType());
    if (q.getRank() != 3 || k.getRank() != 3 || v.getRank() != 3)
      return miss(reason, "expected [heads, seq, head_dim] q, k and v");
    if (k.getShape() != v.getShape())
      return miss(reason,
                  "mismatched heads: the keys are " + Twine(k.getDimSize(0)) +
                      "x" + Twine(k.getDimSize(1)) + "x" +
                      Twine(k.getDimSize(2)) + " but the values " +
                      Twine(v.getDimSize(0)) + "x" + Twine(v.getDimSize(1)) +
                      "x" + Twine(v.getDimSize(2)));
    int64_t heads = q.getDimSize(0), kvHeads = k.getDimSize(0);
    if (match.query.getType() != root.getType() || heads % kvHeads != 0)
      return miss(reason,
                  "mismatched heads: " + Twine(heads) + " query heads for " +
                      Twine(kvHeads) + " key/value heads and " +
                      Twine(root.getType().getDimSize(0)) + " output heads");
    return success();
  }

public:
  /// [H, S, dh] for a [H, dh, S] kᵀ.
  static RankedTensorType transposedType(Value keyTransposed) {
    auto type = cast<RankedTensorType>(keyTransposed.getType());
    ArrayRef<int64_t> shape = type.getShape();
    return RankedTensorType::get({shape[0], shape[2], shape[1]},
                                 type.getElementType());
  }

private:
  MatmulOp root;
  AttentionMatch match;
  SmallVector<Internal> internals;
};

struct FuseAttention : OpRewritePattern<MatmulOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(MatmulOp root,
                                PatternRewriter &rewriter) const override {
    MatchResult result = AttentionMatcher(root).run();
    if (!result.match) {
      if (!result.reason.empty())
        LLVM_DEBUG(llvm::dbgs()
                   << "match-attention: not fused at " << root.getLoc() << ": "
                   << result.reason << "\n");
      return rewriter.notifyMatchFailure(root, result.reason);
    }
    const AttentionMatch &match = *result.match;
    Value key = match.key;
    if (match.transposedKey)
      key = TransposeOp::create(
          rewriter, root.getLoc(),
          AttentionMatcher::transposedType(match.transposedKey),
          match.transposedKey, rewriter.getDenseI64ArrayAttr({0, 2, 1}));
    Value additiveMask = match.additiveMask;
    if (additiveMask && match.additiveMaskScale != 1.0) {
      auto maskType = cast<RankedTensorType>(additiveMask.getType());
      auto scalarType = RankedTensorType::get({}, maskType.getElementType());
      Value factor = ConstantOp::create(
          rewriter, root.getLoc(),
          DenseElementsAttr::get(
              scalarType, rewriter.getFloatAttr(maskType.getElementType(),
                                                match.additiveMaskScale)));
      additiveMask =
          MulOp::create(rewriter, root.getLoc(), additiveMask, factor);
    }
    LLVM_DEBUG(llvm::dbgs()
               << "match-attention: fused at " << root.getLoc() << " (scale "
               << match.scale << ", mask " << stringifyAttentionMask(match.mask)
               << ")\n");
    rewriter.replaceOpWithNewOp<AttentionOp>(
        root, root.getType(), match.query, key, match.value,
        rewriter.getF64FloatAttr(match.scale),
        AttentionMaskAttr::get(rewriter.getContext(), match.mask),
        match.window ? rewriter.getI64IntegerAttr(*match.window) : IntegerAttr(),
        additiveMask);
    return success();
  }
};

struct MatchAttentionPass
    : mlir::cs349::impl::MatchAttentionBase<MatchAttentionPass> {
  using MatchAttentionBase::MatchAttentionBase;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    // The matcher sees only function-level ops: after --fuse the chains sit
    // inside kernels and the pass would change nothing without a word (a
    // Llama layer then plans 541 MB where matched attention plans 151 MB).
    if (llvm::any_of(func.getBody().front().getOps<KernelOp>(),
                     [](KernelOp kernel) { return !kernel.isOpaque(); })) {
      func.emitWarning("ops are already fused into kernels, which "
                       "match-attention does not look into; run "
                       "--match-attention (or --optimize) before --fuse");
      return markAllAnalysesPreserved();
    }

    RewritePatternSet patterns(&getContext());
    patterns.add<FuseAttention>(&getContext());
    // Only the matched chains change: folding, constant CSE and region
    // simplification belong to canonicalize, not to this pass.
    GreedyRewriteConfig config;
    config.enableFolding(false)
        .enableConstantCSE(false)
        .setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns),
                                     config))) {
      getOperation().emitError("match-attention did not converge");
      return signalPassFailure();
    }
    if (!reportMisses)
      return;
    // After the rewrite, so that each remaining candidate is reported once,
    // however often the greedy driver visited it.
    bool missReported = false;
    getOperation().walk([&](MatmulOp matmul) {
      MatchResult result = AttentionMatcher(matmul).run();
      if (!result.match && !result.reason.empty()) {
        matmul.emitRemark("not fused into cs349.attention: ") << result.reason;
        missReported = true;
      }
    });
    // A user who asks for the misses of a function without any attention
    // would otherwise get silence, which reads like success.
    if (!missReported && func.getBody().front().getOps<AttentionOp>().empty())
      func.emitRemark("no attention in this function: no softmax feeds a "
                      "matmul");
  }
};

} // namespace
