//===- ArgumentShapes.h - sizes for dynamic arguments ------------*- C++ -*-===//
//
// `arg-shapes` gives a function's dynamic arguments static sizes: the
// importer plans the function with them (`--import=arg-shapes=...`), and
// cs349-run runs the function as written with them (`--arg-shapes`), so the
// two can be compared on the same arguments.
//
//===----------------------------------------------------------------------===//

#ifndef CS349_IMPORT_ARGUMENTSHAPES_H
#define CS349_IMPORT_ARGUMENTSHAPES_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Support/LLVM.h"

#include <string>

namespace mlir {
namespace func {
class FuncOp;
}
namespace cs349 {

/// A static shape for a function's dynamic argument: one `INDEX:SHAPE`
/// entry of `arg-shapes`.
struct ArgumentShape {
  unsigned index = 0;
  SmallVector<int64_t> sizes;
  std::string spelling; ///< as the option gave it, for diagnostics
};

/// Parses `arg-shapes` entries (`0:1x128`); on a malformed one, `error`
/// says which and why.
FailureOr<SmallVector<ArgumentShape>>
parseArgumentShapes(ArrayRef<std::string> entries, std::string &error);

/// The signature the importer gives `func` before it imports it: each
/// dynamic argument takes the first of `shapes` for its index that fits it,
/// and the results the types that shape inference then derives from the
/// arguments (static where it can tell). Computed on a copy: `func` is left
/// as it is. Fails, with diagnostics at their ops, where the import would
/// (a size check of the program that the sizes fail).
FailureOr<FunctionType> inferStaticSignature(func::FuncOp func,
                                             ArrayRef<ArgumentShape> shapes);

} // namespace cs349
} // namespace mlir

#endif // CS349_IMPORT_ARGUMENTSHAPES_H
