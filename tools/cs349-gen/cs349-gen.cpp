//===- cs349-gen.cpp - emits cs349 IR for a layer or the order demo -------===//
//
// The front end of the pipeline: writes a module of cs349 ops to stdout. The
// IR is built by lib/Gen with MLIR builders and printed by MLIR, with the
// named locations of every step, so cs349-opt's diagnostics can name them.
// Bad options end in one line "cs349-gen: error: ..." and exit code 1.
//
//===----------------------------------------------------------------------===//

#include "cs349/Gen/GenOptions.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

using namespace mlir;
using namespace mlir::cs349::gen;
namespace cl = llvm::cl;

namespace {
// Values are read as strings and handed to lib/Gen (GenOptions.h), which
// reads them, applies the defaults and checks the result: llvm::cl's typed
// parsers print their complaint straight to stderr in their own words, and
// the tool's contract is a single "cs349-gen: error: ..." line.
using TextOpt = cl::opt<std::string>;

cl::OptionCategory category("cs349-gen options");

cl::SubCommand layerCommand(
    "layer",
    "Emit func.func @layer: N transformer layers (Llama-style by default;\n"
    "  the architecture flags and presets give GPT-2, BERT, Qwen, Mistral and\n"
    "  Gemma blocks).\n"
    "    cs349-gen layer --preset llama3.1-8b --seq 2048\n"
    "    cs349-gen layer --preset tiny --seq 16 --weights=random --seed 1\n"
    "    cs349-gen layer --d 256 --heads 4 --kv-heads 2 --head-dim 64 "
    "--ffn 512 --seq 32\n"
    "    cs349-gen layer --preset tiny --seq 16 --norm layer --act gelu-tanh "
    "--mlp plain --bias all --pos learned\n"
    "  A preset sets the sizes, eps, rope-theta and the architecture flags;\n"
    "  flags next to it override it. Without a preset the five sizes are\n"
    "  required and the architecture is Llama's.");
cl::SubCommand modelCommand(
    "model",
    "Emit func.func @model: token ids [T] (i32) -> logits [T, V]: the\n"
    "  embedding gather, N layers (the layer options and presets), the final\n"
    "  norm and the LM head (the embedding table itself when the preset ties\n"
    "  them: gpt2, bert-base, gemma-2b).\n"
    "    cs349-gen model --preset gpt2 --seq 1024 --layers 12\n"
    "    cs349-gen model --preset tiny --seq 16 --vocab 64 --weights=random");
cl::SubCommand branchesCommand(
    "branches",
    "Emit func.func @branches: k branches y_i = tanh(x @ W_i), row-summed\n"
    "  and added, in breadth-first or depth-first op order (the order demo).\n"
    "    cs349-gen branches --k 4 --order depth");
cl::SubCommand randomCommand(
    "random",
    "Emit func.func @random: a random valid program over every op of the\n"
    "  dialect, with attention subgraphs the matcher accepts and near-misses\n"
    "  it rejects (differential testing). The same seed gives the same\n"
    "  program; fewer --ops give a prefix of the same program.\n"
    "    cs349-gen random --seed 7\n"
    "    cs349-gen random --seed 7 --ops 5:60 --without return-twice");
cl::SubCommand randomImportCommand(
    "random-import",
    "Emit func.func @random in TOSA, or in linalg on tensors: a random\n"
    "  program of the ops and subgraphs (softmax, norms, GELU, SiLU,\n"
    "  attention) that front ends export transformers to, for differential\n"
    "  testing of --import. The same seed gives the same program.\n"
    "    cs349-gen random-import --seed 7\n"
    "    cs349-gen random-import --seed 7 --form linalg --without attention");

// Layer options.
TextOpt preset("preset",
               cl::desc("Model preset: llama3.1-8b (d=4096, H=32, G=8, "
                        "dh=128, f=14336) or tiny (128, 8, 2, 16, 344), both "
                        "with eps 1e-5 and rope-theta 500000; gpt2, "
                        "bert-base, qwen2.5-7b, mistral-7b, gemma-2b (see "
                        "docs/generator.md for what each sets)"),
               cl::value_desc("name"), cl::sub(layerCommand), cl::sub(modelCommand),
               cl::cat(category));
TextOpt layerDim("d", cl::desc("Model width d"), cl::value_desc("int"),
                 cl::sub(layerCommand), cl::sub(modelCommand), cl::cat(category));
TextOpt heads("heads", cl::desc("Query heads H"), cl::value_desc("int"),
              cl::sub(layerCommand), cl::sub(modelCommand), cl::cat(category));
TextOpt kvHeads("kv-heads",
                cl::desc("Key/value heads G; H must be a multiple of G "
                         "(G < H is grouped-query attention)"),
                cl::value_desc("int"), cl::sub(layerCommand), cl::sub(modelCommand),
                cl::cat(category));
TextOpt headDim("head-dim",
                cl::desc("Head dimension dh, even; H*dh need not equal d"),
                cl::value_desc("int"), cl::sub(layerCommand), cl::sub(modelCommand),
                cl::cat(category));
TextOpt ffn("ffn", cl::desc("MLP hidden width f"), cl::value_desc("int"),
            cl::sub(layerCommand), cl::sub(modelCommand), cl::cat(category));
TextOpt seq("seq", cl::desc("Sequence length T (required)"),
            cl::value_desc("int"), cl::sub(layerCommand), cl::sub(modelCommand), cl::cat(category));
TextOpt eps("eps",
            cl::desc("Norm epsilon (default: the preset's, or 1e-5)"),
            cl::value_desc("number"), cl::sub(layerCommand), cl::sub(modelCommand),
            cl::cat(category));
TextOpt ropeTheta("rope-theta",
                  cl::desc("RoPE base theta (default: the preset's, or "
                           "500000)"),
                  cl::value_desc("number"), cl::sub(layerCommand), cl::sub(modelCommand),
                  cl::cat(category));
TextOpt norm("norm",
             cl::desc("rms: RMSNorm (default); rms1p: RMSNorm with gain "
                      "1 + weight (Gemma); layer: LayerNorm, with a shift "
                      "when --bias=all"),
             cl::value_desc("rms|rms1p|layer"), cl::sub(layerCommand), cl::sub(modelCommand),
             cl::cat(category));
TextOpt act("act",
            cl::desc("MLP activation: silu (default), gelu (erf form) or "
                     "gelu-tanh (tanh approximation)"),
            cl::value_desc("silu|gelu|gelu-tanh"), cl::sub(layerCommand), cl::sub(modelCommand),
            cl::cat(category));
TextOpt mlpKind("mlp",
                cl::desc("gated: down(act(x W_gate) * (x W_up)) (default); "
                         "plain: down(act(x W_up))"),
                cl::value_desc("gated|plain"), cl::sub(layerCommand), cl::sub(modelCommand),
                cl::cat(category));
TextOpt bias("bias",
             cl::desc("Bias vectors added after the matmuls: none (default), "
                      "qkv (the q, k, v projections) or all (every "
                      "projection, and LayerNorm's shift)"),
             cl::value_desc("none|qkv|all"), cl::sub(layerCommand), cl::sub(modelCommand),
             cl::cat(category));
TextOpt mask("mask",
             cl::desc("Attention mask: causal (default), none (an encoder), "
                      "sliding=W (causal, keys at most W-1 back) or padding "
                      "(a [T] i1 key_valid argument: keys it marks 0 are "
                      "hidden)"),
             cl::value_desc("causal|none|sliding=W|padding"),
             cl::sub(layerCommand), cl::sub(modelCommand), cl::cat(category));
TextOpt pos("pos",
            cl::desc("Positions: rope (default; head-dim must be even), "
                     "learned (a [T, d] pos_embed argument added to x before "
                     "the first layer) or none"),
            cl::value_desc("rope|learned|none"), cl::sub(layerCommand), cl::sub(modelCommand),
            cl::cat(category));
TextOpt normPlacement("norm-placement",
                      cl::desc("pre: x + f(norm(x)) (default); post: "
                               "norm(x + f(x)) (BERT)"),
                      cl::value_desc("pre|post"), cl::sub(layerCommand), cl::sub(modelCommand),
                      cl::cat(category));
TextOpt qkv("qkv",
            cl::desc("separate: three projections w_q, w_k, w_v (default); "
                     "fused: one [d, (H+2G)*dh] projection w_qkv (with b_qkv "
                     "when biased) sliced into q, k and v (GPT-2)"),
            cl::value_desc("separate|fused"), cl::sub(layerCommand), cl::sub(modelCommand),
            cl::cat(category));
TextOpt vocab("vocab",
              cl::desc("Vocabulary size V: rows of the embedding table, "
                       "columns of the logits (default: the preset's)"),
              cl::value_desc("int"), cl::sub(modelCommand), cl::cat(category));
TextOpt layers("layers",
               cl::desc("Decoder layers stacked in one function (default 1, "
                        "at most 10000); with argument weights each layer "
                        "adds its weights to the arguments, in order (9 for "
                        "Llama)"),
               cl::value_desc("int"), cl::sub(layerCommand), cl::sub(modelCommand),
               cl::cat(category));
TextOpt weights("weights",
                cl::desc("args: weights are function arguments (default); "
                         "random: deterministic random cs349.constant "
                         "weights, uniform in +-1/sqrt(fan_in), norm gains in "
                         "1 +- 0.1"),
                cl::value_desc("args|random"), cl::sub(layerCommand), cl::sub(modelCommand), cl::cat(category));
TextOpt seed("seed",
             cl::desc("Seed of --weights=random (default 0; splitmix64, the "
                      "same output on every machine)"),
             cl::value_desc("uint"), cl::sub(layerCommand), cl::sub(modelCommand),
             cl::cat(category));

// Branches options; the defaults are the lecture's sizes.
TextOpt branchCount("k", cl::desc("Number of branches (default 4, at most 10000)"),
                    cl::value_desc("int"), cl::sub(branchesCommand), cl::cat(category));
TextOpt order("order",
              cl::desc("breadth (default): every matmul+tanh, then every sum, "
                       "then the additions; depth: each branch's matmul, "
                       "tanh and sum, then its addition"),
              cl::value_desc("breadth|depth"), cl::sub(branchesCommand), cl::cat(category));
TextOpt rows("rows", cl::desc("Rows of x (default 2048)"),
             cl::value_desc("int"), cl::sub(branchesCommand),
             cl::cat(category));
TextOpt branchDim("d", cl::desc("Columns of x, rows of each W_i (default 4096)"),
                  cl::value_desc("int"), cl::sub(branchesCommand), cl::cat(category));
TextOpt width("width", cl::desc("Columns of each W_i (default 16384)"),
              cl::value_desc("int"), cl::sub(branchesCommand), cl::cat(category));

// Random program options (both generators).
TextOpt randomSeed("seed",
                   cl::desc("Seed of the program (default 0; splitmix64, the "
                            "same program on every machine)"),
                   cl::value_desc("uint"), cl::sub(randomCommand),
                   cl::sub(randomImportCommand), cl::cat(category));
TextOpt randomOps("ops",
                  cl::desc("Number of generation steps, N or MIN:MAX "
                           "(default 3:40); a step is one op or a small "
                           "subgraph such as an attention"),
                  cl::value_desc("N|MIN:MAX"), cl::sub(randomCommand),
                  cl::sub(randomImportCommand), cl::cat(category));
TextOpt randomDtype("dtype", cl::desc("Element type (default f32)"),
                    cl::value_desc("bf16|f16|f32"), cl::sub(randomCommand), cl::cat(category));
TextOpt randomWithout(
    "without",
    cl::desc("Comma-separated steps or features never to emit: op names "
             "(matmul, rope_table, ...), attention-pattern, "
             "attention-near-miss, unit-causal-mask, return-twice, "
             "return-argument"),
    cl::value_desc("names"), cl::sub(randomCommand),
    cl::cat(category));

// Random import program options.
TextOpt importForm("form",
                   cl::desc("tosa (default), or linalg: the same program "
                            "through upstream's TOSA-to-linalg lowering"),
                   cl::value_desc("tosa|linalg"), cl::sub(randomImportCommand),
                   cl::cat(category));
TextOpt importWithout(
    "without",
    cl::desc("Comma-separated steps never to emit: op names (add, matmul, "
             "pad, ...) and subgraphs (softmax, rms_norm, layer_norm, gelu, "
             "silu, attention)"),
    cl::value_desc("names"), cl::sub(randomImportCommand), cl::cat(category));
TextOpt importDynamic(
    "dynamic",
    cl::desc("Every dim of the arguments, the results and every value but "
             "the constants is '?', as front ends export symbolic sizes; "
             "a first comment line gives the --import=arg-shapes that "
             "restores the sizes (default false)"),
    cl::value_desc("true|false"), cl::ValueOptional,
    cl::sub(randomImportCommand), cl::cat(category));

// Both.
TextOpt dtype("dtype", cl::desc("Element type (default bf16)"),
              cl::value_desc("bf16|f16|f32"), cl::sub(layerCommand), cl::sub(modelCommand), cl::sub(branchesCommand),
              cl::cat(category));
TextOpt locations("locations",
                  cl::desc("Print the named location of every step, e.g. "
                           "loc(\"layer0.attn.q_proj\") or "
                           "loc(\"branch0.matmul\") (default true)"),
                  cl::value_desc("true|false"), cl::ValueOptional, cl::sub(layerCommand), cl::sub(modelCommand),
                  cl::sub(branchesCommand), cl::cat(category));

int fail(const llvm::Twine &message) {
  llvm::errs() << "cs349-gen: error: " << message << "\n";
  return 1;
}

// llvm::cl reports as "<prog>: message", over one or more lines.
std::string oneLine(llvm::StringRef report) {
  llvm::SmallVector<llvm::StringRef> lines;
  report.split(lines, '\n', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  std::string joined;
  for (llvm::StringRef line : lines) {
    line = line.trim();
    line.consume_front("cs349-gen:");
    if (!joined.empty())
      joined += ' ';
    joined += line.trim().str();
  }
  return joined.empty() ? "invalid command line" : joined;
}

llvm::Error emit(Operation *module, bool withLocations) {
  if (failed(verify(module)))
    return llvm::createStringError(
        "the generated IR does not verify (a bug in cs349-gen)");
  OpPrintingFlags flags;
  if (withLocations)
    flags.enableDebugInfo(/*enable=*/true, /*prettyForm=*/false);
  module->print(llvm::outs(), flags);
  llvm::outs() << "\n";
  return llvm::Error::success();
}

/// The options of `options` the command line gave, for lib/Gen to read.
OptionTexts given(std::initializer_list<const TextOpt *> options) {
  OptionTexts texts;
  for (const TextOpt *option : options)
    if (option->getNumOccurrences())
      texts[option->ArgStr.str()] = *option;
  return texts;
}

llvm::Error runLayer(MLIRContext &context) {
  llvm::Expected<LayerRequest> request = readLayerOptions(
      given({&preset, &layerDim, &heads, &kvHeads, &headDim, &ffn, &seq, &eps,
             &ropeTheta, &layers, &weights, &seed, &dtype, &locations, &norm,
             &act, &mlpKind, &bias, &mask, &pos, &normPlacement, &qkv}));
  if (!request)
    return request.takeError();
  OwningOpRef<ModuleOp> module = buildLayerModule(context, request->config);
  return emit(*module, request->locations);
}

llvm::Error runModel(MLIRContext &context) {
  llvm::Expected<LayerRequest> request = readModelOptions(
      given({&preset, &layerDim, &heads, &kvHeads, &headDim, &ffn, &seq, &eps,
             &ropeTheta, &layers, &weights, &seed, &dtype, &locations, &norm,
             &act, &mlpKind, &bias, &mask, &pos, &normPlacement, &qkv,
             &vocab}));
  if (!request)
    return request.takeError();
  OwningOpRef<ModuleOp> module = buildModelModule(context, request->config);
  return emit(*module, request->locations);
}

llvm::Error runBranches(MLIRContext &context) {
  llvm::Expected<BranchesRequest> request = readBranchesOptions(given(
      {&branchCount, &order, &rows, &branchDim, &width, &dtype, &locations}));
  if (!request)
    return request.takeError();
  OwningOpRef<ModuleOp> module =
      buildBranchesModule(context, request->config);
  return emit(*module, request->locations);
}

llvm::Error runRandom(MLIRContext &context) {
  llvm::Expected<RandomProgramConfig> config = readRandomOptions(
      given({&randomSeed, &randomOps, &randomDtype, &randomWithout}));
  if (!config)
    return config.takeError();
  OwningOpRef<ModuleOp> module = buildRandomProgram(context, *config);
  return emit(*module, /*withLocations=*/true);
}

llvm::Error runRandomImport(MLIRContext &context) {
  llvm::Expected<RandomTosaProgramConfig> config = readRandomImportOptions(
      given({&randomSeed, &randomOps, &importForm, &importWithout,
             &importDynamic}));
  if (!config)
    return config.takeError();
  std::string argShapes;
  OwningOpRef<ModuleOp> module =
      buildRandomTosaProgram(context, *config, &argShapes);
  if (!module)
    return llvm::createStringError(
        "upstream's TOSA-to-linalg lowering failed on the program");
  if (!argShapes.empty())
    llvm::outs() << "// --import=arg-shapes=" << argShapes << "\n";
  return emit(*module, /*withLocations=*/true);
}
} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category, cl::SubCommand::getTopLevel());
  cl::HideUnrelatedOptions(category, layerCommand);
  cl::HideUnrelatedOptions(category, modelCommand);
  cl::HideUnrelatedOptions(category, branchesCommand);
  cl::HideUnrelatedOptions(category, randomCommand);
  cl::HideUnrelatedOptions(category, randomImportCommand);

  // llvm::cl's own complaint about a word it does not know as a subcommand
  // ends in a "Try: '<full path>' --help" that says less than this.
  if (argc > 1) {
    llvm::StringRef word(argv[1]);
    if (!word.starts_with("-") && word != layerCommand.getName() &&
        word != modelCommand.getName() &&
        word != branchesCommand.getName() &&
        word != randomCommand.getName() &&
        word != randomImportCommand.getName())
      return fail("unknown subcommand '" + word +
                  "' (expected layer, model, branches, random or "
                  "random-import)");
  }

  std::string report;
  llvm::raw_string_ostream reportStream(report);
  if (!cl::ParseCommandLineOptions(
          argc, argv,
          "emits cs349 IR for a transformer layer, a whole model or the "
          "branch order demo.\n"
          "\n"
          "  cs349-gen layer --preset llama3.1-8b --seq 2048 > layer.mlir\n"
          "  cs349-gen model --preset gpt2 --seq 1024 --layers 12 > gpt2.mlir\n"
          "  cs349-gen branches --k 4 --order depth > branches.mlir\n"
          "\n"
          "Run 'cs349-gen layer --help', 'cs349-gen model --help' or "
          "'cs349-gen branches --help' for the options of each.\n"
          "Numbers are decimal: a leading zero is ignored (--seed 010 is "
          "ten), and 0x10 is an error.\n",
          &reportStream))
    return fail(oneLine(report));

  MLIRContext context;
  llvm::Error error = llvm::Error::success();
  if (layerCommand)
    error = runLayer(context);
  else if (modelCommand)
    error = runModel(context);
  else if (branchesCommand)
    error = runBranches(context);
  else if (randomCommand)
    error = runRandom(context);
  else if (randomImportCommand)
    error = runRandomImport(context);
  else
    error = llvm::createStringError(
        "expected a subcommand: layer, model, branches, random or "
        "random-import (see --help)");
  if (error)
    return fail(llvm::toString(std::move(error)));
  return 0;
}
