// RUN: cs349-opt %s -split-input-file --fold-norm-weight -verify-diagnostics | FileCheck %s
// Idempotence: a second run over the output changes nothing.
// RUN: cs349-opt %s -split-input-file --fold-norm-weight | cs349-opt -split-input-file --fold-norm-weight | FileCheck %s
// The generated layer after --decompose: with weights as arguments both gains
// move into @layer_init, with random weights they are folded into constants;
// either way no activation is multiplied by a [d] gain any more.
// RUN: cs349-gen layer --preset tiny --seq 16 | cs349-opt --decompose --fold-norm-weight | FileCheck %s --check-prefix=ARGS
// RUN: cs349-gen layer --preset tiny --seq 16 --weights=random --seed 3 | cs349-opt --decompose --fold-norm-weight | FileCheck %s --check-prefix=RANDOM

// Names survive a run file by file (locations printed): each folded weight
// is named after the weight it replaces, in the layer's signature and in the
// initializer's memory report (not after the gain the weights share).
// RUN: cs349-gen layer --preset tiny --seq 16 | cs349-opt --decompose -mlir-print-debuginfo > %t.decomposed.mlir
// RUN: cs349-opt %t.decomposed.mlir --fold-norm-weight -mlir-print-debuginfo | FileCheck %s --check-prefix=NAMES
// RUN: cs349-opt %t.decomposed.mlir --fold-norm-weight --fuse --plan-memory --memory-report -o /dev/null \
// RUN:   | FileCheck %s --check-prefix=REPORT
// After --fuse the pass has nothing within reach and says so.
// RUN: cs349-opt %t.decomposed.mlir --fuse --fold-norm-weight -o /dev/null 2>&1 | FileCheck %s --check-prefix=FUSED

// NAMES-LABEL: func.func @layer(
// NAMES-SAME: {cs349.folded_from = ["layer0.attn_norm", "layer0.wq"], cs349.init_result = 0 : i64} loc("layer0.wq"(
// NAMES-SAME: {cs349.folded_from = ["layer0.attn_norm", "layer0.wk"], cs349.init_result = 1 : i64} loc("layer0.wk"(
// NAMES-SAME: {cs349.folded_from = ["layer0.mlp_norm", "layer0.w_gate"], cs349.init_result = 3 : i64} loc("layer0.w_gate"(
// NAMES-SAME: {cs349.folded_from = ["layer0.mlp_norm", "layer0.w_up"], cs349.init_result = 4 : i64} loc("layer0.w_up"(

// Without its gain, n = x·rsqrt(...) is the norm's output and takes the
// norm's step name from the n·γ it replaces.
// REPORT-LABEL: @layer: 12 kernels, 12 written results
// REPORT-NEXT:  result  op
// REPORT-NEXT:  layer0.attn.norm  mul
// REPORT-NOT:   normalized
// REPORT-LABEL: @layer_init: 5 kernels, 5 written results
// REPORT-NEXT:  result  op
// REPORT-NEXT:  layer0.wq  mul
// REPORT-NEXT:  layer0.wk  mul
// REPORT-NEXT:  layer0.wv  mul
// REPORT-NEXT:  layer0.w_gate  mul
// REPORT-NEXT:  layer0.w_up  mul

// FUSED: warning: {{.*}}ops are already fused into kernels, which fold-norm-weight does not look into; run --fold-norm-weight (or --optimize) before --fuse
// FUSED-NOT: cs349.initializer

// ARGS-LABEL: func.func @layer
// ARGS-SAME: (%{{[^:]*}}: tensor<16x128xbf16> {cs349.layer_arg = 0 : i64},
// ARGS-SAME: tensor<128x128xbf16> {cs349.folded_from = ["layer0.attn_norm", "layer0.wq"], cs349.init_result = 0 : i64}
// ARGS-SAME: tensor<128x32xbf16> {cs349.folded_from = ["layer0.attn_norm", "layer0.wk"], cs349.init_result = 1 : i64}
// ARGS-SAME: tensor<128x32xbf16> {cs349.folded_from = ["layer0.attn_norm", "layer0.wv"], cs349.init_result = 2 : i64}
// ARGS-SAME: %{{[^:]*}}: tensor<128x128xbf16> {cs349.layer_arg = 5 : i64},
// ARGS-SAME: tensor<128x344xbf16> {cs349.folded_from = ["layer0.mlp_norm", "layer0.w_gate"], cs349.init_result = 3 : i64}
// ARGS-SAME: tensor<128x344xbf16> {cs349.folded_from = ["layer0.mlp_norm", "layer0.w_up"], cs349.init_result = 4 : i64}
// ARGS-SAME: %{{[^:]*}}: tensor<344x128xbf16> {cs349.layer_arg = 9 : i64})
// ARGS-SAME: attributes {cs349.initialized_by = @layer_init}
// ARGS-NOT: tensor<16x128xbf16>, tensor<128xbf16>
// ARGS-LABEL: func.func @layer_init
// ARGS-SAME: -> (tensor<128x128xbf16> {{.*}}, tensor<128x32xbf16> {{.*}}, tensor<128x32xbf16> {{.*}}, tensor<128x344xbf16> {{.*}}, tensor<128x344xbf16> {{.*}})
// ARGS-SAME: attributes {cs349.initializer}

// RANDOM-LABEL: func.func @layer
// RANDOM-SAME: (%{{[^:]*}}: tensor<16x128xbf16>) -> tensor<16x128xbf16> {
// RANDOM-NOT: tensor<16x128xbf16>, tensor<128xbf16>
// RANDOM-NOT: func.func @layer_init

// Constant weights: diag(γ)·W is computed by the pass. Row k of W is scaled
// by γ[k]: [[1, 2], [3, 4]] with γ = [2, 3] -> [[2, 4], [9, 12]].

// CHECK-LABEL: func.func @constant_weights
// CHECK-SAME: (%[[N:.*]]: tensor<3x2xf32>)
// CHECK-NEXT: %[[W:.*]] = cs349.constant dense<{{\[}}[2.000000e+00, 4.000000e+00], [9.000000e+00, 1.200000e+01]]> : tensor<2x2xf32>
// CHECK-NEXT: %[[Y:.*]] = cs349.matmul %[[N]], %[[W]] : tensor<3x2xf32>, tensor<2x2xf32> -> tensor<3x2xf32>
// CHECK-NEXT: return %[[Y]]
func.func @constant_weights(%n: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %g = cs349.constant dense<[2.0, 3.0]> : tensor<2xf32>
  %w = cs349.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %h = cs349.mul %n, %g : tensor<3x2xf32>, tensor<2xf32>
  %y = cs349.matmul %h, %w : tensor<3x2xf32>, tensor<2x2xf32> -> tensor<3x2xf32>
  return %y : tensor<3x2xf32>
}

// -----

// bf16: each product is rounded once to nearest-even in bf16.
// 1.5 * 1.0078125 = 1.51171875 lies halfway between the bf16 neighbours
// 1.5078125 and 1.515625 and rounds to the even one, 1.515625;
// 1.5 * 3.0 = 4.5 is exact; γ on the left of the multiply is found too.

// CHECK-LABEL: func.func @constant_bf16_rounding
// CHECK-NEXT: %[[W:.*]] = cs349.constant dense<{{\[}}[1.515630e+00, 4.500000e+00]]> : tensor<1x2xbf16>
// CHECK-NEXT: cs349.matmul %{{.*}}, %[[W]]
// CHECK-NOT: cs349.mul
func.func @constant_bf16_rounding(%n: tensor<3x1xbf16>) -> tensor<3x2xbf16> {
  %g = cs349.constant dense<[1.5]> : tensor<1xbf16>
  %w = cs349.constant dense<[[1.0078125, 3.0]]> : tensor<1x2xbf16>
  %h = cs349.mul %g, %n : tensor<1xbf16>, tensor<3x1xbf16>
  %y = cs349.matmul %h, %w : tensor<3x1xbf16>, tensor<1x2xbf16> -> tensor<3x2xbf16>
  return %y : tensor<3x2xbf16>
}

// -----

// A weight read with transpose_b is [N, d]: γ scales its columns.

// CHECK-LABEL: func.func @constant_transposed_weight
// CHECK-NEXT: %[[W:.*]] = cs349.constant dense<{{\[}}[2.000000e+00, 6.000000e+00], [2.000000e+00, 6.000000e+00], [1.000000e+01, 3.000000e+00]]> : tensor<3x2xf32>
// CHECK-NEXT: cs349.matmul %{{.*}}, %[[W]] transpose_b
func.func @constant_transposed_weight(%n: tensor<4x2xf32>) -> tensor<4x3xf32> {
  %g = cs349.constant dense<[2.0, 3.0]> : tensor<2xf32>
  %w = cs349.constant dense<[[1.0, 2.0], [1.0, 2.0], [5.0, 1.0]]> : tensor<3x2xf32>
  %h = cs349.mul %n, %g : tensor<4x2xf32>, tensor<2xf32>
  %y = cs349.matmul %h, %w transpose_b : tensor<4x2xf32>, tensor<3x2xf32> -> tensor<4x3xf32>
  return %y : tensor<4x3xf32>
}

// -----

// Weights as arguments (the generator's --weights=args): the q/k/v
// projections share one normalised input. The folded weights come from a new
// initializer and replace wq, wk, wv in the signature; γ is dropped.

// CHECK-LABEL: func.func @argument_weights
// CHECK-SAME: (%[[N:[^:]*]]: tensor<4x8xf32> {cs349.layer_arg = 0 : i64},
// CHECK-SAME: %[[WQ:[^:]*]]: tensor<8x8xf32> {cs349.folded_from = ["attn_norm", "wq"], cs349.init_result = 0 : i64},
// CHECK-SAME: %[[WK:[^:]*]]: tensor<8x2xf32> {cs349.folded_from = ["attn_norm", "wk"], cs349.init_result = 1 : i64},
// CHECK-SAME: %[[WV:[^:]*]]: tensor<8x2xf32> {cs349.folded_from = ["attn_norm", "wv"], cs349.init_result = 2 : i64},
// CHECK-SAME: %[[WO:[^:]*]]: tensor<8x8xf32> {cs349.layer_arg = 5 : i64})
// CHECK-SAME: attributes {cs349.initialized_by = @argument_weights_init}
// CHECK-NEXT: %[[Q:.*]] = cs349.matmul %[[N]], %[[WQ]]
// CHECK-NEXT: %[[K:.*]] = cs349.matmul %[[N]], %[[WK]]
// CHECK-NEXT: %[[V:.*]] = cs349.matmul %[[N]], %[[WV]]
// CHECK-NEXT: %[[O:.*]] = cs349.matmul %[[Q]], %[[WO]]
// CHECK-NEXT: return %[[O]], %[[K]], %[[V]]

// CHECK-LABEL: func.func @argument_weights_init
// CHECK-SAME: (%[[G:[^:]*]]: tensor<8xf32> {cs349.layer_arg = 1 : i64},
// CHECK-SAME: %[[IQ:[^:]*]]: tensor<8x8xf32> {cs349.layer_arg = 2 : i64},
// CHECK-SAME: %[[IK:[^:]*]]: tensor<8x2xf32> {cs349.layer_arg = 3 : i64},
// CHECK-SAME: %[[IV:[^:]*]]: tensor<8x2xf32> {cs349.layer_arg = 4 : i64})
// CHECK-SAME: -> (tensor<8x8xf32> {cs349.folded_from = ["attn_norm", "wq"]}, tensor<8x2xf32> {cs349.folded_from = ["attn_norm", "wk"]}, tensor<8x2xf32> {cs349.folded_from = ["attn_norm", "wv"]})
// CHECK-SAME: attributes {cs349.initializer}
// CHECK-NEXT: %[[C:.*]] = cs349.reshape %[[G]] : tensor<8xf32> -> tensor<8x1xf32>
// CHECK-NEXT: %[[FQ:.*]] = cs349.mul %[[IQ]], %[[C]] : tensor<8x8xf32>, tensor<8x1xf32>
// CHECK-NEXT: %[[FK:.*]] = cs349.mul %[[IK]], %[[C]]
// CHECK-NEXT: %[[FV:.*]] = cs349.mul %[[IV]], %[[C]]
// CHECK-NEXT: return %[[FQ]], %[[FK]], %[[FV]]
func.func @argument_weights(%n: tensor<4x8xf32> loc("n"), %g: tensor<8xf32> loc("attn_norm"),
                            %wq: tensor<8x8xf32> loc("wq"), %wk: tensor<8x2xf32> loc("wk"),
                            %wv: tensor<8x2xf32> loc("wv"), %wo: tensor<8x8xf32> loc("wo"))
    -> (tensor<4x8xf32>, tensor<4x2xf32>, tensor<4x2xf32>) {
  %h = cs349.mul %n, %g : tensor<4x8xf32>, tensor<8xf32>
  %q = cs349.matmul %h, %wq : tensor<4x8xf32>, tensor<8x8xf32> -> tensor<4x8xf32>
  %k = cs349.matmul %h, %wk : tensor<4x8xf32>, tensor<8x2xf32> -> tensor<4x2xf32>
  %v = cs349.matmul %h, %wv : tensor<4x8xf32>, tensor<8x2xf32> -> tensor<4x2xf32>
  %o = cs349.matmul %q, %wo : tensor<4x8xf32>, tensor<8x8xf32> -> tensor<4x8xf32>
  return %o, %k, %v : tensor<4x8xf32>, tensor<4x2xf32>, tensor<4x2xf32>
}

// -----

// A weight that is also read elsewhere stays an argument next to its folded
// copy; unnamed arguments are described by number.

// CHECK-LABEL: func.func @weight_also_used_elsewhere
// CHECK-SAME: (%{{[^:]*}}: tensor<4x8xf32> {cs349.layer_arg = 0 : i64}, %[[F:[^:]*]]: tensor<8x8xf32> {cs349.folded_from = ["g", "w"], cs349.init_result = 0 : i64}, %[[W:[^:]*]]: tensor<8x8xf32> {cs349.layer_arg = 2 : i64})
// CHECK: return %{{.*}}, %[[W]]
// CHECK-LABEL: func.func @weight_also_used_elsewhere_init
// CHECK-SAME: cs349.layer_arg = 1
// CHECK-SAME: cs349.layer_arg = 2
func.func @weight_also_used_elsewhere(%n: tensor<4x8xf32>, %g: tensor<8xf32>, %w: tensor<8x8xf32>) -> (tensor<4x8xf32>, tensor<8x8xf32>) {
  %h = cs349.mul %n, %g : tensor<4x8xf32>, tensor<8xf32>
  %y = cs349.matmul %h, %w : tensor<4x8xf32>, tensor<8x8xf32> -> tensor<4x8xf32>
  return %y, %w : tensor<4x8xf32>, tensor<8x8xf32>
}

// -----

// γ a constant, W an argument: the initializer takes W and holds γ.

// CHECK-LABEL: func.func @constant_gain_argument_weight
// CHECK-SAME: (%[[N:[^:]*]]: tensor<4x8xf32> {cs349.layer_arg = 0 : i64}, %[[F:[^:]*]]: tensor<8x8xf32> {cs349.folded_from = ["g", "w"], cs349.init_result = 0 : i64})
// CHECK-NEXT: cs349.matmul %[[N]], %[[F]]
// CHECK-NEXT: return
// CHECK-LABEL: func.func @constant_gain_argument_weight_init
// CHECK-SAME: (%[[W:[^:]*]]: tensor<8x8xf32> {cs349.layer_arg = 1 : i64})
// The column of a constant γ is folded into a constant of its own.
// CHECK-NEXT: %[[C:.*]] = cs349.constant dense<2.000000e+00> : tensor<8x1xf32>
// CHECK-NEXT: %[[F2:.*]] = cs349.mul %[[W]], %[[C]]
// CHECK-NEXT: return %[[F2]]
func.func @constant_gain_argument_weight(%n: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %g = cs349.constant dense<2.0> : tensor<8xf32>
  %h = cs349.mul %n, %g : tensor<4x8xf32>, tensor<8xf32>
  %y = cs349.matmul %h, %w : tensor<4x8xf32>, tensor<8x8xf32> -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

// Layer-level rms_norm: its gain becomes a splat 1 (which --decompose and
// canonicalize then drop) and γ moves into the weight.

// CHECK-LABEL: func.func @layer_level_rms_norm
// CHECK-SAME: (%[[X:[^:]*]]: tensor<4x8xf32> {cs349.layer_arg = 0 : i64}, %[[F:[^:]*]]: tensor<8x16xf32> {cs349.folded_from = ["g", "w"], cs349.init_result = 0 : i64})
// CHECK-NEXT: %[[ONE:.*]] = cs349.constant dense<1.000000e+00> : tensor<8xf32>
// CHECK-NEXT: %[[H:.*]] = cs349.rms_norm %[[X]], %[[ONE]] epsilon = 1.000000e-05
// CHECK-NEXT: cs349.matmul %[[H]], %[[F]]
// CHECK-LABEL: func.func @layer_level_rms_norm_init
func.func @layer_level_rms_norm(%x: tensor<4x8xf32>, %g: tensor<8xf32>, %w: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %h = cs349.rms_norm %x, %g epsilon = 1.0e-5 : tensor<4x8xf32>, tensor<8xf32>
  %y = cs349.matmul %h, %w : tensor<4x8xf32>, tensor<8x16xf32> -> tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}

// -----

// Negative: n·γ is also returned, so it is computed anyway.

// CHECK-LABEL: func.func @product_used_elsewhere
// CHECK-SAME: (%{{[^:]*}}: tensor<4x8xf32>, %{{[^:]*}}: tensor<8xf32>, %{{[^:]*}}: tensor<8x8xf32>)
// CHECK-NOT: cs349.initialized_by
// CHECK: %[[H:.*]] = cs349.mul
// CHECK-NEXT: cs349.matmul %[[H]]
// CHECK-NOT: func.func @product_used_elsewhere_init
func.func @product_used_elsewhere(%n: tensor<4x8xf32>, %g: tensor<8xf32>, %w: tensor<8x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %h = cs349.mul %n, %g : tensor<4x8xf32>, tensor<8xf32>
  %y = cs349.matmul %h, %w : tensor<4x8xf32>, tensor<8x8xf32> -> tensor<4x8xf32>
  return %y, %h : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// Negative: a [T, 1] factor scales rows of n, not the contraction dim.

// CHECK-LABEL: func.func @gain_not_along_contraction
// CHECK: %[[H:.*]] = cs349.mul
// CHECK-NEXT: cs349.matmul %[[H]]
// CHECK-NOT: func.func @gain_not_along_contraction_init
func.func @gain_not_along_contraction(%n: tensor<4x8xf32>, %s: tensor<4x1xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %h = cs349.mul %n, %s : tensor<4x8xf32>, tensor<4x1xf32>
  %y = cs349.matmul %h, %w : tensor<4x8xf32>, tensor<8x8xf32> -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

// Negative: n·γ as the right operand: γ scales the output columns of that
// product, not rows of a weight.

// CHECK-LABEL: func.func @product_as_right_operand
// CHECK: %[[H:.*]] = cs349.mul
// CHECK-NEXT: cs349.matmul %{{.*}}, %[[H]]
// CHECK-NOT: func.func @product_as_right_operand_init
func.func @product_as_right_operand(%x: tensor<4x8xf32>, %n: tensor<8x8xf32>, %g: tensor<8xf32>) -> tensor<4x8xf32> {
  %h = cs349.mul %n, %g : tensor<8x8xf32>, tensor<8xf32>
  %y = cs349.matmul %x, %h : tensor<4x8xf32>, tensor<8x8xf32> -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

// Negative: the right operand is computed in the layer (an activation), so
// there is no weight to fold into.

// CHECK-LABEL: func.func @right_operand_not_a_weight
// CHECK: %[[H:.*]] = cs349.mul
// CHECK: cs349.matmul %[[H]]
// CHECK-NOT: func.func @right_operand_not_a_weight_init
func.func @right_operand_not_a_weight(%n: tensor<4x8xf32>, %g: tensor<8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %h = cs349.mul %n, %g : tensor<4x8xf32>, tensor<8xf32>
  %t = cs349.tanh %w : tensor<8x8xf32>
  %y = cs349.matmul %h, %t : tensor<4x8xf32>, tensor<8x8xf32> -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

// A function with callers keeps its signature: the argument weights are not
// folded (a warning says why); its constant weights still are.

// CHECK-LABEL: func.func @has_callers
// CHECK-SAME: (%{{[^:]*}}: tensor<4x8xf32>, %{{[^:]*}}: tensor<8xf32>, %{{[^:]*}}: tensor<8x8xf32>)
// CHECK-NEXT: %[[F:.*]] = cs349.constant dense<4.000000e+00> : tensor<8x8xf32>
// CHECK-NEXT: %[[H:.*]] = cs349.mul
// CHECK-NEXT: cs349.matmul %[[H]]
// CHECK-NEXT: cs349.matmul %{{.*}}, %[[F]]
// CHECK-NEXT: return
// CHECK-LABEL: func.func @caller
// CHECK-NOT: func.func @has_callers_init
// expected-warning @+1 {{not folding norm gains into the weight arguments of a function that has callers}}
func.func @has_callers(%n: tensor<4x8xf32>, %g: tensor<8xf32>, %w: tensor<8x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %h = cs349.mul %n, %g : tensor<4x8xf32>, tensor<8xf32>
  %y = cs349.matmul %h, %w : tensor<4x8xf32>, tensor<8x8xf32> -> tensor<4x8xf32>
  %g2 = cs349.constant dense<2.0> : tensor<8xf32>
  %w2 = cs349.constant dense<2.0> : tensor<8x8xf32>
  %h2 = cs349.mul %n, %g2 : tensor<4x8xf32>, tensor<8xf32>
  %y2 = cs349.matmul %h2, %w2 : tensor<4x8xf32>, tensor<8x8xf32> -> tensor<4x8xf32>
  return %y, %y2 : tensor<4x8xf32>, tensor<4x8xf32>
}
func.func @caller(%n: tensor<4x8xf32>, %g: tensor<8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %y:2 = func.call @has_callers(%n, %g, %w) : (tensor<4x8xf32>, tensor<8xf32>, tensor<8x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>)
  return %y#0 : tensor<4x8xf32>
}

// -----

// Each function of a module is judged on its own callers: one that calls
// another is folded, the one it calls keeps its signature, and one that
// neither calls nor is called is folded too, whatever was folded before it.

// CHECK-LABEL: func.func @calls_another
// CHECK-SAME: cs349.folded_from = ["g", "w"]
// CHECK-SAME: cs349.initialized_by = @calls_another_init
// CHECK: call @is_called(
// CHECK-LABEL: func.func @calls_another_init
// CHECK-LABEL: func.func @is_called
// CHECK-SAME: (%{{[^:]*}}: tensor<4x8xf32>, %{{[^:]*}}: tensor<8xf32>, %{{[^:]*}}: tensor<8x8xf32>) -> tensor<4x8xf32> {
// CHECK-LABEL: func.func @stands_alone
// CHECK-SAME: cs349.initialized_by = @stands_alone_init
// CHECK-LABEL: func.func @stands_alone_init
func.func @calls_another(%n: tensor<4x8xf32>, %g: tensor<8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %h = cs349.mul %n, %g : tensor<4x8xf32>, tensor<8xf32>
  %y = cs349.matmul %h, %w : tensor<4x8xf32>, tensor<8x8xf32> -> tensor<4x8xf32>
  %z = func.call @is_called(%y, %g, %w) : (tensor<4x8xf32>, tensor<8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  return %z : tensor<4x8xf32>
}
// expected-warning @+1 {{not folding norm gains into the weight arguments of a function that has callers}}
func.func @is_called(%n: tensor<4x8xf32>, %g: tensor<8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %h = cs349.mul %n, %g : tensor<4x8xf32>, tensor<8xf32>
  %y = cs349.matmul %h, %w : tensor<4x8xf32>, tensor<8x8xf32> -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}
func.func @stands_alone(%n: tensor<4x8xf32>, %g: tensor<8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %h = cs349.mul %n, %g : tensor<4x8xf32>, tensor<8xf32>
  %y = cs349.matmul %h, %w : tensor<4x8xf32>, tensor<8x8xf32> -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

// After --fuse the gain product sits in a kernel: a warning, nothing folded.

// CHECK-LABEL: func.func @already_fused
// CHECK-NOT: cs349.initialized_by
// CHECK: cs349.kernel
// CHECK-NOT: func.func @already_fused_init
// expected-warning @+1 {{ops are already fused into kernels, which fold-norm-weight does not look into; run --fold-norm-weight (or --optimize) before --fuse}}
func.func @already_fused(%n: tensor<4x8xf32>, %g: tensor<8xf32>, %w: tensor<8x2xf32>) -> tensor<4x2xf32> {
  %y = cs349.kernel(%n, %g, %w) : (tensor<4x8xf32>, tensor<8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32> {
  ^bb0(%na: tensor<4x8xf32>, %ga: tensor<8xf32>, %wa: tensor<8x2xf32>):
    %s = cs349.mul %na, %ga : tensor<4x8xf32>, tensor<8xf32>
    %r = cs349.matmul %s, %wa : tensor<4x8xf32>, tensor<8x2xf32> -> tensor<4x2xf32>
    cs349.yield %r : tensor<4x2xf32>
  }
  return %y : tensor<4x2xf32>
}

// -----

// A LayerNorm with a shift, decomposed: (n·γ + β)@W = n@(diag(γ)·W) + β·W.
// The initializer computes diag(γ)·W and the bias β·W (a [1, d] by [d, N]
// matmul, as the layer would compute it); the layer adds that bias after
// its matmul, where --fuse makes it an epilogue. The bias takes β's place in
// the signature, the folded weight W's.

// CHECK-LABEL: func.func @layer_norm_shift(
// CHECK-SAME: %{{[^:]*}}: tensor<4x8xf32> {cs349.layer_arg = 0 : i64},
// CHECK-SAME: %[[C:[^:]*]]: tensor<6xf32> {cs349.folded_from = [{{.*}}], cs349.init_result = 1 : i64},
// CHECK-SAME: %[[W:[^:]*]]: tensor<8x6xf32> {cs349.folded_from = [{{.*}}], cs349.init_result = 0 : i64})
// CHECK-NEXT: %[[Y:.*]] = cs349.matmul %{{.*}}, %[[W]]
// CHECK-NEXT: %[[Z:.*]] = cs349.add %[[Y]], %[[C]] : tensor<4x6xf32>, tensor<6xf32>
// CHECK-NEXT: return %[[Z]]
// CHECK-LABEL: func.func @layer_norm_shift_init(
// CHECK-SAME: tensor<8xf32> {cs349.layer_arg = 1 : i64}, %{{[^:]*}}: tensor<8xf32> {cs349.layer_arg = 2 : i64}, %{{[^:]*}}: tensor<8x6xf32> {cs349.layer_arg = 3 : i64})
// CHECK: cs349.mul
// CHECK: cs349.reshape {{.*}} : tensor<8xf32> -> tensor<1x8xf32>
// CHECK-NEXT: cs349.matmul {{.*}} -> tensor<1x6xf32>
// CHECK-NEXT: cs349.reshape {{.*}} : tensor<1x6xf32> -> tensor<6xf32>
// CHECK-NEXT: return
func.func @layer_norm_shift(%n: tensor<4x8xf32>, %g: tensor<8xf32>, %b: tensor<8xf32>, %w: tensor<8x6xf32>) -> tensor<4x6xf32> {
  %s = cs349.mul %n, %g : tensor<4x8xf32>, tensor<8xf32>
  %h = cs349.add %s, %b : tensor<4x8xf32>, tensor<8xf32>
  %y = cs349.matmul %h, %w : tensor<4x8xf32>, tensor<8x6xf32> -> tensor<4x6xf32>
  return %y : tensor<4x6xf32>
}

// -----

// The matmul has a bias of its own (GPT-2's projections): β·W joins it, in
// its place: one add after the matmul either way.

// CHECK-LABEL: func.func @layer_norm_shift_into_bias(
// CHECK-SAME: %[[W:[^:]*]]: tensor<6x8xf32> {cs349.folded_from = [{{.*}}], cs349.init_result = 0 : i64},
// CHECK-SAME: %[[C:[^:]*]]: tensor<6xf32> {cs349.folded_from = [{{.*}}, {{.*}}, {{.*}}], cs349.init_result = 1 : i64})
// CHECK-NEXT: %[[Y:.*]] = cs349.matmul %{{.*}}, %[[W]] transpose_b
// CHECK-NEXT: %[[Z:.*]] = cs349.add %[[Y]], %[[C]] : tensor<4x6xf32>, tensor<6xf32>
// CHECK-NEXT: return %[[Z]]
// CHECK-LABEL: func.func @layer_norm_shift_into_bias_init(
// CHECK: cs349.matmul {{.*}} transpose_b : tensor<1x8xf32>, tensor<6x8xf32> -> tensor<1x6xf32>
// CHECK-NEXT: cs349.reshape
// CHECK-NEXT: cs349.add {{.*}} : tensor<6xf32>
// CHECK-NEXT: return
func.func @layer_norm_shift_into_bias(%n: tensor<4x8xf32>, %g: tensor<8xf32>, %b: tensor<8xf32>, %w: tensor<6x8xf32>, %c: tensor<6xf32>) -> tensor<4x6xf32> {
  %s = cs349.mul %n, %g : tensor<4x8xf32>, tensor<8xf32>
  %h = cs349.add %b, %s : tensor<8xf32>, tensor<4x8xf32>
  %y = cs349.matmul %h, %w transpose_b : tensor<4x8xf32>, tensor<6x8xf32> -> tensor<4x6xf32>
  %z = cs349.add %y, %c : tensor<4x6xf32>, tensor<6xf32>
  return %z : tensor<4x6xf32>
}

// -----

// One shift for two matmuls (q and k of one norm): the pass builds β's row
// once, and γ's column once, for both products (nothing after it in
// --optimize would merge copies).

// CHECK-LABEL: func.func @layer_norm_shift_shared_init(
// CHECK-NEXT: %[[COL:.*]] = cs349.reshape %{{.*}} : tensor<8xf32> -> tensor<8x1xf32>
// CHECK-NEXT: cs349.mul %{{.*}}, %[[COL]]
// CHECK-NEXT: cs349.mul %{{.*}}, %[[COL]]
// CHECK-NEXT: %[[ROW:.*]] = cs349.reshape %{{.*}} : tensor<8xf32> -> tensor<1x8xf32>
// CHECK-NEXT: cs349.matmul %[[ROW]], %{{.*}} -> tensor<1x6xf32>
// CHECK-NEXT: cs349.reshape
// CHECK-NEXT: cs349.matmul %[[ROW]], %{{.*}} -> tensor<1x6xf32>
// CHECK-NEXT: cs349.reshape
// CHECK-NEXT: return
func.func @layer_norm_shift_shared(%n: tensor<4x8xf32>, %g: tensor<8xf32>, %b: tensor<8xf32>, %wq: tensor<8x6xf32>, %wk: tensor<8x6xf32>) -> (tensor<4x6xf32>, tensor<4x6xf32>) {
  %s = cs349.mul %n, %g : tensor<4x8xf32>, tensor<8xf32>
  %h = cs349.add %s, %b : tensor<4x8xf32>, tensor<8xf32>
  %q = cs349.matmul %h, %wq : tensor<4x8xf32>, tensor<8x6xf32> -> tensor<4x6xf32>
  %k = cs349.matmul %h, %wk : tensor<4x8xf32>, tensor<8x6xf32> -> tensor<4x6xf32>
  return %q, %k : tensor<4x6xf32>, tensor<4x6xf32>
}

// -----

// Constant weights fold here: diag(γ)·W = [[2, 4, 6], [12, 15, 18]] and
// β·W + c = [1 - 4, 2 - 5, 3 - 6] + [0.5, 1, 1.5].

// CHECK-LABEL: func.func @layer_norm_shift_constants
// CHECK-DAG: %[[W:.*]] = cs349.constant dense<{{\[}}[2.000000e+00, 4.000000e+00, 6.000000e+00], [1.200000e+01, 1.500000e+01, 1.800000e+01]]> : tensor<2x3xf32>
// CHECK-DAG: %[[C:.*]] = cs349.constant dense<[-2.500000e+00, -2.000000e+00, -1.500000e+00]> : tensor<3xf32>
// CHECK: %[[Y:.*]] = cs349.matmul %{{.*}}, %[[W]]
// CHECK-NEXT: %[[Z:.*]] = cs349.add %[[Y]], %[[C]]
// CHECK-NEXT: return %[[Z]]
func.func @layer_norm_shift_constants(%n: tensor<2x2xf32>) -> tensor<2x3xf32> {
  %g = cs349.constant dense<[2.0, 3.0]> : tensor<2xf32>
  %b = cs349.constant dense<[1.0, -1.0]> : tensor<2xf32>
  %w = cs349.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %c = cs349.constant dense<[0.5, 1.0, 1.5]> : tensor<3xf32>
  %s = cs349.mul %n, %g : tensor<2x2xf32>, tensor<2xf32>
  %h = cs349.add %s, %b : tensor<2x2xf32>, tensor<2xf32>
  %y = cs349.matmul %h, %w : tensor<2x2xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
  %z = cs349.add %y, %c : tensor<2x3xf32>, tensor<3xf32>
  return %z : tensor<2x3xf32>
}

// -----

// Negative: the shift is computed, not a weight; nothing is folded.

// CHECK-LABEL: func.func @layer_norm_computed_shift_left_alone
// CHECK: %[[S:.*]] = cs349.mul
// CHECK: %[[H:.*]] = cs349.add %[[S]]
// CHECK-NEXT: cs349.matmul %[[H]]
// CHECK-NOT: func.func @layer_norm_computed_shift_left_alone_init
func.func @layer_norm_computed_shift_left_alone(%n: tensor<4x8xf32>, %g: tensor<8xf32>, %b: tensor<8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %s = cs349.mul %n, %g : tensor<4x8xf32>, tensor<8xf32>
  %e = cs349.exp %b : tensor<8xf32>
  %h = cs349.add %s, %e : tensor<4x8xf32>, tensor<8xf32>
  %y = cs349.matmul %h, %w : tensor<4x8xf32>, tensor<8x8xf32> -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

// Negative: n·γ + β is also returned, so it stays; nothing is folded.

// CHECK-LABEL: func.func @layer_norm_shift_read_elsewhere
// CHECK-SAME: (%{{[^:]*}}: tensor<4x8xf32>, %{{[^:]*}}: tensor<8xf32>, %{{[^:]*}}: tensor<8xf32>, %[[W:[^:]*]]: tensor<8x8xf32>)
// CHECK: %[[S:.*]] = cs349.mul
// CHECK-NEXT: %[[H:.*]] = cs349.add %[[S]]
// CHECK-NEXT: cs349.matmul %[[H]], %[[W]]
// CHECK-NOT: func.func @layer_norm_shift_read_elsewhere_init
func.func @layer_norm_shift_read_elsewhere(%n: tensor<4x8xf32>, %g: tensor<8xf32>, %b: tensor<8xf32>, %w: tensor<8x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %s = cs349.mul %n, %g : tensor<4x8xf32>, tensor<8xf32>
  %h = cs349.add %s, %b : tensor<4x8xf32>, tensor<8xf32>
  %y = cs349.matmul %h, %w : tensor<4x8xf32>, tensor<8x8xf32> -> tensor<4x8xf32>
  return %y, %h : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// Negative: a batched weight would need a bias per batch; nothing is folded.

// CHECK-LABEL: func.func @layer_norm_shift_batched_left_alone
// CHECK: %[[S:.*]] = cs349.mul
// CHECK-NEXT: %[[H:.*]] = cs349.add %[[S]]
// CHECK-NEXT: cs349.matmul %[[H]]
// CHECK-NOT: func.func @layer_norm_shift_batched_left_alone_init
func.func @layer_norm_shift_batched_left_alone(%n: tensor<2x4x8xf32>, %g: tensor<8xf32>, %b: tensor<8xf32>, %w: tensor<2x8x8xf32>) -> tensor<2x4x8xf32> {
  %s = cs349.mul %n, %g : tensor<2x4x8xf32>, tensor<8xf32>
  %h = cs349.add %s, %b : tensor<2x4x8xf32>, tensor<8xf32>
  %y = cs349.matmul %h, %w : tensor<2x4x8xf32>, tensor<2x8x8xf32> -> tensor<2x4x8xf32>
  return %y : tensor<2x4x8xf32>
}

// -----

// Negative: a layer-level cs349.layer_norm keeps its gain and bias (only
// rms_norm's gain is folded at the layer level).

// CHECK-LABEL: func.func @layer_level_layer_norm_left_alone
// CHECK-SAME: (%[[X:[^:]*]]: tensor<4x8xf32>, %[[G:[^:]*]]: tensor<8xf32>, %[[B:[^:]*]]: tensor<8xf32>, %[[W:[^:]*]]: tensor<8x8xf32>)
// CHECK-NEXT: %[[H:.*]] = cs349.layer_norm %[[X]], %[[G]], %[[B]]
// CHECK-NEXT: cs349.matmul %[[H]], %[[W]]
// CHECK-NOT: func.func @layer_level_layer_norm_left_alone_init
func.func @layer_level_layer_norm_left_alone(%x: tensor<4x8xf32>, %g: tensor<8xf32>, %b: tensor<8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %h = cs349.layer_norm %x, %g, %b epsilon = 1.0e-5 : tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>
  %y = cs349.matmul %h, %w : tensor<4x8xf32>, tensor<8x8xf32> -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

// As importers leave a front end's norm: γ reshaped to [1, d] on the left of
// the product, W [N, d] transposed into the plain matmul. γ is seen through
// the reshape and W through the transpose: the folded W is read with
// transpose_b, and neither view stays.

// CHECK-LABEL: func.func @gain_reshaped_weight_transposed(%n: tensor<4x8xf32> {cs349.layer_arg = 0 : i64}, %w: tensor<6x8xf32> {cs349.folded_from = ["g", "w"], cs349.init_result = 0 : i64})
// CHECK-NEXT: %[[O:.*]] = cs349.matmul %n, %w transpose_b : tensor<4x8xf32>, tensor<6x8xf32> -> tensor<4x6xf32>
// CHECK-NEXT: return %[[O]]
// CHECK-LABEL: func.func @gain_reshaped_weight_transposed_init
// CHECK-NEXT: cs349.mul %w, %g : tensor<6x8xf32>, tensor<8xf32>
func.func @gain_reshaped_weight_transposed(%n: tensor<4x8xf32>, %g: tensor<8xf32>, %w: tensor<6x8xf32>) -> tensor<4x6xf32> {
  %g2 = cs349.reshape %g : tensor<8xf32> -> tensor<1x8xf32>
  %y = cs349.mul %g2, %n : tensor<1x8xf32>, tensor<4x8xf32>
  %wt = cs349.transpose %w perm = [1, 0] : tensor<6x8xf32> -> tensor<8x6xf32>
  %o = cs349.matmul %y, %wt : tensor<4x8xf32>, tensor<8x6xf32> -> tensor<4x6xf32>
  return %o : tensor<4x6xf32>
}

// -----

// Negative: a transpose that moves the batch dim is not a transposed
// weight, and γ reshaped to [2, 4] is not a gain along the last dim.

// CHECK-LABEL: func.func @transpose_not_last_two
// CHECK: cs349.mul %g, %n
// CHECK: cs349.transpose %w perm = [1, 0, 2]
// CHECK-NOT: _init
func.func @transpose_not_last_two(%n: tensor<2x4x8xf32>, %g: tensor<8xf32>, %w: tensor<2x8x6xf32>) -> tensor<2x4x6xf32> {
  %y = cs349.mul %g, %n : tensor<8xf32>, tensor<2x4x8xf32>
  %wt = cs349.transpose %w perm = [1, 0, 2] : tensor<2x8x6xf32> -> tensor<8x2x6xf32>
  %wr = cs349.reshape %wt : tensor<8x2x6xf32> -> tensor<2x8x6xf32>
  %o = cs349.matmul %y, %wr : tensor<2x4x8xf32>, tensor<2x8x6xf32> -> tensor<2x4x6xf32>
  return %o : tensor<2x4x6xf32>
}

// -----

// CHECK-LABEL: func.func @gain_not_along_last_dim
// CHECK: cs349.mul %g2, %n
// CHECK-NOT: _init
func.func @gain_not_along_last_dim(%n: tensor<2x4xf32>, %g: tensor<8xf32>, %w: tensor<4x6xf32>) -> tensor<2x6xf32> {
  %g2 = cs349.reshape %g : tensor<8xf32> -> tensor<2x4xf32>
  %y = cs349.mul %g2, %n : tensor<2x4xf32>, tensor<2x4xf32>
  %o = cs349.matmul %y, %w : tensor<2x4xf32>, tensor<4x6xf32> -> tensor<2x6xf32>
  return %o : tensor<2x6xf32>
}
