//===- Exhaustive.cpp - Optimal order by search over scheduled sets -------===//
//
// Every prefix of a schedule runs a down-set S of the graph, and the bytes
// live after S (buffers written in S that a node outside S still reads, plus
// live-out ones) depend on S only, not on the order inside it. So the least
// peak with which S can be reached is a function of S, and the search keeps
// one state per down-set instead of one per order: n! orders collapse into at
// most 2^n sets, far fewer for the narrow graphs of a layer. States are
// expanded one layer (|S| = k) at a time, so each set is final when it is
// expanded, and a state whose peak reaches the upper bound is never stored.
//
//===----------------------------------------------------------------------===//

#include "GraphIndex.h"

#include <algorithm>
#include <unordered_map>

namespace cs349::scheduler {

using detail::GraphIndex;
using detail::saturatingAdd;

namespace {

// A set of nodes is a bitmask: one word when the graph has at most 64 nodes
// (a state then costs no allocation), else a vector of words.  The search
// is the same for both.
using WideSet = std::vector<uint64_t>;

uint64_t mixWord(uint64_t h, uint64_t word) {
  h ^= word + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  return h * 0xff51afd7ed558ccdull;
}

struct SetHash {
  size_t operator()(uint64_t set) const {
    uint64_t h = mixWord(0x9e3779b97f4a7c15ull, set);
    return static_cast<size_t>(h ^ (h >> 33));
  }
  size_t operator()(const WideSet &set) const {
    uint64_t h = 0x9e3779b97f4a7c15ull;
    for (uint64_t word : set)
      h = mixWord(h, word);
    return static_cast<size_t>(h ^ (h >> 33));
  }
};

bool has(uint64_t set, int64_t v) { return (set >> v) & 1; }
bool has(const WideSet &set, int64_t v) {
  return (set[v >> 6] >> (v & 63)) & 1;
}
void insert(uint64_t &set, int64_t v) { set |= uint64_t(1) << v; }
void insert(WideSet &set, int64_t v) { set[v >> 6] |= uint64_t(1) << (v & 63); }
/// a is a subset of b.
bool within(uint64_t a, uint64_t b) { return (a & ~b) == 0; }
bool within(const WideSet &a, const WideSet &b) {
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i] & ~b[i])
      return false;
  return true;
}

template <typename Set> struct State {
  Set key;
  uint64_t live = 0; ///< bytes live after the set has run
  uint64_t peak = 0; ///< least peak with which the set can be reached
  int64_t trail = -1; ///< index in `trails` of the step that reached it
};

/// How a state was reached: the node run last and the state before it.
struct Trail {
  int64_t previous;
  int64_t node;
};

template <typename Set>
std::optional<ExhaustiveResult> search(const Graph &graph,
                                       const GraphIndex &index,
                                       const ExhaustiveOptions &options,
                                       const Set &empty) {
  const int64_t n = graph.numNodes;
  ExhaustiveResult result;
  // A node is ready once its predecessors have run; a buffer dies once its
  // readers have.
  std::vector<Set> predSet(n, empty), readerSet(graph.buffers.size(), empty);
  for (int64_t v = 0; v < n; ++v)
    for (int64_t p : index.preds[v])
      insert(predSet[v], p);
  for (size_t b = 0; b < graph.buffers.size(); ++b)
    for (int64_t r : index.readers[b])
      insert(readerSet[b], r);

  std::vector<Trail> trails;
  std::vector<State<Set>> layer(1);
  layer[0].key = empty;
  uint64_t states = 1;

  for (int64_t k = 0; k < n; ++k) {
    std::vector<State<Set>> next;
    std::unordered_map<Set, size_t, SetHash> slotOf;
    for (const State<Set> &state : layer) {
      for (int64_t v = 0; v < n; ++v) {
        if (has(state.key, v) || !within(predSet[v], state.key))
          continue;
        uint64_t during = saturatingAdd(state.live, index.outBytes[v]);
        uint64_t peak = std::max(state.peak, during);
        if (peak >= options.upperBound)
          continue;
        Set key = state.key;
        insert(key, v);
        // Buffers that die at this step: inputs whose other readers have
        // all run, and outputs nobody reads.
        uint64_t freed = 0;
        for (int64_t b : index.inputs[v])
          if (!graph.buffers[b].liveOut && within(readerSet[b], key))
            freed = saturatingAdd(freed, graph.buffers[b].size);
        for (int64_t b : index.outputs[v])
          if (!graph.buffers[b].liveOut && index.readers[b].empty())
            freed = saturatingAdd(freed, graph.buffers[b].size);

        auto [it, inserted] = slotOf.try_emplace(key, next.size());
        if (!inserted) {
          State<Set> &seen = next[it->second];
          if (peak < seen.peak) {
            seen.peak = peak;
            trails[seen.trail] = {state.trail, v};
          }
          continue;
        }
        if (++states > options.maxStates)
          return std::nullopt;
        trails.push_back({state.trail, v});
        State<Set> reached;
        reached.key = std::move(key);
        reached.live = during - std::min(during, freed);
        reached.peak = peak;
        reached.trail = static_cast<int64_t>(trails.size()) - 1;
        next.push_back(std::move(reached));
      }
    }
    layer = std::move(next);
    if (layer.empty()) {
      // Every order reaches the upper bound somewhere.
      result.peak = options.upperBound;
      result.states = states;
      return result;
    }
  }

  // One state is left: the whole graph.
  result.peak = layer.front().peak;
  result.states = states;
  for (int64_t t = layer.front().trail; t != -1; t = trails[t].previous)
    result.order.push_back(trails[t].node);
  std::reverse(result.order.begin(), result.order.end());
  return result;
}

} // namespace

std::optional<ExhaustiveResult>
exhaustiveOrder(const Graph &graph, const ExhaustiveOptions &options) {
  GraphIndex index(graph);
  const int64_t n = graph.numNodes;
  if (n == 0) {
    ExhaustiveResult result;
    result.states = 1;
    return result;
  }
  if (n <= 64)
    return search<uint64_t>(graph, index, options, 0);
  return search<WideSet>(graph, index, options, WideSet((n + 63) / 64, 0));
}

} // namespace cs349::scheduler
