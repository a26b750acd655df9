//===- ArgumentShapes.h - run a dynamic function at given sizes --*- C++ -*-===//

#ifndef CS349_LIB_EXECUTION_ARGUMENTSHAPES_H
#define CS349_LIB_EXECUTION_ARGUMENTSHAPES_H

#include "mlir/Support/LLVM.h"
#include "llvm/Support/Error.h"

#include <string>

namespace mlir::func {
class FuncOp;
}

namespace cs349::run {

/// Where `func` has dynamic arguments, gives them the sizes of `entries`
/// (`arg-shapes`): its arguments become static and are cast to the types
/// they were written with on entry, its results take the static types the
/// importer derives for those sizes, and, when it has results, a last one,
/// a tensor of one i1 per result, says whether each result had those sizes
/// at run time (a result that had not is zeros). Returns whether it gave
/// sizes; a function without dynamic arguments is left as it is.
llvm::Expected<bool> giveArgumentShapes(mlir::func::FuncOp func,
                                        llvm::ArrayRef<std::string> entries);

} // namespace cs349::run

#endif // CS349_LIB_EXECUTION_ARGUMENTSHAPES_H
