//===- TensorData.h - cs349-run's inputs, outputs and comparison -*- C++ -*-===//
//
// Plain C++ (no MLIR types): the deterministic inputs a run feeds to a
// function, the text form of its results, and the comparison of two such
// texts with a tolerance.
//
//===----------------------------------------------------------------------===//

#ifndef CS349_EXECUTION_TENSORDATA_H
#define CS349_EXECUTION_TENSORDATA_H

#include "cs349/Support/ElementKind.h"

#include <cstdint>
#include <string>
#include <vector>

namespace cs349::run {

using ::cs349::ElementKind;

/// Rounds to `kind` (to nearest, ties to even) and writes its bytes.
void storeElement(ElementKind kind, float value, void *to);
/// Reads one element of `kind` as a float.
float loadElement(ElementKind kind, const void *from);
/// Writes an integer element (i1: 1 for any non-zero value; i32 keeps the
/// low 32 bits); a float kind stores the nearest float.
void storeInteger(ElementKind kind, int64_t value, void *to);
/// Reads one element as an integer (i1 is 0 or 1).
int64_t loadInteger(ElementKind kind, const void *from);

/// The values of the argument at `position` with `shape` for `seed`: a
/// splitmix64 stream keyed by (seed, position, shape), so the same argument
/// gets the same values in every file. Rank >= 2: uniform in
/// [-s, s) with s = sqrt(3 / shape[rank-2]) (the fan-in of a matmul weight,
/// so that activations stay of order one); rank <= 1 (norm gains, scalars):
/// uniform in [0.5, 1.5).
std::vector<float> argumentValues(uint64_t seed, unsigned position,
                                  const std::vector<int64_t> &shape);

/// The values of an integer argument at `position`: uniform in
/// [0, bound), from the stream argumentValues would use, keyed by the bound
/// too. cs349-run passes the number of slices of the table an index
/// argument selects from (so ids are always in range), 2 for an i1 mask and
/// kIntegerBound for any other integer.
std::vector<int64_t> integerArgumentValues(uint64_t seed, unsigned position,
                                           const std::vector<int64_t> &shape,
                                           int64_t bound);
/// The range [0, kIntegerBound) of integer arguments that index nothing.
constexpr int64_t kIntegerBound = 16;

/// One result as printed by cs349-run.
struct ResultText {
  std::string header; // "result 0: tensor<16x128xbf16>"
  std::vector<double> values;
};

/// Parses the results out of cs349-run's output; other lines are ignored.
/// Returns false and sets `error` on malformed text.
bool parseResults(const std::string &text, std::vector<ResultText> &results,
                  std::string &error);

struct Comparison {
  uint64_t compared = 0;
  uint64_t mismatches = 0;
  double maxAbsDiff = 0.0;
  double maxRelDiff = 0.0;
  std::vector<std::string> firstMismatches;
  std::string error; // set when the shapes or counts differ
};

/// |a - b| <= atol + rtol * |b| for every pair; NaNs and infinities must
/// match exactly.
Comparison compareResults(const std::vector<ResultText> &a,
                          const std::vector<ResultText> &b, double rtol,
                          double atol);

} // namespace cs349::run

#endif // CS349_EXECUTION_TENSORDATA_H
