//===- CS349Interfaces.td - what passes ask cs349 ops -------*- tablegen -*-===//
//
// Each pass asks the op instead of keeping a list of op names: adding an op
// is its ODS entry, the methods of the interfaces it declares and its tests.
//
//===----------------------------------------------------------------------===//

#ifndef CS349_INTERFACES_TD
#define CS349_INTERFACES_TD

include "mlir/IR/OpBase.td"

def CS349_FusionOpInterface : OpInterface<"FusionOpInterface"> {
  let description = [{
    What kernel `--fuse` builds around the op: a matmul starts one and takes
    epilogues, a reduction takes its elementwise prologue, an elementwise op
    joins the kernel of one of its operands, and a `Single` op stands alone.
    Views, constant data and terminators do not declare it (no kernel computes
    them); any other op without it stands alone.
  }];
  let cppNamespace = "::mlir::cs349";
  let methods = [
    StaticInterfaceMethod<"The kind of kernel the op belongs to.",
      "::mlir::cs349::FusionKind", "getFusionKind">,
  ];
}

def CS349_ElementwiseOpInterface : OpInterface<"ElementwiseOpInterface"> {
  let description = [{
    The op computes each result element from the elements of its operands at
    the same indices, operands broadcast NumPy-style to the result's shape.
    One scalar function serves constant folding (in double, rounded once to
    the element type) and the lowering (in f32 with arith and math ops,
    rounded as a store would round). Declaring the interface also gives the
    op a folder: constant operands, or RoPE tables small enough to evaluate,
    fold to a constant.
  }];
  let cppNamespace = "::mlir::cs349";
  let methods = [
    // Not static: an op's attributes may choose the function (gelu's mode).
    // Ops whose element needs none define these as static members.
    InterfaceMethod<
      "One result element from one element of each operand, in double.",
      "double", "evaluateElement", (ins "::llvm::ArrayRef<double>":$operands)>,
    InterfaceMethod<
      "The f32 scalar code of one result element from the f32 operand "
      "elements, emitted at `builder`'s insertion point.",
      "::mlir::Value", "emitElement",
      (ins "::mlir::OpBuilder &":$builder, "::mlir::Location":$loc,
           "::mlir::ValueRange":$operands)>,
  ];
  let extraTraitClassDeclaration = [{
    /// The folder every elementwise op gets (MLIR tries it after the op's
    /// own fold hook, if any, fails).
    static ::mlir::OpFoldResult
    foldTrait(::mlir::Operation *op, ::llvm::ArrayRef<::mlir::Attribute> operands) {
      return ::mlir::cs349::foldElementwise(op, operands);
    }
  }];
}

def CS349_ReductionOpInterface : OpInterface<"ReductionOpInterface"> {
  let description = [{
    The op reduces its input over `axes` (keeping them as size-1 dimensions
    with `keepdims`) with an associative combining step: `--fuse` groups
    reductions over the same rows, the lowering emits the loop, and the
    folder evaluates it.
  }];
  let cppNamespace = "::mlir::cs349";
  let methods = [
    InterfaceMethod<"The reduced tensor.", "::mlir::Value", "getInput">,
    InterfaceMethod<"The reduced dimensions of the input.",
      "::llvm::ArrayRef<int64_t>", "getAxes">,
    InterfaceMethod<"Whether the reduced dimensions stay with size 1.",
      "bool", "getKeepdims">,
    StaticInterfaceMethod<"The value of an empty reduction.", "double",
      "identity">,
    StaticInterfaceMethod<"One combining step, in double.", "double",
      "combine", (ins "double":$accumulated, "double":$element)>,
    StaticInterfaceMethod<"One combining step as f32 scalar code.",
      "::mlir::Value", "emitCombine",
      (ins "::mlir::OpBuilder &":$builder, "::mlir::Location":$loc,
           "::mlir::Value":$accumulated, "::mlir::Value":$element)>,
  ];
}

def CS349_RecomputeCostOpInterface : OpInterface<"RecomputeCostOpInterface"> {
  let description = [{
    What computing one element of the op costs when a kernel recomputes it
    where it is read instead of storing it: how often it reads each element
    of an operand, and whether that is a loop (a reduction, a contraction, a
    row-wise composite) worth a scratch tensor when the value is read more
    than once. Ops without it read each operand element once per result
    element it broadcasts to, and are cheap.
  }];
  let cppNamespace = "::mlir::cs349";
  let methods = [
    InterfaceMethod<
      "How many times computing every element of the result once reads each "
      "element of operand `operandIndex`.",
      "double", "getReadsPerElement", (ins "unsigned":$operandIndex), [{}],
      [{
        return ::mlir::cs349::broadcastReadsPerElement($_op, operandIndex);
      }]>,
    InterfaceMethod<
      "Whether one element is a loop: recomputing it for more than one "
      "reader costs more than a scratch tensor.",
      "bool", "isCostlyToRecompute", (ins), [{}], [{ return true; }]>,
  ];
}

#endif // CS349_INTERFACES_TD
