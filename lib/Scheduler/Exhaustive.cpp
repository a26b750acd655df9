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

using Key = std::vector<uint64_t>;

struct KeyHash {
  size_t operator()(const Key &key) const {
    uint64_t h = 0x9e3779b97f4a7c15ull;
    for (uint64_t word : key) {
      h ^= word + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
      h *= 0xff51afd7ed558ccdull;
    }
    return static_cast<size_t>(h ^ (h >> 33));
  }
};

bool has(const Key &key, int64_t v) { return (key[v >> 6] >> (v & 63)) & 1; }
void set(Key &key, int64_t v) { key[v >> 6] |= uint64_t(1) << (v & 63); }

struct State {
  Key key;
  uint64_t live = 0; ///< bytes live after the set has run
  uint64_t peak = 0; ///< least peak with which the set can be reached
  int64_t trail = -1; ///< index in `trails` of the step that reached it
};

/// How a state was reached: the node run last and the state before it.
struct Trail {
  int64_t previous;
  int64_t node;
};

} // namespace

std::optional<ExhaustiveResult>
exhaustiveOrder(const Graph &graph, const ExhaustiveOptions &options) {
  GraphIndex index(graph);
  const int64_t n = graph.numNodes;
  ExhaustiveResult result;
  if (n == 0) {
    result.states = 1;
    return result;
  }
  const size_t words = (n + 63) / 64;

  std::vector<Trail> trails;
  std::vector<State> layer(1);
  layer[0].key.assign(words, 0);
  uint64_t states = 1;

  for (int64_t k = 0; k < n; ++k) {
    std::vector<State> next;
    std::unordered_map<Key, size_t, KeyHash> slotOf;
    for (const State &state : layer) {
      for (int64_t v = 0; v < n; ++v) {
        if (has(state.key, v))
          continue;
        bool ready = true;
        for (int64_t p : index.preds[v])
          ready &= has(state.key, p);
        if (!ready)
          continue;
        uint64_t during = saturatingAdd(state.live, index.outBytes[v]);
        uint64_t peak = std::max(state.peak, during);
        if (peak >= options.upperBound)
          continue;
        // Buffers that die at this step: inputs whose other readers have
        // all run, and outputs nobody reads.
        uint64_t freed = 0;
        for (int64_t b : index.inputs[v]) {
          if (graph.buffers[b].liveOut)
            continue;
          bool last = true;
          for (int64_t r : index.readers[b])
            last &= r == v || has(state.key, r);
          if (last)
            freed = saturatingAdd(freed, graph.buffers[b].size);
        }
        for (int64_t b : index.outputs[v])
          if (!graph.buffers[b].liveOut && index.readers[b].empty())
            freed = saturatingAdd(freed, graph.buffers[b].size);

        Key key = state.key;
        set(key, v);
        auto [it, inserted] = slotOf.try_emplace(key, next.size());
        if (!inserted) {
          State &seen = next[it->second];
          if (peak < seen.peak) {
            seen.peak = peak;
            trails[seen.trail] = {state.trail, v};
          }
          continue;
        }
        if (++states > options.maxStates)
          return std::nullopt;
        trails.push_back({state.trail, v});
        State reached;
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

} // namespace cs349::scheduler
