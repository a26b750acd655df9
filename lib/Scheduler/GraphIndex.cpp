//===- GraphIndex.cpp - Adjacency of a scheduling graph -------------------===//

#include "GraphIndex.h"

#include <algorithm>

namespace cs349::scheduler::detail {

namespace {
void sortUnique(std::vector<int64_t> &values) {
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
}
} // namespace

GraphIndex::GraphIndex(const Graph &graph)
    : numNodes(graph.numNodes), preds(graph.numNodes), succs(graph.numNodes),
      outputs(graph.numNodes), inputs(graph.numNodes),
      readers(graph.buffers.size()), outBytes(graph.numNodes, 0) {
  for (size_t b = 0; b < graph.buffers.size(); ++b) {
    const Buffer &buffer = graph.buffers[b];
    outputs[buffer.producer].push_back(static_cast<int64_t>(b));
    outBytes[buffer.producer] =
        saturatingAdd(outBytes[buffer.producer], buffer.size);
    readers[b] = buffer.consumers;
    sortUnique(readers[b]);
    for (int64_t reader : readers[b]) {
      inputs[reader].push_back(static_cast<int64_t>(b));
      preds[reader].push_back(buffer.producer);
      succs[buffer.producer].push_back(reader);
    }
  }
  for (const auto &[before, after] : graph.orderEdges) {
    preds[after].push_back(before);
    succs[before].push_back(after);
  }
  for (int64_t v = 0; v < numNodes; ++v) {
    sortUnique(preds[v]);
    sortUnique(succs[v]);
    sortUnique(inputs[v]);
  }
}

} // namespace cs349::scheduler::detail
