//===- StepNameLocations.cpp - file positions for step-named diagnostics --===//

#include "StepNameLocations.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/AsmParser/AsmParserState.h"
#include "mlir/IR/Block.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <mutex>
#include <optional>

using namespace mlir;

namespace {
struct SourcePosition {
  unsigned line;
  unsigned column;
};

/// The input text and, once a diagnostic needs it, the position of the first
/// op carrying each step name. The positions come from parsing the input a
/// second time with the parser's state recorder, in a private context: it
/// costs a parse, so it only happens when a step-named diagnostic is emitted.
class StepNameIndex {
public:
  void reset(llvm::MemoryBufferRef newInput, const DialectRegistry &registry) {
    input = newInput;
    dialects = std::make_unique<DialectRegistry>();
    registry.appendTo(*dialects);
    positions.reset();
  }

  StringRef fileName() const { return input.getBufferIdentifier(); }
  bool hasSource() const { return !input.getBuffer().empty(); }

  std::optional<SourcePosition> find(StringRef stepName) {
    // Passes over several functions may report from several threads.
    std::lock_guard<std::mutex> lock(mutex);
    if (!positions)
      index();
    auto it = positions->find(stepName);
    if (it == positions->end())
      return std::nullopt;
    return it->second;
  }

private:
  void index() {
    positions.emplace();
    MLIRContext context(*dialects, MLIRContext::Threading::DISABLED);
    context.allowUnregisteredDialects();
    // The input may not parse as one piece (split files): whatever parsed
    // before a syntax error is still indexed, and the error is not shown.
    context.getDiagEngine().registerHandler(
        [](Diagnostic &) { return success(); });

    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBuffer(input, /*RequiresNullTerminator=*/false),
        llvm::SMLoc());
    Block block;
    AsmParserState parserState;
    ParserConfig config(&context, /*verifyAfterParse=*/false);
    (void)parseAsmSourceFile(sourceMgr, &block, config, &parserState);

    for (const AsmParserState::OperationDefinition &def :
         parserState.getOpDefs()) {
      auto name = dyn_cast<NameLoc>(def.op->getLoc());
      if (!name)
        continue;
      auto [line, column] = sourceMgr.getLineAndColumn(def.loc.Start);
      positions->try_emplace(name.getName().getValue(),
                             SourcePosition{line, column});
    }
  }

  llvm::MemoryBufferRef input;
  std::unique_ptr<DialectRegistry> dialects;
  std::optional<llvm::StringMap<SourcePosition>> positions;
  std::mutex mutex;
};

StepNameIndex &stepNameIndex() {
  static StepNameIndex index;
  return index;
}

bool hasFilePosition(Location location) {
  bool found = false;
  location->walk([&](Location inner) {
    found = found || isa<FileLineColLoc>(inner);
    return found ? WalkResult::interrupt() : WalkResult::advance();
  });
  return found;
}

/// The location to report instead of `location`: its step name at the
/// position of the op of that name, or nothing when there is none.
std::optional<Location> locateInSource(Location location) {
  if (hasFilePosition(location))
    return std::nullopt;
  NameLoc stepName;
  location->walk([&](Location inner) {
    stepName = dyn_cast<NameLoc>(inner);
    return stepName ? WalkResult::interrupt() : WalkResult::advance();
  });
  if (!stepName)
    return std::nullopt;
  StepNameIndex &index = stepNameIndex();
  std::optional<SourcePosition> position =
      index.find(stepName.getName().getValue());
  if (!position)
    return std::nullopt;
  auto file = FileLineColLoc::get(location->getContext(), index.fileName(),
                                  position->line, position->column);
  return NameLoc::get(stepName.getName(), file);
}
} // namespace

void mlir::cs349::setStepNameSource(llvm::MemoryBufferRef input,
                                    const DialectRegistry &registry) {
  stepNameIndex().reset(input, registry);
}

void mlir::cs349::locateStepNames(MLIRContext *context) {
  if (!stepNameIndex().hasSource())
    return;
  context->getDiagEngine().registerHandler([context](Diagnostic &diag) {
    std::optional<Location> located = locateInSource(diag.getLocation());
    if (!located)
      return failure();
    // The position replaces the step name in what is printed, so the
    // message keeps it.
    Diagnostic relocated(*located, diag.getSeverity());
    relocated << "step " << cast<NameLoc>(*located).getName() << ": "
              << diag.str();
    for (Diagnostic &note : diag.getNotes()) {
      Location noteLocation =
          locateInSource(note.getLocation()).value_or(note.getLocation());
      relocated.attachNote(noteLocation) << note.str();
    }
    context->getDiagEngine().emit(std::move(relocated));
    return success();
  });
}
