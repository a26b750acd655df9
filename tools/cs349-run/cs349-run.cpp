//===- cs349-run.cpp - JIT-run a cs349 function on the CPU ----------------===//
//
//   cs349-run FILE [--seed N | --inputs VALUES] [--function NAME]
//                  [--mode auto|planned|unplanned] [--kernel-scratch]
//   cs349-run --compare A B [--rtol R] [--atol A]
//
// Lowers the module with the lower-to-llvm pipeline, compiles it with
// MLIR's ExecutionEngine, feeds every argument deterministic values (or the
// values of an --inputs file), prints
// every result and the heap memory the compiled code allocated. Results are
// printed in a text form that --compare reads back.
//
//===----------------------------------------------------------------------===//

#include "AllocationCounter.h"
#include "TensorData.h"

#include "cs349/Conversion/Passes.h"
#include "cs349/Dialect/CS349/IR/CS349Attrs.h"
#include "cs349/Dialect/CS349/IR/CS349Dialect.h"
#include "cs349/Dialect/CS349/IR/CS349Ops.h"
#include "cs349/Import/Passes.h"
#include "cs349/Support/ElementType.h"
#include "cs349/Support/HostMemory.h"
#include "cs349/Support/TensorBytes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/ExecutionEngine/CRunnerUtils.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>
#include <set>


using namespace mlir;
using namespace ::cs349::run;
using mlir::cs349::CS349Dialect;

namespace cl = llvm::cl;

// Only these appear in --help: the shared LLVM library registers hundreds of
// code generator options that mean nothing to a user of this tool.
static cl::OptionCategory runCategory("cs349-run options");

static cl::list<std::string> files(cl::Positional, cl::OneOrMore,
                                   cl::cat(runCategory), cl::desc("<input.mlir> | --compare A B"));
static cl::opt<uint64_t> seed("seed", cl::init(1),
                              cl::cat(runCategory), cl::desc("Seed of the argument values"));
static cl::opt<std::string> inputsFile(
    "inputs", cl::init(""), cl::cat(runCategory),
    cl::desc("Read the argument values from this file instead of making them "
             "from --seed: every argument of the original signature in "
             "order, row-major, as little-endian 32-bit floats (rounded to "
             "each argument's element type)"));
static cl::opt<std::string>
    functionName("function", cl::init(""),
                 cl::cat(runCategory), cl::desc("Function to run (default: the only public one)"));
static cl::opt<mlir::cs349::LoweringMode>
    mode("mode", cl::init(mlir::cs349::LoweringMode::Auto),
         cl::cat(runCategory),
         cl::desc("Which route to take (see convert-cs349-to-linalg)"),
         mlir::cs349::loweringModeValues());
static cl::opt<int64_t> attentionBlock(
    "attention-block", cl::init(32),
    cl::cat(runCategory), cl::desc("Keys per block of the FlashAttention loop"));
static cl::opt<bool> kernelScratch(
    "kernel-scratch", cl::init(false),
    cl::cat(runCategory), cl::desc("Let kernels keep row statistics and twice-read matmuls in "
             "scratch tensors (faster; allocates outside the plan's arena). "
             "Default: recompute them, so a planned run allocates exactly "
             "its arena"));
static cl::opt<unsigned> optLevel("O", cl::init(2),
                                  cl::cat(runCategory), cl::desc("LLVM optimization level (0-3)"));
static cl::opt<bool> summaryOnly(
    "summary", cl::init(false),
    cl::cat(runCategory), cl::desc("Print a checksum of each result instead of its values"));
static cl::opt<bool> printInputs(
    "print-inputs", cl::init(false),
    cl::cat(runCategory), cl::desc("Also print the argument values (as 'argument N: type')"));
static cl::opt<bool> compare("compare", cl::init(false),
                             cl::cat(runCategory), cl::desc("Compare two outputs of cs349-run"));
static cl::opt<double> relTolerance("rtol", cl::init(0.0),
                            cl::cat(runCategory), cl::desc("Relative tolerance of --compare"));
static cl::opt<double> absTolerance("atol", cl::init(0.0),
                            cl::cat(runCategory), cl::desc("Absolute tolerance of --compare"));

namespace {
int fail(const llvm::Twine &message) {
  llvm::errs() << "cs349-run: " << message << "\n";
  return 1;
}

/// A memref descriptor as the C interface passes it: allocated and aligned
/// pointers, offset, sizes, strides (all 8-byte words).
struct Buffer {
  RankedTensorType type;
  ElementKind kind;
  std::vector<char> data;
  std::vector<int64_t> descriptor;
  void *descriptorPointer = nullptr;

  Buffer(RankedTensorType type, ElementKind kind) : type(type), kind(kind) {
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
  int64_t size() const { return type.getNumElements(); }
};

/// The number of slices of the smallest table that `value` selects from as
/// the indices of a cs349.gather, following it through views, integer casts
/// and into kernels; nullopt when no gather reads it as indices.
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

void printBuffer(const char *what, unsigned index, const Buffer &buffer) {
  std::printf("%s %u: %s\n", what, index, typeString(buffer.type).c_str());
  if (summaryOnly) {
    double sum = 0.0, absSum = 0.0;
    for (int64_t i = 0; i < buffer.size(); ++i) {
      double x = loadElement(buffer.kind,
                             buffer.data.data() + i * elementBytes(buffer.kind));
      sum += x;
      absSum += std::fabs(x);
    }
    std::printf("sum %.6e abs-sum %.6e\n", sum, absSum);
    return;
  }
  for (int64_t i = 0; i < buffer.size(); ++i) {
    const char *element = buffer.data.data() + i * elementBytes(buffer.kind);
    if (!::cs349::isFloatKind(buffer.kind)) {
      std::printf(" %lld", (long long)loadInteger(buffer.kind, element));
      if (i % 8 == 7 || i + 1 == buffer.size())
        std::printf("\n");
      continue;
    }
    float x = loadElement(buffer.kind, element);
    // Enough digits to read every element back exactly: 7 significant
    // digits for bf16/f16, 9 for f32.
    std::printf(buffer.kind == ElementKind::F32 ? " %.8e" : " %.6e", x);
    if (i % 8 == 7 || i + 1 == buffer.size())
      std::printf("\n");
  }
}

int runCompare() {
  if (files.size() != 2)
    return fail("--compare expects two files, got " +
                llvm::Twine(files.size()));
  std::vector<ResultText> results[2];
  for (int i = 0; i < 2; ++i) {
    auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(files[i]);
    if (!buffer)
      return fail("cannot read '" + files[i] + "'");
    std::string error;
    if (!parseResults((*buffer)->getBuffer().str(), results[i], error))
      return fail(files[i] + ": " + error);
    if (results[i].empty())
      return fail(files[i] + ": expected results printed by cs349-run");
  }
  Comparison comparison = compareResults(results[0], results[1], relTolerance,
                                         absTolerance);
  if (!comparison.error.empty())
    return fail(comparison.error);
  std::printf("compare: %llu values, max abs diff %.6e, max rel diff %.6e, "
              "%llu outside rtol %g atol %g\n",
              (unsigned long long)comparison.compared, comparison.maxAbsDiff,
              comparison.maxRelDiff,
              (unsigned long long)comparison.mismatches, relTolerance.getValue(),
              absTolerance.getValue());
  for (const std::string &mismatch : comparison.firstMismatches)
    std::printf("  %s\n", mismatch.c_str());
  return comparison.mismatches == 0 ? 0 : 1;
}

int runFunction() {
  if (files.size() != 1)
    return fail("expected one input file, got " + llvm::Twine(files.size()));

  DialectRegistry registry;
  registry.insert<mlir::cs349::CS349Dialect>();
  mlir::cs349::registerLoweringDialects(registry);
  // The original of an imported program runs too (upstream's lowering).
  mlir::cs349::registerImportedDialects(registry);
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  MLIRContext context(registry);

  llvm::SourceMgr sourceMgr;
  std::string error;
  auto file = openInputFile(files[0], &error);
  if (!file)
    return fail(error);
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return 1;

  func::FuncOp func;
  if (!functionName.empty()) {
    func = module->lookupSymbol<func::FuncOp>(functionName);
    if (!func || func.isExternal())
      return fail("no function @" + functionName + " with a body");
  } else {
    // An initializer (what --fold-norm-weight splits off) runs as part of
    // the function it initializes, not on its own.
    for (auto candidate : module->getOps<func::FuncOp>()) {
      if (candidate.isExternal() || !candidate.isPublic() ||
          CS349Dialect::InitializerAttrHelper(&context).isAttrPresent(
              candidate))
        continue;
      if (func)
        return fail("more than one public function: choose one with "
                    "--function");
      func = candidate;
    }
    if (!func)
      return fail("no public function with a body");
  }
  std::string name = func.getName().str();
  func::FuncOp init;
  if (FlatSymbolRefAttr ref =
          CS349Dialect::InitializedByAttrHelper(&context).getAttr(func)) {
    init = module->lookupSymbol<func::FuncOp>(ref.getValue());
    if (!init || init.isExternal())
      return fail("@" + name + " is initialized by @" + ref.getValue() +
                  ", which has no body");
  }

  std::vector<Buffer> inputs, outputs, initInputs, initOutputs;
  std::string bufferError;
  // A planned function allocates its arena on top of its tensors; the
  // compiled code would crash on a failed allocation.
  uint64_t reserved = 0;
  mlir::cs349::ArenaAttr arena = CS349Dialect::ArenaAttrHelper(&context).getAttr(func);
  bool planned = mode == mlir::cs349::LoweringMode::Planned ||
                 (mode == mlir::cs349::LoweringMode::Auto && arena);
  if (planned && arena && !reserveHostMemory(arena.getBytes(), reserved))
    return fail("the arena of @" + name + " (" +
                llvm::Twine(arena.getBytes()) +
                " bytes) does not fit in this machine's memory (" +
                llvm::Twine(::cs349::hostMemoryBytes()) + " bytes)");
  if (!makeBuffers(func.getArgumentTypes(), inputs, reserved, bufferError) ||
      !makeBuffers(func.getResultTypes(), outputs, reserved, bufferError) ||
      (init && (!makeBuffers(init.getArgumentTypes(), initInputs, reserved,
                             bufferError) ||
                !makeBuffers(init.getResultTypes(), initOutputs, reserved,
                             bufferError))))
    return fail("@" + name + ": " + bufferError);

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
        return fail("argument #" + llvm::Twine(i) + " of @" + init.getName() +
                    " has no " + kLayerArg);
      initPosition[i] = original.getInt();
      taken.insert(original.getInt());
    }
    for (unsigned j = 0; j < inputs.size(); ++j) {
      if (auto k = func.getArgAttrOfType<IntegerAttr>(j, kInitResult)) {
        if (k.getInt() < 0 || k.getInt() >= int64_t(initOutputs.size()) ||
            initOutputs[k.getInt()].type != inputs[j].type)
          return fail("argument #" + llvm::Twine(j) + " of @" + name +
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
  if (!inputsFile.empty()) {
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
    auto file = llvm::MemoryBuffer::getFile(inputsFile, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
    if (!file)
      return fail("cannot read '" + inputsFile + "'");
    uint64_t bytes = (*file)->getBufferSize();
    if (bytes != total * sizeof(float))
      return fail("'" + inputsFile + "' has " + llvm::Twine(bytes) +
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
    if (!::cs349::isFloatKind(buffer.kind) && inputsFile.empty()) {
      int64_t bound = kIntegerBound;
      if (buffer.kind == ElementKind::I1)
        bound = 2;
      else if (std::optional<int64_t> slices = indexBound(argument))
        bound = *slices;
      std::vector<int64_t> ids =
          integerArgumentValues(seed, original, shape, bound);
      for (size_t i = 0; i < ids.size(); ++i)
        storeInteger(buffer.kind, ids[i],
                     buffer.data.data() + i * elementBytes(buffer.kind));
      return;
    }
    std::vector<float> values;
    if (given.empty() && inputsFile.empty())
      values = argumentValues(seed, original, shape);
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
    f->setAttr("llvm.emit_c_interface", UnitAttr::get(&context));
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
  PassManager pm(&context);
  if (failed(applyPassManagerCLOptions(pm)))
    return 1;
  mlir::cs349::LoweringPipelineOptions options;
  options.mode = mode.getValue();
  options.attentionBlock = attentionBlock.getValue();
  options.kernelScratch = kernelScratch.getValue();
  mlir::cs349::buildLowerToLLVMPipeline(pm, options);
  if (failed(pm.run(*module)))
    return fail("lowering failed");

  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  ExecutionEngineOptions engineOptions;
  auto transformer = makeOptimizingTransformer(optLevel, 0, nullptr);
  engineOptions.transformer = transformer;
  engineOptions.jitCodeGenOptLevel =
      static_cast<llvm::CodeGenOptLevel>(std::min(optLevel.getValue(), 3u));
  auto engine = ExecutionEngine::create(*module, engineOptions);
  if (!engine)
    return fail("JIT compilation failed: " + llvm::toString(engine.takeError()));
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
      return fail("call of @" + initName +
                  " failed: " + llvm::toString(std::move(error)));
    for (unsigned j = 0; j < inputs.size(); ++j)
      if (initResult[j] >= 0)
        std::copy(initOutputs[initResult[j]].data.begin(),
                  initOutputs[initResult[j]].data.end(),
                  inputs[j].data.begin());
  }
  resetAllocationStats();
  if (llvm::Error error = call(name, inputs, outputs))
    return fail("call failed: " + llvm::toString(std::move(error)));
  AllocationStats stats = allocationStats();

  std::string source = inputsFile.empty()
                           ? "seed " + std::to_string(seed.getValue())
                           : "inputs " + inputsFile.getValue();
  std::printf("// cs349-run @%s %s mode %s kernel-scratch %s\n", name.c_str(),
              source.c_str(), planned ? "planned" : "unplanned",
              kernelScratch ? "true" : "false");
  std::printf("memory: %llu allocations, %llu bytes, peak %llu bytes, "
              "%llu bytes not freed\n",
              (unsigned long long)stats.allocations,
              (unsigned long long)stats.bytes, (unsigned long long)stats.peak,
              (unsigned long long)stats.live);
  if (planned && arena) {
    // The arena is the first allocation of a planned function.
    uint64_t arenaBytes = stats.sizes.empty() ? 0 : stats.sizes.front();
    bool matches = arenaBytes == arena.getBytes();
    std::printf("memory: planned arena %llu bytes, allocated arena %llu "
                "bytes, other allocations %llu bytes\n",
                (unsigned long long)arena.getBytes(),
                (unsigned long long)(matches ? arenaBytes : 0),
                (unsigned long long)(stats.bytes - (matches ? arenaBytes : 0)));
  }
  if (printInputs)
    for (auto [index, buffer] : llvm::enumerate(inputs))
      printBuffer("argument", index, buffer);
  for (auto [index, buffer] : llvm::enumerate(outputs))
    printBuffer("result", index, buffer);
  return 0;
}
} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  registerPassManagerCLOptions();
  registerMLIRContextCLOptions();
  cl::HideUnrelatedOptions(runCategory);
  cl::ParseCommandLineOptions(
      argc, argv,
      "cs349-run: JIT-compile a cs349 function, run it on deterministic "
      "inputs, print its results and the memory it allocated\n");
  return compare ? runCompare() : runFunction();
}
