//===- Runner.cpp - JIT-run a cs349 function on deterministic inputs ------===//

#include "cs349/Execution/Runner.h"

#include "ArgumentShapes.h"

#include "cs349/Dialect/CS349/IR/CS349Dialect.h"
#include "cs349/Dialect/CS349/IR/CS349Ops.h"
#include "cs349/Execution/TensorData.h"
#include "cs349/Import/Passes.h"
#include "cs349/Support/ElementType.h"
#include "cs349/Support/HostMemory.h"
#include "cs349/Support/TensorBytes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/ExecutionEngine/CRunnerUtils.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <set>

using namespace mlir;
using mlir::cs349::CS349Dialect;

namespace cs349::run {

Buffer::Buffer(RankedTensorType type, ElementKind kind)
    : type(type), kind(kind) {
  data.resize(std::max<int64_t>(type.getNumElements(), 1) *
              elementBytes(kind));
  ArrayRef<int64_t> shape = type.getShape();
  descriptor.push_back(reinterpret_cast<int64_t>(data.data()));
  descriptor.push_back(reinterpret_cast<int64_t>(data.data()));
  descriptor.push_back(0);
  descriptor.insert(descriptor.end(), shape.begin(), shape.end());
  std::vector<int64_t> strides(shape.size(), 1);
  for (int64_t dim = int64_t(shape.size()) - 2; dim >= 0; --dim)
    strides[dim] = strides[dim + 1] * shape[dim + 1];
  descriptor.insert(descriptor.end(), strides.begin(), strides.end());
  descriptorPointer = descriptor.data();
}

float Buffer::element(int64_t i) const {
  return loadElement(kind, data.data() + i * elementBytes(kind));
}

void registerRunnerDialects(DialectRegistry &registry) {
  registry.insert<mlir::cs349::CS349Dialect>();
  mlir::cs349::registerLoweringDialects(registry);
  // The original of an imported program runs too (upstream's lowering).
  mlir::cs349::registerImportedDialects(registry);
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
}

namespace {
llvm::Error failure(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

std::string typeString(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return text;
}

/// Adds `bytes` to `total`; false when the sum no longer fits in memory.
bool reserveHostMemory(uint64_t bytes, uint64_t &total) {
  return !__builtin_add_overflow(total, bytes, &total) &&
         total <= ::cs349::hostMemoryBytes();
}

/// `reserved` counts the bytes of every buffer made so far (and of the
/// temporary argument values), so a function whose tensors cannot all be in
/// memory is an error before anything is allocated.
bool makeBuffers(TypeRange types, std::vector<Buffer> &buffers,
                 uint64_t &reserved, std::string &error) {
  for (Type type : types) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    std::optional<ElementKind> kind =
        tensor ? mlir::cs349::getElementKind(tensor.getElementType())
               : std::nullopt;
    if (!tensor || !tensor.hasStaticShape() || !kind) {
      error = "expected static bf16/f16/f32/i1/i32/i64 tensors, got " +
              typeString(type);
      return false;
    }
    std::string whyNot;
    std::optional<uint64_t> bytes =
        mlir::cs349::getTensorBytes(tensor, &whyNot);
    if (!bytes) {
      error = "a " + typeString(type) +
              " does not fit in this machine's memory (" + whyNot + ")";
      return false;
    }
    // A tensor of no elements still gets one; fill() makes a float copy.
    uint64_t elements = std::max<int64_t>(tensor.getNumElements(), 1);
    std::optional<uint64_t> values =
        llvm::checkedMulUnsigned<uint64_t>(elements, sizeof(float));
    if (!values ||
        !reserveHostMemory(elements * elementBytes(*kind), reserved) ||
        !reserveHostMemory(*values, reserved)) {
      error = "a " + typeString(type) +
              " does not fit in this machine's memory (" +
              std::to_string(::cs349::hostMemoryBytes()) +
              " bytes, with the tensors before it)";
      return false;
    }
    buffers.emplace_back(tensor, *kind);
  }
  return true;
}

/// The number of slices of the smallest table that `value` selects from as
/// the indices of a cs349.gather, a tosa.gather or a tensor.extract in a
/// linalg body, following it through views, integer casts and into kernels
/// and generics; nullopt when nothing reads it as indices.
std::optional<int64_t> indexBound(Value value) {
  std::optional<int64_t> bound;
  SmallVector<Value> worklist{value};
  llvm::DenseSet<Value> seen;
  while (!worklist.empty()) {
    Value current = worklist.pop_back_val();
    if (!seen.insert(current).second)
      continue;
    for (OpOperand &use : current.getUses()) {
      Operation *user = use.getOwner();
      if (auto gather = dyn_cast<mlir::cs349::GatherOp>(user)) {
        if (use.get() != gather.getIndices())
          continue;
        int64_t slices =
            gather.getTable().getType().getDimSize(gather.getAxis());
        bound = bound ? std::min(*bound, slices) : slices;
      } else if (auto gather = dyn_cast<tosa::GatherOp>(user)) {
        // Rows of each batch's [K, C] table: values [N, K, C].
        if (use.get() != gather.getIndices())
          continue;
        int64_t slices =
            cast<ShapedType>(gather.getValues().getType()).getDimSize(1);
        bound = bound ? std::min(*bound, slices) : slices;
      } else if (auto extract = dyn_cast<tensor::ExtractOp>(user)) {
        // An id a linalg body loads and indexes a table with (a gather as
        // front ends write it, run as written).
        for (auto [dim, index] : llvm::enumerate(extract.getIndices()))
          if (index == current) {
            int64_t slices = extract.getTensor().getType().getDimSize(dim);
            bound = bound ? std::min(*bound, slices) : slices;
          }
      } else if (isa<arith::IndexCastOp, arith::IndexCastUIOp>(user)) {
        worklist.push_back(user->getResult(0));
      } else if (auto generic = dyn_cast<linalg::GenericOp>(user)) {
        if (use.getOperandNumber() < generic.getNumDpsInputs())
          worklist.push_back(
              generic.getRegion().front().getArgument(use.getOperandNumber()));
      } else if (auto kernel = dyn_cast<mlir::cs349::KernelOp>(user)) {
        worklist.push_back(
            kernel.getBody().front().getArgument(use.getOperandNumber()));
      } else if (isa<ViewLikeOpInterface>(user) ||
                 (isa<mlir::cs349::CastOp>(user) &&
                  isa<IntegerType>(getElementTypeOrSelf(user->getResult(0))))) {
        worklist.push_back(user->getResult(0));
      }
    }
  }
  return bound;
}

/// Weights a front end printed without their data
/// (`dense_resource<__elided__>`) get values that depend on their type
/// alone: every elided resource has the same key, so the importer's
/// constant CSE may merge two of one type, and the original and the imported
/// program then still read the same numbers. A float resource gets the
/// values of an argument of that shape at a fixed position (small, like a
/// weight); an integer one (a table of position or token type ids) those of
/// an integer argument that indexes nothing: 0 or 1 for i1, else in
/// [0, kIntegerBound), in range of any table it indexes with more rows.
void fillElidedResources(ModuleOp module) {
  constexpr uint64_t kResourceSeed = 0x7e51;
  module.walk([&](Operation *op) {
    for (NamedAttribute named : op->getAttrs()) {
      auto resource = dyn_cast<DenseResourceElementsAttr>(named.getValue());
      if (!resource || resource.getRawHandle().getBlob())
        continue;
      auto type = dyn_cast<RankedTensorType>(resource.getType());
      if (!type || !type.hasStaticShape())
        continue;
      std::vector<int64_t> shape(type.getShape().begin(),
                                 type.getShape().end());
      if (auto integerType = dyn_cast<IntegerType>(type.getElementType())) {
        unsigned width = integerType.getWidth();
        if (width != 1 && width != 32 && width != 64)
          continue;
        std::vector<int64_t> ids =
            integerArgumentValues(kResourceSeed, /*position=*/0, shape,
                                  width == 1 ? 2 : kIntegerBound);
        SmallVector<APInt> elements;
        elements.reserve(ids.size());
        for (int64_t id : ids)
          elements.push_back(APInt(width, uint64_t(id)));
        op->setAttr(named.getName(), DenseElementsAttr::get(type, elements));
        continue;
      }
      auto elementType = dyn_cast<FloatType>(type.getElementType());
      if (!elementType)
        continue;
      std::vector<float> values =
          argumentValues(kResourceSeed, /*position=*/0, shape);
      SmallVector<APFloat> elements;
      elements.reserve(values.size());
      for (float value : values) {
        APFloat element(value);
        bool lostInfo = false;
        element.convert(elementType.getFloatSemantics(),
                        APFloat::rmNearestTiesToEven, &lostInfo);
        elements.push_back(element);
      }
      op->setAttr(named.getName(), DenseElementsAttr::get(type, elements));
    }
  });
}
} // namespace

llvm::Expected<RunResult> runModule(ModuleOp module,
                                    const RunOptions &options) {
  MLIRContext *context = module.getContext();
  RunResult result;
  fillElidedResources(module);
  func::FuncOp func;
  if (!options.functionName.empty()) {
    func = module.lookupSymbol<func::FuncOp>(options.functionName);
    if (!func || func.isExternal())
      return failure("no function @" + options.functionName + " with a body");
  } else {
    // An initializer (what --fold-norm-weight splits off) runs as part of
    // the function it initializes, not on its own.
    for (auto candidate : module.getOps<func::FuncOp>()) {
      if (candidate.isExternal() || !candidate.isPublic() ||
          CS349Dialect::InitializerAttrHelper(context).isAttrPresent(
              candidate))
        continue;
      if (func)
        return failure("more than one public function: choose one with "
                       "--function");
      func = candidate;
    }
    if (!func)
      return failure("no public function with a body");
  }
  std::string name = func.getName().str();
  func::FuncOp init;
  if (FlatSymbolRefAttr ref =
          CS349Dialect::InitializedByAttrHelper(context).getAttr(func)) {
    init = module.lookupSymbol<func::FuncOp>(ref.getValue());
    if (!init || init.isExternal())
      return failure("@" + name + " is initialized by @" + ref.getValue() +
                  ", which has no body");
  }

  // A function given sizes for its dynamic arguments returns, after its
  // results, whether each had the sizes the importer derives.
  llvm::Expected<bool> sized = giveArgumentShapes(func, options.argShapes);
  if (!sized)
    return sized.takeError();

  std::vector<Buffer> inputs, outputs, initInputs, initOutputs;
  std::string bufferError;
  // A planned function allocates its arena on top of its tensors; the
  // compiled code would crash on a failed allocation.
  uint64_t reserved = 0;
  mlir::cs349::ArenaAttr arena = CS349Dialect::ArenaAttrHelper(context).getAttr(func);
  bool planned = options.mode == mlir::cs349::LoweringMode::Planned ||
                 (options.mode == mlir::cs349::LoweringMode::Auto && arena);
  if (planned && arena && !reserveHostMemory(arena.getBytes(), reserved))
    return failure("the arena of @" + name + " (" +
                llvm::Twine(arena.getBytes()) +
                " bytes) does not fit in this machine's memory (" +
                llvm::Twine(::cs349::hostMemoryBytes()) + " bytes)");
  if (!makeBuffers(func.getArgumentTypes(), inputs, reserved, bufferError) ||
      !makeBuffers(func.getResultTypes(), outputs, reserved, bufferError) ||
      (init && (!makeBuffers(init.getArgumentTypes(), initInputs, reserved,
                             bufferError) ||
                !makeBuffers(init.getResultTypes(), initOutputs, reserved,
                             bufferError))))
    return failure("@" + name + ": " + bufferError);

  // Every argument's values depend on its position in the original
  // signature, so that a weight gets the same values before and after a
  // pass moves it. Without an initializer that is the position itself.
  std::vector<int64_t> position(inputs.size(), -1);
  std::vector<int64_t> initResult(inputs.size(), -1);
  std::vector<int64_t> initPosition(initInputs.size(), -1);
  std::set<int64_t> taken;
  constexpr llvm::StringLiteral kLayerArg =
      CS349Dialect::LayerArgAttrHelper::getNameStr();
  constexpr llvm::StringLiteral kInitResult =
      CS349Dialect::InitResultAttrHelper::getNameStr();
  if (init) {
    for (unsigned i = 0; i < initInputs.size(); ++i) {
      auto original = init.getArgAttrOfType<IntegerAttr>(i, kLayerArg);
      if (!original)
        return failure("argument #" + llvm::Twine(i) + " of @" + init.getName() +
                    " has no " + kLayerArg);
      initPosition[i] = original.getInt();
      taken.insert(original.getInt());
    }
    for (unsigned j = 0; j < inputs.size(); ++j) {
      if (auto k = func.getArgAttrOfType<IntegerAttr>(j, kInitResult)) {
        if (k.getInt() < 0 || k.getInt() >= int64_t(initOutputs.size()) ||
            initOutputs[k.getInt()].type != inputs[j].type)
          return failure("argument #" + llvm::Twine(j) + " of @" + name +
                      " names no initializer result of its type");
        initResult[j] = k.getInt();
      } else if (auto original =
                     func.getArgAttrOfType<IntegerAttr>(j, kLayerArg)) {
        position[j] = original.getInt();
        taken.insert(original.getInt());
      }
    }
  }
  // The other arguments keep their order among the original ones.
  int64_t next = 0;
  for (unsigned j = 0; j < inputs.size(); ++j) {
    if (position[j] >= 0 || initResult[j] >= 0)
      continue;
    while (taken.count(next))
      ++next;
    position[j] = next;
    taken.insert(next);
  }
  // With --inputs, the file holds the arguments in the order of the
  // original signature: an argument starts after every one before it.
  std::vector<float> given;
  std::map<int64_t, uint64_t> givenOffset;
  if (!options.inputsFile.empty()) {
    std::map<int64_t, uint64_t> elementsAt;
    for (unsigned j = 0; j < inputs.size(); ++j)
      if (position[j] >= 0)
        elementsAt[position[j]] = inputs[j].size();
    for (unsigned i = 0; i < initInputs.size(); ++i)
      elementsAt[initPosition[i]] = initInputs[i].size();
    uint64_t total = 0;
    for (auto [original, elements] : elementsAt) {
      givenOffset[original] = total;
      total += elements;
    }
    auto file = llvm::MemoryBuffer::getFile(options.inputsFile, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
    if (!file)
      return failure("cannot read '" + options.inputsFile + "'");
    uint64_t bytes = (*file)->getBufferSize();
    if (bytes != total * sizeof(float))
      return failure("'" + options.inputsFile + "' has " + llvm::Twine(bytes) +
                  " bytes; the " + llvm::Twine(elementsAt.size()) +
                  " arguments of @" + name + " need " + llvm::Twine(total) +
                  " float32 values (" + llvm::Twine(total * sizeof(float)) +
                  " bytes)");
    given.resize(total);
    const unsigned char *raw =
        reinterpret_cast<const unsigned char *>((*file)->getBufferStart());
    for (uint64_t i = 0; i < total; ++i) {
      uint32_t word = uint32_t(raw[4 * i]) | uint32_t(raw[4 * i + 1]) << 8 |
                      uint32_t(raw[4 * i + 2]) << 16 |
                      uint32_t(raw[4 * i + 3]) << 24;
      std::memcpy(&given[i], &word, sizeof(float));
    }
  }
  auto fill = [&](Buffer &buffer, int64_t original, Value argument) {
    std::vector<int64_t> shape(buffer.type.getShape().begin(),
                               buffer.type.getShape().end());
    if (!::cs349::isFloatKind(buffer.kind) && options.inputsFile.empty()) {
      int64_t bound = kIntegerBound;
      if (buffer.kind == ElementKind::I1)
        bound = 2;
      else if (std::optional<int64_t> slices = indexBound(argument))
        bound = *slices;
      std::vector<int64_t> ids =
          integerArgumentValues(options.seed, original, shape, bound);
      for (size_t i = 0; i < ids.size(); ++i)
        storeInteger(buffer.kind, ids[i],
                     buffer.data.data() + i * elementBytes(buffer.kind));
      return;
    }
    std::vector<float> values;
    if (given.empty() && options.inputsFile.empty())
      values = argumentValues(options.seed, original, shape);
    else
      values.assign(given.begin() + givenOffset[original],
                    given.begin() + givenOffset[original] + buffer.size());
    for (size_t i = 0; i < values.size(); ++i)
      storeElement(buffer.kind, values[i],
                   buffer.data.data() + i * elementBytes(buffer.kind));
  };
  for (unsigned j = 0; j < inputs.size(); ++j)
    if (position[j] >= 0)
      fill(inputs[j], position[j], func.getArgument(j));
  for (unsigned i = 0; i < initInputs.size(); ++i)
    fill(initInputs[i], initPosition[i], init.getArgument(i));

  std::string initName = init ? init.getName().str() : "";
  for (func::FuncOp f : {func, init}) {
    if (!f)
      continue;
    f->setAttr("llvm.emit_c_interface", UnitAttr::get(context));
    // The cs349 argument annotations are read above; LLVM has no use for
    // them (and would warn about each).
    auto strip = [](DictionaryAttr attrs, auto remove) {
      if (!attrs)
        return;
      for (NamedAttribute attr : llvm::to_vector(attrs.getValue()))
        if (isa_and_nonnull<CS349Dialect>(attr.getNameDialect()))
          remove(attr.getName());
    };
    for (unsigned i = 0; i < f.getNumArguments(); ++i)
      strip(f.getArgAttrDict(i),
            [&](StringAttr name) { f.removeArgAttr(i, name); });
    for (unsigned i = 0; i < f.getNumResults(); ++i)
      strip(f.getResultAttrDict(i),
            [&](StringAttr name) { f.removeResultAttr(i, name); });
  }
  // Only the function and its initializer run: the module's other functions
  // are made private so that symbol DCE drops every one they do not call
  // (with nine functions in a module, lowering and compiling all of them
  // took 2.5x the time of the one that runs).
  for (auto candidate : module.getOps<func::FuncOp>())
    SymbolTable::setSymbolVisibility(
        candidate, candidate == func || candidate == init
                       ? SymbolTable::Visibility::Public
                       : SymbolTable::Visibility::Private);
  PassManager pm(context);
  pm.addPass(createSymbolDCEPass());
  // The module is verified once, after the whole lowering: between its
  // twenty passes the verifier would cost a third of the time of a run.
  // Upstream's lowering of dynamic sizes can build invalid IR (TOSA's
  // transposes of constants, gathers) that the next pass would crash on.
  pm.enableVerifier(*sized);
  if (options.configureLowering && failed(options.configureLowering(pm)))
    return failure("the lowering's pass manager options are invalid");
  mlir::cs349::LoweringPipelineOptions lowering;
  lowering.mode = options.mode;
  lowering.attentionBlock = options.attentionBlock;
  lowering.kernelScratch = options.kernelScratch;
  mlir::cs349::buildLowerToLLVMPipeline(pm, lowering);
  if (failed(pm.run(module)) || failed(verify(module)))
    return failure("lowering failed");

  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  ExecutionEngineOptions engineOptions;
  auto transformer = makeOptimizingTransformer(options.optLevel, 0, nullptr);
  engineOptions.transformer = transformer;
  // The engine compiles with the target machine it is given and ignores
  // its own jitCodeGenOptLevel when it makes one: without this, -O 0 still
  // ran the optimizing instruction selector and register allocator, two
  // thirds of a small program's run.
  auto codeGenLevel =
      static_cast<llvm::CodeGenOptLevel>(std::min(options.optLevel, 3u));
  llvm::Expected<llvm::orc::JITTargetMachineBuilder> machineBuilder =
      llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!machineBuilder)
    return failure("no target machine for this host: " +
                   llvm::toString(machineBuilder.takeError()));
  machineBuilder->setCodeGenOptLevel(codeGenLevel);
  llvm::Expected<std::unique_ptr<llvm::TargetMachine>> machine =
      machineBuilder->createTargetMachine();
  if (!machine)
    return failure("no target machine for this host: " +
                   llvm::toString(machine.takeError()));
  if (codeGenLevel == llvm::CodeGenOptLevel::None)
    (*machine)->setO0WantsFastISel(true);
  engineOptions.jitCodeGenOptLevel = codeGenLevel;
  auto engine =
      ExecutionEngine::create(module, engineOptions, std::move(*machine));
  if (!engine)
    return failure("JIT compilation failed: " + llvm::toString(engine.takeError()));
  (*engine)->registerSymbols([](llvm::orc::MangleAndInterner interner) {
    llvm::orc::SymbolMap symbols;
    auto bind = [&](const char *symbol, void *address) {
      symbols[interner(symbol)] = {llvm::orc::ExecutorAddr::fromPtr(address),
                                   llvm::JITSymbolFlags::Exported};
    };
    bind("_mlir_memref_to_llvm_alloc",
         reinterpret_cast<void *>(&cs349CountingAlloc));
    bind("_mlir_memref_to_llvm_aligned_alloc",
         reinterpret_cast<void *>(&cs349CountingAlignedAlloc));
    bind("_mlir_memref_to_llvm_free",
         reinterpret_cast<void *>(&cs349CountingFree));
    // Strided copies (bufferized tensor.insert_slice in the ops an imported
    // program keeps as they are) call the runtime's copy.
    bind("memrefCopy", reinterpret_cast<void *>(&memrefCopy));
    return symbols;
  });
  (*engine)->initialize();

  // After buffer-results-to-out-params every result is a trailing
  // argument; the C interface takes a pointer to each descriptor.
  auto call = [&](StringRef callee, std::vector<Buffer> &ins,
                  std::vector<Buffer> &outs) -> llvm::Error {
    SmallVector<void *> arguments;
    for (Buffer &buffer : ins)
      arguments.push_back(&buffer.descriptorPointer);
    for (Buffer &buffer : outs)
      arguments.push_back(&buffer.descriptorPointer);
    return (*engine)->invokePacked(("_mlir_ciface_" + callee).str(),
                                   arguments);
  };
  if (init) {
    // Load time: the initializer's allocations are not the layer's.
    if (llvm::Error error = call(initName, initInputs, initOutputs))
      return failure("call of @" + initName +
                  " failed: " + llvm::toString(std::move(error)));
    for (unsigned j = 0; j < inputs.size(); ++j)
      if (initResult[j] >= 0)
        std::copy(initOutputs[initResult[j]].data.begin(),
                  initOutputs[initResult[j]].data.end(),
                  inputs[j].data.begin());
  }
  resetAllocationStats();
  if (llvm::Error error = call(name, inputs, outputs))
    return failure("call failed: " + llvm::toString(std::move(error)));
  result.stats = allocationStats();
  if (*sized && !outputs.empty()) {
    const Buffer &same = outputs.back();
    for (int64_t index = 0; index < same.size(); ++index)
      if (loadInteger(same.kind, same.data.data() +
                                         index * elementBytes(same.kind)) == 0)
        return failure("@" + name + ": result #" + llvm::Twine(index) +
                       " has other sizes at run time than " +
                       typeString(outputs[index].type) +
                       ", which the importer derives from --arg-shapes");
    outputs.pop_back();
  }

  result.functionName = name;
  result.planned = planned;
  result.arena = arena;
  result.inputs = std::move(inputs);
  result.outputs = std::move(outputs);
  return result;
}

} // namespace cs349::run
