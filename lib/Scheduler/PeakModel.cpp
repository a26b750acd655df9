//===- PeakModel.cpp - Live bytes of an order, and graph validation -------===//

#include "GraphIndex.h"

#include "cs349/Support/LiveBytes.h"

#include <algorithm>

namespace cs349::scheduler {

using detail::saturatingAdd;

std::optional<std::string> validate(const Graph &graph) {
  const int64_t n = graph.numNodes;
  if (n < 0)
    return "negative node count " + std::to_string(n);
  auto inRange = [&](int64_t v) { return v >= 0 && v < n; };
  for (size_t b = 0; b < graph.buffers.size(); ++b) {
    const Buffer &buffer = graph.buffers[b];
    std::string name = "buffer " + std::to_string(b);
    if (!inRange(buffer.producer))
      return name + ": producer " + std::to_string(buffer.producer) +
             " is not a node";
    for (int64_t consumer : buffer.consumers) {
      if (!inRange(consumer))
        return name + ": consumer " + std::to_string(consumer) +
               " is not a node";
      // Node ids are the input order; a consumer at or before its producer
      // would make that order (or the graph) impossible to run.
      if (consumer <= buffer.producer)
        return name + ": consumer " + std::to_string(consumer) +
               " does not come after its producer " +
               std::to_string(buffer.producer);
    }
  }
  for (const auto &[before, after] : graph.orderEdges) {
    if (!inRange(before) || !inRange(after))
      return "ordering edge " + std::to_string(before) + " -> " +
             std::to_string(after) + " names a node that does not exist";
    if (after <= before)
      return "ordering edge " + std::to_string(before) + " -> " +
             std::to_string(after) + " points backwards";
  }
  return std::nullopt;
}

Order inputOrder(const Graph &graph) {
  Order order(graph.numNodes);
  for (int64_t v = 0; v < graph.numNodes; ++v)
    order[v] = v;
  return order;
}

namespace {
/// pos[v] = step of node v, or nullopt if `order` is not a permutation.
std::optional<std::vector<int64_t>> positions(const Graph &graph,
                                              const Order &order) {
  if (static_cast<int64_t>(order.size()) != graph.numNodes)
    return std::nullopt;
  std::vector<int64_t> pos(graph.numNodes, -1);
  for (size_t t = 0; t < order.size(); ++t) {
    int64_t v = order[t];
    if (v < 0 || v >= graph.numNodes || pos[v] != -1)
      return std::nullopt;
    pos[v] = static_cast<int64_t>(t);
  }
  return pos;
}
} // namespace

bool isTopologicalOrder(const Graph &graph, const Order &order) {
  std::optional<std::vector<int64_t>> pos = positions(graph, order);
  if (!pos)
    return false;
  for (const Buffer &buffer : graph.buffers)
    for (int64_t consumer : buffer.consumers)
      if ((*pos)[consumer] <= (*pos)[buffer.producer])
        return false;
  for (const auto &[before, after] : graph.orderEdges)
    if ((*pos)[after] <= (*pos)[before])
      return false;
  return true;
}

std::vector<uint64_t> liveProfile(const Graph &graph, const Order &order) {
  std::optional<std::vector<int64_t>> pos = positions(graph, order);
  if (!pos || order.empty())
    return {};
  const int64_t last = graph.numNodes - 1;
  // A buffer is live from its first step through its last reader's step.
  std::vector<LiveRange> ranges;
  ranges.reserve(graph.buffers.size());
  for (const Buffer &buffer : graph.buffers) {
    int64_t first = (*pos)[buffer.producer];
    int64_t end = first;
    if (buffer.liveOut)
      end = last;
    else
      for (int64_t consumer : buffer.consumers)
        end = std::max(end, (*pos)[consumer]);
    ranges.push_back({first, end + 1, buffer.size});
  }
  return liveBytesPerStep(ranges, graph.numNodes);
}

uint64_t peakMemory(const Graph &graph, const Order &order) {
  std::vector<uint64_t> profile = liveProfile(graph, order);
  return profile.empty() ? 0 : *std::max_element(profile.begin(), profile.end());
}

uint64_t liveArea(const Graph &graph, const Order &order) {
  uint64_t area = 0;
  for (uint64_t live : liveProfile(graph, order))
    area = saturatingAdd(area, live);
  return area;
}

uint64_t orderIndependentLowerBound(const Graph &graph) {
  detail::GraphIndex index(graph);
  uint64_t bound = 0;
  for (int64_t v = 0; v < graph.numNodes; ++v) {
    uint64_t bytes = index.outBytes[v];
    for (int64_t b : index.inputs[v])
      bytes = saturatingAdd(bytes, graph.buffers[b].size);
    bound = std::max(bound, bytes);
  }
  // A live-out buffer stays to the end, so all of them are live at the last
  // step together with whatever the last node writes.
  uint64_t liveOut = 0;
  for (const Buffer &buffer : graph.buffers)
    if (buffer.liveOut)
      liveOut = saturatingAdd(liveOut, buffer.size);
  return std::max(bound, liveOut);
}

} // namespace cs349::scheduler
