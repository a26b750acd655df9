// RUN: cs349-opt %s -split-input-file --match-attention=report-misses=true -verify-diagnostics | FileCheck %s
// Idempotence: a second run over the output changes nothing.
// RUN: cs349-opt %s -split-input-file --match-attention | cs349-opt -split-input-file --match-attention | FileCheck %s
// The generated layers, matched before --decompose (as the lecture does) and
// after it: one attention each time, with GQA un-repeated keys and values,
// and nothing left of the softmax.
// RUN: cs349-gen layer --preset tiny --seq 16 | cs349-opt --match-attention --decompose | FileCheck %s --check-prefix=TINY
// RUN: cs349-gen layer --preset tiny --seq 16 | cs349-opt --decompose --match-attention=report-misses=true | FileCheck %s --check-prefix=TINY
// RUN: cs349-gen layer --preset llama3.1-8b --seq 2048 | cs349-opt --match-attention=report-misses=true | FileCheck %s --check-prefix=LLAMA
// RUN: cs349-gen layer --preset llama3.1-8b --seq 2048 | cs349-opt --decompose --match-attention=report-misses=true | FileCheck %s --check-prefix=LLAMA
// A bad option value is a diagnostic, not a crash.
// The generated layers after --fuse: the warning, and one remark when asked
// for misses of a function without attention.
// RUN: cs349-gen layer --preset tiny --seq 16 | cs349-opt --decompose --fuse --match-attention=report-misses=true -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=FUSED
// RUN: cs349-gen layer --preset tiny --seq 16 | cs349-opt --fuse --optimize -o /dev/null 2>&1 | FileCheck %s --check-prefix=FUSED
// FUSED: warning: {{.*}}ops are already fused into kernels, which match-attention does not look into; run --match-attention (or --optimize) before --fuse
// RUN: cs349-gen branches --k 2 --rows 8 --d 8 --width 8 | cs349-opt --match-attention=report-misses=true -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NONE
// NONE: remark: {{.*}}no attention in this function: no softmax feeds a matmul
// RUN: not cs349-opt /dev/null --match-attention=report-misses=maybe 2>&1 | FileCheck %s --check-prefix=BADOPT

// TINY-LABEL: func.func @layer
// TINY-NOT: cs349.reduce_max
// TINY: cs349.attention %{{.*}}, %{{.*}}, %{{.*}} scale = 2.500000e-01 mask = causal : tensor<8x16x16xbf16>, tensor<2x16x16xbf16>, tensor<2x16x16xbf16>
// TINY-NOT: cs349.reduce_max
// TINY-NOT: cs349.attention

// LLAMA-LABEL: func.func @layer
// LLAMA-NOT: cs349.causal_mask
// 1/sqrt(128) rounded to bf16 by the generator:
// LLAMA: cs349.attention %{{.*}}, %{{.*}}, %{{.*}} scale = 0.08837890625 mask = causal : tensor<32x2048x128xbf16>, tensor<8x2048x128xbf16>, tensor<8x2048x128xbf16>
// LLAMA-NOT: cs349.causal_mask
// LLAMA-NOT: cs349.attention

// BADOPT: for the --report-misses option: 'maybe' is invalid value for boolean argument

// The layer-level form the generator writes: GQA repeats, q·kᵀ with
// transpose_b, scale on the scores by a rank-0 constant, causal mask,
// softmax over the key axis.

// CHECK-LABEL: func.func @layer_form_gqa_causal
// CHECK-SAME: (%[[Q:.*]]: tensor<4x8x4xbf16>, %[[K:.*]]: tensor<2x8x4xbf16>, %[[V:.*]]: tensor<2x8x4xbf16>)
// CHECK-NEXT: %[[O:.*]] = cs349.attention %[[Q]], %[[K]], %[[V]] scale = 5.000000e-01 mask = causal : tensor<4x8x4xbf16>, tensor<2x8x4xbf16>, tensor<2x8x4xbf16>
// CHECK-NEXT: return %[[O]]
func.func @layer_form_gqa_causal(%q: tensor<4x8x4xbf16>, %k: tensor<2x8x4xbf16>, %v: tensor<2x8x4xbf16>) -> tensor<4x8x4xbf16> {
  %kr = cs349.repeat %k axis = 0 times = 2 : tensor<2x8x4xbf16> -> tensor<4x8x4xbf16>
  %vr = cs349.repeat %v axis = 0 times = 2 : tensor<2x8x4xbf16> -> tensor<4x8x4xbf16>
  %s = cs349.matmul %q, %kr transpose_b : tensor<4x8x4xbf16>, tensor<4x8x4xbf16> -> tensor<4x8x8xbf16>
  %c = cs349.constant dense<0.5> : tensor<bf16>
  %ss = cs349.mul %s, %c : tensor<4x8x8xbf16>, tensor<bf16>
  %mask = cs349.causal_mask : tensor<8x8xbf16>
  %sm = cs349.add %ss, %mask : tensor<4x8x8xbf16>, tensor<8x8xbf16>
  %p = cs349.softmax %sm axis = 2 : tensor<4x8x8xbf16>
  %o = cs349.matmul %p, %vr : tensor<4x8x8xbf16>, tensor<4x8x4xbf16> -> tensor<4x8x4xbf16>
  return %o : tensor<4x8x4xbf16>
}

// -----

// The form --decompose leaves: max/sub/exp/sum/div, here with the scale as
// the left operand of the multiplication and the mask on the left of the add.

// CHECK-LABEL: func.func @decomposed_form
// CHECK-SAME: (%[[Q:.*]]: tensor<4x8x4xf32>, %[[K:.*]]: tensor<2x8x4xf32>, %[[V:.*]]: tensor<2x8x4xf32>)
// CHECK-NEXT: %[[O:.*]] = cs349.attention %[[Q]], %[[K]], %[[V]] scale = 2.500000e-01 mask = causal
// CHECK-NEXT: return %[[O]]
func.func @decomposed_form(%q: tensor<4x8x4xf32>, %k: tensor<2x8x4xf32>, %v: tensor<2x8x4xf32>) -> tensor<4x8x4xf32> {
  %kr = cs349.repeat %k axis = 0 times = 2 : tensor<2x8x4xf32> -> tensor<4x8x4xf32>
  %vr = cs349.repeat %v axis = 0 times = 2 : tensor<2x8x4xf32> -> tensor<4x8x4xf32>
  %s = cs349.matmul %q, %kr transpose_b : tensor<4x8x4xf32>, tensor<4x8x4xf32> -> tensor<4x8x8xf32>
  %c = cs349.constant dense<0.25> : tensor<f32>
  %ss = cs349.mul %c, %s : tensor<f32>, tensor<4x8x8xf32>
  %mask = cs349.causal_mask : tensor<8x8xf32>
  %sm = cs349.add %mask, %ss : tensor<8x8xf32>, tensor<4x8x8xf32>
  %max = cs349.reduce_max %sm axes = [2] keepdims : tensor<4x8x8xf32> -> tensor<4x8x1xf32>
  %sh = cs349.sub %sm, %max : tensor<4x8x8xf32>, tensor<4x8x1xf32>
  %e = cs349.exp %sh : tensor<4x8x8xf32>
  %sum = cs349.reduce_sum %e axes = [2] keepdims : tensor<4x8x8xf32> -> tensor<4x8x1xf32>
  %p = cs349.div %e, %sum : tensor<4x8x8xf32>, tensor<4x8x1xf32>
  %o = cs349.matmul %p, %vr : tensor<4x8x8xf32>, tensor<4x8x4xf32> -> tensor<4x8x4xf32>
  return %o : tensor<4x8x4xf32>
}

// -----

// Scale as a division by sqrt(dh), no mask, multi-head attention (no repeat).

// CHECK-LABEL: func.func @div_by_sqrt_no_mask
// CHECK-SAME: (%[[Q:.*]]: tensor<4x8x4xf32>, %[[K:.*]]: tensor<4x8x4xf32>, %[[V:.*]]: tensor<4x8x4xf32>)
// CHECK-NEXT: %[[O:.*]] = cs349.attention %[[Q]], %[[K]], %[[V]] scale = 5.000000e-01 mask = none :
// CHECK-NEXT: return %[[O]]
func.func @div_by_sqrt_no_mask(%q: tensor<4x8x4xf32>, %k: tensor<4x8x4xf32>, %v: tensor<4x8x4xf32>) -> tensor<4x8x4xf32> {
  %s = cs349.matmul %q, %k transpose_b : tensor<4x8x4xf32>, tensor<4x8x4xf32> -> tensor<4x8x8xf32>
  %c = cs349.constant dense<2.0> : tensor<f32>
  %ss = cs349.div %s, %c : tensor<4x8x8xf32>, tensor<f32>
  %p = cs349.softmax %ss axis = 2 : tensor<4x8x8xf32>
  %o = cs349.matmul %p, %v : tensor<4x8x8xf32>, tensor<4x8x4xf32> -> tensor<4x8x4xf32>
  return %o : tensor<4x8x4xf32>
}

// -----

// The scale on q ([H,T,dh] instead of [H,T,S]) and the keys through an
// explicit transpose; the scaled q has no other reader and disappears.

// CHECK-LABEL: func.func @scale_on_q_transposed_key
// CHECK-SAME: (%[[Q:.*]]: tensor<4x8x4xf32>, %[[K:.*]]: tensor<2x8x4xf32>, %[[V:.*]]: tensor<2x8x4xf32>)
// CHECK-NEXT: %[[O:.*]] = cs349.attention %[[Q]], %[[K]], %[[V]] scale = 5.000000e-01 mask = causal
// CHECK-NEXT: return %[[O]]
func.func @scale_on_q_transposed_key(%q: tensor<4x8x4xf32>, %k: tensor<2x8x4xf32>, %v: tensor<2x8x4xf32>) -> tensor<4x8x4xf32> {
  %c = cs349.constant dense<0.5> : tensor<f32>
  %qs = cs349.mul %q, %c : tensor<4x8x4xf32>, tensor<f32>
  %kr = cs349.repeat %k axis = 0 times = 2 : tensor<2x8x4xf32> -> tensor<4x8x4xf32>
  %kt = cs349.transpose %kr perm = [0, 2, 1] : tensor<4x8x4xf32> -> tensor<4x4x8xf32>
  %vr = cs349.repeat %v axis = 0 times = 2 : tensor<2x8x4xf32> -> tensor<4x8x4xf32>
  %s = cs349.matmul %qs, %kt : tensor<4x8x4xf32>, tensor<4x4x8xf32> -> tensor<4x8x8xf32>
  %mask = cs349.causal_mask : tensor<8x8xf32>
  %sm = cs349.add %s, %mask : tensor<4x8x8xf32>, tensor<8x8xf32>
  %p = cs349.softmax %sm axis = 2 : tensor<4x8x8xf32>
  %o = cs349.matmul %p, %vr : tensor<4x8x8xf32>, tensor<4x8x4xf32> -> tensor<4x8x4xf32>
  return %o : tensor<4x8x4xf32>
}

// -----

// Mask first, then a positive scale: -inf stays -inf, the same attention.

// CHECK-LABEL: func.func @mask_then_scale
// CHECK-NEXT: cs349.attention %{{.*}}, %{{.*}}, %{{.*}} scale = 1.250000e-01 mask = causal
// CHECK-NOT: cs349.softmax
func.func @mask_then_scale(%q: tensor<4x8x4xf32>, %k: tensor<4x8x4xf32>, %v: tensor<4x8x4xf32>) -> tensor<4x8x4xf32> {
  %s = cs349.matmul %q, %k transpose_b : tensor<4x8x4xf32>, tensor<4x8x4xf32> -> tensor<4x8x8xf32>
  %mask = cs349.causal_mask : tensor<8x8xf32>
  %sm = cs349.add %s, %mask : tensor<4x8x8xf32>, tensor<8x8xf32>
  %c = cs349.constant dense<0.125> : tensor<f32>
  %ss = cs349.mul %sm, %c : tensor<4x8x8xf32>, tensor<f32>
  %p = cs349.softmax %ss axis = 2 : tensor<4x8x8xf32>
  %o = cs349.matmul %p, %v : tensor<4x8x8xf32>, tensor<4x8x4xf32> -> tensor<4x8x4xf32>
  return %o : tensor<4x8x4xf32>
}

// -----

// No scale at all is attention with scale 1; the repeated keys stay because
// something else reads them (a view is free), the attention reads the
// un-repeated ones.

// CHECK-LABEL: func.func @unscaled_repeat_used_elsewhere
// CHECK-SAME: (%[[Q:.*]]: tensor<4x8x4xf32>, %[[K:.*]]: tensor<2x8x4xf32>, %[[V:.*]]: tensor<2x8x4xf32>)
// CHECK: %[[KR:.*]] = cs349.repeat %[[K]]
// CHECK: %[[O:.*]] = cs349.attention %[[Q]], %[[K]], %[[V]] scale = 1.000000e+00 mask = none :
// CHECK: return %[[O]], %[[KR]]
func.func @unscaled_repeat_used_elsewhere(%q: tensor<4x8x4xf32>, %k: tensor<2x8x4xf32>, %v: tensor<2x8x4xf32>) -> (tensor<4x8x4xf32>, tensor<4x8x4xf32>) {
  %kr = cs349.repeat %k axis = 0 times = 2 : tensor<2x8x4xf32> -> tensor<4x8x4xf32>
  %vr = cs349.repeat %v axis = 0 times = 2 : tensor<2x8x4xf32> -> tensor<4x8x4xf32>
  %s = cs349.matmul %q, %kr transpose_b : tensor<4x8x4xf32>, tensor<4x8x4xf32> -> tensor<4x8x8xf32>
  %p = cs349.softmax %s axis = 2 : tensor<4x8x8xf32>
  %o = cs349.matmul %p, %vr : tensor<4x8x8xf32>, tensor<4x8x4xf32> -> tensor<4x8x4xf32>
  return %o, %kr : tensor<4x8x4xf32>, tensor<4x8x4xf32>
}

// -----

// Negative: softmax over the query axis is not attention.

// CHECK-LABEL: func.func @softmax_other_axis
// CHECK-NOT: cs349.attention
// CHECK: cs349.softmax %{{.*}} axis = 1
func.func @softmax_other_axis(%q: tensor<4x8x4xf32>, %k: tensor<4x8x4xf32>, %v: tensor<4x8x4xf32>) -> tensor<4x8x4xf32> {
  %s = cs349.matmul %q, %k transpose_b : tensor<4x8x4xf32>, tensor<4x8x4xf32> -> tensor<4x8x8xf32>
  %p = cs349.softmax %s axis = 1 : tensor<4x8x8xf32>
  // expected-remark @+1 {{not fused into cs349.attention: the softmax is over axis 1, not the key axis 2}}
  %o = cs349.matmul %p, %v : tensor<4x8x8xf32>, tensor<4x8x4xf32> -> tensor<4x8x4xf32>
  return %o : tensor<4x8x4xf32>
}

// -----

// Negative: the decomposed softmax reduces over the query axis.

// CHECK-LABEL: func.func @decomposed_softmax_other_axis
// CHECK-NOT: cs349.attention
// CHECK: cs349.reduce_sum %{{.*}} axes = [1] keepdims
func.func @decomposed_softmax_other_axis(%q: tensor<4x8x4xf32>, %k: tensor<4x8x4xf32>, %v: tensor<4x8x4xf32>) -> tensor<4x8x4xf32> {
  %s = cs349.matmul %q, %k transpose_b : tensor<4x8x4xf32>, tensor<4x8x4xf32> -> tensor<4x8x8xf32>
  %max = cs349.reduce_max %s axes = [1] keepdims : tensor<4x8x8xf32> -> tensor<4x1x8xf32>
  %sh = cs349.sub %s, %max : tensor<4x8x8xf32>, tensor<4x1x8xf32>
  %e = cs349.exp %sh : tensor<4x8x8xf32>
  %sum = cs349.reduce_sum %e axes = [1] keepdims : tensor<4x8x8xf32> -> tensor<4x1x8xf32>
  %p = cs349.div %e, %sum : tensor<4x8x8xf32>, tensor<4x1x8xf32>
  // expected-remark @+1 {{not fused into cs349.attention: the softmax is over axes [1], not the key axis 2}}
  %o = cs349.matmul %p, %v : tensor<4x8x8xf32>, tensor<4x8x4xf32> -> tensor<4x8x4xf32>
  return %o : tensor<4x8x4xf32>
}

// -----

// Negative: the scaled scores are also returned, so they must be written.

// CHECK-LABEL: func.func @scores_used_elsewhere
// CHECK-NOT: cs349.attention
// CHECK: cs349.softmax
func.func @scores_used_elsewhere(%q: tensor<4x8x4xf32>, %k: tensor<4x8x4xf32>, %v: tensor<4x8x4xf32>) -> (tensor<4x8x4xf32>, tensor<4x8x8xf32>) {
  %s = cs349.matmul %q, %k transpose_b : tensor<4x8x4xf32>, tensor<4x8x4xf32> -> tensor<4x8x8xf32>
  %c = cs349.constant dense<0.5> : tensor<f32>
  %ss = cs349.mul %s, %c : tensor<4x8x8xf32>, tensor<f32>
  %p = cs349.softmax %ss axis = 2 : tensor<4x8x8xf32>
  // expected-remark @+1 {{not fused into cs349.attention: the scores are also read by 'func.return' outside the attention}}
  %o = cs349.matmul %p, %v : tensor<4x8x8xf32>, tensor<4x8x4xf32> -> tensor<4x8x4xf32>
  return %o, %ss : tensor<4x8x4xf32>, tensor<4x8x8xf32>
}

// -----

// Negative: the raw q·kᵀ feeds another op too.

// CHECK-LABEL: func.func @raw_scores_used_elsewhere
// CHECK-NOT: cs349.attention
// CHECK: cs349.softmax
func.func @raw_scores_used_elsewhere(%q: tensor<4x8x4xf32>, %k: tensor<4x8x4xf32>, %v: tensor<4x8x4xf32>) -> (tensor<4x8x4xf32>, tensor<4x8x8xf32>) {
  %s = cs349.matmul %q, %k transpose_b : tensor<4x8x4xf32>, tensor<4x8x4xf32> -> tensor<4x8x8xf32>
  %t = cs349.tanh %s : tensor<4x8x8xf32>
  %p = cs349.softmax %s axis = 2 : tensor<4x8x8xf32>
  // expected-remark @+1 {{not fused into cs349.attention: the raw scores q·kᵀ are also read by 'cs349.tanh' outside the attention}}
  %o = cs349.matmul %p, %v : tensor<4x8x8xf32>, tensor<4x8x4xf32> -> tensor<4x8x4xf32>
  return %o, %t : tensor<4x8x4xf32>, tensor<4x8x8xf32>
}

// -----

// Negative: the probabilities are also returned.

// CHECK-LABEL: func.func @probabilities_used_elsewhere
// CHECK-NOT: cs349.attention
// CHECK: cs349.softmax
func.func @probabilities_used_elsewhere(%q: tensor<4x8x4xf32>, %k: tensor<4x8x4xf32>, %v: tensor<4x8x4xf32>) -> (tensor<4x8x4xf32>, tensor<4x8x8xf32>) {
  %s = cs349.matmul %q, %k transpose_b : tensor<4x8x4xf32>, tensor<4x8x4xf32> -> tensor<4x8x8xf32>
  %p = cs349.softmax %s axis = 2 : tensor<4x8x8xf32>
  // expected-remark @+1 {{not fused into cs349.attention: the probabilities are also read by 'func.return' outside the attention}}
  %o = cs349.matmul %p, %v : tensor<4x8x8xf32>, tensor<4x8x4xf32> -> tensor<4x8x4xf32>
  return %o, %p : tensor<4x8x4xf32>, tensor<4x8x8xf32>
}

// -----

// Negative: the decomposed softmax's exponentials are read elsewhere.

// CHECK-LABEL: func.func @exponentials_used_elsewhere
// CHECK-NOT: cs349.attention
// CHECK: cs349.exp
func.func @exponentials_used_elsewhere(%q: tensor<4x8x4xf32>, %k: tensor<4x8x4xf32>, %v: tensor<4x8x4xf32>) -> (tensor<4x8x4xf32>, tensor<4x8x8xf32>) {
  %s = cs349.matmul %q, %k transpose_b : tensor<4x8x4xf32>, tensor<4x8x4xf32> -> tensor<4x8x8xf32>
  %max = cs349.reduce_max %s axes = [2] keepdims : tensor<4x8x8xf32> -> tensor<4x8x1xf32>
  %sh = cs349.sub %s, %max : tensor<4x8x8xf32>, tensor<4x8x1xf32>
  %e = cs349.exp %sh : tensor<4x8x8xf32>
  %sum = cs349.reduce_sum %e axes = [2] keepdims : tensor<4x8x8xf32> -> tensor<4x8x1xf32>
  %p = cs349.div %e, %sum : tensor<4x8x8xf32>, tensor<4x8x1xf32>
  // expected-remark @+1 {{not fused into cs349.attention: the exponentials are also read by 'func.return' outside the attention}}
  %o = cs349.matmul %p, %v : tensor<4x8x8xf32>, tensor<4x8x4xf32> -> tensor<4x8x4xf32>
  return %o, %e : tensor<4x8x4xf32>, tensor<4x8x8xf32>
}

// -----

// A mask that comes in as an argument is added to the scores as it is: an
// additive mask operand (a padding mask, say).

// CHECK-LABEL: func.func @mask_is_argument
// CHECK-SAME:    (%[[Q:.*]]: tensor<4x8x4xf32>, %[[K:.*]]: tensor<4x8x4xf32>, %[[V:.*]]: tensor<4x8x4xf32>, %[[M:.*]]: tensor<8x8xf32>)
// CHECK-NEXT: %[[O:.*]] = cs349.attention %[[Q]], %[[K]], %[[V]] scale = 5.000000e-01 mask = additive %[[M]] : tensor<4x8x4xf32>, tensor<4x8x4xf32>, tensor<4x8x4xf32>, tensor<8x8xf32>
// CHECK-NEXT: return %[[O]]
func.func @mask_is_argument(%q: tensor<4x8x4xf32>, %k: tensor<4x8x4xf32>, %v: tensor<4x8x4xf32>, %mask: tensor<8x8xf32>) -> tensor<4x8x4xf32> {
  %s = cs349.matmul %q, %k transpose_b : tensor<4x8x4xf32>, tensor<4x8x4xf32> -> tensor<4x8x8xf32>
  %c = cs349.constant dense<0.5> : tensor<f32>
  %ss = cs349.mul %s, %c : tensor<4x8x8xf32>, tensor<f32>
  %sm = cs349.add %ss, %mask : tensor<4x8x8xf32>, tensor<8x8xf32>
  %p = cs349.softmax %sm axis = 2 : tensor<4x8x8xf32>
  %o = cs349.matmul %p, %v : tensor<4x8x8xf32>, tensor<4x8x4xf32> -> tensor<4x8x4xf32>
  return %o : tensor<4x8x4xf32>
}

// -----

// A constant mask that is not the causal one (a padding mask on the last key,
// broadcast over heads and queries, on the left of the add): additive.

// CHECK-LABEL: func.func @mask_is_other_constant
// CHECK: %[[M:.*]] = cs349.constant dense<[0.000000e+00, {{.*}}, 0xFF800000]> : tensor<8xf32>
// CHECK-NEXT: cs349.attention %{{.*}}, %{{.*}}, %{{.*}} scale = 1.000000e+00 mask = additive %[[M]] : tensor<4x8x4xf32>, tensor<4x8x4xf32>, tensor<4x8x4xf32>, tensor<8xf32>
// CHECK-NOT: cs349.softmax
func.func @mask_is_other_constant(%q: tensor<4x8x4xf32>, %k: tensor<4x8x4xf32>, %v: tensor<4x8x4xf32>) -> tensor<4x8x4xf32> {
  %s = cs349.matmul %q, %k transpose_b : tensor<4x8x4xf32>, tensor<4x8x4xf32> -> tensor<4x8x8xf32>
  %mask = cs349.constant dense<[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0xFF800000]> : tensor<8xf32>
  %sm = cs349.add %mask, %s : tensor<8xf32>, tensor<4x8x8xf32>
  %p = cs349.softmax %sm axis = 2 : tensor<4x8x8xf32>
  %o = cs349.matmul %p, %v : tensor<4x8x8xf32>, tensor<4x8x4xf32> -> tensor<4x8x4xf32>
  return %o : tensor<4x8x4xf32>
}

// -----

// A causal mask with a window is a sliding-window attention; a scale after
// it (positive) keeps -inf and 0 as they are.

// CHECK-LABEL: func.func @sliding_window
// CHECK-NEXT: cs349.attention %{{.*}}, %{{.*}}, %{{.*}} scale = 2.500000e-01 mask = sliding_window window = 3 : tensor<4x8x4xf32>, tensor<4x8x4xf32>, tensor<4x8x4xf32>
// CHECK-NEXT: return
func.func @sliding_window(%q: tensor<4x8x4xf32>, %k: tensor<4x8x4xf32>, %v: tensor<4x8x4xf32>) -> tensor<4x8x4xf32> {
  %s = cs349.matmul %q, %k transpose_b : tensor<4x8x4xf32>, tensor<4x8x4xf32> -> tensor<4x8x8xf32>
  %mask = cs349.causal_mask window = 3 : tensor<8x8xf32>
  %sm = cs349.add %mask, %s : tensor<8x8xf32>, tensor<4x8x8xf32>
  %c = cs349.constant dense<0.25> : tensor<f32>
  %ss = cs349.mul %sm, %c : tensor<4x8x8xf32>, tensor<f32>
  %p = cs349.softmax %ss axis = 2 : tensor<4x8x8xf32>
  %o = cs349.matmul %p, %v : tensor<4x8x8xf32>, tensor<4x8x4xf32> -> tensor<4x8x4xf32>
  return %o : tensor<4x8x4xf32>
}

// -----

// No mask at all (an encoder), decomposed softmax: mask = none.

// CHECK-LABEL: func.func @no_mask_decomposed
// CHECK-NEXT: cs349.attention %{{.*}}, %{{.*}}, %{{.*}} scale = 1.000000e+00 mask = none : tensor<4x8x4xf32>, tensor<4x6x4xf32>, tensor<4x6x4xf32>
// CHECK-NEXT: return
func.func @no_mask_decomposed(%q: tensor<4x8x4xf32>, %k: tensor<4x6x4xf32>, %v: tensor<4x6x4xf32>) -> tensor<4x8x4xf32> {
  %s = cs349.matmul %q, %k transpose_b : tensor<4x8x4xf32>, tensor<4x6x4xf32> -> tensor<4x8x6xf32>
  %max = cs349.reduce_max %s axes = [2] keepdims : tensor<4x8x6xf32> -> tensor<4x8x1xf32>
  %sh = cs349.sub %s, %max : tensor<4x8x6xf32>, tensor<4x8x1xf32>
  %e = cs349.exp %sh : tensor<4x8x6xf32>
  %sum = cs349.reduce_sum %e axes = [2] keepdims : tensor<4x8x6xf32> -> tensor<4x8x1xf32>
  %p = cs349.div %e, %sum : tensor<4x8x6xf32>, tensor<4x8x1xf32>
  %o = cs349.matmul %p, %v : tensor<4x8x6xf32>, tensor<4x6x4xf32> -> tensor<4x8x4xf32>
  return %o : tensor<4x8x4xf32>
}

// -----

// A scale after an additive mask scales the mask too: c (s + m) = c s + c m,
// so the mask operand is the mask times c.

// CHECK-LABEL: func.func @scaled_after_additive_mask
// CHECK: %[[C:.*]] = cs349.constant dense<5.000000e-01> : tensor<f32>
// CHECK: %[[M:.*]] = cs349.mul %mask, %[[C]] : tensor<8x8xf32>, tensor<f32>
// CHECK-NEXT: cs349.attention %q, %k, %v scale = 5.000000e-01 mask = additive %[[M]] : tensor<4x8x4xf32>, tensor<4x8x4xf32>, tensor<4x8x4xf32>, tensor<8x8xf32>
// CHECK-NOT: cs349.softmax
func.func @scaled_after_additive_mask(%q: tensor<4x8x4xf32>, %k: tensor<4x8x4xf32>, %v: tensor<4x8x4xf32>, %mask: tensor<8x8xf32>) -> tensor<4x8x4xf32> {
  %s = cs349.matmul %q, %k transpose_b : tensor<4x8x4xf32>, tensor<4x8x4xf32> -> tensor<4x8x8xf32>
  %sm = cs349.add %s, %mask : tensor<4x8x8xf32>, tensor<8x8xf32>
  %c = cs349.constant dense<0.5> : tensor<f32>
  %ss = cs349.mul %sm, %c : tensor<4x8x8xf32>, tensor<f32>
  %p = cs349.softmax %ss axis = 2 : tensor<4x8x8xf32>
  %o = cs349.matmul %p, %v : tensor<4x8x8xf32>, tensor<4x8x4xf32> -> tensor<4x8x4xf32>
  return %o : tensor<4x8x4xf32>
}

// -----

// Negative: a mask computed from the scores (here: the scores themselves)
// needs the scores the fused op never materialises.

// CHECK-LABEL: func.func @mask_from_scores
// CHECK-NOT: cs349.attention
// CHECK: cs349.softmax
func.func @mask_from_scores(%q: tensor<4x8x4xf32>, %k: tensor<4x8x4xf32>, %v: tensor<4x8x4xf32>) -> tensor<4x8x4xf32> {
  %s = cs349.matmul %q, %k transpose_b : tensor<4x8x4xf32>, tensor<4x8x4xf32> -> tensor<4x8x8xf32>
  %sm = cs349.add %s, %s : tensor<4x8x8xf32>, tensor<4x8x8xf32>
  %p = cs349.softmax %sm axis = 2 : tensor<4x8x8xf32>
  // expected-remark @+1 {{not fused into cs349.attention: the additive mask is computed from the scores}}
  %o = cs349.matmul %p, %v : tensor<4x8x8xf32>, tensor<4x8x4xf32> -> tensor<4x8x4xf32>
  return %o : tensor<4x8x4xf32>
}

// -----

// Negative: a mask that broadcasts the scores to more heads is not a mask of
// these scores.

// CHECK-LABEL: func.func @mask_broadcasts_scores
// CHECK-NOT: cs349.attention
// CHECK: cs349.softmax
func.func @mask_broadcasts_scores(%q: tensor<1x8x4xf32>, %k: tensor<1x8x4xf32>, %v: tensor<2x8x4xf32>, %mask: tensor<2x1x8xf32>) -> tensor<2x8x4xf32> {
  %s = cs349.matmul %q, %k transpose_b : tensor<1x8x4xf32>, tensor<1x8x4xf32> -> tensor<1x8x8xf32>
  %sm = cs349.add %s, %mask : tensor<1x8x8xf32>, tensor<2x1x8xf32>
  %p = cs349.softmax %sm axis = 2 : tensor<2x8x8xf32>
  // expected-remark @+1 {{not fused into cs349.attention: the mask broadcasts the scores to [2x8x8]}}
  %o = cs349.matmul %p, %v : tensor<2x8x8xf32>, tensor<2x8x4xf32> -> tensor<2x8x4xf32>
  return %o : tensor<2x8x4xf32>
}

// -----

// Negative: a [1, 1] causal mask broadcast over [4, 4] scores is a single 0
// that hides nothing; `causal` would hide the future keys.

// CHECK-LABEL: func.func @causal_mask_broadcast
// CHECK-NOT: cs349.attention
// CHECK: cs349.softmax
func.func @causal_mask_broadcast(%q: tensor<2x4x8xf32>, %k: tensor<2x4x8xf32>, %v: tensor<2x4x8xf32>) -> tensor<2x4x8xf32> {
  %s = cs349.matmul %q, %k transpose_b : tensor<2x4x8xf32>, tensor<2x4x8xf32> -> tensor<2x4x4xf32>
  %m = cs349.causal_mask : tensor<1x1xf32>
  %sm = cs349.add %s, %m : tensor<2x4x4xf32>, tensor<1x1xf32>
  %p = cs349.softmax %sm axis = 2 : tensor<2x4x4xf32>
  // expected-remark @+1 {{not fused into cs349.attention: the causal mask is [1x1] but the scores' [query, key] dims are [4x4]: it is not the causal mask of these scores}}
  %o = cs349.matmul %p, %v : tensor<2x4x4xf32>, tensor<2x4x8xf32> -> tensor<2x4x8xf32>
  return %o : tensor<2x4x8xf32>
}

// -----

// Negative: with 4 queries and 6 keys there is no causal attention (its
// verifier wants equal lengths); the broadcast [1, 1] mask is not one.

// CHECK-LABEL: func.func @causal_mask_broadcast_unequal_lengths
// CHECK-NOT: cs349.attention
// CHECK: cs349.softmax
func.func @causal_mask_broadcast_unequal_lengths(%q: tensor<2x4x8xf32>, %k: tensor<2x6x8xf32>, %v: tensor<2x6x8xf32>) -> tensor<2x4x8xf32> {
  %s = cs349.matmul %q, %k transpose_b : tensor<2x4x8xf32>, tensor<2x6x8xf32> -> tensor<2x4x6xf32>
  %m = cs349.causal_mask : tensor<1x1xf32>
  %sm = cs349.add %m, %s : tensor<1x1xf32>, tensor<2x4x6xf32>
  %p = cs349.softmax %sm axis = 2 : tensor<2x4x6xf32>
  // expected-remark @+1 {{not fused into cs349.attention: the causal mask is [1x1] but the scores' [query, key] dims are [4x6]: it is not the causal mask of these scores}}
  %o = cs349.matmul %p, %v : tensor<2x4x6xf32>, tensor<2x6x8xf32> -> tensor<2x4x8xf32>
  return %o : tensor<2x4x8xf32>
}

// -----

// A [1, 1] mask over [1, 1] scores (one query, one key) is the causal mask
// of those scores: hiding no key is what `causal` does there too.

// CHECK-LABEL: func.func @causal_mask_single_position
// CHECK: cs349.attention %{{.*}}, %{{.*}}, %{{.*}} scale = 1.000000e+00 mask = causal
// CHECK-NOT: cs349.causal_mask
func.func @causal_mask_single_position(%q: tensor<2x1x8xf32>, %k: tensor<2x1x8xf32>, %v: tensor<2x1x8xf32>) -> tensor<2x1x8xf32> {
  %s = cs349.matmul %q, %k transpose_b : tensor<2x1x8xf32>, tensor<2x1x8xf32> -> tensor<2x1x1xf32>
  %m = cs349.causal_mask : tensor<1x1xf32>
  %sm = cs349.add %s, %m : tensor<2x1x1xf32>, tensor<1x1xf32>
  %p = cs349.softmax %sm axis = 2 : tensor<2x1x1xf32>
  %o = cs349.matmul %p, %v : tensor<2x1x1xf32>, tensor<2x1x8xf32> -> tensor<2x1x8xf32>
  return %o : tensor<2x1x8xf32>
}

// -----

// Negative: a per-key scale is not one scalar.

// CHECK-LABEL: func.func @scale_not_splat
// CHECK-NOT: cs349.attention
// CHECK: cs349.softmax
func.func @scale_not_splat(%q: tensor<4x8x4xf32>, %k: tensor<4x8x4xf32>, %v: tensor<4x8x4xf32>) -> tensor<4x8x4xf32> {
  %s = cs349.matmul %q, %k transpose_b : tensor<4x8x4xf32>, tensor<4x8x4xf32> -> tensor<4x8x8xf32>
  %c = cs349.constant dense<[1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 2.0]> : tensor<8xf32>
  %ss = cs349.mul %s, %c : tensor<4x8x8xf32>, tensor<8xf32>
  %p = cs349.softmax %ss axis = 2 : tensor<4x8x8xf32>
  // expected-remark @+1 {{not fused into cs349.attention: the scores are scaled, but not by a splat constant (cs349.mul of 'cs349.matmul' and 'cs349.constant')}}
  %o = cs349.matmul %p, %v : tensor<4x8x8xf32>, tensor<4x8x4xf32> -> tensor<4x8x4xf32>
  return %o : tensor<4x8x4xf32>
}

// -----

// Negative: a scale only known at run time.

// CHECK-LABEL: func.func @scale_is_argument
// CHECK-NOT: cs349.attention
// CHECK: cs349.softmax
func.func @scale_is_argument(%q: tensor<4x8x4xf32>, %k: tensor<4x8x4xf32>, %v: tensor<4x8x4xf32>, %c: tensor<f32>) -> tensor<4x8x4xf32> {
  %s = cs349.matmul %q, %k transpose_b : tensor<4x8x4xf32>, tensor<4x8x4xf32> -> tensor<4x8x8xf32>
  %ss = cs349.div %s, %c : tensor<4x8x8xf32>, tensor<f32>
  %p = cs349.softmax %ss axis = 2 : tensor<4x8x8xf32>
  // expected-remark @+1 {{not fused into cs349.attention: the scores are scaled, but not by a splat constant (cs349.div of 'cs349.matmul' and a block argument)}}
  %o = cs349.matmul %p, %v : tensor<4x8x8xf32>, tensor<4x8x4xf32> -> tensor<4x8x4xf32>
  return %o : tensor<4x8x4xf32>
}

// -----

// Negative: a negative scale after the mask would turn -inf into +inf.

// CHECK-LABEL: func.func @negative_scale_after_mask
// CHECK-NOT: cs349.attention
// CHECK: cs349.softmax
func.func @negative_scale_after_mask(%q: tensor<4x8x4xf32>, %k: tensor<4x8x4xf32>, %v: tensor<4x8x4xf32>) -> tensor<4x8x4xf32> {
  %s = cs349.matmul %q, %k transpose_b : tensor<4x8x4xf32>, tensor<4x8x4xf32> -> tensor<4x8x8xf32>
  %mask = cs349.causal_mask : tensor<8x8xf32>
  %sm = cs349.add %s, %mask : tensor<4x8x8xf32>, tensor<8x8xf32>
  %c = cs349.constant dense<-0.5> : tensor<f32>
  %ss = cs349.mul %sm, %c : tensor<4x8x8xf32>, tensor<f32>
  %p = cs349.softmax %ss axis = 2 : tensor<4x8x8xf32>
  // expected-remark @+1 {{not fused into cs349.attention: a non-positive scale is applied after the mask}}
  %o = cs349.matmul %p, %v : tensor<4x8x8xf32>, tensor<4x8x4xf32> -> tensor<4x8x4xf32>
  return %o : tensor<4x8x4xf32>
}

// -----

// Negative: keys and values repeated from different numbers of heads.

// CHECK-LABEL: func.func @mismatched_kv_heads
// CHECK-NOT: cs349.attention
// CHECK: cs349.softmax
func.func @mismatched_kv_heads(%q: tensor<4x8x4xf32>, %k: tensor<1x8x4xf32>, %v: tensor<2x8x4xf32>) -> tensor<4x8x4xf32> {
  %kr = cs349.repeat %k axis = 0 times = 4 : tensor<1x8x4xf32> -> tensor<4x8x4xf32>
  %vr = cs349.repeat %v axis = 0 times = 2 : tensor<2x8x4xf32> -> tensor<4x8x4xf32>
  %s = cs349.matmul %q, %kr transpose_b : tensor<4x8x4xf32>, tensor<4x8x4xf32> -> tensor<4x8x8xf32>
  %p = cs349.softmax %s axis = 2 : tensor<4x8x8xf32>
  // expected-remark @+1 {{not fused into cs349.attention: mismatched heads: the keys are 1x8x4 but the values 2x8x4}}
  %o = cs349.matmul %p, %vr : tensor<4x8x8xf32>, tensor<4x8x4xf32> -> tensor<4x8x4xf32>
  return %o : tensor<4x8x4xf32>
}

// -----

// Negative: one query head broadcast against four key/value heads: the
// query heads are not a multiple of the key/value heads.

// CHECK-LABEL: func.func @query_heads_not_multiple
// CHECK-NOT: cs349.attention
// CHECK: cs349.softmax
func.func @query_heads_not_multiple(%q: tensor<1x8x4xf32>, %k: tensor<4x8x4xf32>, %v: tensor<4x8x4xf32>) -> tensor<4x8x4xf32> {
  %s = cs349.matmul %q, %k transpose_b : tensor<1x8x4xf32>, tensor<4x8x4xf32> -> tensor<4x8x8xf32>
  %p = cs349.softmax %s axis = 2 : tensor<4x8x8xf32>
  // expected-remark @+1 {{not fused into cs349.attention: mismatched heads: 1 query heads for 4 key/value heads and 4 output heads}}
  %o = cs349.matmul %p, %v : tensor<4x8x8xf32>, tensor<4x8x4xf32> -> tensor<4x8x4xf32>
  return %o : tensor<4x8x4xf32>
}

// -----

// Negative: the scores are not a q·kᵀ product.

// CHECK-LABEL: func.func @scores_not_a_matmul
// CHECK-NOT: cs349.attention
// CHECK: cs349.softmax
func.func @scores_not_a_matmul(%s: tensor<4x8x8xf32>, %v: tensor<4x8x4xf32>) -> tensor<4x8x4xf32> {
  %t = cs349.tanh %s : tensor<4x8x8xf32>
  %p = cs349.softmax %t axis = 2 : tensor<4x8x8xf32>
  // expected-remark @+1 {{not fused into cs349.attention: the scores are not a q·kᵀ matmul (found 'cs349.tanh')}}
  %o = cs349.matmul %p, %v : tensor<4x8x8xf32>, tensor<4x8x4xf32> -> tensor<4x8x4xf32>
  return %o : tensor<4x8x4xf32>
}

// -----

// kᵀ given as it is (buddy-mlir's LLaMA core takes it as an argument): any
// [H, dh, S] right operand is the transpose of its [H, S, dh] transpose, so
// the keys are read through a transpose view.

// CHECK-LABEL: func.func @keys_given_transposed
// CHECK: %[[K:.*]] = cs349.transpose %kt perm = [0, 2, 1] : tensor<4x4x8xf32> -> tensor<4x8x4xf32>
// CHECK-NEXT: cs349.attention %q, %[[K]], %v scale = 1.000000e+00 mask = none
// CHECK-NOT: cs349.softmax
func.func @keys_given_transposed(%q: tensor<4x8x4xf32>, %kt: tensor<4x4x8xf32>, %v: tensor<4x8x4xf32>) -> tensor<4x8x4xf32> {
  %s = cs349.matmul %q, %kt : tensor<4x8x4xf32>, tensor<4x4x8xf32> -> tensor<4x8x8xf32>
  %p = cs349.softmax %s axis = 2 : tensor<4x8x8xf32>
  %o = cs349.matmul %p, %v : tensor<4x8x8xf32>, tensor<4x8x4xf32> -> tensor<4x8x4xf32>
  return %o : tensor<4x8x4xf32>
}

// -----

// Not a candidate: projections and other matmuls are not reported.

// CHECK-LABEL: func.func @plain_matmuls
// CHECK-NOT: cs349.attention
// CHECK: cs349.matmul
// CHECK: cs349.matmul
// expected-remark @+1 {{no attention in this function: no softmax feeds a matmul}}
func.func @plain_matmuls(%x: tensor<8x16xf32>, %w: tensor<16x16xf32>) -> tensor<8x16xf32> {
  %a = cs349.matmul %x, %w : tensor<8x16xf32>, tensor<16x16xf32> -> tensor<8x16xf32>
  %e = cs349.exp %a : tensor<8x16xf32>
  %b = cs349.matmul %e, %w : tensor<8x16xf32>, tensor<16x16xf32> -> tensor<8x16xf32>
  return %b : tensor<8x16xf32>
}

// -----

// After --fuse the chain sits inside kernels, which the matcher does not look
// into: a warning at the function says so and the kernels stay as they are.

// CHECK-LABEL: func.func @already_fused
// CHECK-NOT: cs349.attention
// CHECK: cs349.softmax
// expected-warning @+1 {{ops are already fused into kernels, which match-attention does not look into; run --match-attention (or --optimize) before --fuse}}
func.func @already_fused(%q: tensor<4x8x4xf32>, %k: tensor<4x8x4xf32>, %v: tensor<4x8x4xf32>) -> tensor<4x8x4xf32> {
  %o = cs349.kernel(%q, %k, %v) : (tensor<4x8x4xf32>, tensor<4x8x4xf32>, tensor<4x8x4xf32>) -> tensor<4x8x4xf32> {
  ^bb0(%qa: tensor<4x8x4xf32>, %ka: tensor<4x8x4xf32>, %va: tensor<4x8x4xf32>):
    %s = cs349.matmul %qa, %ka transpose_b : tensor<4x8x4xf32>, tensor<4x8x4xf32> -> tensor<4x8x8xf32>
    %p = cs349.softmax %s axis = 2 : tensor<4x8x8xf32>
    %r = cs349.matmul %p, %va : tensor<4x8x8xf32>, tensor<4x8x4xf32> -> tensor<4x8x4xf32>
    cs349.yield %r : tensor<4x8x4xf32>
  }
  return %o : tensor<4x8x4xf32>
}

// -----

// A declaration has no body to match in and gets no remark.

// CHECK-LABEL: func.func private @declared
func.func private @declared(tensor<4xf32>) -> tensor<4xf32>
