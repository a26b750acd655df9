//===- ProgramCheck.cpp - one random program through every pipeline ------===//

#include "ProgramCheck.h"
#include "Comparison.h"

#include "cs349/Execution/Runner.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

#include <csignal>
#include <map>
#include <optional>

using namespace mlir;

namespace cs349::difftest {

namespace {
/// A failure of one step, with what the tools would have said.
struct StepFailure {
  std::string kind;
  std::string detail;
};

using Results = std::vector<ResultValues>;

/// Adds the passes of cs349-opt flags to `pm`; what is wrong, if anything.
std::string addPasses(OpPassManager &pm, llvm::StringRef optFlags) {
  std::optional<std::vector<PassFlag>> flags = splitPassFlags(optFlags);
  if (!flags)
    return "expected --pass or --pass=options words";
  std::string error;
  auto onError = [&](const llvm::Twine &message) {
    error = message.str();
    return failure();
  };
  for (const PassFlag &flag : *flags) {
    const PassRegistryEntry *entry = PassPipelineInfo::lookup(flag.name);
    if (!entry)
      entry = PassInfo::lookup(flag.name);
    if (!entry)
      return "no pass or pipeline named '" + flag.name + "'";
    if (failed(entry->addToPipeline(pm, flag.options, onError)))
      return error.empty() ? "bad options '" + flag.options + "'" : error;
  }
  return "";
}

class Checker {
public:
  Checker(MLIRContext &context, const CheckOptions &options)
      : context(context), options(options) {}

  /// The pipeline's output as text, as cs349-opt would print it.
  std::optional<std::string> optimize(const std::string &program,
                                      const Pipeline &row,
                                      StepFailure &failure) {
    Diagnostics diagnostics(context);
    OwningOpRef<ModuleOp> module = parse(program, failure);
    if (!module)
      return std::nullopt;
    // As cs349-opt's pass flags do: a function pass nests in the module.
    PassManager pm(&context, ModuleOp::getOperationName(),
                   OpPassManager::Nesting::Implicit);
    if (std::string error = addPasses(pm, row.optFlags); !error.empty()) {
      failure = {"harness", "the pipeline '" + row.optFlags +
                                "' is not one of cs349-opt's: " + error};
      return std::nullopt;
    }
    if (failed(pm.run(*module)) || faultIs("rejected", row.name)) {
      failure = {"rejected", "cs349-opt " + row.optFlags +
                                 " failed on a valid program: " +
                                 diagnostics.text};
      return std::nullopt;
    }
    std::string text;
    llvm::raw_string_ostream os(text);
    module->print(os);
    return text;
  }

  /// The results of running `program`, memoized by its text: pipelines often
  /// leave a small program as it was, and running the same text twice proves
  /// nothing more.
  std::optional<Results> run(const std::string &program, bool kernelScratch,
                             StepFailure &failure) {
    auto key = std::make_pair(program, kernelScratch);
    if (auto it = runs.find(key); it != runs.end())
      return it->second;
    Diagnostics diagnostics(context);
    OwningOpRef<ModuleOp> module = parse(program, failure);
    if (!module)
      return std::nullopt;
    run::RunOptions runOptions;
    runOptions.kernelScratch = kernelScratch;
    runOptions.optLevel = options.optLevel;
    llvm::Expected<run::RunResult> result = run::runModule(*module, runOptions);
    if (!result) {
      failure = {"rejected", "cs349-run failed on a valid program: " +
                                 llvm::toString(result.takeError()) + " " +
                                 diagnostics.text};
      return std::nullopt;
    }
    Results values;
    for (const run::Buffer &buffer : result->outputs) {
      ResultValues &value = values.emplace_back();
      llvm::raw_string_ostream os(value.type);
      os << buffer.type;
      value.values.reserve(buffer.size());
      for (int64_t i = 0; i < buffer.size(); ++i)
        value.values.push_back(buffer.element(i));
    }
    runs.emplace(key, values);
    return values;
  }

  bool faultIs(llvm::StringRef kind, llvm::StringRef pipeline) const {
    return options.injectFault == (kind + ":" + pipeline).str();
  }

private:
  /// Collects the diagnostics of one step, for the finding's detail.
  struct Diagnostics {
    std::string text;
    ScopedDiagnosticHandler handler;
    explicit Diagnostics(MLIRContext &context)
        : handler(&context, [this](Diagnostic &diagnostic) {
            llvm::raw_string_ostream os(text);
            os << (text.empty() ? "" : " | ") << diagnostic.getLocation()
               << ": " << diagnostic;
            return success();
          }) {}
  };

  OwningOpRef<ModuleOp> parse(const std::string &program,
                              StepFailure &failure) {
    Diagnostics diagnostics(context);
    OwningOpRef<ModuleOp> module =
        parseSourceString<ModuleOp>(program, &context);
    if (!module)
      failure = {"rejected",
                 "a pipeline's output does not parse: " + diagnostics.text};
    return module;
  }

  MLIRContext &context;
  const CheckOptions &options;
  std::map<std::pair<std::string, bool>, Results> runs;
};

const Pipeline *findPipeline(const std::string &name, FrontEnd frontEnd) {
  for (const Pipeline &row : getPipelines(frontEnd))
    if (row.name == name)
      return &row;
  return nullptr;
}
} // namespace

void checkProgram(MLIRContext &context, const ProgramGenerator &generate,
                  const std::vector<Pipeline> &rows,
                  const CheckOptions &options, const CheckListener &listener) {
  listener.begin("generate");
  OwningOpRef<ModuleOp> generated = generate(context);
  if (!generated || failed(verify(*generated))) {
    listener.finding("generate", "rejected",
                     "the generated program does not verify");
    return;
  }
  std::string program;
  {
    llvm::raw_string_ostream os(program);
    generated->print(os);
  }

  Checker checker(context, options);
  StepFailure failure;
  listener.begin("reference");
  // Pipeline name -> its results; "" is the program as written.
  std::map<std::string, Results> outputs;
  if (std::optional<Results> reference =
          checker.run(program, /*kernelScratch=*/false, failure)) {
    outputs[""] = *reference;
  } else {
    listener.finding("reference", failure.kind, failure.detail);
    return;
  }

  auto outputOf = [&](const Pipeline &row) -> std::optional<Results> {
    std::optional<std::string> transformed =
        checker.optimize(program, row, failure);
    if (!transformed)
      return std::nullopt;
    if (checker.faultIs("crash", row.name))
      std::raise(SIGSEGV);
    std::optional<Results> results =
        checker.run(*transformed, row.kernelScratch, failure);
    if (results && checker.faultIs("wrong-numbers", row.name) &&
        !results->empty() && !results->front().values.empty())
      results->front().values.front() += 1.0f;
    return results;
  };

  std::map<std::string, bool> reported;
  auto report = [&](const std::string &pipeline, const StepFailure &what) {
    if (reported[pipeline])
      return;
    reported[pipeline] = true;
    listener.finding(pipeline, what.kind, what.detail);
  };
  for (const Pipeline &row : rows) {
    listener.begin(row.name);
    if (!outputs.count(row.reference)) {
      const Pipeline *reference =
          findPipeline(row.reference, options.frontEnd);
      std::optional<Results> results =
          reference ? outputOf(*reference) : std::nullopt;
      if (!results) {
        report(row.reference, reference ? failure
                                        : StepFailure{"harness",
                                                      "no pipeline named " +
                                                          row.reference});
        listener.checked();
        continue;
      }
      outputs[row.reference] = *results;
    }
    std::optional<Results> results = outputOf(row);
    if (!results) {
      report(row.name, failure);
      listener.checked();
      continue;
    }
    outputs.emplace(row.name, *results);
    if (std::optional<std::string> difference =
            compareRuns(outputs[row.reference], *results, row.exact,
                        options.rtol, options.atol))
      report(row.name, {row.exact ? "bits-differ" : "wrong-numbers",
                        *difference});
    listener.checked();
  }
}

} // namespace cs349::difftest
