//===- cs349-plan.cpp - Static memory planning of CSV problems ------------===//
//
// Reads a MiniMalloc-style CSV (id,lower,upper,size), plans it with one of
// the planner's strategies, prints arena / lower bound / naive size / gap /
// time and optionally writes the input rows with an `offset` column.
// Links only the CS349Planner library (no LLVM).
//
//===----------------------------------------------------------------------===//

#include "cs349/Planner/MemoryPlanner.h"
#include "cs349/Planner/ProblemIO.h"
#include "cs349/Support/HostMemory.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>


using namespace cs349::planner;

namespace {

const char *kTool = "cs349-plan";

void printHelp() {
  std::string names;
  for (std::string_view n : strategyNames()) {
    if (!names.empty())
      names += ", ";
    names += n;
  }
  std::cout <<
      R"(USAGE: cs349-plan [options] problem.csv
       cs349-plan --check [--alignment=N] solution.csv
       cs349-plan --generate=N [--seed=S] [--lifetimes=SHAPE] [--sizes=DIST]
                  [--output=FILE]

Plans a static memory arena: every buffer gets a byte offset such that no
two buffers whose lifetimes overlap share memory, minimising the arena size
(peak = max offset + size).

INPUT (MiniMalloc CSV): a header naming the columns id, lower, upper, size
(any order; other columns are copied through), then one buffer per line.
A buffer is live on the half-open interval [lower, upper) and needs size
bytes; two buffers conflict when a.lower < b.upper && b.lower < a.upper.
Errors are reported as 'FILE:LINE: error: ...' (exit code 1): empty file,
missing column, wrong number of fields, non-integer lower/upper/size,
negative size, lower >= upper, duplicate id.

OUTPUT: a report on stdout
  arena        the planned peak, max(offset + size)
  lower bound  max over time steps of the bytes live (no plan can be smaller)
  naive        sum of the sizes (no reuse), each rounded up to the alignment
  gap          (arena - lower bound) / lower bound, in percent
  time         planning time (median over --repeat runs)
  verified     the plan passed the independent verifier
With --output, the input rows are written with an 'offset' column added
(with --output=- the CSV goes to stdout and the report to stderr).

OPTIONS:
  --strategy=NAME     one of: )"
            << names << R"(
                        naive           no reuse: end to end in input order
                        greedy-by-size  largest first, each at the lowest
                                        aligned offset free during its life
                                        (default)
                        best-fit        greedy first-fit/best-fit over nine
                                        orders (size, section total, area,
                                        lifetime, conflict degree, start,
                                        end, size class then start, size
                                        class then end); the smallest plan
                                        wins
                        search          branch and bound over canonical
                                        solutions (MiniMalloc-style),
                                        bisecting the arena size, starting
                                        from greedy-by-size; anytime
                        best            best-fit + time-fit (size classes,
                                        each buffer where it leaves the least
                                        free time unused) + greedy-by-size +
                                        search; never worse than
                                        greedy-by-size, stops early at the
                                        lower bound
  --time-limit=SEC    time budget of search/best in seconds (default 1)
  --alignment=N       every offset must be a multiple of N (default 1);
                      offsets are int64: N and every offset + size must be
                      at most 2^63 - 1, and a problem whose buffers, each
                      aligned, add up to more is refused before planning
  --seed=N            seed for --generate (default 0)
  --output=FILE       write the solution CSV (or with --generate the
                      problem CSV) to FILE; '-' is stdout
  --repeat=N          plan N times and report the median time (default 1)
  --check             read a solution CSV (with an 'offset' column) and
                      verify it; prints 'valid' or the violations (exit 1)
  --generate=N        write a synthetic problem with N buffers (one result
                      per step, mostly short lifetimes, a few long ones,
                      sizes 64 B..16 MiB) instead of planning
  --lifetimes=SHAPE   lifetimes of --generate: short (default, as above),
                      long (each lives until a random later step: about a
                      third live at once), to-end (all live to the end, an
                      initializer's results), training (a training step of
                      N/4 layers: weights, forward results kept for the
                      backward pass, temporaries, gradients)
  --sizes=DIST        sizes of --generate: log-uniform (default, as above)
                      or few (eight sizes 64 KiB..8 MiB plus 0..63 bytes)
  --help              this text
)";
}

[[noreturn]] void fail(const std::string &message) {
  std::cerr << kTool << ": error: " << message << "\n";
  std::exit(1);
}

/// A generated buffer in memory and as a CSV line (four numbers of at most
/// 20 digits, each with its separator).
constexpr uint64_t kGeneratedBytesPerBuffer = sizeof(Buffer) + 4 * 21;

bool parseUnsigned(const std::string &s, uint64_t &out) {
  if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos)
    return false;
  errno = 0;
  char *end = nullptr;
  unsigned long long v = std::strtoull(s.c_str(), &end, 10);
  if (errno == ERANGE || *end != '\0')
    return false;
  out = v;
  return true;
}

bool readFile(const std::string &path, std::string &out) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  out = ss.str();
  return true;
}

void writeOutput(const std::string &path, const std::string &text) {
  if (path == "-") {
    std::cout << text;
    return;
  }
  std::ofstream out(path, std::ios::binary);
  if (!out)
    fail("cannot write '" + path + "'");
  out << text;
  if (!out)
    fail("cannot write '" + path + "'");
}

std::string percent(uint64_t value, uint64_t base) {
  char buf[64];
  double p = base == 0 ? 0.0 : 100.0 * ((double)value - (double)base) / base;
  std::snprintf(buf, sizeof buf, "%.2f %%", p);
  return buf;
}

} // namespace

int main(int argc, char **argv) {
  std::string strategyText = "greedy-by-size";
  std::string outputPath, inputPath;
  double timeLimit = 1.0;
  uint64_t alignment = 1, seed = 0, repeat = 1, generate = 0;
  bool check = false, haveGenerate = false, haveShape = false;
  GenerateOptions generateOptions;

  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&](const std::string &flag, std::string &out) {
      if (arg.rfind(flag + "=", 0) == 0) {
        out = arg.substr(flag.size() + 1);
        return true;
      }
      if (arg == flag) {
        if (i + 1 >= argc)
          fail("option '" + flag + "' needs a value");
        out = argv[++i];
        return true;
      }
      return false;
    };
    std::string v;
    if (arg == "--help" || arg == "-h") {
      printHelp();
      return 0;
    } else if (arg == "--check") {
      check = true;
    } else if (value("--strategy", v)) {
      strategyText = v;
    } else if (value("--time-limit", v)) {
      char *end = nullptr;
      errno = 0;
      timeLimit = std::strtod(v.c_str(), &end);
      if (v.empty() || *end != '\0' || errno == ERANGE || !(timeLimit >= 0))
        fail("invalid --time-limit '" + v +
             "' (expected a non-negative number of seconds)");
    } else if (value("--alignment", v)) {
      if (!parseUnsigned(v, alignment) || alignment == 0 ||
          alignment > cs349::planner::kMaxArenaBytes)
        fail("invalid --alignment '" + v +
             "' (expected a positive integer of at most 2^63 - 1)");
    } else if (value("--seed", v)) {
      if (!parseUnsigned(v, seed))
        fail("invalid --seed '" + v + "' (expected a non-negative integer)");
    } else if (value("--repeat", v)) {
      if (!parseUnsigned(v, repeat) || repeat == 0)
        fail("invalid --repeat '" + v + "' (expected a positive integer)");
    } else if (value("--generate", v)) {
      if (!parseUnsigned(v, generate))
        fail("invalid --generate '" + v +
             "' (expected a non-negative number of buffers)");
      // Checked here: a failed allocation of the problem or its CSV text
      // would abort instead of saying what is wrong.
      if (generate > cs349::hostMemoryBytes() / kGeneratedBytesPerBuffer)
        fail("--generate " + v + ": a problem of that many buffers needs "
             "more than this machine's " + std::to_string(cs349::hostMemoryBytes()) +
             " bytes of memory");
      haveGenerate = true;
    } else if (value("--lifetimes", v)) {
      auto shape = parseGeneratedLifetimes(v);
      if (!shape)
        fail("invalid --lifetimes '" + v +
             "' (expected short, long, to-end or training)");
      generateOptions.lifetimes = *shape;
      haveShape = true;
    } else if (value("--sizes", v)) {
      auto sizes = parseGeneratedSizes(v);
      if (!sizes)
        fail("invalid --sizes '" + v + "' (expected log-uniform or few)");
      generateOptions.sizes = *sizes;
      haveShape = true;
    } else if (value("--output", v) || value("-o", v)) {
      outputPath = v;
    } else if (arg.size() > 1 && arg[0] == '-') {
      fail("unknown option '" + arg + "' (see --help)");
    } else {
      if (!inputPath.empty())
        fail("more than one input file ('" + inputPath + "' and '" + arg +
             "')");
      inputPath = arg;
    }
  }

  if (haveShape && !haveGenerate)
    fail("--lifetimes and --sizes shape generated problems: they need "
         "--generate=N");
  if (haveGenerate) {
    Problem p = generateProblem(generate, seed, generateOptions);
    writeOutput(outputPath.empty() ? "-" : outputPath, writeProblemCsv(p));
    return 0;
  }

  std::optional<Strategy> strategy = parseStrategy(strategyText);
  if (!strategy) {
    std::string names;
    for (std::string_view n : strategyNames())
      names += (names.empty() ? "" : ", ") + std::string(n);
    fail("unknown strategy '" + strategyText + "' (expected one of: " +
         names + ")");
  }
  if (inputPath.empty())
    fail("no input file (usage: cs349-plan [options] problem.csv; see --help)");

  std::string text;
  if (!readFile(inputPath, text))
    fail("cannot open '" + inputPath + "'");
  CsvProblem csv;
  if (std::optional<CsvError> err = parseProblemCsv(text, csv)) {
    std::cerr << inputPath << ":" << err->line << ": error: " << err->message
              << "\n";
    return 1;
  }
  csv.problem.alignment = alignment;

  if (check) {
    int offCol = -1;
    for (size_t c = 0; c < csv.header.size(); ++c)
      if (csv.header[c] == "offset")
        offCol = (int)c;
    if (offCol < 0) {
      std::cerr << inputPath << ":" << 1
                << ": error: missing column 'offset'\n";
      return 1;
    }
    Plan plan;
    // The true largest end, in 128 bits: an offset near 2^64 plus its size
    // must not wrap to a small arena; verify() reports every end past the
    // largest arena with its true value.
    unsigned __int128 largestEnd = 0;
    for (size_t r = 0; r < csv.rows.size(); ++r) {
      uint64_t off;
      if (!parseUnsigned(csv.rows[r][offCol], off)) {
        std::cerr << inputPath << ":" << csv.lines[r]
                  << ": error: field 'offset' is not a non-negative integer: '"
                  << csv.rows[r][offCol] << "'\n";
        return 1;
      }
      plan.offsets.push_back(off);
      largestEnd = std::max<unsigned __int128>(
          largestEnd, (unsigned __int128)off + csv.problem.buffers[r].size);
    }
    plan.arenaSize = (uint64_t)std::min<unsigned __int128>(
        largestEnd, cs349::planner::kMaxArenaBytes);
    std::vector<Violation> violations = verify(csv.problem, plan);
    for (const Violation &v : violations)
      std::cout << "violation: " << v.message << "\n";
    if (!violations.empty())
      return 1;
    std::cout << "valid: " << csv.problem.buffers.size()
              << " buffers, arena " << plan.arenaSize << ", lower bound "
              << lowerBound(csv.problem) << "\n";
    return 0;
  }

  if (std::string unplannable = checkProblem(csv.problem);
      !unplannable.empty()) {
    std::cerr << inputPath << ": error: cannot plan: " << unplannable << "\n";
    return 1;
  }

  PlanOptions options;
  options.strategy = *strategy;
  options.timeLimitSeconds = timeLimit;
  options.seed = seed;
  Plan plan;
  std::vector<double> times;
  for (uint64_t r = 0; r < repeat; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    plan = cs349::planner::plan(csv.problem, options);
    auto t1 = std::chrono::steady_clock::now();
    times.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
  }
  std::sort(times.begin(), times.end());
  double median = times[times.size() / 2];
  if (times.size() % 2 == 0)
    median = (times[times.size() / 2 - 1] + times[times.size() / 2]) / 2;

  std::vector<Violation> violations = verify(csv.problem, plan);
  uint64_t lb = lowerBound(csv.problem);
  // The report goes to stdout, or to stderr when the solution does.
  FILE *report = outputPath == "-" ? stderr : stdout;
  std::fprintf(report, "problem:     %s\n", inputPath.c_str());
  std::fprintf(report, "buffers:     %zu\n", csv.problem.buffers.size());
  std::fprintf(report, "alignment:   %llu\n", (unsigned long long)alignment);
  std::fprintf(report, "strategy:    %s\n", std::string(strategyName(*strategy)).c_str());
  std::fprintf(report, "arena:       %llu\n", (unsigned long long)plan.arenaSize);
  std::fprintf(report, "lower bound: %llu\n", (unsigned long long)lb);
  std::fprintf(report, "naive:       %llu\n",
              (unsigned long long)naiveSize(csv.problem));
  std::fprintf(report, "gap:         %s\n", percent(plan.arenaSize, lb).c_str());
  std::fprintf(report, "time:        %.3f ms\n", median);
  std::fprintf(report, "verified:    %s\n", violations.empty() ? "ok" : "FAILED");
  for (const Violation &v : violations)
    std::fprintf(stderr, "%s: error: %s\n", kTool, v.message.c_str());
  if (!outputPath.empty())
    writeOutput(outputPath, writeSolutionCsv(csv, plan));
  return violations.empty() ? 0 : 1;
}
