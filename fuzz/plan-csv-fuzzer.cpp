//===- plan-csv-fuzzer.cpp - read, plan and verify arbitrary CSV text -----===//
//
// libFuzzer target: the input is what `cs349-plan` reads. A problem that
// parses is planned with every strategy (search and best on a short time
// budget) and each plan is checked by the independent verifier; the solution
// CSV is written too. Parse errors and problems checkProblem refuses (no
// arena could be addressed) are fine; these are findings: a crash or
// sanitizer report, a parse error without a line or message, a plan the
// verifier rejects, and a plan smaller than the lower bound.
//
// The alignment is not part of the CSV format (cs349-plan takes it as an
// option), so the fuzzer derives it from the input: a power of two from 1
// to 2^63, chosen by the input's byte sum, so mutations reach every one.
//
//===----------------------------------------------------------------------===//

#include "cs349/Planner/MemoryPlanner.h"
#include "cs349/Planner/ProblemIO.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <string_view>

using namespace cs349::planner;

namespace {
[[noreturn]] void reportAndAbort(std::string_view what, Strategy strategy,
                                 std::string_view detail) {
  std::fprintf(stderr, "plan-csv-fuzzer: %.*s (strategy %.*s): %.*s\n",
               (int)what.size(), what.data(),
               (int)strategyName(strategy).size(), strategyName(strategy).data(),
               (int)detail.size(), detail.data());
  std::abort();
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string_view text(reinterpret_cast<const char *>(data), size);
  CsvProblem csv;
  if (std::optional<CsvError> error = parseProblemCsv(text, csv)) {
    if (error->line == 0 || error->message.empty())
      std::abort();
    return 0;
  }
  unsigned byteSum = std::accumulate(data, data + size, 0u);
  csv.problem.alignment = uint64_t{1} << (byteSum % 64);
  if (!checkProblem(csv.problem).empty())
    return 0;

  uint64_t lowerBoundBytes = lowerBound(csv.problem);
  for (Strategy strategy : allStrategies()) {
    PlanOptions options;
    options.strategy = strategy;
    // Long enough for the search to start, short enough for many inputs.
    options.timeLimitSeconds = 0.01;
    Plan result = plan(csv.problem, options);
    std::vector<Violation> violations = verify(csv.problem, result);
    if (!violations.empty())
      reportAndAbort("invalid plan", strategy, violations.front().message);
    if (!csv.problem.buffers.empty() && result.arenaSize < lowerBoundBytes)
      reportAndAbort("plan below the lower bound", strategy,
                     std::to_string(result.arenaSize) + " < " +
                         std::to_string(lowerBoundBytes));
    (void)writeSolutionCsv(csv, result);
  }
  return 0;
}
