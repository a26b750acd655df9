//===- BranchesBuilder.h - the order demo: k independent branches -*- C++ -*-===//
//
// The order demo: k branches y_i = tanh(x @ W_i), each row-summed and added.
// The same graph in two op orders shows how the order alone changes the peak
// memory: breadth-first keeps every y_i alive, depth-first frees each one
// after its sum.
//
//===----------------------------------------------------------------------===//

#ifndef CS349_GEN_BRANCHESBUILDER_H
#define CS349_GEN_BRANCHESBUILDER_H

#include "cs349/Support/ElementType.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/Error.h"

#include <optional>

namespace mlir::cs349::gen {

enum class BranchOrder {
  /// Every branch's matmul and tanh, then every sum, then the additions.
  BreadthFirst,
  /// Each branch's matmul, tanh and sum, then its addition to the total.
  DepthFirst,
};

std::optional<BranchOrder> parseBranchOrder(llvm::StringRef name);

/// The most branches one function holds: each is four ops of IR built in
/// memory (about 0.4 s per thousand), so a count that would exhaust the
/// host's memory is an error instead.
constexpr int64_t kMaxBranches = 10000;

/// Defaults are the lecture's sizes.
struct BranchesConfig {
  int64_t branches = 4;
  int64_t rows = 2048;
  int64_t modelDim = 4096;
  int64_t width = 16384;
  ElementKind dtype = ElementKind::BF16;
  BranchOrder order = BranchOrder::BreadthFirst;
};

/// Checks positive sizes whose tensors' byte sizes fit in int64.
llvm::Error verifyConfig(const BranchesConfig &config);

/// Builds `func.func @branches(%x: [rows, d], %w0 ... : [d, width])
/// -> tensor<rows x 1>` in a new module. `config` must pass verifyConfig.
OwningOpRef<ModuleOp> buildBranchesModule(MLIRContext &context,
                                          const BranchesConfig &config);

} // namespace mlir::cs349::gen

#endif // CS349_GEN_BRANCHESBUILDER_H
