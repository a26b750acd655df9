//===- ConstantMasks.cpp - masks built from constants, as causal_mask ------===//
//
// Front ends build the causal mask in the graph: an iota, a compare of
// positions, a select of 0 or -inf (or finfo.min), often plus a padding mask
// from an all-true attention mask. Those integer and i1 ops end up in opaque
// kernels, and the mask in the plan is data that --match-attention can only
// add to the scores. When the mask depends on constants alone it is one
// fixed tensor, so instead of recognising each way of writing it, the
// importer evaluates it and looks at the values: a mask that is provably
// causal (or a sliding window) becomes cs349.causal_mask, anything else stays
// what it was. Evaluating is the proof: the structure of the ops is never
// trusted, only the numbers they produce.
//
//===----------------------------------------------------------------------===//

#include "ImportPatterns.h"

#include "cs349/Dialect/CS349/IR/CS349Ops.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"

#include <cmath>
#include <limits>
#include <memory>

using namespace mlir;
using namespace mlir::cs349;

namespace {

/// Masks are [T, S] or [1, 1, T, S]: a few million elements at most for the
/// sequence lengths a plan is made for. Anything larger is not evaluated
/// (and stays as it was), so an import never spends seconds here.
constexpr int64_t kMaxEvaluatedElements = int64_t(1) << 22;

/// A scalar of any element type: integers sign-extended from their width
/// into `i` (so i1 true is -1, as APInt has it), floats in `f`.
struct Scalar {
  int64_t i = 0;
  double f = 0.0;
};

/// A tensor's elements in row-major order.
struct Tensor {
  SmallVector<int64_t> shape;
  Type elementType;
  std::vector<Scalar> data;
};
using TensorRef = std::shared_ptr<const Tensor>;

unsigned intWidth(Type type) {
  if (type.isIndex())
    return 64;
  return cast<IntegerType>(type).getWidth();
}

int64_t normalizeInt(Type type, int64_t value) {
  unsigned width = intWidth(type);
  if (width >= 64)
    return value;
  uint64_t mask = (uint64_t(1) << width) - 1;
  uint64_t bits = uint64_t(value) & mask;
  if (bits >> (width - 1))
    bits |= ~mask;
  return int64_t(bits);
}

uint64_t unsignedInt(Type type, int64_t value) {
  unsigned width = intWidth(type);
  if (width >= 64)
    return uint64_t(value);
  return uint64_t(value) & ((uint64_t(1) << width) - 1);
}

/// `value` rounded to the float type `type`, as the compiled program would
/// hold it.
double roundFloat(Type type, double value) {
  if (type.isF64())
    return value;
  if (type.isF32())
    return double(float(value));
  APFloat converted(value);
  bool lostInfo = false;
  converted.convert(cast<FloatType>(type).getFloatSemantics(),
                    APFloat::rmNearestTiesToEven, &lostInfo);
  return converted.convertToDouble();
}

SmallVector<int64_t> strides(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> result(shape.size(), 1);
  for (int64_t d = int64_t(shape.size()) - 2; d >= 0; --d)
    result[d] = result[d + 1] * shape[d + 1];
  return result;
}

int64_t numElements(ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t size : shape)
    n *= size;
  return n;
}

/// Evaluates values that depend on constants only. Every method returns
/// null for what it cannot evaluate (an op it does not know, a function
/// argument, too many elements), and the caller then leaves the IR alone.
class Evaluator {
public:
  TensorRef evaluate(Value value) {
    if (auto it = cache.find(value); it != cache.end())
      return it->second;
    TensorRef result = compute(value);
    cache[value] = result;
    return result;
  }

private:
  TensorRef compute(Value value) {
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (!type || !type.hasStaticShape() ||
        type.getNumElements() > kMaxEvaluatedElements)
      return nullptr;
    Operation *op = value.getDefiningOp();
    if (!op)
      return nullptr;
    if (auto kernel = dyn_cast<KernelOp>(op))
      return kernelResult(kernel, cast<OpResult>(value).getResultNumber());
    Attribute attr;
    if (matchPattern(value, m_Constant(&attr)))
      return fromAttr(attr, type);
    if (isa<ReshapeOp, tensor::ExpandShapeOp, tensor::CollapseShapeOp>(op))
      return reshaped(evaluate(op->getOperand(0)), type);
    if (auto reshape = dyn_cast<tensor::ReshapeOp>(op))
      return reshaped(evaluate(reshape.getSource()), type);
    if (auto empty = dyn_cast<tensor::EmptyOp>(op))
      return filled(type, Scalar());
    if (auto splat = dyn_cast<tensor::SplatOp>(op)) {
      std::optional<Scalar> scalar = scalarConstant(splat.getInput());
      return scalar ? filled(type, *scalar) : nullptr;
    }
    if (auto slice = dyn_cast<tensor::ExtractSliceOp>(op))
      return extractSlice(slice);
    if (auto fill = dyn_cast<linalg::FillOp>(op)) {
      std::optional<Scalar> scalar = scalarConstant(fill.getInputs()[0]);
      return scalar ? filled(type, *scalar) : nullptr;
    }
    if (auto generic = dyn_cast<linalg::GenericOp>(op))
      return genericResult(generic, cast<OpResult>(value).getResultNumber());
    if (auto elementwise = dyn_cast<ElementwiseOpInterface>(op))
      return elementwiseResult(elementwise, type);
    return nullptr;
  }

  static TensorRef filled(RankedTensorType type, Scalar scalar) {
    auto tensor = std::make_shared<Tensor>();
    tensor->shape.assign(type.getShape().begin(), type.getShape().end());
    tensor->elementType = type.getElementType();
    tensor->data.assign(type.getNumElements(), scalar);
    return tensor;
  }

  static TensorRef fromAttr(Attribute attr, RankedTensorType type) {
    auto dense = dyn_cast<DenseElementsAttr>(attr);
    if (!dense)
      return nullptr;
    Type elementType = type.getElementType();
    auto tensor = std::make_shared<Tensor>();
    tensor->shape.assign(type.getShape().begin(), type.getShape().end());
    tensor->elementType = elementType;
    tensor->data.resize(type.getNumElements());
    if (isa<FloatType>(elementType)) {
      if (dense.isSplat()) {
        Scalar s;
        s.f = dense.getSplatValue<APFloat>().convertToDouble();
        tensor->data.assign(tensor->data.size(), s);
      } else {
        for (auto [index, v] : llvm::enumerate(dense.getValues<APFloat>()))
          tensor->data[index].f = v.convertToDouble();
      }
      return tensor;
    }
    if (isa<IntegerType, IndexType>(elementType)) {
      if (dense.isSplat()) {
        Scalar s;
        s.i = normalizeInt(elementType,
                           dense.getSplatValue<APInt>().getSExtValue());
        tensor->data.assign(tensor->data.size(), s);
      } else {
        for (auto [index, v] : llvm::enumerate(dense.getValues<APInt>()))
          tensor->data[index].i = normalizeInt(elementType, v.getSExtValue());
      }
      return tensor;
    }
    return nullptr;
  }

  static std::optional<Scalar> scalarConstant(Value value) {
    Attribute attr;
    if (!matchPattern(value, m_Constant(&attr)))
      return std::nullopt;
    Scalar s;
    if (auto f = dyn_cast<FloatAttr>(attr)) {
      s.f = f.getValueAsDouble();
      return s;
    }
    if (auto i = dyn_cast<IntegerAttr>(attr)) {
      s.i = normalizeInt(i.getType(), i.getValue().getSExtValue());
      return s;
    }
    return std::nullopt;
  }

  static TensorRef reshaped(TensorRef input, RankedTensorType type) {
    if (!input || int64_t(input->data.size()) != type.getNumElements())
      return nullptr;
    auto tensor = std::make_shared<Tensor>(*input);
    tensor->shape.assign(type.getShape().begin(), type.getShape().end());
    return tensor;
  }

  TensorRef extractSlice(tensor::ExtractSliceOp slice) {
    TensorRef source = evaluate(slice.getSource());
    if (!source || !slice.hasUnitStride())
      return nullptr;
    ArrayRef<int64_t> offsets = slice.getStaticOffsets();
    ArrayRef<int64_t> sizes = slice.getStaticSizes();
    if (llvm::any_of(offsets, ShapedType::isDynamic) ||
        llvm::any_of(sizes, ShapedType::isDynamic))
      return nullptr;
    // The slice in the source's rank, then reshaped to the (possibly
    // rank-reduced) result.
    SmallVector<int64_t> sourceStrides = strides(source->shape);
    SmallVector<int64_t> sliceStrides = strides(sizes);
    auto tensor = std::make_shared<Tensor>();
    RankedTensorType type = slice.getType();
    tensor->shape.assign(type.getShape().begin(), type.getShape().end());
    tensor->elementType = source->elementType;
    int64_t count = numElements(sizes);
    tensor->data.resize(count);
    for (int64_t linear = 0; linear < count; ++linear) {
      int64_t from = 0;
      for (size_t d = 0; d < sizes.size(); ++d)
        from += ((linear / sliceStrides[d]) % sizes[d] + offsets[d]) *
                sourceStrides[d];
      tensor->data[linear] = source->data[from];
    }
    return tensor;
  }

  /// A cs349 elementwise op (arithmetic, compare, select, cast), by the
  /// element function it declares, with NumPy broadcasting of its operands.
  TensorRef elementwiseResult(ElementwiseOpInterface op,
                              RankedTensorType type) {
    // In operand order: when the first is not constant (the scores), a
    // large constant after it is never read.
    SmallVector<TensorRef> operands;
    for (Value operand : op->getOperands()) {
      TensorRef evaluated = evaluate(operand);
      if (!evaluated)
        return nullptr;
      operands.push_back(std::move(evaluated));
    }
    auto tensor = std::make_shared<Tensor>();
    tensor->shape.assign(type.getShape().begin(), type.getShape().end());
    tensor->elementType = type.getElementType();
    int64_t count = type.getNumElements();
    tensor->data.resize(count);
    SmallVector<int64_t> outStrides = strides(tensor->shape);
    auto index = [&](const Tensor &operand, int64_t linear) {
      size_t rank = tensor->shape.size(), offset = rank - operand.shape.size();
      SmallVector<int64_t> operandStrides = strides(operand.shape);
      int64_t from = 0;
      for (size_t d = offset; d < rank; ++d) {
        int64_t size = operand.shape[d - offset];
        if (size != 1)
          from += ((linear / outStrides[d]) % tensor->shape[d]) *
                  operandStrides[d - offset];
      }
      return from;
    };
    // The element functions take integers as their values (i1 as 0 or 1).
    auto toDouble = [](const Tensor &operand, Scalar scalar) {
      if (isa<FloatType>(operand.elementType))
        return scalar.f;
      return intWidth(operand.elementType) == 1 ? double(scalar.i != 0)
                                                : double(scalar.i);
    };
    SmallVector<double> element(operands.size());
    for (int64_t linear = 0; linear < count; ++linear) {
      for (auto [slot, operand] : llvm::enumerate(operands))
        element[slot] =
            toDouble(*operand, operand->data[index(*operand, linear)]);
      double r = op.evaluateElement(element);
      Scalar &out = tensor->data[linear];
      if (isa<FloatType>(tensor->elementType))
        out.f = roundFloat(tensor->elementType, r);
      else if (intWidth(tensor->elementType) == 1)
        out.i = r != 0.0 ? -1 : 0;
      else
        out.i = int64_t(r);
    }
    return tensor;
  }

  /// An opaque kernel's body, run on its evaluated inputs.
  TensorRef kernelResult(KernelOp kernel, unsigned number) {
    if (!kernel.isOpaque())
      return nullptr;
    Block &body = kernel.getBody().front();
    for (auto [input, argument] :
         llvm::zip(kernel.getOperands(), body.getArguments())) {
      TensorRef value = evaluate(input);
      if (!value)
        return nullptr;
      cache[argument] = value;
    }
    return evaluate(body.getTerminator()->getOperand(number));
  }

  /// Runs the loop nest: for every point, the body on the elements the
  /// indexing maps select, the yielded value stored at the output's point
  /// (so reductions accumulate through the output, as linalg defines them).
  TensorRef genericResult(linalg::GenericOp op, unsigned number) {
    if (!op.hasPureTensorSemantics())
      return nullptr;
    SmallVector<int64_t> loopSizes = op.getStaticLoopRanges();
    if (llvm::any_of(loopSizes, ShapedType::isDynamic) ||
        numElements(loopSizes) > kMaxEvaluatedElements)
      return nullptr;
    SmallVector<TensorRef> operands;
    for (Value operand : op->getOperands()) {
      TensorRef value = evaluate(operand);
      if (!value)
        return nullptr;
      operands.push_back(value);
    }
    SmallVector<std::shared_ptr<Tensor>> outputs;
    for (OpOperand &init : op.getDpsInitsMutable())
      outputs.push_back(
          std::make_shared<Tensor>(*operands[init.getOperandNumber()]));
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    Block &body = op.getRegion().front();
    unsigned numInputs = op.getNumDpsInputs();
    unsigned numLoops = loopSizes.size();

    // Where each operand's element sits: base + Σ stride[loop] · point[loop]
    // for the usual maps (loops and constants); others are composed.
    struct Access {
      int64_t base = 0;
      SmallVector<int64_t> loopStrides;
      bool composed = false;
    };
    SmallVector<Access> accesses;
    for (auto [index, map] : llvm::enumerate(maps)) {
      SmallVector<int64_t> operandStrides = strides(operands[index]->shape);
      Access access;
      access.loopStrides.assign(numLoops, 0);
      for (auto [d, expr] : llvm::enumerate(map.getResults())) {
        if (auto loop = dyn_cast<AffineDimExpr>(expr))
          access.loopStrides[loop.getPosition()] += operandStrides[d];
        else if (auto constant = dyn_cast<AffineConstantExpr>(expr))
          access.base += constant.getValue() * operandStrides[d];
        else
          access.composed = true;
      }
      if (access.composed)
        access.loopStrides = operandStrides;
      accesses.push_back(access);
    }

    // Every scalar of the body in a slot: the block arguments, then each
    // op's result; values from outside (constants) are read once.
    llvm::DenseMap<Value, unsigned> slotOf;
    SmallVector<Scalar> slots;
    for (BlockArgument argument : body.getArguments()) {
      slotOf[argument] = slots.size();
      slots.emplace_back();
    }
    auto slotFor = [&](Value value) -> std::optional<unsigned> {
      if (auto it = slotOf.find(value); it != slotOf.end())
        return it->second;
      std::optional<Scalar> constant = scalarConstant(value);
      if (!constant)
        return std::nullopt;
      slotOf[value] = slots.size();
      slots.push_back(*constant);
      return slotOf[value];
    };
    struct Step {
      Operation *op;
      SmallVector<unsigned, 3> in;
      unsigned out;
    };
    SmallVector<Step> steps;
    for (Operation &bodyOp : body.without_terminator()) {
      if (bodyOp.getNumResults() != 1 || bodyOp.getNumRegions() != 0)
        return nullptr;
      if (std::optional<Scalar> constant =
              scalarConstant(bodyOp.getResult(0))) {
        slotOf[bodyOp.getResult(0)] = slots.size();
        slots.push_back(*constant);
        continue;
      }
      Step step{&bodyOp, {}, 0};
      for (Value operand : bodyOp.getOperands()) {
        std::optional<unsigned> slot = slotFor(operand);
        if (!slot)
          return nullptr;
        step.in.push_back(*slot);
      }
      step.out = slots.size();
      slotOf[bodyOp.getResult(0)] = step.out;
      slots.emplace_back();
      steps.push_back(std::move(step));
    }
    SmallVector<unsigned> yieldSlots;
    for (Value yielded : body.getTerminator()->getOperands()) {
      std::optional<unsigned> slot = slotFor(yielded);
      if (!slot)
        return nullptr;
      yieldSlots.push_back(*slot);
    }

    SmallVector<int64_t> point(numLoops, 0);
    SmallVector<int64_t> offsets(maps.size());
    SmallVector<Scalar, 3> in;
    int64_t count = numElements(loopSizes);
    for (int64_t step = 0; step < count; ++step) {
      for (auto [index, access] : llvm::enumerate(accesses)) {
        int64_t offset = access.base;
        if (access.composed) {
          SmallVector<int64_t> at = maps[index].compose(point);
          for (auto [d, position] : llvm::enumerate(at))
            offset += position * access.loopStrides[d];
        } else {
          for (unsigned loop = 0; loop < numLoops; ++loop)
            offset += point[loop] * access.loopStrides[loop];
        }
        offsets[index] = offset;
        const Tensor &source =
            index < numInputs ? *operands[index] : *outputs[index - numInputs];
        slots[index] = source.data[offset];
      }
      for (const Step &bodyStep : steps) {
        in.clear();
        for (unsigned slot : bodyStep.in)
          in.push_back(slots[slot]);
        std::optional<Scalar> result = scalarOp(bodyStep.op, in, point);
        if (!result)
          return nullptr;
        slots[bodyStep.out] = *result;
      }
      for (auto [index, slot] : llvm::enumerate(yieldSlots))
        outputs[index]->data[offsets[numInputs + index]] = slots[slot];
      // The next point, last loop fastest.
      for (int64_t d = int64_t(numLoops) - 1; d >= 0; --d) {
        if (++point[d] < loopSizes[d])
          break;
        point[d] = 0;
      }
    }
    return outputs[number];
  }

  /// One scalar op of a generic body on its operands' values; none for ops
  /// it does not know.
  std::optional<Scalar> scalarOp(Operation *op, ArrayRef<Scalar> in,
                                 ArrayRef<int64_t> point) {
    Type type = op->getResult(0).getType();
    Type operandType = op->getNumOperands() ? op->getOperand(0).getType()
                                            : Type();
    Scalar out;
    auto setInt = [&](int64_t value) { out.i = normalizeInt(type, value); };
    auto setFloat = [&](double value) { out.f = roundFloat(type, value); };
    if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
      std::optional<Scalar> value = scalarConstant(constant);
      if (!value)
        return std::nullopt;
      out = *value;
    } else if (auto index = dyn_cast<linalg::IndexOp>(op)) {
      out.i = point[index.getDim()];
    } else if (auto cmp = dyn_cast<arith::CmpIOp>(op)) {
      int64_t a = in[0].i, b = in[1].i;
      uint64_t ua = unsignedInt(operandType, a), ub = unsignedInt(operandType, b);
      bool r;
      switch (cmp.getPredicate()) {
      case arith::CmpIPredicate::eq: r = a == b; break;
      case arith::CmpIPredicate::ne: r = a != b; break;
      case arith::CmpIPredicate::slt: r = a < b; break;
      case arith::CmpIPredicate::sle: r = a <= b; break;
      case arith::CmpIPredicate::sgt: r = a > b; break;
      case arith::CmpIPredicate::sge: r = a >= b; break;
      case arith::CmpIPredicate::ult: r = ua < ub; break;
      case arith::CmpIPredicate::ule: r = ua <= ub; break;
      case arith::CmpIPredicate::ugt: r = ua > ub; break;
      case arith::CmpIPredicate::uge: r = ua >= ub; break;
      }
      setInt(r ? 1 : 0);
    } else if (auto cmp = dyn_cast<arith::CmpFOp>(op)) {
      double a = in[0].f, b = in[1].f;
      bool unordered = std::isnan(a) || std::isnan(b);
      bool r;
      using P = arith::CmpFPredicate;
      switch (cmp.getPredicate()) {
      case P::AlwaysFalse: r = false; break;
      case P::OEQ: r = !unordered && a == b; break;
      case P::OGT: r = !unordered && a > b; break;
      case P::OGE: r = !unordered && a >= b; break;
      case P::OLT: r = !unordered && a < b; break;
      case P::OLE: r = !unordered && a <= b; break;
      case P::ONE: r = !unordered && a != b; break;
      case P::ORD: r = !unordered; break;
      case P::UEQ: r = unordered || a == b; break;
      case P::UGT: r = unordered || a > b; break;
      case P::UGE: r = unordered || a >= b; break;
      case P::ULT: r = unordered || a < b; break;
      case P::ULE: r = unordered || a <= b; break;
      case P::UNE: r = unordered || a != b; break;
      case P::UNO: r = unordered; break;
      case P::AlwaysTrue: r = true; break;
      }
      setInt(r ? 1 : 0);
    } else if (isa<arith::SelectOp>(op)) {
      out = in[0].i != 0 ? in[1] : in[2];
    } else if (isa<arith::AddIOp>(op)) {
      setInt(int64_t(uint64_t(in[0].i) + uint64_t(in[1].i)));
    } else if (isa<arith::SubIOp>(op)) {
      setInt(int64_t(uint64_t(in[0].i) - uint64_t(in[1].i)));
    } else if (isa<arith::MulIOp>(op)) {
      setInt(int64_t(uint64_t(in[0].i) * uint64_t(in[1].i)));
    } else if (isa<arith::AndIOp>(op)) {
      setInt(in[0].i & in[1].i);
    } else if (isa<arith::OrIOp>(op)) {
      setInt(in[0].i | in[1].i);
    } else if (isa<arith::XOrIOp>(op)) {
      setInt(in[0].i ^ in[1].i);
    } else if (isa<arith::MaxSIOp>(op)) {
      setInt(std::max(in[0].i, in[1].i));
    } else if (isa<arith::MinSIOp>(op)) {
      setInt(std::min(in[0].i, in[1].i));
    } else if (isa<arith::ExtSIOp, arith::TruncIOp, arith::IndexCastOp>(op)) {
      setInt(in[0].i);
    } else if (isa<arith::ExtUIOp, arith::IndexCastUIOp>(op)) {
      setInt(int64_t(unsignedInt(operandType, in[0].i)));
    } else if (isa<arith::SIToFPOp>(op)) {
      setFloat(double(in[0].i));
    } else if (isa<arith::UIToFPOp>(op)) {
      setFloat(double(unsignedInt(operandType, in[0].i)));
    } else if (isa<arith::FPToSIOp, arith::FPToUIOp>(op)) {
      // Out of range is poison in arith: nothing to evaluate.
      double truncated = std::trunc(in[0].f);
      unsigned width = intWidth(type);
      bool isSigned = isa<arith::FPToSIOp>(op);
      double low = isSigned ? -std::ldexp(1.0, width - 1) : 0.0;
      double high = isSigned ? std::ldexp(1.0, width - 1) : std::ldexp(1.0, width);
      if (!(truncated >= low && truncated < high) || width > 63)
        return std::nullopt;
      setInt(int64_t(truncated));
    } else if (isa<arith::ExtFOp, arith::TruncFOp>(op)) {
      setFloat(in[0].f);
    } else if (isa<arith::AddFOp>(op)) {
      setFloat(in[0].f + in[1].f);
    } else if (isa<arith::SubFOp>(op)) {
      setFloat(in[0].f - in[1].f);
    } else if (isa<arith::MulFOp>(op)) {
      setFloat(in[0].f * in[1].f);
    } else if (isa<arith::DivFOp>(op)) {
      setFloat(in[0].f / in[1].f);
    } else if (isa<arith::NegFOp>(op)) {
      setFloat(-in[0].f);
    } else if (isa<arith::MaximumFOp>(op)) {
      setFloat(std::isnan(in[0].f) || std::isnan(in[1].f)
                   ? NAN
                   : std::max(in[0].f, in[1].f));
    } else if (isa<arith::MinimumFOp>(op)) {
      setFloat(std::isnan(in[0].f) || std::isnan(in[1].f)
                   ? NAN
                   : std::min(in[0].f, in[1].f));
    } else if (isa<arith::MaxNumFOp>(op)) {
      setFloat(std::fmax(in[0].f, in[1].f));
    } else if (isa<arith::MinNumFOp>(op)) {
      setFloat(std::fmin(in[0].f, in[1].f));
    } else {
      return std::nullopt;
    }
    return out;
  }

  llvm::DenseMap<Value, TensorRef> cache;
};

/// What hides a key in a mask of `elementType`: -inf, or the lowest finite
/// value of the type (torch's finfo.min). Added to a score and shifted by
/// the row maximum, either gives exp() = 0 exactly as long as the row has
/// a visible key (a causal row always has its own position) and no score
/// is within 2^-24 of the lowest value itself.
bool isHidingValue(Type elementType, double value) {
  if (std::isinf(value) && value < 0)
    return true;
  APFloat lowest = APFloat::getLargest(
      cast<FloatType>(elementType).getFloatSemantics(), /*Negative=*/true);
  return value == lowest.convertToDouble();
}

/// The causal shape of an evaluated mask [1.., T, T]: std::nullopt when it is
/// not one, else the window (0 for none) and the value that hides.
struct CausalForm {
  int64_t window;
  double hidden;
};

std::optional<CausalForm> causalForm(const Tensor &mask) {
  size_t rank = mask.shape.size();
  if (rank < 2 || !isa<FloatType>(mask.elementType))
    return std::nullopt;
  int64_t t = mask.shape[rank - 2], s = mask.shape[rank - 1];
  if (t != s || t < 1 ||
      llvm::any_of(ArrayRef(mask.shape).drop_back(2),
                   [](int64_t size) { return size != 1; }))
    return std::nullopt;
  // The window is how many keys the last query sees; every row is then
  // checked against it.
  int64_t lastVisible = 0;
  for (int64_t j = 0; j < t; ++j)
    lastVisible += mask.data[(t - 1) * t + j].f == 0.0;
  int64_t window = lastVisible < t ? lastVisible : 0;
  if (lastVisible == 0)
    return std::nullopt;
  std::optional<double> hidden;
  for (int64_t i = 0; i < t; ++i)
    for (int64_t j = 0; j < t; ++j) {
      double value = mask.data[i * t + j].f;
      bool visible = j <= i && (window == 0 || i - window < j);
      if (visible) {
        // -0.0 == 0.0: a mask holding -0.0 adds the same.
        if (value != 0.0)
          return std::nullopt;
        continue;
      }
      if (!isHidingValue(mask.elementType, value) ||
          (hidden && *hidden != value))
        return std::nullopt;
      hidden = value;
    }
  return CausalForm{window, hidden.value_or(-INFINITY)};
}

/// Whether `op` is one of the ops whose constant results this file
/// evaluates: opaque kernels and the cs349 reshapes and elementwise ops
/// between them.
bool isMaskPiece(Operation *op) {
  if (auto kernel = dyn_cast<KernelOp>(op))
    return kernel.isOpaque();
  return isa<ReshapeOp, ElementwiseOpInterface>(op);
}

} // namespace

bool mlir::cs349::import::foldConstantMasks(func::FuncOp func) {
  Block &block = func.getBody().front();
  if (block.getOps<KernelOp>().empty())
    return false;
  Evaluator evaluator;
  // A mask is the last value of a constant computation: one whose readers
  // are not themselves part of it (the scores' add, a return). Only those
  // that go through an opaque kernel are new: the others were folded or
  // left alone on purpose by cs349's folders.
  SmallVector<std::pair<Value, CausalForm>> masks;
  llvm::DenseMap<Value, bool> throughKernel;
  for (Operation &op : block) {
    if (!isMaskPiece(&op))
      continue;
    bool kernelInput = isa<KernelOp>(op);
    for (Value operand : op.getOperands())
      kernelInput |= throughKernel.lookup(operand);
    for (Value result : op.getResults()) {
      throughKernel[result] = kernelInput;
      if (!kernelInput || !import::isCS349TensorType(result.getType()))
        continue;
      bool last = llvm::any_of(result.getUsers(), [&](Operation *user) {
        return !isMaskPiece(user) ||
               llvm::any_of(user->getResults(), [&](Value read) {
                 return !evaluator.evaluate(read);
               });
      });
      if (!last)
        continue;
      TensorRef value = evaluator.evaluate(result);
      if (!value)
        continue;
      if (std::optional<CausalForm> form = causalForm(*value))
        masks.push_back({result, *form});
    }
  }
  if (masks.empty())
    return false;
  for (auto [mask, form] : masks) {
    auto type = cast<RankedTensorType>(mask.getType());
    int64_t t = type.getShape().back();
    OpBuilder builder(mask.getContext());
    builder.setInsertionPointAfterValue(mask);
    Location loc = mask.getLoc();
    auto squareType =
        RankedTensorType::get({t, t}, type.getElementType());
    Value replacement = CausalMaskOp::create(
        builder, loc, squareType,
        form.window ? builder.getI64IntegerAttr(form.window) : IntegerAttr());
    // finfo.min where causal_mask has -inf: the same 0 or hidden where it
    // is the mask, and the same numbers where it is a result.
    if (!std::isinf(form.hidden)) {
      auto scalarType = RankedTensorType::get({}, type.getElementType());
      Value hidden = ConstantOp::create(
          builder, loc,
          DenseElementsAttr::get(
              scalarType, builder.getFloatAttr(type.getElementType(),
                                               form.hidden)));
      replacement = MaxOp::create(builder, loc, replacement, hidden);
    }
    if (replacement.getType() != type)
      replacement = ReshapeOp::create(builder, loc, type, replacement);
    mask.replaceAllUsesWith(replacement);
  }
  // What computed the masks is dead now: opaque kernels are not pure ops
  // the greedy driver would delete, so they go here.
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(block)))
    if (isMaskPiece(&op) && op.use_empty())
      op.erase();
  return true;
}
