//===- Schedule.cpp - Algorithm names and the best-of-several driver ------===//

#include "cs349/Scheduler/MemoryScheduler.h"

#include <tuple>

namespace cs349::scheduler {

namespace {
struct AlgorithmEntry {
  Algorithm algorithm;
  std::string_view name;
};
constexpr AlgorithmEntry kAlgorithms[] = {
    {Algorithm::DFS, "dfs"},
    {Algorithm::List, "list"},
    {Algorithm::LPMF, "lpmf"},
    {Algorithm::Exhaustive, "exhaustive"},
    {Algorithm::Best, "best"},
};
} // namespace

std::optional<Algorithm> parseAlgorithm(std::string_view name) {
  for (const AlgorithmEntry &e : kAlgorithms)
    if (e.name == name)
      return e.algorithm;
  return std::nullopt;
}

std::string_view algorithmName(Algorithm algorithm) {
  for (const AlgorithmEntry &e : kAlgorithms)
    if (e.algorithm == algorithm)
      return e.name;
  return "unknown";
}

std::vector<Algorithm> allAlgorithms() {
  std::vector<Algorithm> result;
  for (const AlgorithmEntry &e : kAlgorithms)
    result.push_back(e.algorithm);
  return result;
}

ScheduleResult schedule(const Graph &graph, const ScheduleOptions &options) {
  ScheduleResult result;
  if (std::optional<std::string> error = validate(graph)) {
    result.error = *error;
    return result;
  }

  Schedule best;
  best.order = inputOrder(graph);
  best.inputPeak = best.peak = peakMemory(graph, best.order);
  best.source = "input";
  uint64_t bestArea = liveArea(graph, best.order);

  // Strictly better by (peak, area) replaces; so the input order survives
  // every tie and the result is never worse than it.
  auto consider = [&](std::string_view source, Order order) {
    uint64_t peak = peakMemory(graph, order);
    uint64_t area = liveArea(graph, order);
    if (std::tie(peak, area) < std::tie(best.peak, bestArea)) {
      best.order = std::move(order);
      best.peak = peak;
      best.source = std::string(source);
      bestArea = area;
    }
  };

  const Algorithm algorithm = options.algorithm;
  if (algorithm == Algorithm::DFS || algorithm == Algorithm::Best) {
    consider("dfs", dfsOrder(graph, /*sortSinks=*/false));
    consider("dfs-sorted-sinks", dfsOrder(graph, /*sortSinks=*/true));
  }
  if (algorithm == Algorithm::List || algorithm == Algorithm::Best)
    consider("list", listOrder(graph));
  if (algorithm == Algorithm::LPMF || algorithm == Algorithm::Best)
    consider("lpmf", lpmfOrder(graph));

  if (algorithm == Algorithm::Exhaustive || algorithm == Algorithm::Best) {
    ExhaustiveOptions search;
    search.maxStates = options.maxStates;
    // Only an order with a lower peak than the best so far can win.
    search.upperBound = best.peak;
    bool proved = best.peak <= orderIndependentLowerBound(graph);
    if (!proved) {
      std::optional<ExhaustiveResult> found = exhaustiveOrder(graph, search);
      if (found) {
        proved = true;
        if (!found->order.empty())
          consider("exhaustive", std::move(found->order));
      } else if (algorithm == Algorithm::Exhaustive) {
        result.error = "the exhaustive search needs more than " +
                       std::to_string(options.maxStates) +
                       " states for this graph of " +
                       std::to_string(graph.numNodes) + " nodes";
        return result;
      }
    }
    best.optimal = proved;
  }

  result.schedule = std::move(best);
  return result;
}

} // namespace cs349::scheduler
