//===- RandomSteps.cpp - what the random program generators share --------===//

#include "RandomSteps.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"

llvm::Error mlir::cs349::gen::random::verifySteps(
    int64_t minSteps, int64_t maxSteps, int64_t most,
    llvm::ArrayRef<std::string> without,
    llvm::ArrayRef<llvm::StringRef> names) {
  if (minSteps < 0 || maxSteps < minSteps)
    return llvm::createStringError(
        "--ops expects MIN:MAX with 0 <= MIN <= MAX, got " +
        llvm::Twine(minSteps) + ":" + llvm::Twine(maxSteps));
  if (maxSteps > most)
    return llvm::createStringError("--ops allows at most " + llvm::Twine(most) +
                                   " steps, got " + llvm::Twine(maxSteps));
  for (const std::string &name : without)
    if (!llvm::is_contained(names, name))
      return llvm::createStringError("unknown step '" + name +
                                     "' in --without (expected one of " +
                                     llvm::join(names, ", ") + ")");
  return llvm::Error::success();
}
