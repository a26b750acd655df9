// RUN: cs349-opt %s -split-input-file --decompose | FileCheck %s
// Every op of an expansion keeps the composite's step name: the last one is
// the composite's location, each intermediate a sub-name of it (so that the
// 45 written results of an unfused layer have 45 different names).
// RUN: cs349-opt %s -split-input-file --decompose -mlir-print-debuginfo -mlir-print-local-scope | FileCheck %s --check-prefix=LOC

// Idempotence: decomposing the decomposed IR changes nothing.
// RUN: cs349-opt %s -split-input-file --decompose > %t.once.mlir
// RUN: cs349-opt %t.once.mlir -split-input-file --decompose > %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir

// The generated Llama-3.1-8B layer at T = 2048 decomposes into the lecture's 45
// computed results (neither views nor constant data), op by op
// as docs/passes.md lists them: 9 matmuls; 2 x rms_norm = 2 x (mul, reduce_sum, div, add,
// rsqrt, mul, mul); 2 x rope = 2 x (mul, rotate_half, mul, add); the score
// scale (mul) and mask (add); softmax (reduce_max, sub, exp, reduce_sum,
// div); 2 residual adds; silu (neg, exp, add, div); gate * up (mul).
// RUN: cs349-gen layer --preset llama3.1-8b --seq 2048 | cs349-opt --decompose --print-op-counts -o /dev/null \
// RUN:   | FileCheck %s --check-prefix=LLAMA
// RUN: cs349-gen layer --preset llama3.1-8b --seq 2048 | cs349-opt --decompose --print-op-stats -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=LLAMA-OPS

// Unfused, every one of the 45 results is written and named by its own step
// (no "layer0.attn.norm@k0#0" for the seven ops of one RMSNorm).
// RUN: cs349-gen layer --preset tiny --seq 16 \
// RUN:   | cs349-opt --decompose --fuse=enable=false --plan-memory --memory-report -o /dev/null \
// RUN:   | FileCheck %s --check-prefix=NAMES
// NAMES:      @layer: 45 kernels, 45 written results
// NAMES-NEXT: result
// NAMES-NEXT: layer0.attn.norm.squares  mul
// NAMES-NEXT: layer0.attn.norm.sum  reduce_sum
// NAMES-NEXT: layer0.attn.norm.mean  div
// NAMES-NEXT: layer0.attn.norm.mean_eps  add
// NAMES-NEXT: layer0.attn.norm.rsqrt  rsqrt
// NAMES-NEXT: layer0.attn.norm.normalized  mul
// NAMES-NEXT: layer0.attn.norm  mul
// NAMES:      layer0.attn.q_rope.x_cos  mul
// NAMES-NEXT: layer0.attn.q_rope.rotated  rotate_half
// NAMES-NEXT: layer0.attn.q_rope.rotated_sin  mul
// NAMES-NEXT: layer0.attn.q_rope  add
// NAMES:      layer0.attn.softmax.max  reduce_max
// NAMES-NEXT: layer0.attn.softmax.shifted  sub
// NAMES-NEXT: layer0.attn.softmax.exp  exp
// NAMES-NEXT: layer0.attn.softmax.sum  reduce_sum
// NAMES-NEXT: layer0.attn.softmax  div
// NAMES:      layer0.mlp.silu.neg  neg
// NAMES-NEXT: layer0.mlp.silu.exp  exp
// NAMES-NEXT: layer0.mlp.silu.denominator  add
// NAMES-NEXT: layer0.mlp.silu  div
// NAMES-NOT:  #
// NAMES:      naive

// LLAMA: @layer: computed 45, composite 0, view 10, constant data 9, kernel 0

// The count depends on the structure, not the sizes: the small demo layer
// has the same 45, and each further layer adds 45.
// RUN: cs349-gen layer --preset tiny --seq 16 | cs349-opt --decompose --print-op-counts -o /dev/null \
// RUN:   | FileCheck %s --check-prefix=TINY
// RUN: cs349-gen layer --preset tiny --seq 16 --layers 3 | cs349-opt --decompose --print-op-counts -o /dev/null \
// RUN:   | FileCheck %s --check-prefix=TINY3
// TINY: @layer: computed 45, composite 0,
// TINY3: @layer: computed 135, composite 0,

// LLAMA-OPS:      cs349.add         , 8
// LLAMA-OPS-NEXT: cs349.causal_mask , 1
// LLAMA-OPS-NEXT: cs349.constant    , 6
// LLAMA-OPS-NEXT: cs349.div         , 4
// LLAMA-OPS-NEXT: cs349.exp         , 2
// LLAMA-OPS-NEXT: cs349.matmul      , 9
// LLAMA-OPS-NEXT: cs349.mul         , 12
// LLAMA-OPS-NEXT: cs349.neg         , 1
// LLAMA-OPS-NEXT: cs349.reduce_max  , 1
// LLAMA-OPS-NEXT: cs349.reduce_sum  , 3
// LLAMA-OPS-NEXT: cs349.repeat      , 2
// LLAMA-OPS-NEXT: cs349.reshape     , 4
// LLAMA-OPS-NEXT: cs349.rope_table  , 2
// LLAMA-OPS-NEXT: cs349.rotate_half , 2
// LLAMA-OPS-NEXT: cs349.rsqrt       , 2
// LLAMA-OPS-NEXT: cs349.sub         , 1
// LLAMA-OPS-NEXT: cs349.transpose   , 4
// LLAMA-OPS-NOT:  cs349.

// CHECK-LABEL: func.func @rms_norm
// CHECK-SAME:    (%[[X:.*]]: tensor<4x8xf32>, %[[G:.*]]: tensor<8xf32>)
// CHECK-NEXT:    %[[SQ:.*]] = cs349.mul %[[X]], %[[X]] : tensor<4x8xf32>
// CHECK-NEXT:    %[[SUM:.*]] = cs349.reduce_sum %[[SQ]] axes = [1] keepdims : tensor<4x8xf32> -> tensor<4x1xf32>
// CHECK-NEXT:    %[[D:.*]] = cs349.constant dense<8.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[MEAN:.*]] = cs349.div %[[SUM]], %[[D]] : tensor<4x1xf32>, tensor<f32>
// CHECK-NEXT:    %[[EPS:.*]] = cs349.constant dense<9.99999974E-6> : tensor<f32>
// CHECK-NEXT:    %[[SHIFT:.*]] = cs349.add %[[MEAN]], %[[EPS]] : tensor<4x1xf32>, tensor<f32>
// CHECK-NEXT:    %[[R:.*]] = cs349.rsqrt %[[SHIFT]] : tensor<4x1xf32>
// CHECK-NEXT:    %[[N:.*]] = cs349.mul %[[X]], %[[R]] : tensor<4x8xf32>, tensor<4x1xf32>
// CHECK-NEXT:    %[[Y:.*]] = cs349.mul %[[N]], %[[G]] : tensor<4x8xf32>, tensor<8xf32>
// CHECK-NEXT:    return %[[Y]]
// LOC-LABEL: func.func @rms_norm
// LOC-NEXT:    cs349.mul {{.*}} loc("norm.squares"("norm"))
// LOC-NEXT:    cs349.reduce_sum {{.*}} loc("norm.sum"("norm"))
// LOC-NEXT:    cs349.constant {{.*}} loc("norm")
// LOC-NEXT:    cs349.div {{.*}} loc("norm.mean"("norm"))
// LOC-NEXT:    cs349.constant {{.*}} loc("norm")
// LOC-NEXT:    cs349.add {{.*}} loc("norm.mean_eps"("norm"))
// LOC-NEXT:    cs349.rsqrt {{.*}} loc("norm.rsqrt"("norm"))
// LOC-NEXT:    cs349.mul {{.*}} loc("norm.normalized"("norm"))
// LOC-NEXT:    cs349.mul {{.*}} loc("norm")
// LOC-NEXT:    return
func.func @rms_norm(%x: tensor<4x8xf32>, %g: tensor<8xf32>) -> tensor<4x8xf32> {
  %y = cs349.rms_norm %x, %g epsilon = 1.0e-5 : tensor<4x8xf32>, tensor<8xf32> loc("norm")
  return %y : tensor<4x8xf32>
}

// -----

// The scalars take the element type: epsilon is rounded to bf16, d of a
// rank-3 input is its last dimension.

// CHECK-LABEL: func.func @rms_norm_bf16_rank3
// CHECK:         cs349.reduce_sum %{{.*}} axes = [2] keepdims : tensor<2x4x16xbf16> -> tensor<2x4x1xbf16>
// CHECK-NEXT:    cs349.constant dense<1.600000e+01> : tensor<bf16>
// CHECK:         cs349.constant dense<1.001360e-05> : tensor<bf16>
// CHECK-NOT:     cs349.rms_norm
func.func @rms_norm_bf16_rank3(%x: tensor<2x4x16xbf16>, %g: tensor<16xbf16>) -> tensor<2x4x16xbf16> {
  %y = cs349.rms_norm %x, %g epsilon = 1.0e-5 : tensor<2x4x16xbf16>, tensor<16xbf16>
  return %y : tensor<2x4x16xbf16>
}

// -----

// CHECK-LABEL: func.func @softmax
// CHECK-SAME:    (%[[S:.*]]: tensor<2x4x4xbf16>)
// CHECK-NEXT:    %[[M:.*]] = cs349.reduce_max %[[S]] axes = [2] keepdims : tensor<2x4x4xbf16> -> tensor<2x4x1xbf16>
// CHECK-NEXT:    %[[D:.*]] = cs349.sub %[[S]], %[[M]] : tensor<2x4x4xbf16>, tensor<2x4x1xbf16>
// CHECK-NEXT:    %[[E:.*]] = cs349.exp %[[D]] : tensor<2x4x4xbf16>
// CHECK-NEXT:    %[[Z:.*]] = cs349.reduce_sum %[[E]] axes = [2] keepdims : tensor<2x4x4xbf16> -> tensor<2x4x1xbf16>
// CHECK-NEXT:    %[[P:.*]] = cs349.div %[[E]], %[[Z]] : tensor<2x4x4xbf16>, tensor<2x4x1xbf16>
// CHECK-NEXT:    return %[[P]]
func.func @softmax(%s: tensor<2x4x4xbf16>) -> tensor<2x4x4xbf16> {
  %p = cs349.softmax %s axis = 2 : tensor<2x4x4xbf16>
  return %p : tensor<2x4x4xbf16>
}

// -----

// A softmax along a leading axis reduces that axis, not the last one.

// CHECK-LABEL: func.func @softmax_axis0
// CHECK:         cs349.reduce_max %{{.*}} axes = [0] keepdims : tensor<3x5xf32> -> tensor<1x5xf32>
// CHECK:         cs349.reduce_sum %{{.*}} axes = [0] keepdims : tensor<3x5xf32> -> tensor<1x5xf32>
// CHECK:         cs349.div %{{.*}}, %{{.*}} : tensor<3x5xf32>, tensor<1x5xf32>
func.func @softmax_axis0(%s: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %p = cs349.softmax %s axis = 0 : tensor<3x5xf32>
  return %p : tensor<3x5xf32>
}

// -----

// CHECK-LABEL: func.func @rope
// CHECK-SAME:    (%[[Q:.*]]: tensor<2x4x8xf16>, %[[COS:.*]]: tensor<4x8xf16>, %[[SIN:.*]]: tensor<4x8xf16>)
// CHECK-NEXT:    %[[RE:.*]] = cs349.mul %[[Q]], %[[COS]] : tensor<2x4x8xf16>, tensor<4x8xf16>
// CHECK-NEXT:    %[[ROT:.*]] = cs349.rotate_half %[[Q]] : tensor<2x4x8xf16>
// CHECK-NEXT:    %[[IM:.*]] = cs349.mul %[[ROT]], %[[SIN]] : tensor<2x4x8xf16>, tensor<4x8xf16>
// CHECK-NEXT:    %[[Y:.*]] = cs349.add %[[RE]], %[[IM]] : tensor<2x4x8xf16>
// CHECK-NEXT:    return %[[Y]]
func.func @rope(%q: tensor<2x4x8xf16>, %cos: tensor<4x8xf16>, %sin: tensor<4x8xf16>) -> tensor<2x4x8xf16> {
  %y = cs349.rope %q, %cos, %sin : tensor<2x4x8xf16>, tensor<4x8xf16>
  return %y : tensor<2x4x8xf16>
}

// -----

// CHECK-LABEL: func.func @silu
// CHECK-SAME:    (%[[X:.*]]: tensor<4x8xbf16>)
// CHECK-NEXT:    %[[N:.*]] = cs349.neg %[[X]] : tensor<4x8xbf16>
// CHECK-NEXT:    %[[E:.*]] = cs349.exp %[[N]] : tensor<4x8xbf16>
// CHECK-NEXT:    %[[ONE:.*]] = cs349.constant dense<1.000000e+00> : tensor<bf16>
// CHECK-NEXT:    %[[D:.*]] = cs349.add %[[E]], %[[ONE]] : tensor<4x8xbf16>, tensor<bf16>
// CHECK-NEXT:    %[[Y:.*]] = cs349.div %[[X]], %[[D]] : tensor<4x8xbf16>
// CHECK-NEXT:    return %[[Y]]
// LOC-LABEL: func.func @silu
// LOC-NEXT:    cs349.neg {{.*}} loc("act.neg"("act"))
// LOC-NEXT:    cs349.exp {{.*}} loc("act.exp"("act"))
// LOC-NEXT:    cs349.constant {{.*}} loc("act")
// LOC-NEXT:    cs349.add {{.*}} loc("act.denominator"("act"))
// LOC-NEXT:    cs349.div {{.*}} loc("act")
// LOC-NEXT:    return
func.func @silu(%x: tensor<4x8xbf16>) -> tensor<4x8xbf16> {
  %y = cs349.silu %x : tensor<4x8xbf16> loc("act")
  return %y : tensor<4x8xbf16>
}

// -----

// gelu: x/2 * (1 + erf(x / sqrt(2))), and with mode = tanh
// x/2 * (1 + tanh(sqrt(2/pi) * (x + 0.044715 x^3))).
// CHECK-LABEL: func.func @gelu
// CHECK-SAME:    (%[[X:.*]]: tensor<4x8xf32>)
// CHECK-NEXT:    %[[C:.*]] = cs349.constant dense<0.707106769> : tensor<f32>
// CHECK-NEXT:    %[[S:.*]] = cs349.mul %[[X]], %[[C]]
// CHECK-NEXT:    %[[E:.*]] = cs349.erf %[[S]]
// CHECK-NEXT:    %[[ONE:.*]] = cs349.constant dense<1.000000e+00>
// CHECK-NEXT:    %[[P:.*]] = cs349.add %[[E]], %[[ONE]]
// CHECK-NEXT:    %[[HALF:.*]] = cs349.constant dense<5.000000e-01>
// CHECK-NEXT:    %[[H:.*]] = cs349.mul %[[X]], %[[HALF]]
// CHECK-NEXT:    %[[Y:.*]] = cs349.mul %[[H]], %[[P]] : tensor<4x8xf32>
// CHECK-NEXT:    %[[SQ:.*]] = cs349.mul %[[X]], %[[X]]
// CHECK-NEXT:    %[[CU:.*]] = cs349.mul %[[SQ]], %[[X]]
// CHECK-NEXT:    %[[K:.*]] = cs349.constant dense<4.471500e-02>
// CHECK-NEXT:    %[[CUBIC:.*]] = cs349.mul %[[CU]], %[[K]]
// CHECK-NEXT:    %[[SUM:.*]] = cs349.add %[[X]], %[[CUBIC]]
// CHECK-NEXT:    %[[R:.*]] = cs349.constant dense<0.797884583>
// CHECK-NEXT:    %[[SC:.*]] = cs349.mul %[[SUM]], %[[R]]
// CHECK-NEXT:    %[[T:.*]] = cs349.tanh %[[SC]]
// CHECK-NEXT:    %[[ONE2:.*]] = cs349.constant dense<1.000000e+00>
// CHECK-NEXT:    %[[P2:.*]] = cs349.add %[[T]], %[[ONE2]]
// CHECK-NEXT:    %[[HALF2:.*]] = cs349.constant dense<5.000000e-01>
// CHECK-NEXT:    %[[H2:.*]] = cs349.mul %[[X]], %[[HALF2]]
// CHECK-NEXT:    %[[Y2:.*]] = cs349.mul %[[H2]], %[[P2]] : tensor<4x8xf32>
// CHECK-NEXT:    return %[[Y]], %[[Y2]]
func.func @gelu(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %0 = cs349.gelu %x : tensor<4x8xf32>
  %1 = cs349.gelu %x mode = tanh : tensor<4x8xf32>
  return %0, %1 : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// Composites in a kernel body are expanded in place; the new scalar lives in
// the body, which is isolated from above.

// CHECK-LABEL: func.func @in_kernel
// CHECK:         cs349.kernel
// CHECK:           cs349.neg
// CHECK-NEXT:      cs349.exp
// CHECK-NEXT:      cs349.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT:      cs349.add
// CHECK-NEXT:      cs349.div
// CHECK-NEXT:      cs349.yield
func.func @in_kernel(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = cs349.kernel (%x) : (tensor<4x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%a: tensor<4x8xf32>):
    %y = cs349.silu %a : tensor<4x8xf32>
    cs349.yield %y : tensor<4x8xf32>
  }
  return %r : tensor<4x8xf32>
}

// -----

// Negative: primitives, views, the fused attention op and dead values are
// left exactly as they are (the pass neither folds nor erases).

// CHECK-LABEL: func.func @primitives_untouched
// CHECK-NEXT:    cs349.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT:    cs349.mul %{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<f32>
// CHECK-NEXT:    cs349.exp
// CHECK-NEXT:    cs349.transpose
// CHECK-NEXT:    cs349.attention
// CHECK-NEXT:    return
func.func @primitives_untouched(%x: tensor<4x8xf32>, %q: tensor<2x4x8xf32>) -> (tensor<4x8xf32>, tensor<2x4x8xf32>) {
  %one = cs349.constant dense<1.0> : tensor<f32>
  %y = cs349.mul %x, %one : tensor<4x8xf32>, tensor<f32>
  %dead = cs349.exp %x : tensor<4x8xf32>
  %t = cs349.transpose %y perm = [1, 0] : tensor<4x8xf32> -> tensor<8x4xf32>
  %o = cs349.attention %q, %q, %q scale = 0.5 mask = causal : tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>
  return %y, %o : tensor<4x8xf32>, tensor<2x4x8xf32>
}

// -----

// LayerNorm: the mean as a row sum times 1/d, the centred variance, and the
// gain before the bias (n * g is one op, as --fold-norm-weight needs it).
// CHECK-LABEL: func.func @layer_norm
// CHECK-SAME:    (%[[X:.*]]: tensor<2x3x8xf32>, %[[G:.*]]: tensor<8xf32>, %[[B:.*]]: tensor<8xf32>)
// CHECK-NEXT:    %[[SUM:.*]] = cs349.reduce_sum %[[X]] axes = [2] keepdims : tensor<2x3x8xf32> -> tensor<2x3x1xf32>
// CHECK-NEXT:    %[[INV:.*]] = cs349.constant dense<1.250000e-01> : tensor<f32>
// CHECK-NEXT:    %[[MEAN:.*]] = cs349.mul %[[SUM]], %[[INV]] : tensor<2x3x1xf32>, tensor<f32>
// CHECK-NEXT:    %[[C:.*]] = cs349.sub %[[X]], %[[MEAN]] : tensor<2x3x8xf32>, tensor<2x3x1xf32>
// CHECK-NEXT:    %[[SQ:.*]] = cs349.mul %[[C]], %[[C]] : tensor<2x3x8xf32>
// CHECK-NEXT:    %[[SQSUM:.*]] = cs349.reduce_sum %[[SQ]] axes = [2] keepdims : tensor<2x3x8xf32> -> tensor<2x3x1xf32>
// CHECK-NEXT:    %[[INV2:.*]] = cs349.constant dense<1.250000e-01> : tensor<f32>
// CHECK-NEXT:    %[[VAR:.*]] = cs349.mul %[[SQSUM]], %[[INV2]] : tensor<2x3x1xf32>, tensor<f32>
// CHECK-NEXT:    %[[EPS:.*]] = cs349.constant dense<9.99999974E-6> : tensor<f32>
// CHECK-NEXT:    %[[SHIFT:.*]] = cs349.add %[[VAR]], %[[EPS]] : tensor<2x3x1xf32>, tensor<f32>
// CHECK-NEXT:    %[[R:.*]] = cs349.rsqrt %[[SHIFT]] : tensor<2x3x1xf32>
// CHECK-NEXT:    %[[N:.*]] = cs349.mul %[[C]], %[[R]] : tensor<2x3x8xf32>, tensor<2x3x1xf32>
// CHECK-NEXT:    %[[S:.*]] = cs349.mul %[[N]], %[[G]] : tensor<2x3x8xf32>, tensor<8xf32>
// CHECK-NEXT:    %[[Y:.*]] = cs349.add %[[S]], %[[B]] : tensor<2x3x8xf32>, tensor<8xf32>
// CHECK-NEXT:    return %[[Y]]
// LOC-LABEL: func.func @layer_norm
// LOC-NEXT:    cs349.reduce_sum {{.*}} loc("ln.sum"("ln"))
// LOC-NEXT:    cs349.constant {{.*}} loc("ln")
// LOC-NEXT:    cs349.mul {{.*}} loc("ln.mean"("ln"))
// LOC-NEXT:    cs349.sub {{.*}} loc("ln.centered"("ln"))
// LOC-NEXT:    cs349.mul {{.*}} loc("ln.squares"("ln"))
// LOC-NEXT:    cs349.reduce_sum {{.*}} loc("ln.squares_sum"("ln"))
// LOC-NEXT:    cs349.constant {{.*}} loc("ln")
// LOC-NEXT:    cs349.mul {{.*}} loc("ln.variance"("ln"))
// LOC-NEXT:    cs349.constant {{.*}} loc("ln")
// LOC-NEXT:    cs349.add {{.*}} loc("ln.variance_eps"("ln"))
// LOC-NEXT:    cs349.rsqrt {{.*}} loc("ln.rsqrt"("ln"))
// LOC-NEXT:    cs349.mul {{.*}} loc("ln.normalized"("ln"))
// LOC-NEXT:    cs349.mul {{.*}} loc("ln.scaled"("ln"))
// LOC-NEXT:    cs349.add {{.*}} loc("ln")
// LOC-NEXT:    return
func.func @layer_norm(%x: tensor<2x3x8xf32>, %g: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<2x3x8xf32> {
  %y = cs349.layer_norm %x, %g, %b epsilon = 1.0e-5 : tensor<2x3x8xf32>, tensor<8xf32>, tensor<8xf32> loc("ln")
  return %y : tensor<2x3x8xf32>
}

// -----

// Without a bias the gain's product is the last op, and takes the location.
// CHECK-LABEL: func.func @layer_norm_without_bias
// CHECK:         %[[N:.*]] = cs349.mul {{.*}} : tensor<4x8xf32>, tensor<4x1xf32>
// CHECK-NEXT:    %[[Y:.*]] = cs349.mul %[[N]], %g : tensor<4x8xf32>, tensor<8xf32>
// CHECK-NEXT:    return %[[Y]]
// LOC-LABEL: func.func @layer_norm_without_bias
// LOC:         cs349.mul {{.*}} loc("ln.normalized"("ln"))
// LOC-NEXT:    cs349.mul {{.*}} loc("ln")
// LOC-NEXT:    return
func.func @layer_norm_without_bias(%x: tensor<4x8xf32>, %g: tensor<8xf32>) -> tensor<4x8xf32> {
  %y = cs349.layer_norm %x, %g epsilon = 1.0e-5 : tensor<4x8xf32>, tensor<8xf32> loc("ln")
  return %y : tensor<4x8xf32>
}
