//===- StepNamesFromSource.cpp - SSA names in the input become step names -===//

#include "StepNamesFromSource.h"

#include "mlir/IR/Location.h"
#include "mlir/IR/Operation.h"
#include "mlir/Pass/Pass.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <vector>

using namespace mlir;

namespace {
/// The input text by line, to read the SSA name at an op's position.
class SourceLines {
public:
  explicit SourceLines(llvm::MemoryBufferRef source)
      : fileName(source.getBufferIdentifier()), text(source.getBuffer()) {
    lineStarts.push_back(0);
    for (size_t end = text.find('\n'); end != StringRef::npos;
         end = text.find('\n', end + 1))
      lineStarts.push_back(end + 1);
  }

  /// The name of the value at `position`, or of the first result of the op
  /// whose name is there (`%name = `, `%name:2 = `, `%name, %other = `
  /// before it on its line); nothing when it is a number, not a value, or in
  /// another file.
  std::optional<StringRef> valueNameAt(FileLineColLoc position) const {
    if (position.getFilename().getValue() != fileName ||
        position.getLine() == 0 || position.getLine() > lineStarts.size() ||
        position.getColumn() == 0)
      return std::nullopt;
    size_t lineStart = lineStarts[position.getLine() - 1];
    size_t start = lineStart + position.getColumn() - 1;
    if (start >= text.size())
      return std::nullopt;
    if (text[start] != '%') {
      StringRef results = text.slice(lineStart, start).trim();
      if (!results.consume_back("=") || !results.starts_with("%"))
        return std::nullopt;
      start = lineStart + (results.data() - text.data() - lineStart);
    }
    // The suffix-id of MLIR's grammar: digits, or a letter or one of $._-
    // followed by letters, digits and those.
    StringRef name = text.drop_front(start + 1).take_while([](char c) {
      return llvm::isAlnum(c) || c == '$' || c == '.' || c == '_' || c == '-';
    });
    if (name.empty() || llvm::all_of(name, llvm::isDigit))
      return std::nullopt;
    return name;
  }

private:
  StringRef fileName;
  StringRef text;
  std::vector<size_t> lineStarts;
};

struct StepNamesFromSourcePass
    : PassWrapper<StepNamesFromSourcePass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(StepNamesFromSourcePass)

  explicit StepNamesFromSourcePass(llvm::MemoryBufferRef source)
      : source(source) {}

  StringRef getName() const override { return "StepNamesFromSource"; }
  StringRef getArgument() const override { return "step-names-from-source"; }
  StringRef getDescription() const override {
    return "name ops and block arguments after their SSA names in the input";
  }

  void runOnOperation() override {
    SourceLines lines(source);
    // Names first, renaming after: a `_N` the printer added to tell apart
    // values of one step is dropped only when the name without it is a name
    // too.
    struct Named {
      FileLineColLoc position;
      StringRef name;
    };
    llvm::SmallVector<std::pair<Operation *, Named>> ops;
    llvm::SmallVector<std::pair<BlockArgument, Named>> arguments;
    // Slices of the input, which outlives the pass.
    llvm::DenseSet<StringRef> names;
    auto nameOf = [&](Location location) -> std::optional<Named> {
      auto position = dyn_cast<FileLineColLoc>(location);
      if (!position)
        return std::nullopt;
      std::optional<StringRef> name = lines.valueNameAt(position);
      if (!name)
        return std::nullopt;
      names.insert(*name);
      return Named{position, *name};
    };
    getOperation()->walk([&](Operation *op) {
      if (op->getNumResults() != 0)
        if (std::optional<Named> named = nameOf(op->getLoc()))
          ops.emplace_back(op, *named);
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument argument : block.getArguments())
            if (std::optional<Named> named = nameOf(argument.getLoc()))
              arguments.emplace_back(argument, *named);
    });

    auto stepName = [&](const Named &named) -> Location {
      StringRef name = named.name;
      auto [stem, counter] = name.rsplit('_');
      if (!counter.empty() && llvm::all_of(counter, llvm::isDigit) &&
          names.contains(stem))
        name = stem;
      return NameLoc::get(StringAttr::get(&getContext(), name),
                          named.position);
    };
    for (auto &[op, named] : ops)
      op->setLoc(stepName(named));
    for (auto &[argument, named] : arguments)
      argument.setLoc(stepName(named));
    markAllAnalysesPreserved();
  }

  llvm::MemoryBufferRef source;
};
} // namespace

std::unique_ptr<Pass>
mlir::cs349::createStepNamesFromSourcePass(llvm::MemoryBufferRef source) {
  return std::make_unique<StepNamesFromSourcePass>(source);
}
