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

#include "cs349/Conversion/Passes.h"
#include "cs349/Execution/Runner.h"
#include "cs349/Execution/TensorData.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstdio>

using namespace mlir;
using namespace ::cs349::run;

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
static cl::list<std::string> argShapes(
    "arg-shapes", cl::CommaSeparated, cl::cat(runCategory),
    cl::value_desc("INDEX:SHAPE,..."),
    cl::desc("Sizes for the function's dynamic arguments, as "
             "--import=arg-shapes takes them (e.g. 0:1x128): it runs as "
             "written, its arguments cast to their dynamic types, and its "
             "results come back in the static types the import derives, so "
             "that the run compares with the imported program's"));
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

std::string typeString(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return text;
}

void printBuffer(const char *what, unsigned index, const Buffer &buffer) {
  std::printf("%s %u: %s\n", what, index, typeString(buffer.type).c_str());
  if (summaryOnly) {
    double sum = 0.0, absSum = 0.0;
    for (int64_t i = 0; i < buffer.size(); ++i) {
      double x = buffer.element(i);
      sum += x;
      absSum += std::fabs(x);
    }
    std::printf("sum %.6e abs-sum %.6e\n", sum, absSum);
    return;
  }
  for (int64_t i = 0; i < buffer.size(); ++i) {
    if (!::cs349::isFloatKind(buffer.kind)) {
      std::printf(" %lld",
                  (long long)loadInteger(buffer.kind,
                                         buffer.data.data() +
                                             i * elementBytes(buffer.kind)));
      if (i % 8 == 7 || i + 1 == buffer.size())
        std::printf("\n");
      continue;
    }
    float x = buffer.element(i);
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
  registerRunnerDialects(registry);
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

  RunOptions options;
  options.seed = seed;
  options.inputsFile = inputsFile;
  options.functionName = functionName;
  options.argShapes.assign(argShapes.begin(), argShapes.end());
  options.mode = mode;
  options.attentionBlock = attentionBlock;
  options.kernelScratch = kernelScratch;
  options.optLevel = optLevel;
  options.configureLowering = [](PassManager &pm) {
    return applyPassManagerCLOptions(pm);
  };
  llvm::Expected<RunResult> run = runModule(*module, options);
  if (!run)
    return fail(llvm::toString(run.takeError()));
  const AllocationStats &stats = run->stats;
  bool planned = run->planned;
  mlir::cs349::ArenaAttr arena = run->arena;
  std::string name = run->functionName;

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
    for (auto [index, buffer] : llvm::enumerate(run->inputs))
      printBuffer("argument", index, buffer);
  for (auto [index, buffer] : llvm::enumerate(run->outputs))
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
