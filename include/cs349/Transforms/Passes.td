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

//===----------------------------------------------------------------------===//
// Attention matching (issue 3)
//===----------------------------------------------------------------------===//

def MatchAttention : Pass<"match-attention", "::mlir::func::FuncOp"> {
  let summary = "Fuse q·kᵀ → scale → causal mask → softmax → ·v into cs349.attention";
  let description = [{
    Finds attention written op by op and replaces it with one
    `cs349.attention`, so that the `[H, T, S]` scores and probabilities never
    reach memory (FlashAttention). The pattern is rooted at the final
    `p @ v` matmul and recognises:

    * the softmax as `cs349.softmax` over the last axis, or decomposed as
      `reduce_max keepdims` → `sub` → `exp` → `reduce_sum keepdims` → `div`
      over the last axis;
    * the scale as a multiplication by a splat constant (either operand
      order) or a division by one (`/ sqrt(dh)`), on the scores or on `q`,
      before or after the mask (a positive scale only after it);
    * an optional causal mask: `add` of a `cs349.causal_mask`;
    * the scores as `matmul(q, k) transpose_b` or
      `matmul(q, transpose(k) perm = [0, 2, 1])`;
    * grouped-query attention: keys and values given through
      `cs349.repeat axis = 0` are replaced by the un-repeated `[G, S, dh]`
      tensors.

    Every intermediate (scores, probabilities, softmax internals) must be read
    only by the chain itself. When a softmax feeds a matmul but the rest does
    not hold — the softmax is over another axis, an intermediate is used
    elsewhere, the mask is not `cs349.causal_mask`, the scale is not a splat
    constant, the key/value heads do not match or do not divide the query
    heads — the graph is left alone and the reason is printed under
    `-debug-only=match-attention` (in builds with LLVM assertions) and, with
    `report-misses=true`, emitted as a remark on the `p @ v` matmul.

    Before:

    ```mlir
    %kr = cs349.repeat %k axis = 0 times = 4 : tensor<2x16x16xbf16> -> tensor<8x16x16xbf16>
    %vr = cs349.repeat %v axis = 0 times = 4 : tensor<2x16x16xbf16> -> tensor<8x16x16xbf16>
    %s = cs349.matmul %q, %kr transpose_b : tensor<8x16x16xbf16>, tensor<8x16x16xbf16> -> tensor<8x16x16xbf16>
    %c = cs349.constant dense<2.500000e-01> : tensor<bf16>
    %ss = cs349.mul %s, %c : tensor<8x16x16xbf16>, tensor<bf16>
    %m = cs349.causal_mask : tensor<16x16xbf16>
    %sm = cs349.add %ss, %m : tensor<8x16x16xbf16>, tensor<16x16xbf16>
    %p = cs349.softmax %sm axis = 2 : tensor<8x16x16xbf16>
    %o = cs349.matmul %p, %vr : tensor<8x16x16xbf16>, tensor<8x16x16xbf16> -> tensor<8x16x16xbf16>
    ```

    After:

    ```mlir
    %o = cs349.attention %q, %k, %v scale = 2.500000e-01 causal
        : tensor<8x16x16xbf16>, tensor<2x16x16xbf16>, tensor<2x16x16xbf16>
    ```

    Running the pass twice changes nothing: the fused op is no longer a
    softmax feeding a matmul.
  }];
  let options = [
    Option<"reportMisses", "report-misses", "bool", /*default=*/"false",
           "Emit a remark on every softmax·v matmul that is not fused, saying "
           "which condition failed (for builds where -debug-only is not "
           "available)">
  ];
  let dependentDialects = ["::mlir::cs349::CS349Dialect"];
}

#endif // CS349_TRANSFORMS_PASSES_TD
