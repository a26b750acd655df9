//===- ProblemIO.h - CSV reading/writing and synthetic problems -*- C++ -*-===//
//
// The MiniMalloc CSV format: a header naming the columns `id`, `lower`,
// `upper`, `size` (any order, other columns kept), one buffer per row, live on
// the half-open interval [lower, upper).  Plain C++17.
//
//===----------------------------------------------------------------------===//

#ifndef CS349_PLANNER_PROBLEMIO_H
#define CS349_PLANNER_PROBLEMIO_H

#include "cs349/Planner/MemoryPlanner.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cs349::planner {

/// A parsed CSV: the problem plus the raw table, to write it back out.
struct CsvProblem {
  Problem problem;
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows; ///< raw fields, parallel to
                                              ///< problem.buffers
  std::vector<size_t> lines;                  ///< 1-based line of each row
};

/// A parse error at a 1-based line.
struct CsvError {
  size_t line = 0;
  std::string message;
};

/// Parses CSV text.  Errors: empty file, missing column, wrong field count,
/// non-integer lower/upper/size, negative size, lower >= upper, duplicate id.
/// Buffer::id is the integer value of the `id` field when it is an integer,
/// else the row number (0-based); the original text is kept in `rows`.
std::optional<CsvError> parseProblemCsv(std::string_view text,
                                        CsvProblem &out);

/// The input table with an `offset` column (replaced if already present).
std::string writeSolutionCsv(const CsvProblem &csv, const Plan &plan);

/// A CSV (`id,lower,upper,size`) for a problem.
std::string writeProblemCsv(const Problem &problem);

/// A deterministic synthetic problem shaped like a compiled network: a
/// program of `numBuffers` steps; most results die within a few steps, a few
/// live long (skip connections); sizes log-uniform from 64 B to 16 MiB in
/// multiples of 64.  Same (numBuffers, seed) => same problem on every
/// platform.
Problem generateProblem(size_t numBuffers, uint64_t seed);

/// Shapes of generated problems beyond the default (short lifetimes,
/// log-uniform sizes), for problems where most buffers are live at once.
struct GenerateOptions {
  enum class Lifetimes {
    Short,    ///< the default: most die within a few steps
    Long,     ///< each lives until a uniformly random later step
    ToEnd,    ///< each lives to the end (an initializer's results)
    Training, ///< a training step: weights, nested forward results kept
              ///< for the backward pass, temporaries, gradients
  } lifetimes = Lifetimes::Short;
  enum class Sizes {
    LogUniform, ///< 64 B to 16 MiB, log-uniform, multiples of 64
    Few,        ///< eight sizes 64 KiB to 8 MiB plus 0..63 odd bytes
  } sizes = Sizes::LogUniform;
};

/// The same with other shapes; default options give generateProblem(n, s).
Problem generateProblem(size_t numBuffers, uint64_t seed,
                        const GenerateOptions &options);

/// "short", "long", "to-end", "training".
std::optional<GenerateOptions::Lifetimes>
parseGeneratedLifetimes(std::string_view name);
/// "log-uniform", "few".
std::optional<GenerateOptions::Sizes> parseGeneratedSizes(std::string_view name);

} // namespace cs349::planner

#endif // CS349_PLANNER_PROBLEMIO_H
