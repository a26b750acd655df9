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
// Decomposition
//===----------------------------------------------------------------------===//

def Decompose : Pass<"decompose"> {
  let summary = "Expand composite ops (rms_norm, layer_norm, softmax, silu, rope) into primitives";
  let description = [{
    Rewrites every op with the `IsComposite` trait into primitive elementwise,
    reduction and rotate-half ops at the granularity of the lecture, so that a
    Llama layer has one op per result the lecture counts (45 when every op is
    its own kernel):

    * `rms_norm(x, g, eps)`: `x*x`, `reduce_sum` over the last axis with
      `keepdims`, `/ d`, `+ eps`, `rsqrt`, `x * r`, `* g`;
    * `layer_norm(x, g[, b], eps)`: `reduce_sum keepdims` over the last axis,
      `* (1/d)` (the mean), `x - mean`, its square, `reduce_sum keepdims`,
      `* (1/d)` (the variance), `+ eps`, `rsqrt`, `c * r`, `* g`, and `+ b`
      with a bias;
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

def PrintOpCounts : Pass<"print-op-counts", "::mlir::ModuleOp"> {
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
// Attention matching
//===----------------------------------------------------------------------===//

def MatchAttention : Pass<"match-attention", "::mlir::func::FuncOp"> {
  let summary = "Fuse q·kᵀ → scale → mask → softmax → ·v into cs349.attention";
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
    * an optional mask, `add`ed to the scores: a `cs349.causal_mask` of the
      scores' `[T, S]` gives `mask = causal`, one with `window = W` gives
      `mask = sliding_window window = W`, and any other tensor that
      broadcasts to the scores (an argument, a constant padding mask) gives
      `mask = additive` with that tensor as operand (a scale after an
      additive mask would scale the mask too: not matched);
    * no mask at all: `mask = none`;
    * the scores as `matmul(q, k) transpose_b` or
      `matmul(q, transpose(k) perm = [0, 2, 1])`;
    * grouped-query attention: keys and values given through
      `cs349.repeat axis = 0` are replaced by the un-repeated `[G, S, dh]`
      tensors.

    Every intermediate (scores, probabilities, softmax internals) must be read
    only by the chain itself. When a softmax feeds a matmul but the rest does
    not hold — the softmax is over another axis, an intermediate is used
    elsewhere, the mask is computed from the scores or broadcasts them, the
    scores are masked twice or scaled after an additive mask, the scale is not a splat
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
    %o = cs349.attention %q, %k, %v scale = 2.500000e-01 mask = causal
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

//===----------------------------------------------------------------------===//
// Fusion and memory planning
//===----------------------------------------------------------------------===//

def Fuse : Pass<"fuse", "::mlir::func::FuncOp"> {
  let summary = "Partition a function into cs349.kernel ops; only kernel "
                "results are written to memory";
  let description = [{
    Groups the ops of a function into `cs349.kernel` regions, in the order
    the function computes them, so that a value reaches memory only when a
    later kernel or the function's return reads it (directly or through
    views). The rules (docs/fusion-and-planning.md works them through on the
    Llama layer):

    * a `cs349.matmul` starts a kernel and never absorbs its producers, so
      every matmul input is written; it absorbs elementwise consumers whose
      result is no larger than its output (the epilogue: RoPE after the
      q/k projections, scale and mask after q·kᵀ, the residual add after the
      output projection, SiLU after the gate projection, ·up after the up
      projection);
    * a reduction absorbs the elementwise kernel that produces its input (its
      prologue) and, with later reductions over the same rows, the row-wise
      ops after it: rms_norm and softmax each become one kernel; a reduction
      never joins a matmul kernel;
    * an elementwise op joins the most recent kernel that produces one of its
      operands and may take it; otherwise it starts an elementwise kernel;
    * an elementwise op whose only readers are in one later reduction or
      elementwise kernel, and whose operands are written anyway, moves into
      that kernel (so `x2·x2` goes to the second RMSNorm, not the o_proj
      epilogue: 12 written results for the layer, not the lecture's 13);
    * `cs349.attention`, composite ops (if not decomposed) and ops the pass
      does not know are one kernel each; existing kernels are kept.

    Views (reshape, transpose, repeat) of kernel results stay at function
    level between kernels, since a view never copies; a view whose source is
    computed in a kernel and that is read in the same kernel is cloned into
    it. Constant data (`cs349.constant`, `cs349.causal_mask`,
    `cs349.rope_table`) a kernel reads is cloned into its body. A merge that
    would make two kernels depend on each other is not made.

    With `enable=false` every op is a kernel of its own (the lecture's
    `fuse(g, enable=False)`): 45 written results for a decomposed Llama layer.

    Before:

    ```mlir
    func.func @f(%x: tensor<16x128xf32>, %w: tensor<128x128xf32>) -> tensor<16x128xf32> {
      %y = cs349.matmul %x, %w : tensor<16x128xf32>, tensor<128x128xf32> -> tensor<16x128xf32>
      %t = cs349.tanh %y : tensor<16x128xf32>
      return %t : tensor<16x128xf32>
    }
    ```

    After:

    ```mlir
    func.func @f(%x: tensor<16x128xf32>, %w: tensor<128x128xf32>) -> tensor<16x128xf32> {
      %0 = cs349.kernel(%x, %w) : (tensor<16x128xf32>, tensor<128x128xf32>) -> tensor<16x128xf32> {
      ^bb0(%a: tensor<16x128xf32>, %b: tensor<128x128xf32>):
        %y = cs349.matmul %a, %b : tensor<16x128xf32>, tensor<128x128xf32> -> tensor<16x128xf32>
        %t = cs349.tanh %y : tensor<16x128xf32>
        cs349.yield %t : tensor<16x128xf32>
      }
      return %0 : tensor<16x128xf32>
    }
    ```
  }];
  let options = [
    Option<"enable", "enable", "bool", /*default=*/"true",
           "Group ops into kernels by the fusion rules (listed in "
           "docs/fusion-and-planning.md); with false every op is a kernel of "
           "its own">
  ];
  let dependentDialects = ["::mlir::cs349::CS349Dialect"];
}

def PlanMemory : Pass<"plan-memory", "::mlir::ModuleOp"> {
  let summary = "Place every written result at a byte offset in one arena "
                "per function";
  let description = [{
    For each fused function, computes the written results (kernel results),
    their sizes and lifetimes (first kernel = producer, last kernel = last
    reader directly or through views, the last kernel for function results;
    arguments and constant data are not planned), and asks the planner
    library for offsets. The plan is recorded in the IR and then checked by
    the same verifier as `--verify-memory-plan`:

    * each `cs349.kernel` gets `cs349.plan = [#cs349.buffer<offset = O,
      bytes = B, first = F, last = L>, ...]`, one entry per result;
    * the function gets `cs349.arena = #cs349.arena<bytes = ..., naive = ...,
      lower_bound = ..., alignment = ..., kernels = ..., strategy = "...">`:
      the arena size, the naive size (no reuse), the lower bound (the most
      bytes live at one kernel) and how the plan was made.

    A function that computes tensors outside kernels is an error ("run
    --fuse first"). Functions without a body are skipped.

    The pass adds these attributes and changes nothing else; it checks them
    itself (as a memory plan, and by the dialect's rules for them) and
    preserves every analysis, so the pass manager does not verify the whole
    module again after it.

    Before (fused):

    ```mlir
    %0 = cs349.kernel(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32> { ... }
    %1 = cs349.kernel(%0) : (tensor<4x8xf32>) -> tensor<4x8xf32> { ... }
    %2 = cs349.kernel(%1) : (tensor<4x8xf32>) -> tensor<4x8xf32> { ... }
    ```

    After `--plan-memory=alignment=1`:

    ```mlir
    func.func @f(...) attributes {cs349.arena = #cs349.arena<bytes = 256,
        naive = 384, lower_bound = 256, alignment = 1, kernels = 3,
        strategy = "greedy-by-size">} {
      %0 = cs349.kernel(%x) ... attributes {cs349.plan = [#cs349.buffer<offset = 0, bytes = 128, first = 0, last = 1>]} { ... }
      %1 = cs349.kernel(%0) ... attributes {cs349.plan = [#cs349.buffer<offset = 128, bytes = 128, first = 1, last = 2>]} { ... }
      %2 = cs349.kernel(%1) ... attributes {cs349.plan = [#cs349.buffer<offset = 0, bytes = 128, first = 2, last = 2>]} { ... }
    ```
  }];
  let options = [
    Option<"strategy", "strategy", "::cs349::planner::Strategy",
           /*default=*/"::cs349::planner::Strategy::GreedyBySize",
           "How to place the buffers: naive, greedy-by-size, best-fit, "
           "search or best (--help says what each does)",
           [{::mlir::cs349::planStrategyValues()}]>,
    Option<"alignment", "alignment", "uint64_t", /*default=*/"64",
           "Every offset is a multiple of this many bytes (a power of two)">,
    Option<"report", "report", "std::string", /*default=*/"\"\"",
           "Write a JSON report (one object per function with its buffers) "
           "to this file; '-' is standard output">,
    Option<"timeLimit", "time-limit", "double", /*default=*/"1.0",
           "Seconds the search and best strategies may spend per function">,
    Option<"capacity", "capacity", "uint64_t", /*default=*/"0",
           "Bytes of memory the arena must fit in (0: no limit). A function "
           "whose plan needs more is an error that gives the arena, the lower "
           "bound and what would help">
  ];
  let dependentDialects = ["::mlir::cs349::CS349Dialect"];
}

def VerifyMemoryPlan : Pass<"verify-memory-plan", "::mlir::func::FuncOp"> {
  let summary = "Check a memory plan recorded in the IR, e.g. after editing "
                "it by hand";
  let description = [{
    Reads the `cs349.arena` and `cs349.plan` annotations of each planned
    function (functions without `cs349.arena` are skipped) and reports, as
    located errors:

    * a missing or malformed `cs349.plan` on a kernel, a buffer count that is
      not the kernel's result count;
    * a buffer whose `bytes`, `first` or `last` disagree with the IR (its
      type, its producer, its last reader through views);
    * a kernel count, naive size or lower bound that disagree with the IR, an
      alignment that is not a power of two;
    * a misaligned offset, a buffer past the end of the arena;
    * two buffers live at the same kernel that overlap in memory: an error on
      one buffer's kernel and a note on the other's, naming both.

    `--plan-memory` runs the same checks on every plan it makes. The IR is
    not changed.

    ```mlir
    // error: 'cs349.kernel' op buffer 'k1#0' (kernel 1 result #0) at [0, 128)
    //   live in kernels [1, 2] overlaps buffer 'k2#0' ...
    ```
  }];
}

def MemoryReport : Pass<"memory-report", "::mlir::ModuleOp"> {
  let summary = "Print the memory plan of each function as a table or JSON";
  let description = [{
    Reads the plan that `--plan-memory` recorded (and checks it like
    `--verify-memory-plan`) and prints, for each planned function, the
    lecture's demo 1 table: every written result with the op that produces
    it, its shape, size, first and last kernel and offset, followed by the
    naive size, the arena size of the strategy used and the lower bound, in
    decimal units (1 MB = 10^6 B):

    ```
    $ cs349-gen layer --preset tiny --seq 16 \
        | cs349-opt --optimize --fuse --plan-memory=alignment=1 --memory-report -o /dev/null
    @layer: 10 kernels, 10 written results, alignment 1
    result                op         shape         size     first  last     offset
    layer0.attn.norm      mul        16x128xbf16   4.1 kB   0      3        0 B
    layer0.attn.q_rope    add        8x16x16xbf16  4.1 kB   1      4        4.1 kB
    ...
    layer0.mlp.residual   add        16x128xbf16   4.1 kB   9      9 (out)  0 B
    naive 48.6 kB (48640 B) | greedy-by-size 30.2 kB (30208 B) | lower bound 30.2 kB (30208 B)
    peak 30.2 kB (30208 B) at kernel 8 (layer0.mlp.up_proj), live: layer0.attn.residual, layer0.mlp.norm, layer0.mlp.silu, layer0.mlp.gated
    ```

    A result is named after the location of the op that produces it inside
    its kernel (cs349-gen names every step), or `k<kernel>#<result>`;
    `(out)` marks function results. The last line names the kernel where
    the most bytes are live (the lower bound) and the results live there.
    With `exact=true`, sizes and offsets are exact byte counts and an `end`
    column gives `offset + size`, so that overlaps can be checked by hand.

    With `format=json` it prints the same JSON report as
    `--plan-memory=report=PATH`. The IR is not changed.
  }];
  let options = [
    Option<"format", "format", "::mlir::cs349::ReportFormat",
           /*default=*/"::mlir::cs349::ReportFormat::Table",
           "What to print: table (for people) or json (the --plan-memory "
           "report)", [{::llvm::cl::values(
             clEnumValN(::mlir::cs349::ReportFormat::Table, "table",
                        "a table for people"),
             clEnumValN(::mlir::cs349::ReportFormat::Json, "json",
                        "the JSON report of --plan-memory=report=PATH"))}]>,
    Option<"output", "output", "std::string", /*default=*/"\"-\"",
           "Where to print: a file name, or '-' for standard output">,
    Option<"exact", "exact", "bool", /*default=*/"false",
           "Table sizes and offsets in exact bytes, with each result's end "
           "offset, so that overlaps can be checked by hand">
  ];
}

//===----------------------------------------------------------------------===//
// Scheduling, pictures and budgets
//===----------------------------------------------------------------------===//

def ScheduleMemory : Pass<"schedule-memory", "::mlir::func::FuncOp"> {
  let summary = "Reorder ops (before --fuse) or kernels (after) within their "
                "dependences to lower the peak of the memory plan";
  let description = [{
    The same computation can peak at very different memory depending on the
    order of its ops: computing four branches breadth-first keeps four large
    temporaries alive, depth-first keeps one. This pass picks an order within
    the dependences that lowers the peak of the plan that follows.

    **Peak model.** Every function-level op that is not a view (`IsView`) nor
    constant data (`IsConstantData`, `ConstantLike`) runs at one step and
    writes each of its results: before `--fuse` that is every computing op
    (the unfused plan), after it every `cs349.kernel`. A result is live from
    its producer to its last reader, both inclusive, where reading a view
    reads the result it views; results the function returns stay live to the
    end; arguments and constants take no arena memory. The peak of an order
    is the most bytes live at one step: exactly the `lower_bound` that
    `--plan-memory` reports for that order (and greedy-by-size usually
    reaches it).

    **Algorithms** (`algorithm=`): `dfs` is XLA's DFS memory scheduler (a
    post-order walk from the sinks that finishes the operand with more extra
    users, then with the larger transitive size, first); `list` is XLA's list
    scheduler (run the ready op that frees the most bytes net of what it
    writes); `lpmf` is TorchInductor's least-peak-memory-first
    (`reorder_for_peak_memory`); `exhaustive` searches every topological
    order by dynamic programming over sets of scheduled ops (the bytes live
    after a set do not depend on its order), pruned by the best peak known,
    and fails when it needs more than `max-states` states; `best` (default)
    runs all heuristics, then the exhaustive search when it fits in
    `max-states` (then the result is optimal). Whatever runs, the input order
    is kept unless an order has a lower peak, or the same peak and fewer
    live byte-steps: the peak never goes up.

    Views and constant data move with their users: each is placed right
    before the first op that reads it. Ops with side effects keep their
    relative order. Functions whose body has several blocks are left alone
    with a warning. Statistics `peak-before` and `peak-after` (bytes, summed
    over functions) show the effect under `-mlir-pass-statistics`; with
    `remarks=true` each function gets a remark with both peaks.

    Before (breadth-first; `y_i` are 4 MB, the sums 1 kB):

    ```mlir
    %y0 = cs349.matmul %x, %w0 : ... -> tensor<1024x1024xf32>
    %y1 = cs349.matmul %x, %w1 : ... -> tensor<1024x1024xf32>
    %s0 = cs349.reduce_sum %y0 axes = [1] keepdims : ... -> tensor<1024x1xf32>
    %s1 = cs349.reduce_sum %y1 axes = [1] keepdims : ... -> tensor<1024x1xf32>
    %r = cs349.add %s0, %s1 : tensor<1024x1xf32>
    ```

    After (depth-first, peak 8 MB -> 4 MB):

    ```mlir
    %y0 = cs349.matmul %x, %w0 : ... -> tensor<1024x1024xf32>
    %s0 = cs349.reduce_sum %y0 axes = [1] keepdims : ... -> tensor<1024x1xf32>
    %y1 = cs349.matmul %x, %w1 : ... -> tensor<1024x1024xf32>
    %s1 = cs349.reduce_sum %y1 axes = [1] keepdims : ... -> tensor<1024x1xf32>
    %r = cs349.add %s0, %s1 : tensor<1024x1xf32>
    ```
  }];
  let options = [
    Option<"algorithm", "algorithm", "::cs349::scheduler::Algorithm",
           /*default=*/"::cs349::scheduler::Algorithm::Best",
           "How to order the ops: dfs, list, lpmf, exhaustive or best "
           "(--help says what each does)", [{::llvm::cl::values(
             clEnumValN(::cs349::scheduler::Algorithm::DFS, "dfs",
                        "XLA's DFS scheduler"),
             clEnumValN(::cs349::scheduler::Algorithm::List, "list",
                        "XLA's list scheduler"),
             clEnumValN(::cs349::scheduler::Algorithm::LPMF, "lpmf",
                        "TorchInductor's least peak memory first"),
             clEnumValN(::cs349::scheduler::Algorithm::Exhaustive,
                        "exhaustive",
                        "the optimum, or an error past max-states"),
             clEnumValN(::cs349::scheduler::Algorithm::Best, "best",
                        "all of them, the exhaustive search only when it "
                        "fits"))}]>,
    Option<"maxStates", "max-states", "uint64_t", /*default=*/"200000",
           "Most sets of scheduled ops the exhaustive search may visit">,
    Option<"emitRemarks", "remarks", "bool", /*default=*/"false",
           "Emit a remark per function with the peak before and after and "
           "the algorithm whose order was kept">
  ];
  let statistics = [
    Statistic<"peakBefore", "peak-before",
              "Peak live bytes of the input order (summed over functions)">,
    Statistic<"peakAfter", "peak-after",
              "Peak live bytes of the chosen order (summed over functions)">
  ];
}

//===----------------------------------------------------------------------===//
// Norm-gain folding
//===----------------------------------------------------------------------===//

def FoldNormWeight : Pass<"fold-norm-weight", "::mlir::ModuleOp"> {
  let summary = "Fold norm gains (and LayerNorm shifts) into the next matmuls' weights (and biases): (n·γ + β)@W → n@(diag(γ)·W) + β·W";
  let description = [{
    When every reader of `n·γ` takes it as the **left** operand of a matmul
    whose right operand is a weight (a function argument or a constant), and
    `γ` is a rank-1 `[d]` weight broadcast along the last dimension of `n`,
    the multiply by `γ` moves into the weights: row `k` of `W [d, N]` (column
    `k` of `W [N, d]` read with `transpose_b`) is scaled by `γ[k]`. `n·γ` is
    either the `cs349.mul` that `--decompose` writes last for an RMSNorm, or a
    layer-level `cs349.rms_norm`, whose gain then becomes a splat `1`.

    Where the weight-only product goes:

    * **Constants** (`--weights=random`): the pass evaluates `γ[:, None] * W`
      itself, in the element type with one round-to-nearest-even per element
      (APFloat), and replaces `W` by the folded constant. Weights are much
      larger than the folders' element limit, which is meant for
      activations; the old `γ` and `W` constants are erased when unused.
    * **Arguments** (`--weights=args`): the product is not an activation and
      leaves the layer. A new public function `@<name>_init`, tagged
      `cs349.initializer`, takes the `γ` and `W` arguments it needs
      (each with `cs349.layer_arg` = its index in the original signature)
      and returns the folded weights (each result with
      `cs349.folded_from = [<γ>, <W>]`, the names taken from the arguments'
      `NameLoc`s, else `%argN`). The layer function gets one new argument per
      folded weight, in the place of the `W` it replaces, carrying
      `cs349.folded_from` and `cs349.init_result` (the initializer result
      that feeds it); `γ` and `W` arguments left without readers are
      dropped, and the function is tagged
      `cs349.initialized_by = @<name>_init`. A runtime calls the initializer
      once at load time. Functions that have callers in the module keep their
      signature (a warning says so) — only constant weights are folded there.

    **LayerNorm's shift.** When `n·γ` is read only by `n·γ + β` (the last
    step of a decomposed `layer_norm` with a bias), `β` a rank-1 `[d]`
    weight, and every reader of the sum is the left operand of a matmul by a
    rank-2 weight, `β` moves too: `(n·γ + β)@W = n@(diag(γ)·W) + β·W`. The
    `[N]` bias `β·W` (a `[1, d]` by `W` matmul, reshaped) is added after the
    matmul; when the matmul's only reader already adds an `[N]` weight `b`
    (GPT-2's projections), `β·W + b` takes `b`'s place instead. Constants are
    evaluated here (in double, rounded once); with arguments the
    initializer computes the bias as one more result (`cs349.folded_from =
    [<β>, <W>(, <b>)]`), which takes the place of `b`, else of `β`, in the
    layer's signature.

    Not folded: `n·γ` (or `n·γ + β`) read by anything but a matmul's left
    operand (e.g. also returned, or as a right operand), `γ` that is not a
    rank-1 vector along the contraction dimension, weights (and shifts) that
    are computed in the layer, a shift before a batched weight (it would be a
    bias per batch), a layer-level `cs349.layer_norm` (decompose it first),
    and gains that are already `1`. Running the pass twice changes nothing.

    Before (decomposed, weights as arguments):

    ```mlir
    func.func @layer(%n: tensor<4x8xf32>, %g: tensor<8xf32>, %w: tensor<8x16xf32>) -> tensor<4x16xf32> {
      %h = cs349.mul %n, %g : tensor<4x8xf32>, tensor<8xf32>
      %y = cs349.matmul %h, %w : tensor<4x8xf32>, tensor<8x16xf32> -> tensor<4x16xf32>
      return %y : tensor<4x16xf32>
    }
    ```

    After:

    ```mlir
    func.func @layer(%n: tensor<4x8xf32>,
                     %w2: tensor<8x16xf32> {cs349.folded_from = ["%arg1", "%arg2"], cs349.init_result = 0 : i64})
        -> tensor<4x16xf32> attributes {cs349.initialized_by = @layer_init} {
      %y = cs349.matmul %n, %w2 : tensor<4x8xf32>, tensor<8x16xf32> -> tensor<4x16xf32>
      return %y : tensor<4x16xf32>
    }
    func.func @layer_init(%g: tensor<8xf32> {cs349.layer_arg = 1 : i64},
                          %w: tensor<8x16xf32> {cs349.layer_arg = 2 : i64})
        -> (tensor<8x16xf32> {cs349.folded_from = ["%arg1", "%arg2"]})
        attributes {cs349.initializer} {
      %0 = cs349.reshape %g : tensor<8xf32> -> tensor<8x1xf32>
      %1 = cs349.mul %w, %0 : tensor<8x16xf32>, tensor<8x1xf32>
      return %1 : tensor<8x16xf32>
    }
    ```
  }];
  let dependentDialects = ["::mlir::cs349::CS349Dialect",
                           "::mlir::func::FuncDialect"];
}

def PlanSvg : Pass<"plan-svg", "::mlir::ModuleOp"> {
  let summary = "Draw the memory plan of each function as an SVG picture";
  let description = [{
    Reads the plan that `--plan-memory` recorded (`cs349.plan` on kernels,
    `cs349.arena` on functions; checked against the IR like
    `--verify-memory-plan` does) and draws it: kernel index across, arena
    offset down, one rectangle per written result spanning the kernels it is
    live across (`first` to `last`) and the bytes it occupies (`offset` to
    `offset + bytes`). Each rectangle is labelled with the result's name where
    it fits and carries hover text (`<title>`) with its name, producing op,
    shape, size, lifetime and offset. A solid line marks the arena size and a
    dashed one the lower bound, so a gap between them is memory the strategy
    wasted. One panel per planned function (or per function named in
    `functions`); functions without a plan are skipped, a module without any
    and a named function that does not exist or has no plan are errors. The
    IR is not changed.

    ```
    cs349-gen layer --preset tiny --seq 16 \
      | cs349-opt --optimize --fuse --plan-memory \
                  --plan-svg=output=plan.svg -o /dev/null
    ```

    draws (in part):

    ```xml
    <rect x="96.0" y="70.00" width="96.0" height="45.51" fill="hsl(0,60%,78%)">
      <title>h = mul : 16x128xf32, 8.2 kB (8192 B)
    kernels 0 to 1, offset 0 B (0 B)</title></rect>
    ```
  }];
  let options = [
    Option<"output", "output", "std::string", /*default=*/"\"-\"",
           "Where to write the SVG: a file name, or '-' for standard output">,
    ListOption<"functions", "functions", "std::string",
               "Draw only these functions (comma separated), e.g. the layer "
               "and not the weight initializer that --fold-norm-weight adds; "
               "by default every planned function">
  ];
}

def PlanHtml : Pass<"plan-html", "::mlir::ModuleOp"> {
  let summary = "Write the memory plan as one interactive HTML page";
  let description = [{
    Reads the plan that `--plan-memory` recorded (checked against the IR like
    `--verify-memory-plan` does) and writes one self-contained HTML file (no
    network, no external script or style) to explore it in a browser:

    * the plan: kernel index across, arena offset down, one rectangle per
      written result; pointing at one shows its name, producing op, shape,
      bytes, first and last kernel, and start and end offsets, and marks the
      kernels it is live at in the kernel list;
    * the bytes live at each kernel as a curve, with the lower bound (dashed)
      and the arena size (solid): where they meet is the peak;
    * the kernel list with the ops inside each kernel, the peak kernel in
      bold;
    * a switch between the planned functions and, with `strategies`, between
      the recorded plan and the plans other strategies make of the same
      lifetimes at the same alignment.

    The IR is not changed. Functions without a plan are skipped; a module
    without any is an error.

    ```
    cs349-gen layer --preset tiny --seq 16 \
      | cs349-opt --optimize --fuse --plan-memory \
          --plan-html="output=plan.html strategies=naive,best-fit" -o /dev/null
    ```
  }];
  let options = [
    Option<"output", "output", "std::string", /*default=*/"\"-\"",
           "Where to write the page: a file name, or '-' for standard output">,
    // A list of strings checked by the pass: MLIR's ListOption parses its
    // elements with a parser of its own that ::llvm::cl::values never
    // reaches, so an enum list would accept no value at all.
    ListOption<"strategies", "strategies", "std::string",
               "Also plan each function with these strategies (comma "
               "separated: naive, greedy-by-size, best-fit, search, best) "
               "and offer their plans next to the recorded one">,
    Option<"timeLimit", "time-limit", "double", /*default=*/"2.0",
           "Seconds each strategy in `strategies` may search (search, best)">
  ];
}

def MemoryBudget : Pass<"memory-budget", "::mlir::ModuleOp"> {
  let summary = "Print the memory budget of a layer: weights, KV cache and "
                "activations with and without FlashAttention";
  let description = [{
    The lecture's demo 4, measured on the IR instead of typed in. Run it on a
    layer as `cs349-gen` writes it (layer-level ops, any number of layers);
    for each function it prints:

    * **weights per layer**: the bytes of the arguments and `cs349.constant`s
      that a `cs349.matmul` reads as its right operand, a `cs349.rms_norm`
      as its gain or a `cs349.layer_norm` as its gain and bias (through views), each counted once, divided by the number
      of layers in the IR;
    * **KV cache per layer and for N layers**: the bytes of the keys and
      values that the `cs349.attention` ops read after `flash-pipeline`
      (k and v after RoPE, before the GQA repeat: 2 × G × T × dh × bytes),
      times `batch`; one attention op is one layer;
    * **activations** with and without FlashAttention: the arena size
      (`cs349.arena` bytes) that `--plan-memory` gives at the end of
      `flash-pipeline` and `fused-pipeline`, times `batch` (a batch runs
      every kernel on `batch` times the rows: each written result grows by
      that factor, lifetimes do not change);
    * whether weights and KV cache of N layers plus the activations of one
      layer (the next layer reuses them) fit in `device-memory`.

    Each pipeline runs on a copy of the module; the IR is not changed.
    Decimal units (1 MB = 10^6 B). For Llama-3.1-8B at T = 32768:

    ```
    cs349-gen layer --preset llama3.1-8b --seq 32768 \
      | cs349-opt --memory-budget="layers=32" -o /dev/null
    memory budget of @layer: 1 layer in the IR, batch 1, decimal units (1 MB = 10^6 B)
      weights per layer                         436 MB  (436224000 B; 9 tensors)
      KV cache per layer                        134 MB  (134217728 B; k and v after RoPE, each tensor<8x32768x128xbf16>)
      KV cache for 32 layers                   4.3 GB  (4294967296 B)
      activations, fused                        137 GB  (...)
      activations, fused + FlashAttention      2.4 GB  (...)
      32 layers fused: weights + KV cache + activations = 156 GB, does not fit in 80.0 GB
      32 layers fused + FlashAttention: weights + KV cache + activations = 20.7 GB, fits in 80.0 GB
    ```
  }];
  let options = [
    Option<"layers", "layers", "int64_t", /*default=*/"0",
           "Number of layers of the model for the totals; 0 means as many as "
           "the IR has">,
    Option<"batch", "batch", "int64_t", /*default=*/"1",
           "Sequences per batch: KV cache and activations scale with it">,
    Option<"deviceMemory", "device-memory", "double", /*default=*/"80.0",
           "Device memory in GB (10^9 B) that the totals are compared with">,
    Option<"fusedPipeline", "fused-pipeline", "std::string",
           /*default=*/"\"optimize{attention=false},func.func(fuse),plan-memory\"",
           "Pass pipeline (on builtin.module) that plans the layer without "
           "FlashAttention">,
    Option<"flashPipeline", "flash-pipeline", "std::string",
           /*default=*/"\"optimize{attention=true},func.func(fuse),plan-memory\"",
           "Pass pipeline (on builtin.module) that plans the layer with "
           "FlashAttention; its cs349.attention ops give the KV cache">,
    Option<"output", "output", "std::string", /*default=*/"\"-\"",
           "Where to print: a file name, or '-' for standard output">
  ];
}

#endif // CS349_TRANSFORMS_PASSES_TD
