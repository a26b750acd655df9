//===- Passes.td - cs349 conversion passes ------------------*- tablegen -*-===//
//
// Lowering of the cs349 dialect to upstream MLIR, so that a layer (planned or
// not) can be bufferized, compiled to LLVM and run.
//
//===----------------------------------------------------------------------===//

#ifndef CS349_CONVERSION_PASSES_TD
#define CS349_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertCS349ToLinalg : Pass<"convert-cs349-to-linalg", "::mlir::ModuleOp"> {
  let summary = "Lower cs349 ops to linalg/tensor/scf/arith/math, in the "
                "memory plan's arena when there is one";
  let description = [{
    Rewrites every function that holds `cs349` ops into upstream dialects on
    tensors, ready for one-shot bufferization.

    **Values.** Every computed value becomes one all-parallel `linalg.generic`
    over its shape whose body reads the operands with `tensor.extract`:
    views (`reshape`, `transpose`, `repeat`) are folded into the index
    arithmetic of their readers, so they never copy; constant data
    (`causal_mask`, `rope_table`, splat constants) is computed where it is
    read, so it never takes memory. Reductions and contractions accumulate in
    `f32` in an `scf.for` inside the body. Arithmetic is `f32`; every op's
    result is rounded to the element type the IR declares (`bf16`, `f16`),
    whether it is stored or recomputed, so fusing and planning never change
    the numbers.

    **Kernels.** A `cs349.kernel` is lowered in place. Its yielded values are
    computed straight into the kernel's result tensors; the other ops of its
    body are recomputed where they are read (loop fusion), except a
    reduction or contraction whose elements would be recomputed more than
    once: with `kernel-scratch=true` it gets a scratch tensor of its own
    (a row sum is computed once per row, not once per column); by default
    it is recomputed too, so that the only memory a planned function
    allocates is its arena. Every value is rounded to its type also when it
    is recomputed, so both choices compute the same bits. (A
    `cs349.attention` that its kernel does not yield cannot be recomputed by
    element and always gets a tensor; `--fuse` never builds one.) Outside
    kernels every op is its own kernel (the unfused reference).

    **Arena.** A function with a `cs349.arena` and kernels with `cs349.plan`
    (written by `--plan-memory`) is lowered on the plan: one
    `memref.alloc() : memref<Nxi8>` of the planned size, and every kernel
    result is a `memref.view` of it at its planned offset, wrapped in
    `bufferization.to_tensor restrict writable` and used as the destination
    of the kernel. The plan is trusted (that two live buffers do not
    overlap is the plan verifier's job); it is checked only for what would
    make the program unsafe: sizes, bounds and element alignment.

    **Attention.** `cs349.attention` becomes a FlashAttention loop: for each
    head and query row, an `scf.for` over key blocks keeps the running
    maximum, sum and output row in registers (`vector`) and rescales them
    block by block (online softmax). No `[H, T, S]` tensor exists. The mask
    bounds the key loop: all keys for `none` and `additive` (which adds its
    operand's element to each score), keys up to the query for `causal`, and
    only the `W` keys of the window for `sliding_window` (blocks outside it
    are never visited).

    Before:

    ```mlir
    %y = cs349.kernel (%x) : (tensor<4x8xbf16>) -> tensor<4x8xbf16> {
    ^bb0(%a: tensor<4x8xbf16>):
      %e = cs349.exp %a : tensor<4x8xbf16>
      %n = cs349.neg %e : tensor<4x8xbf16>
      cs349.yield %n : tensor<4x8xbf16>
    } {cs349.plan = [#cs349.buffer<offset = 64, bytes = 64, first = 0, last = 0>]}
    ```

    After (with `cs349.arena = #cs349.arena<bytes = 128, ...>` on the
    function):

    ```mlir
    %arena = memref.alloc() : memref<128xi8>
    %view = memref.view %arena[%c64][] : memref<128xi8> to memref<4x8xbf16>
    %dest = bufferization.to_tensor %view restrict writable : ...
    %y = linalg.generic {...} outs(%dest : tensor<4x8xbf16>) {
      %v = tensor.extract %x[%i, %j] : tensor<4x8xbf16>
      ... arith.extf, math.exp, arith.truncf, arith.extf, arith.negf ...
      linalg.yield %r : bf16
    } -> tensor<4x8xbf16>
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
    "::mlir::vector::VectorDialect",
  ];
  let options = [
    Option<"mode", "mode", "::mlir::cs349::LoweringMode",
           /*default=*/"::mlir::cs349::LoweringMode::Auto",
           "Which route to take: auto (planned when the function carries "
           "cs349.arena), planned or unplanned (ignore any plan)",
           [{::mlir::cs349::loweringModeValues()}]>,
    Option<"attentionBlock", "attention-block", "int64_t", /*default=*/"32",
           "Keys per block of the FlashAttention loop (>= 1)">,
    Option<"kernelScratch", "kernel-scratch", "bool", /*default=*/"false",
           "Give a reduction or contraction inside a kernel that would be "
           "evaluated more than once per element a scratch tensor of its own "
           "(faster, but memory outside the plan). Off: every value a kernel "
           "does not yield is recomputed where it is read, so a planned "
           "function allocates exactly its arena; the results are the same "
           "bits either way">,
  ];
}

def CopyRepeatedReturns
    : Pass<"copy-repeated-returns", "::mlir::func::FuncOp"> {
  let summary = "Give every further return of a tensor a copy of its own";
  let description = [{
    After bufferization each returned tensor is the caller's out-parameter.
    A value returned twice would be one buffer for two out-parameters, which
    upstream's `buffer-results-to-out-params` cannot handle; so the second
    and later returns of a computed tensor return a `linalg.copy` of it into
    a `tensor.empty` (which the out-parameter then replaces: no allocation
    is added). Arguments are left alone: they are copied into the
    out-parameters already. Runs in the lowering pipelines right before
    bufferization, after every lowering that may fold two results into one.

    ```mlir
    return %y, %y : tensor<4xf32>, tensor<4xf32>
    // after
    %e = tensor.empty() : tensor<4xf32>
    %c = linalg.copy ins(%y : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    return %y, %c : tensor<4xf32>, tensor<4xf32>
    ```
  }];
  let dependentDialects = [
    "::mlir::linalg::LinalgDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

def DecomposeAggregatedOps
    : Pass<"decompose-aggregated-ops", "::mlir::func::FuncOp"> {
  let summary = "Decompose linalg ops that stand for several (linalg.softmax) "
                "with upstream's decomposition";
  let description = [{
    A linalg op that implements upstream's `AggregatedOpInterface` stands for
    a sequence of simpler ops and has no loops of its own, so upstream's
    lowering to loops cannot run it. Each one is replaced by what its
    `decomposeOperation` builds: `linalg.softmax` becomes the fills, the
    row maximum and sum, and the elementwise generics of a softmax. Runs in
    the lowering pipelines before bufferization, on an imported model's
    original and on opaque kernels alike.

    ```mlir
    %s = linalg.softmax dimension(1) ins(%x : tensor<2x4xf32>) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

#endif // CS349_CONVERSION_PASSES_TD
