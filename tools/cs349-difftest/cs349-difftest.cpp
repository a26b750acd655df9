//===- cs349-difftest.cpp - differential testing, one process per program -===//
//
//   cs349-difftest --seeds FIRST:END [--jobs N] [--ops MIN:MAX]
//                  [--without a,b] [--pipelines a,b] [-O N]
//   cs349-difftest --list-pipelines
//
// What scripts/difftest.py checks, for many more programs: every random
// program of the seed range through every pipeline, compared with the
// program as written, but with cs349-opt's passes and cs349-run's lowering
// and JIT called in-process. Starting the tools costs more than checking a
// small program, so each program gets one process, forked from this one
// after the dialects and the native target are set up. A program that
// crashes or hangs takes only its own process down; the pipeline it was in
// is the finding. scripts/difftest.py --fast runs this and minimizes each
// finding with the tools themselves.
//
//===----------------------------------------------------------------------===//

#include "Pipelines.h"
#include "ProgramCheck.h"

#include "cs349/Conversion/Passes.h"
#include "cs349/Dialect/CS349/IR/CS349Dialect.h"
#include "cs349/Execution/Runner.h"
#include "cs349/Gen/RandomProgramBuilder.h"
#include "cs349/Gen/RandomTosaProgramBuilder.h"
#include "cs349/Import/Passes.h"
#include "cs349/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace cs349::difftest;
namespace cl = llvm::cl;
namespace gen = mlir::cs349::gen;

static cl::OptionCategory category("cs349-difftest options");
static cl::opt<std::string> seedRange(
    "seeds", cl::init("0:50"), cl::cat(category),
    cl::desc("FIRST:END (END excluded) or one seed (default 0:50)"));
static cl::opt<unsigned> jobs("jobs", cl::init(2), cl::cat(category),
                              cl::desc("Programs checked in parallel"));
static cl::opt<FrontEnd> frontEnd(
    "front-end", cl::init(FrontEnd::CS349), cl::cat(category),
    cl::desc("What the programs are written in (default cs349)"),
    cl::values(clEnumValN(FrontEnd::CS349, "cs349",
                          "cs349 ops (cs349-gen random)"),
               clEnumValN(FrontEnd::Tosa, "tosa",
                          "TOSA, imported by every pipeline (cs349-gen "
                          "random-import)"),
               clEnumValN(FrontEnd::Linalg, "linalg",
                          "linalg on tensors, imported by every pipeline "
                          "(cs349-gen random-import --form linalg)")));
static cl::opt<std::string>
    opsRange("ops", cl::init("3:40"), cl::cat(category),
             cl::desc("Generation steps per program, N or MIN:MAX (as "
                      "cs349-gen random --ops)"));
static cl::list<std::string>
    without("without", cl::CommaSeparated, cl::cat(category),
            cl::desc("Generation steps to leave out (as cs349-gen random "
                     "--without, or random-import's with --front-end)"));
static cl::list<std::string>
    pipelineNames("pipelines", cl::CommaSeparated, cl::cat(category),
                  cl::desc("Pipelines to check (default all; "
                           "--list-pipelines shows them)"));
static cl::opt<bool> listPipelines(
    "list-pipelines", cl::cat(category),
    cl::desc("Print the pipelines, one a line: name, cs349-opt flags, "
             "cs349-run flags, reference (empty: the program as written), "
             "exact or tolerance, separated by tabs"));
static cl::opt<unsigned> optLevel("O", cl::init(0), cl::cat(category),
                                  cl::desc("The JIT's LLVM optimization level "
                                           "(cs349-run -O; default 0)"));
static cl::opt<double> relTolerance("rtol", cl::init(1e-5), cl::cat(category),
                            cl::desc("Relative tolerance of the pipelines "
                                     "that change the arithmetic"));
static cl::opt<double> absTolerance("atol", cl::init(1e-5), cl::cat(category),
                            cl::desc("Absolute tolerance of the pipelines that change the "
                                     "arithmetic"));
static cl::opt<unsigned> timeoutSeconds(
    "timeout", cl::init(600), cl::cat(category),
    cl::desc("Seconds for one program and all its pipelines; more is a "
             "finding (default 600)"));
static cl::opt<unsigned> progressEvery(
    "progress", cl::init(0), cl::cat(category),
    cl::desc("A progress line on stderr every N programs (default never)"));
static cl::opt<std::string> injectFault(
    "inject-fault", cl::init(""), cl::cat(category), cl::Hidden,
    cl::desc("KIND:PIPELINE: make that pipeline fail that way (crash, "
             "rejected, wrong-numbers), to test this tool"));

namespace {
bool parseRange(llvm::StringRef text, uint64_t &first, uint64_t &end) {
  auto [low, high] = text.split(':');
  if (low.getAsInteger(10, first))
    return false;
  if (high.empty() && !text.contains(':')) {
    end = first + 1;
    return true;
  }
  return !high.getAsInteger(10, end) && end > first;
}

/// One forked check. Its records come through a pipe, a line each:
/// "begin P", "checked", "finding\tP\tKIND\tDETAIL", "done".
struct Child {
  pid_t pid = -1;
  int fd = -1;
  uint64_t seed = 0;
  std::string received;
  std::string stderrPath;
  std::chrono::steady_clock::time_point started;
  bool timedOut = false;
};

struct Finding {
  uint64_t seed;
  std::string pipeline, kind, detail;
};

struct Totals {
  uint64_t programs = 0, checks = 0;
  std::vector<Finding> findings;
};

void writeAll(int fd, const std::string &text) {
  const char *data = text.data();
  size_t left = text.size();
  while (left) {
    ssize_t written = ::write(fd, data, left);
    if (written <= 0)
      return;
    data += written;
    left -= size_t(written);
  }
}

std::string oneLine(std::string text) {
  for (char &c : text)
    if (c == '\n' || c == '\t')
      c = ' ';
  return text;
}

/// The generators' configurations for one seed range; `seed` is set per
/// program.
struct Programs {
  gen::RandomProgramConfig cs349;
  gen::RandomTosaProgramConfig imported;

  ProgramGenerator forSeed(uint64_t seed) const {
    if (frontEnd == FrontEnd::CS349) {
      gen::RandomProgramConfig config = cs349;
      config.seed = seed;
      return [config](mlir::MLIRContext &context) {
        return gen::buildRandomProgram(context, config);
      };
    }
    gen::RandomTosaProgramConfig config = imported;
    config.seed = seed;
    config.form = frontEnd == FrontEnd::Tosa ? gen::ImportForm::Tosa
                                             : gen::ImportForm::Linalg;
    return [config](mlir::MLIRContext &context) {
      return gen::buildRandomTosaProgram(context, config);
    };
  }
};

[[noreturn]] void runChild(mlir::MLIRContext &context,
                           const ProgramGenerator &generate,
                           const std::vector<Pipeline> &rows, int fd) {
  CheckOptions options;
  options.rtol = relTolerance;
  options.atol = absTolerance;
  options.optLevel = optLevel;
  options.injectFault = injectFault;
  options.frontEnd = frontEnd;
  CheckListener listener;
  listener.begin = [fd](const std::string &pipeline) {
    writeAll(fd, "begin " + pipeline + "\n");
  };
  listener.checked = [fd] { writeAll(fd, "checked\n"); };
  listener.finding = [fd](const std::string &pipeline, const std::string &kind,
                          const std::string &detail) {
    writeAll(fd, "finding\t" + pipeline + "\t" + kind + "\t" +
                     oneLine(detail) + "\n");
  };
  checkProgram(context, generate, rows, options, listener);
  writeAll(fd, "done\n");
  std::fflush(nullptr);
  _exit(0);
}

bool hasSanitizerReport(const std::string &text) {
  for (const char *mark : {"ERROR: AddressSanitizer", "runtime error:",
                           "ERROR: LeakSanitizer", "UndefinedBehaviorSanitizer"})
    if (text.find(mark) != std::string::npos)
      return true;
  return false;
}

std::string readFile(const std::string &path) {
  std::string text;
  if (FILE *file = std::fopen(path.c_str(), "r")) {
    char chunk[4096];
    size_t n;
    while ((n = std::fread(chunk, 1, sizeof(chunk), file)) > 0)
      text.append(chunk, n);
    std::fclose(file);
  }
  return text;
}

/// The child's records and how it ended, as findings.
void collect(Child &child, int status, Totals &totals) {
  ++totals.programs;
  std::string lastBegun = "generate";
  bool done = false;
  for (llvm::StringRef line : llvm::split(child.received, '\n')) {
    if (line.consume_front("begin "))
      lastBegun = line.str();
    else if (line == "checked")
      ++totals.checks;
    else if (line == "done")
      done = true;
    else if (line.consume_front("finding\t")) {
      llvm::SmallVector<llvm::StringRef, 3> fields;
      line.split(fields, '\t', /*MaxSplit=*/2);
      fields.resize(3);
      totals.findings.push_back(
          {child.seed, fields[0].str(), fields[1].str(), fields[2].str()});
    }
  }
  std::string errors = readFile(child.stderrPath);
  std::remove(child.stderrPath.c_str());
  if (hasSanitizerReport(errors)) {
    totals.findings.push_back({child.seed, lastBegun, "sanitizer",
                               oneLine(errors.substr(0, 2000))});
    return;
  }
  if (child.timedOut) {
    totals.findings.push_back(
        {child.seed, lastBegun, "timeout",
         "the program took more than " + std::to_string(timeoutSeconds) +
             " s in all"});
    return;
  }
  if (done && WIFEXITED(status) && WEXITSTATUS(status) == 0)
    return;
  std::string how = WIFSIGNALED(status)
                        ? "killed by signal " + std::to_string(WTERMSIG(status))
                        : "exited with " + std::to_string(WEXITSTATUS(status));
  totals.findings.push_back(
      {child.seed, lastBegun, "crash",
       "the check " + how + " " + oneLine(errors.substr(0, 2000))});
}

bool spawn(mlir::MLIRContext &context, const Programs &programs,
           const std::vector<Pipeline> &rows, uint64_t seed, Child &child) {
  int fds[2];
  if (::pipe(fds) != 0)
    return false;
  char path[] = "/tmp/cs349-difftest-XXXXXX";
  int errorFd = ::mkstemp(path);
  if (errorFd < 0)
    return false;
  std::fflush(nullptr);
  pid_t pid = ::fork();
  if (pid < 0)
    return false;
  if (pid == 0) {
    ::close(fds[0]);
    ::dup2(errorFd, STDERR_FILENO);
    ::close(errorFd);
    runChild(context, programs.forSeed(seed), rows, fds[1]);
  }
  ::close(fds[1]);
  ::close(errorFd);
  child.pid = pid;
  child.fd = fds[0];
  child.seed = seed;
  child.stderrPath = path;
  child.started = std::chrono::steady_clock::now();
  return true;
}
} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  mlir::registerTransformsPasses();
  mlir::cs349::registerPassesAndPipelines();
  mlir::cs349::registerConversionPassesAndPipelines();
  mlir::cs349::registerCS349ImportPasses();
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "cs349-difftest: random programs through every pipeline, run and "
      "compared in-process\n");

  std::vector<Pipeline> rows;
  const std::vector<Pipeline> &table = getPipelines(frontEnd);
  if (pipelineNames.empty()) {
    rows = table;
  } else {
    for (const std::string &name : pipelineNames) {
      auto it = llvm::find_if(
          table, [&](const Pipeline &row) { return row.name == name; });
      if (it == table.end()) {
        llvm::errs() << "cs349-difftest: unknown pipeline '" << name
                     << "' (--list-pipelines shows them)\n";
        return 2;
      }
      rows.push_back(*it);
    }
  }
  if (listPipelines) {
    for (const Pipeline &row : rows)
      llvm::outs() << row.name << '\t' << row.optFlags << '\t'
                   << (row.kernelScratch ? "--kernel-scratch" : "") << '\t'
                   << row.reference << '\t'
                   << (row.exact ? "exact" : "tolerance") << '\n';
    return 0;
  }

  uint64_t first = 0, end = 0;
  if (!parseRange(seedRange, first, end)) {
    llvm::errs() << "cs349-difftest: --seeds expects FIRST:END with END "
                    "above FIRST, or one seed, got '"
                 << seedRange << "'\n";
    return 2;
  }
  Programs programs;
  uint64_t minSteps = 0, maxSteps = 0;
  if (!parseRange(opsRange, minSteps, maxSteps)) {
    llvm::errs() << "cs349-difftest: --ops expects N or MIN:MAX, got '"
                 << opsRange << "'\n";
    return 2;
  }
  int64_t lowest = int64_t(minSteps);
  int64_t highest = opsRange.getValue().find(':') == std::string::npos
                        ? int64_t(minSteps)
                        : int64_t(maxSteps);
  programs.cs349.minSteps = programs.imported.minSteps = lowest;
  programs.cs349.maxSteps = programs.imported.maxSteps = highest;
  for (const std::string &step : without) {
    programs.cs349.without.push_back(step);
    programs.imported.without.push_back(step);
  }
  llvm::Error error = frontEnd == FrontEnd::CS349
                          ? gen::verifyConfig(programs.cs349)
                          : gen::verifyConfig(programs.imported);
  if (error) {
    llvm::errs() << "cs349-difftest: " << llvm::toString(std::move(error))
                 << "\n";
    return 2;
  }
  if (jobs == 0) {
    llvm::errs() << "cs349-difftest: --jobs must be at least 1\n";
    return 2;
  }

  // Everything a check needs that does not depend on the program is set up
  // once, before the first fork. The context has no threads: a forked
  // process has only the thread that forked.
  mlir::DialectRegistry registry;
  registry.insert<mlir::func::FuncDialect>();
  cs349::run::registerRunnerDialects(registry);
  mlir::MLIRContext context(registry, mlir::MLIRContext::Threading::DISABLED);
  context.loadAllAvailableDialects();
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();

  Totals totals;
  auto started = std::chrono::steady_clock::now();
  std::vector<Child> running;
  uint64_t next = first;
  size_t reported = 0;
  while (next < end || !running.empty()) {
    while (next < end && running.size() < jobs) {
      Child child;
      if (!spawn(context, programs, rows, next, child)) {
        llvm::errs() << "cs349-difftest: cannot start a check: "
                     << std::strerror(errno) << "\n";
        return 2;
      }
      running.push_back(child);
      ++next;
    }
    std::vector<pollfd> fds;
    for (const Child &child : running)
      fds.push_back({child.fd, POLLIN, 0});
    ::poll(fds.data(), fds.size(), 200);
    auto now = std::chrono::steady_clock::now();
    for (size_t i = 0; i < running.size();) {
      Child &child = running[i];
      bool ended = false;
      if (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) {
        char chunk[4096];
        ssize_t n = ::read(child.fd, chunk, sizeof(chunk));
        if (n > 0)
          child.received.append(chunk, size_t(n));
        else
          ended = true;
      }
      if (!ended && !child.timedOut &&
          now - child.started > std::chrono::seconds(timeoutSeconds)) {
        child.timedOut = true;
        ::kill(child.pid, SIGKILL);
      }
      if (!ended) {
        ++i;
        continue;
      }
      int status = 0;
      ::waitpid(child.pid, &status, 0);
      ::close(child.fd);
      collect(child, status, totals);
      running.erase(running.begin() + i);
      fds.erase(fds.begin() + i);
      if (progressEvery && totals.programs % progressEvery == 0)
        llvm::errs() << "cs349-difftest: " << totals.programs << "/"
                     << (end - first) << " programs, " << totals.checks
                     << " checks, " << totals.findings.size()
                     << " findings, "
                     << std::chrono::duration_cast<std::chrono::seconds>(
                            now - started)
                            .count()
                     << " s\n";
    }
    for (; reported < totals.findings.size(); ++reported) {
      const Finding &finding = totals.findings[reported];
      llvm::outs() << "FINDING seed " << finding.seed << " pipeline "
                   << finding.pipeline << ": " << finding.kind << ": "
                   << finding.detail.substr(0, 600) << "\n";
      llvm::outs().flush();
    }
  }

  std::map<std::string, unsigned> kinds;
  for (const Finding &finding : totals.findings)
    ++kinds[finding.kind];
  std::string byKind;
  for (auto [kind, count] : kinds)
    byKind += (byKind.empty() ? " (" : ", ") + kind + " " +
              std::to_string(count);
  if (!byKind.empty())
    byKind += ")";
  double seconds = std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - started)
                       .count();
  llvm::outs() << "cs349-difftest: " << totals.programs << " programs, "
               << totals.checks << " pipeline checks (" << rows.size()
               << " pipelines), " << totals.findings.size() << " findings"
               << byKind << " in " << llvm::format("%.0f", seconds) << " s\n";
  return totals.findings.empty() ? 0 : 1;
}
