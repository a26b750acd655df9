//===- StepNamesFromSource.cpp - SSA names in the input become step names -===//

#include "StepNamesFromSource.h"

#include "mlir/IR/Location.h"
#include "mlir/IR/Operation.h"
#include "mlir/Pass/Pass.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"

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
    for (size_t i = 0; i < text.size(); ++i)
      if (text[i] == '\n')
        lineStarts.push_back(i + 1);
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
    // What to rename, first: a `_N` the printer added to tell apart values of
    // one step is dropped only when the name without it is a name too.
    llvm::SmallVector<std::pair<Operation *, FileLineColLoc>> ops;
    llvm::SmallVector<std::pair<BlockArgument, FileLineColLoc>> arguments;
    llvm::StringSet<> names;
    auto nameOf = [&](Location location) -> std::optional<FileLineColLoc> {
      auto position = dyn_cast<FileLineColLoc>(location);
      if (!position)
        return std::nullopt;
      std::optional<StringRef> name = lines.valueNameAt(position);
      if (!name)
        return std::nullopt;
      names.insert(*name);
      return position;
    };
    getOperation()->walk([&](Operation *op) {
      if (op->getNumResults() != 0)
        if (std::optional<FileLineColLoc> position = nameOf(op->getLoc()))
          ops.emplace_back(op, *position);
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument argument : block.getArguments())
            if (std::optional<FileLineColLoc> position =
                    nameOf(argument.getLoc()))
              arguments.emplace_back(argument, *position);
    });

    auto stepName = [&](FileLineColLoc position) -> Location {
      StringRef name = *lines.valueNameAt(position);
      auto [stem, counter] = name.rsplit('_');
      if (!counter.empty() && llvm::all_of(counter, llvm::isDigit) &&
          names.contains(stem))
        name = stem;
      return NameLoc::get(StringAttr::get(&getContext(), name), position);
    };
    for (auto [op, position] : ops)
      op->setLoc(stepName(position));
    for (auto [argument, position] : arguments)
      argument.setLoc(stepName(position));
    markAllAnalysesPreserved();
  }

  llvm::MemoryBufferRef source;
};
} // namespace

std::unique_ptr<Pass>
mlir::cs349::createStepNamesFromSourcePass(llvm::MemoryBufferRef source) {
  return std::make_unique<StepNamesFromSourcePass>(source);
}
