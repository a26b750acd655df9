//===- StaticShapes.cpp - static shapes for what the importer plans -------===//
//
// cs349 plans bytes, so every tensor it imports needs a static shape. Front
// ends often export with dynamic sizes (a batch or a sequence length of
// `?`); `arg-shapes` gives such arguments sizes, and where a function's
// arguments are static (given, or as written) its ops learn their sizes
// from them the way upstream already knows: TOSA's shape
// inference for TOSA ops (run by the pass), canonicalization for the rest
// (a `tensor.dim` of a static value is a constant, a `tensor.empty` of
// constant sizes is static, a linalg op takes its operands' static shapes,
// a `cf.assert` of equal sizes goes away). TOSA ops are not folded here:
// the import keeps folding away from them (see Import.cpp).
//
// What stays dynamic is reported by checkStaticShapes, at the first value
// that has a dynamic shape.
//
//===----------------------------------------------------------------------===//

#include "ImportPatterns.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Tosa/Transforms/Passes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;

namespace mlir::cs349 {

FailureOr<SmallVector<ArgumentShape>>
parseArgumentShapes(ArrayRef<std::string> entries, std::string &error) {
  SmallVector<ArgumentShape> shapes;
  for (const std::string &entry : entries) {
    auto fail = [&](const Twine &why) {
      error = ("arg-shapes entry '" + entry + "': " + why +
               " (expected INDEX:SHAPE, e.g. 0:1x128)")
                  .str();
      return failure();
    };
    auto [index, shape] = StringRef(entry).trim().split(':');
    ArgumentShape parsed;
    parsed.spelling = entry;
    if (shape.empty())
      return fail("no shape");
    if (index.trim().getAsInteger(10, parsed.index))
      return fail("'" + index + "' is not an argument index");
    SmallVector<StringRef> sizes;
    shape.trim().split(sizes, 'x');
    for (StringRef size : sizes) {
      int64_t value;
      if (size.getAsInteger(10, value) || value <= 0)
        return fail("'" + size + "' is not a positive size");
      parsed.sizes.push_back(value);
    }
    shapes.push_back(std::move(parsed));
  }
  return shapes;
}

namespace import {
namespace {
/// The static type `shape` gives `type`, when it fits: a dynamic ranked
/// tensor of the same rank whose static sizes it repeats, or an unranked
/// tensor.
std::optional<RankedTensorType> fittedType(Type type,
                                           const ArgumentShape &shape) {
  if (auto unranked = dyn_cast<UnrankedTensorType>(type))
    return RankedTensorType::get(shape.sizes, unranked.getElementType());
  auto ranked = dyn_cast<RankedTensorType>(type);
  if (!ranked || ranked.hasStaticShape() ||
      ranked.getRank() != int64_t(shape.sizes.size()))
    return std::nullopt;
  for (auto [size, given] : llvm::zip_equal(ranked.getShape(), shape.sizes))
    if (!ShapedType::isDynamic(size) && size != given)
      return std::nullopt;
  return RankedTensorType::get(shape.sizes, ranked.getElementType(),
                               ranked.getEncoding());
}

bool hasDynamicShape(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  return shaped && !shaped.hasStaticShape();
}

/// Upstream folds casts that only hide static sizes into linalg ops,
/// slices, pads and reshapes, not into tensor.concat: a concat of such
/// casts concatenates their sources (the type they give it, when that keeps
/// every static size of the old one) and is cast back.
struct ConcatOfStaticCasts : OpRewritePattern<tensor::ConcatOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::ConcatOp concat,
                                PatternRewriter &rewriter) const override {
    bool folds = false;
    SmallVector<Value> inputs;
    for (Value input : concat.getInputs()) {
      auto cast = input.getDefiningOp<tensor::CastOp>();
      bool hidesSizes = cast && tensor::canFoldIntoConsumerOp(cast);
      folds |= hidesSizes;
      inputs.push_back(hidesSizes ? cast.getSource() : input);
    }
    if (!folds)
      return failure();
    RankedTensorType refined = tensor::ConcatOp::inferResultType(
        concat.getDim(), ValueRange(inputs).getTypes());
    if (!tensor::preservesStaticInformation(concat.getType(), refined))
      return failure();
    Value joined = tensor::ConcatOp::create(rewriter, concat.getLoc(), refined,
                                            concat.getDimAttr(), inputs);
    if (refined != concat.getType())
      joined = tensor::CastOp::create(rewriter, concat.getLoc(),
                                      concat.getType(), joined);
    rewriter.replaceOp(concat, joined);
    return success();
  }
};
} // namespace

void populateStaticShapePatterns(RewritePatternSet &patterns) {
  patterns.add<ConcatOfStaticCasts>(patterns.getContext());
}

FrozenRewritePatternSet buildStaticShapeCanonicalization(MLIRContext *context) {
  RewritePatternSet patterns(context);
  for (Dialect *dialect : context->getLoadedDialects())
    dialect->getCanonicalizationPatterns(patterns);
  for (RegisteredOperationName op : context->getRegisteredOperations())
    op.getCanonicalizationPatterns(patterns, context);
  populateStaticShapePatterns(patterns);
  return FrozenRewritePatternSet(std::move(patterns));
}

namespace {
/// Whether another function calls `func` (or otherwise names it): its
/// types are then part of what the callers expect.
bool isReferenced(func::FuncOp func) {
  auto module = func->getParentOfType<ModuleOp>();
  return module && !SymbolTable::symbolKnownUseEmpty(func, module);
}
} // namespace

void giveArgumentShapes(func::FuncOp func, ArrayRef<ArgumentShape> shapes) {
  if (func.isExternal() || isReferenced(func))
    return;
  Block &entry = func.getBody().front();
  OpBuilder builder = OpBuilder::atBlockBegin(&entry);
  for (BlockArgument argument : entry.getArguments()) {
    Type dynamicType = argument.getType();
    std::optional<RankedTensorType> staticType;
    for (const ArgumentShape &shape : shapes)
      if (shape.index == argument.getArgNumber() &&
          (staticType = fittedType(dynamicType, shape)))
        break;
    if (!staticType)
      continue;
    argument.setType(*staticType);
    // TOSA ops take the static type as it is (shape inference starts from
    // it); every other user sees the old type through a cast, which
    // canonicalization folds into it.
    Value cast;
    for (OpOperand &use : llvm::make_early_inc_range(argument.getUses())) {
      if (isa<tosa::TosaDialect>(use.getOwner()->getDialect()))
        continue;
      if (!cast)
        cast = tensor::CastOp::create(builder, argument.getLoc(), dynamicType,
                                      argument);
      use.set(cast);
    }
  }
  func.setType(FunctionType::get(func.getContext(), entry.getArgumentTypes(),
                                 func.getResultTypes()));
}

bool mayInferShapes(func::FuncOp func) {
  if (func.isExternal() || isReferenced(func) ||
      llvm::any_of(func.getArgumentTypes(), hasDynamicShape))
    return false;
  WalkResult dynamic = func.walk([](Operation *op) {
    return llvm::any_of(op->getResultTypes(), hasDynamicShape)
               ? WalkResult::interrupt()
               : WalkResult::advance();
  });
  return dynamic.wasInterrupted();
}

LogicalResult
propagateStaticShapes(func::FuncOp func,
                      const FrozenRewritePatternSet &canonicalization) {
  SmallVector<Operation *> ops;
  func.walk([&](Operation *op) {
    if (op != func && !isa<tosa::TosaDialect>(op->getDialect()))
      ops.push_back(op);
  });
  GreedyRewriteConfig config;
  config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
  (void)applyOpPatternsGreedily(ops, canonicalization, config);

  // Front ends check that sizes agree (torch-mlir: "mismatched size for
  // broadcast"); a check that the static sizes fail means the shapes given
  // contradict each other, and the ops after it would not compute anything
  // meaningful.
  WalkResult failing = func.walk([](cf::AssertOp check) {
    if (!matchPattern(check.getArg(), m_Zero()))
      return WalkResult::advance();
    check.emitOpError("fails for the static sizes: \"")
        << check.getMsg() << "\"";
    return WalkResult::interrupt();
  });
  if (failing.wasInterrupted())
    return failure();

  // A result that is now static is returned as such (no caller expects
  // the old type: mayInferShapes leaves called functions alone). Only in
  // a body of one block, the only one the import takes.
  if (!func.getBody().hasOneBlock())
    return success();
  auto ret = dyn_cast<func::ReturnOp>(func.getBody().front().getTerminator());
  if (!ret)
    return success();
  for (OpOperand &operand : ret->getOpOperands())
    if (auto cast = operand.get().getDefiningOp<tensor::CastOp>())
      if (hasDynamicShape(cast.getType()) &&
          !hasDynamicShape(cast.getSource().getType())) {
        operand.set(cast.getSource());
        if (cast->use_empty())
          cast->erase();
      }
  func.setType(FunctionType::get(func.getContext(), func.getArgumentTypes(),
                                 ret.getOperandTypes()));
  return success();
}

LogicalResult checkStaticShapes(func::FuncOp func, bool skip,
                                ArrayRef<ArgumentShape> shapes) {
  auto report = [&](Operation *op) {
    if (!skip)
      return op->emitOpError();
    InFlightDiagnostic warning = op->emitWarning();
    warning << "'" << op->getName() << "' op ";
    return warning;
  };
  const char *consequence =
      skip ? ": cs349 plans only static shapes; the function is left out "
             "(skip-dynamic=true)"
           : ": cs349 plans only static shapes (arg-shapes=INDEX:SHAPE "
             "gives dynamic arguments sizes, or export static shapes; "
             "skip-dynamic=true leaves such functions out)";
  for (auto [index, type] : llvm::enumerate(func.getArgumentTypes()))
    if (hasDynamicShape(type)) {
      InFlightDiagnostic diagnostic = report(func);
      diagnostic << "argument #" << index << " has the dynamic shape " << type
                 << consequence;
      SmallVector<std::string> given;
      for (const ArgumentShape &shape : shapes)
        if (shape.index == index)
          given.push_back("'" + shape.spelling + "'");
      if (!given.empty() && isReferenced(func))
        diagnostic.attachNote()
            << "arg-shapes gives no shapes to a function that others call "
               "(their calls expect its types)";
      else if (!given.empty())
        diagnostic.attachNote()
            << "arg-shapes " << llvm::join(given, ", ")
            << " does not fit it: a shape must have its rank and repeat its "
               "static sizes";
      return failure();
    }
  WalkResult walk = func.walk([&](Operation *op) {
    for (Type type : op->getResultTypes())
      if (hasDynamicShape(type)) {
        report(op) << "computes the dynamic shape " << type << consequence;
        return WalkResult::interrupt();
      }
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

} // namespace import

FailureOr<FunctionType> inferStaticSignature(func::FuncOp func,
                                             ArrayRef<ArgumentShape> shapes) {
  // The copy alone in a module of its own: no caller there fixes its types.
  OwningOpRef<ModuleOp> scratch = ModuleOp::create(func.getLoc());
  auto copy = cast<func::FuncOp>(func->clone());
  scratch->push_back(copy);
  import::giveArgumentShapes(copy, shapes);
  if (import::mayInferShapes(copy)) {
    MLIRContext *context = func.getContext();
    PassManager inferTosaShapes(context, func::FuncOp::getOperationName());
    inferTosaShapes.addPass(tosa::createTosaInferShapesPass());
    if (failed(inferTosaShapes.run(copy)) ||
        failed(import::propagateStaticShapes(
            copy, import::buildStaticShapeCanonicalization(context))))
      return failure();
  }
  return copy.getFunctionType();
}

} // namespace mlir::cs349
