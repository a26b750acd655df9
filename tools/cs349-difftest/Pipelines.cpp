//===- Pipelines.cpp - what the differential test runs, compared to what --===//

#include "Pipelines.h"

#include "llvm/ADT/SmallVector.h"

namespace cs349::difftest {

namespace {
const std::vector<Pipeline> &getCS349Pipelines() {
  static const std::vector<Pipeline> pipelines = [] {
    const std::string fusePlan = "--fuse --plan-memory --verify-memory-plan";
    std::vector<Pipeline> rows = {
        // On cs349 input the importer changes nothing.
        {"import", "--import", false, "", true},
        {"cse", "--cse", false, "", true},
        // Folds evaluate in double: within the tolerance.
        {"canonicalize", "--canonicalize", false, "", false},
        {"decompose", "--decompose --cse --canonicalize", false, "", false},
        // FlashAttention's online softmax sums in another order.
        {"match-attention", "--match-attention", false, "", false},
        {"optimize", "--optimize", false, "", false},
        {"optimize-no-attention", "--optimize=attention=false", false, "",
         false},
        {"optimize+plan", "--optimize " + fusePlan, false, "optimize", true},
        {"optimize+plan+scratch", "--optimize " + fusePlan, true, "optimize",
         true},
        {"optimize-no-attention+plan", "--optimize=attention=false " + fusePlan,
         false, "optimize-no-attention", true},
        {"schedule", "--schedule-memory", false, "", true},
        {"schedule+plan",
         "--fuse --schedule-memory --plan-memory --verify-memory-plan", false,
         "", true},
        {"unfused-plan", "--fuse=enable=false --plan-memory --verify-memory-plan",
         false, "", true},
        {"unfused-plan+scratch",
         "--fuse=enable=false --plan-memory --verify-memory-plan", true, "",
         true},
        {"fuse-unplanned", "--fuse", false, "", true},
    };
    for (const char *strategy :
         {"naive", "greedy-by-size", "best-fit", "search", "best"})
      rows.push_back({std::string("plan=") + strategy,
                      std::string("--fuse --plan-memory=strategy=") + strategy +
                          " --verify-memory-plan",
                      false, "", true});
    rows.push_back({"plan+scratch", fusePlan, true, "", true});
    return rows;
  }();
  return pipelines;
}

/// A TOSA or linalg program is compared with itself as upstream lowers it;
/// importing rewrites its arithmetic (1/y·x is x/y), so within the
/// tolerance, and what comes after the import is held to the same promises
/// as on cs349 input.
const std::vector<Pipeline> &getImportPipelines() {
  static const std::vector<Pipeline> pipelines = [] {
    const std::string fusePlan = "--fuse --plan-memory --verify-memory-plan";
    return std::vector<Pipeline>{
        {"import", "--import", false, "", false},
        {"import+optimize", "--import --optimize", false, "", false},
        {"import+optimize+plan", "--import --optimize " + fusePlan, false,
         "import+optimize", true},
        {"import+optimize+plan+scratch", "--import --optimize " + fusePlan,
         true, "import+optimize", true},
        {"import+unfused-plan",
         "--import --fuse=enable=false --plan-memory --verify-memory-plan",
         false, "import", true},
        {"import+schedule+plan",
         "--import --optimize --fuse --schedule-memory --plan-memory "
         "--verify-memory-plan",
         false, "import+optimize", true},
        {"import+plan=best",
         "--import --fuse --plan-memory=strategy=best --verify-memory-plan",
         false, "import", true},
    };
  }();
  return pipelines;
}
} // namespace

const std::vector<Pipeline> &getPipelines(FrontEnd frontEnd) {
  return frontEnd == FrontEnd::CS349 ? getCS349Pipelines()
                                     : getImportPipelines();
}

std::optional<std::vector<PassFlag>> splitPassFlags(llvm::StringRef optFlags) {
  llvm::SmallVector<llvm::StringRef> words;
  optFlags.split(words, ' ', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  std::vector<PassFlag> flags;
  for (llvm::StringRef word : words) {
    if (!word.consume_front("--"))
      return std::nullopt;
    auto [name, options] = word.split('=');
    flags.push_back({name.str(), options.str()});
  }
  return flags;
}

} // namespace cs349::difftest
