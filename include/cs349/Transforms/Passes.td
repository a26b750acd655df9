//===- Passes.td - cs349 passes -----------------------------*- tablegen -*-===//
//
// The passes of the cs349 pipeline, in the order the lecture runs them. Each
// pass has its own .cpp in lib/Transforms and its own test in test/Transforms.
//
//===----------------------------------------------------------------------===//

#ifndef CS349_TRANSFORMS_PASSES_TD
#define CS349_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

//===----------------------------------------------------------------------===//
// Decomposition (issue 3)
//===----------------------------------------------------------------------===//

def Decompose : Pass<"decompose"> {
  let summary = "Expand composite ops (rms_norm, softmax, silu, rope) into primitives";
  let description = [{
    Rewrites every op with the `IsComposite` trait into primitive elementwise,
    reduction and rotate-half ops at the granularity of the lecture, so that a
    Llama layer has one op per result the lecture counts (45 when every op is
    its own kernel):

    * `rms_norm(x, g, eps)`: `x*x`, `reduce_sum` over the last axis with
      `keepdims`, `/ d`, `+ eps`, `rsqrt`, `x * r`, `* g`;
    * `softmax(x, axis)`: `reduce_max keepdims`, `sub`, `exp`,
      `reduce_sum keepdims`, `div`;
    * `rope(x, cos, sin)`: `x * cos`, `rotate_half(x)`, `* sin`, `add`;
    * `silu(x)`: `neg`, `exp`, `+ 1`, `x / ·`.

    Scalars (`d`, `eps`, `1`) become rank-0 `cs349.constant`s of the element
    type; every new op carries the location of the composite it came from.
    Composites inside `cs349.kernel` bodies are expanded in place. The pass
    neither folds nor removes dead code, and running it twice changes
    nothing.

    Before:

    ```mlir
    %y = cs349.silu %x : tensor<4x8xf32>
    ```

    After:

    ```mlir
    %0 = cs349.neg %x : tensor<4x8xf32>
    %1 = cs349.exp %0 : tensor<4x8xf32>
    %one = cs349.constant dense<1.000000e+00> : tensor<f32>
    %2 = cs349.add %1, %one : tensor<4x8xf32>, tensor<f32>
    %y = cs349.div %x, %2 : tensor<4x8xf32>
    ```
  }];
  let dependentDialects = ["::mlir::cs349::CS349Dialect"];
}

def PrintOpCounts : Pass<"cs349-print-op-counts", "::mlir::ModuleOp"> {
  let summary = "Print how many ops of each kind every function holds";
  let description = [{
    For each function (in order), prints one line to standard output:

    ```
    @layer: computed 45, composite 0, view 12, constant data 8, kernel 0
    ```

    `computed` counts the ops that produce a tensor and are neither views
    (`IsView`) nor constant data (`IsConstantData`) nor kernels: with every
    op in its own kernel these are the written results that the lecture
    counts (45 for a decomposed Llama layer). Ops inside `cs349.kernel`
    bodies are counted too; the kernels themselves are counted apart. The IR
    is not changed.
  }];
}

#endif // CS349_TRANSFORMS_PASSES_TD
