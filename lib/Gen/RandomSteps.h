//===- RandomSteps.h - what the random program generators share -*- C++ -*-===//
//
// Both random program generators (cs349 ops, RandomProgramBuilder.cpp, and
// what front ends export, RandomTosaProgramBuilder.cpp) build a program as a
// run of steps drawn by weight from a table, over a pool of values whose
// element bounds they track. The draws keep one number of the stream per
// call whatever their arguments, so that a program with fewer steps is a
// prefix of one with more.
//
//===----------------------------------------------------------------------===//

#ifndef CS349_LIB_GEN_RANDOMSTEPS_H
#define CS349_LIB_GEN_RANDOMSTEPS_H

#include "cs349/Support/SplitMix64.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <functional>
#include <numeric>
#include <string>

namespace mlir::cs349::gen::random {

// Tensors stay tiny: every program is compiled and run a dozen times.
constexpr int64_t kMaxElements = 384;
// Bounds past which an operand is squashed through tanh first.
constexpr double kOperandBound = 16.0;
constexpr double kExpInputBound = 3.0;
constexpr double kMatmulInputBound = 4.0;
constexpr int64_t kMaxSteps = 10000;

/// A value a program can read, with what is known about its elements:
/// |x| <= bound and x >= lower.
struct Pooled {
  Value value;
  double bound;
  double lower;
};

inline int64_t numElements(ArrayRef<int64_t> shape) {
  return std::accumulate(shape.begin(), shape.end(), int64_t(1),
                         std::multiplies<int64_t>());
}

inline ArrayRef<int64_t> shapeOf(Value value) {
  return cast<RankedTensorType>(value.getType()).getShape();
}

/// What cs349-run fills a float argument of `rank` dims with, as |x| <=
/// bound and x >= lower: rank >= 2 uniform in +-sqrt(3 / shape[rank-2]),
/// lower ranks in [0.5, 1.5).
inline Pooled runnerArgument(Value argument) {
  if (shapeOf(argument).size() >= 2)
    return {argument, 1.75, -1.75};
  return {argument, 1.5, 0.5};
}

/// The stream a generator draws its program from, and the names of the
/// steps it must leave out.
class Draws {
public:
  Draws(uint64_t seed, llvm::ArrayRef<std::string> without) : rng(seed) {
    for (const std::string &name : without)
      disabled.insert(name);
  }

protected:
  /// Uniform in [lo, hi]; always one draw, whatever the bounds.
  int64_t pick(int64_t lo, int64_t hi) {
    uint64_t draw = rng.next();
    return lo + static_cast<int64_t>(draw % static_cast<uint64_t>(hi - lo + 1));
  }
  bool chance(double p) { return rng.uniform() < p; }
  double real(double lo, double hi) { return lo + (hi - lo) * rng.uniform(); }
  template <typename T> T oneOf(llvm::ArrayRef<T> items) {
    return items[pick(0, static_cast<int64_t>(items.size()) - 1)];
  }
  bool enabled(llvm::StringRef name) const { return !disabled.contains(name); }
  int64_t smallDim() { return oneOf<int64_t>({1, 2, 3, 4, 4, 5, 6, 8}); }

  ::cs349::SplitMix64 rng;
  llvm::StringSet<> disabled;
};

/// A kind of step of `Builder`. `emit` returns false when the step does not
/// apply to the current pool (another is drawn then); a row without `emit`
/// names a feature that --without can switch off.
template <typename Builder> struct Step {
  llvm::StringLiteral name;
  unsigned weight;
  bool (Builder::*emit)();
};

/// Draws the number of steps from [minSteps, maxSteps], then each step by
/// weight among the enabled rows of `table` (a few tries when one does not
/// apply). `stepIndex` counts the steps, for the builder's locations.
template <typename Builder>
void runSteps(Builder &builder, llvm::ArrayRef<Step<Builder>> table,
              llvm::function_ref<int64_t(int64_t, int64_t)> pick,
              llvm::function_ref<bool(llvm::StringRef)> enabled,
              int64_t minSteps, int64_t maxSteps, int64_t &stepIndex) {
  llvm::SmallVector<const Step<Builder> *> rows;
  unsigned totalWeight = 0;
  for (const Step<Builder> &step : table)
    if (step.emit && step.weight && enabled(step.name)) {
      rows.push_back(&step);
      totalWeight += step.weight;
    }
  int64_t count = pick(minSteps, maxSteps);
  if (rows.empty())
    return;
  for (stepIndex = 0; stepIndex < count; ++stepIndex) {
    // Most steps make their own operands, so a few tries always find one.
    for (int attempt = 0; attempt < 8; ++attempt) {
      int64_t draw = pick(0, totalWeight - 1);
      const Step<Builder> *chosen = rows.back();
      for (const Step<Builder> *step : rows) {
        if (draw < static_cast<int64_t>(step->weight)) {
          chosen = step;
          break;
        }
        draw -= step->weight;
      }
      if ((builder.*(chosen->emit))())
        break;
    }
  }
}

/// The names of `table`'s rows, in order.
template <typename Builder>
llvm::SmallVector<llvm::StringRef>
stepNames(llvm::ArrayRef<Step<Builder>> table) {
  llvm::SmallVector<llvm::StringRef> names;
  for (const Step<Builder> &step : table)
    names.push_back(step.name);
  return names;
}

/// `func.func @random` in a new module, its body from `build` (which adds
/// the arguments to the entry block and returns the results).
OwningOpRef<ModuleOp>
buildRandomFunction(MLIRContext &context,
                    llvm::function_ref<SmallVector<Value>(OpBuilder &, Block *)>
                        build);

/// Checks a step range (0 <= min <= max <= most) and that every name in
/// `without` is one of `names`; errors name the options (--ops, --without).
llvm::Error verifySteps(int64_t minSteps, int64_t maxSteps, int64_t most,
                        llvm::ArrayRef<std::string> without,
                        llvm::ArrayRef<llvm::StringRef> names);

} // namespace mlir::cs349::gen::random

#endif // CS349_LIB_GEN_RANDOMSTEPS_H
