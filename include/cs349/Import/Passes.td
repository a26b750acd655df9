//===- Passes.td - importing other front ends' IR into cs349 -*- tablegen -*-===//

#ifndef CS349_IMPORT_PASSES_TD
#define CS349_IMPORT_PASSES_TD

include "mlir/Pass/PassBase.td"

def Import : Pass<"import", "::mlir::ModuleOp"> {
  let summary = "Import TOSA and linalg on tensors (with tensor, arith and "
                "math) into cs349";
  let description = [{
    Turns what other front ends write (torch-mlir's linalg on tensors,
    TOSA from TFLite or buddy-mlir) into `cs349` ops, so that
    `cs349-opt --import --optimize --fuse --plan-memory model.mlir` plans a
    real model. On `cs349` input it changes nothing.

    In order, per function:

    1. TOSA ops that have a `cs349` equivalent become it directly
       (`tosa.add` → `cs349.add`, `tosa.matmul` → `cs349.matmul`,
       `tosa.reduce_sum` → `cs349.reduce_sum ... keepdims`, ...).
    2. Every other TOSA op goes through upstream's TOSA → linalg, tensor
       and arith patterns.
    3. linalg is raised: elementwise `linalg.generic` bodies (inputs
       broadcast or permuted by their indexing maps) become `cs349`
       elementwise ops, reductions become `reduce_sum` / `reduce_max`
       (an init that is not the identity is combined afterwards),
       contractions in the matmul and batch-matmul forms (also with `B`
       transposed) become `cs349.matmul`, `expand_shape`/`collapse_shape`
       become `cs349.reshape`, float constants `cs349.constant`.
    4. Simplifications front ends need: `x · (1 / y)` → `x / y`,
       `sigmoid(x) · x` → `silu(x)`, `fpowi(x, 2)` → `x · x`, adding a
       zero constant → nothing.
    5. Whatever is left becomes an opaque `cs349.kernel` (attribute
       `cs349.opaque` names its ops): the foreign ops run inside it, its
       results are written, so lifetimes and the plan still cover the
       whole program. Ops linked by values that are not float tensors
       (integer masks, indices) share one opaque kernel.

    A function with a dynamic shape cannot be planned: that is a located
    error naming the first dynamic value. `arg-shapes` gives dynamic
    arguments static shapes first (`arg-shapes=0:1x128,1:1x128`: each
    dynamic argument takes the first entry for its index that has its rank
    and repeats its static sizes); the function's ops then learn theirs
    from TOSA's shape inference and upstream's canonicalizations, and its
    results become static where they can (not for a function that others
    call); a function whose arguments are static as written gets the same
    inference where its ops declare dynamic shapes. With
    `skip-dynamic=true` a function that still has a dynamic
    shape is left out of the output instead, with a located warning, and
    the rest of the module is imported (the function must not be called
    from the others).
  }];
  let dependentDialects = [
    "::mlir::cs349::CS349Dialect",
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect",
    "::mlir::tensor::TensorDialect",
    "::mlir::tosa::TosaDialect",
  ];
  let options = [
    Option<"reportOpaque", "report-opaque", "bool", /*default=*/"false",
           "Emit a remark at each opaque kernel naming the ops it holds and "
           "why none of them became cs349">,
    ListOption<"argShapes", "arg-shapes", "std::string",
               "Static shapes for dynamic function arguments, as INDEX:SHAPE "
               "(0:1x128); each dynamic argument takes the first entry for "
               "its index that has its rank and static sizes">,
    Option<"skipDynamic", "skip-dynamic", "bool", /*default=*/"false",
           "Leave functions with dynamic shapes out of the output (a warning "
           "at each) instead of failing on them">,
  ];
}

#endif // CS349_IMPORT_PASSES_TD
