//===- Pipelines.h - what the differential test runs, compared to what ----===//
//
// The one table of the pipelines that differential testing checks: each is a
// cs349-opt command line and a cs349-run option, compared with the program as
// written or with another pipeline's output, bit for bit where the docs
// promise it (fusion, scheduling, planning and kernel scratch regroup and
// place computations but round every value where the unfused program does).
// scripts/difftest.py reads it from `cs349-difftest --list-pipelines`.
//
//===----------------------------------------------------------------------===//

#ifndef CS349_TOOLS_CS349DIFFTEST_PIPELINES_H
#define CS349_TOOLS_CS349DIFFTEST_PIPELINES_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace cs349::difftest {

struct Pipeline {
  std::string name;
  /// cs349-opt's command line, e.g. "--fuse --plan-memory=strategy=best".
  std::string optFlags;
  /// Run with cs349-run --kernel-scratch.
  bool kernelScratch = false;
  /// The pipeline whose results this one must reproduce; "" is the program
  /// as written.
  std::string reference;
  /// Bit for bit, otherwise within the tolerance.
  bool exact = false;
};

/// What the random programs are written in: cs349 (`cs349-gen random`),
/// or what a front end exports (`cs349-gen random-import`), which every
/// pipeline then starts by importing.
enum class FrontEnd { CS349, Tosa, Linalg };

/// The pipelines checked on programs of `frontEnd`.
const std::vector<Pipeline> &getPipelines(FrontEnd frontEnd = FrontEnd::CS349);

/// A pass or pass pipeline flag of cs349-opt: `--name` or `--name=options`.
struct PassFlag {
  std::string name;
  std::string options;
};

/// cs349-opt's command line split into its pass flags; nothing when a word
/// is not a pass flag.
std::optional<std::vector<PassFlag>> splitPassFlags(llvm::StringRef optFlags);

} // namespace cs349::difftest

#endif // CS349_TOOLS_CS349DIFFTEST_PIPELINES_H
