// RUN: cs349-opt %s -split-input-file --optimize | FileCheck %s --check-prefixes=CHECK,ATTN
// RUN: cs349-opt %s -split-input-file --optimize=attention=false | FileCheck %s --check-prefixes=CHECK,NOATTN

// The lecture's optimize() on the generated Llama-3.1-8B layer (T = 2048):
// no composite is left and the two RMSNorm gains are folded into the
// weights (an initializer computes them), so of the 45 results of the
// decomposed layer 43 remain. With attention matching exactly one
// cs349.attention replaces the 9 ops from q.kT to p.v (35 results); without
// it there is none.
// RUN: cs349-gen layer --preset llama3.1-8b --seq 2048 | cs349-opt --optimize --print-op-counts -o /dev/null \
// RUN:   | FileCheck %s --check-prefix=LLAMA-ATTN
// RUN: cs349-gen layer --preset llama3.1-8b --seq 2048 | cs349-opt --optimize --print-op-stats -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=LLAMA-ATTN-OPS
// RUN: cs349-gen layer --preset llama3.1-8b --seq 2048 | cs349-opt --optimize=attention=false --print-op-counts -o /dev/null \
// RUN:   | FileCheck %s --check-prefix=LLAMA-NOATTN
// RUN: cs349-gen layer --preset llama3.1-8b --seq 2048 | cs349-opt --optimize=attention=false --print-op-stats -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=LLAMA-NOATTN-OPS
// RUN: cs349-gen layer --preset llama3.1-8b --seq 2048 | cs349-opt --optimize \
// RUN:   | FileCheck %s --check-prefix=LLAMA-IR

// LLAMA-ATTN: @layer: computed 35, composite 0,
// LLAMA-ATTN-OPS:     cs349.attention   , 1
// LLAMA-ATTN-OPS-NOT: cs349.reduce_max
// LLAMA-ATTN-OPS-NOT: cs349.repeat
// LLAMA-ATTN-OPS-NOT: cs349.rms_norm
// LLAMA-ATTN-OPS-NOT: cs349.rope {{ }}
// LLAMA-ATTN-OPS-NOT: cs349.silu
// LLAMA-ATTN-OPS-NOT: cs349.softmax

// LLAMA-NOATTN: @layer: computed 43, composite 0,
// LLAMA-NOATTN-OPS-NOT: cs349.attention
// LLAMA-NOATTN-OPS:     cs349.matmul      , 9
// LLAMA-NOATTN-OPS:     cs349.reduce_max  , 1
// LLAMA-NOATTN-OPS-NOT: cs349.rms_norm
// LLAMA-NOATTN-OPS-NOT: cs349.rope {{ }}
// LLAMA-NOATTN-OPS-NOT: cs349.silu
// LLAMA-NOATTN-OPS-NOT: cs349.softmax

// No gain ([4096]) is read in the layer function any more: it has no gain
// argument and no multiply by one; the initializer has both.
// LLAMA-IR-LABEL: func.func @layer(
// LLAMA-IR-NOT:   tensor<4096xbf16>
// LLAMA-IR:       cs349.attention
// LLAMA-IR-NOT:   tensor<4096xbf16>
// LLAMA-IR-LABEL: func.func @layer_init(
// LLAMA-IR-SAME:  tensor<4096xbf16>

// Two layers: one attention per layer; the scalars and tables the layers
// share are merged by cse.
// RUN: cs349-gen layer --preset tiny --seq 16 --layers 2 | cs349-opt --optimize --print-op-stats -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TWO-LAYERS
// TWO-LAYERS:      cs349.attention   , 2
// TWO-LAYERS:      cs349.rope_table  , 2

// Idempotence, with and without attention matching, on the generated layer
// and on the cases below.
// RUN: cs349-gen layer --preset tiny --seq 16 --layers 2 > %t.layer.mlir
// RUN: cs349-opt %t.layer.mlir --optimize > %t.once.mlir
// RUN: cs349-opt %t.once.mlir --optimize > %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir
// RUN: cs349-opt %t.layer.mlir --optimize=attention=false > %t.once-noattn.mlir
// RUN: cs349-opt %t.once-noattn.mlir --optimize=attention=false > %t.twice-noattn.mlir
// RUN: diff %t.once-noattn.mlir %t.twice-noattn.mlir
// RUN: cs349-opt %s -split-input-file --optimize > %t.cases-once.mlir
// RUN: cs349-opt %t.cases-once.mlir -split-input-file --optimize > %t.cases-twice.mlir
// RUN: diff %t.cases-once.mlir %t.cases-twice.mlir

// A bad option value is rejected before any IR is touched.
// RUN: not cs349-opt %s --optimize=attention=maybe 2>&1 | FileCheck %s --check-prefix=BAD-OPTION
// BAD-OPTION: 'maybe' is invalid value for boolean argument

// Attention in the layer's form (GQA with 2 query heads per key/value head).
// With matching it becomes one op on the un-repeated k and v; without it the
// softmax is decomposed like any other.

// CHECK-LABEL: func.func @attention
// CHECK-SAME:    (%[[Q:.*]]: tensor<4x8x16xbf16>, %[[K:.*]]: tensor<2x8x16xbf16>, %[[V:.*]]: tensor<2x8x16xbf16>)
// ATTN-NEXT:     %[[O:.*]] = cs349.attention %[[Q]], %[[K]], %[[V]] scale = 2.500000e-01 mask = causal
// ATTN-NEXT:     return %[[O]]
// NOATTN-NOT:    cs349.attention
// NOATTN:        cs349.matmul {{.*}} transpose_b
// NOATTN:        cs349.reduce_max
// NOATTN:        cs349.sub
// NOATTN-NEXT:   cs349.exp
// NOATTN-NEXT:   cs349.reduce_sum
// NOATTN-NEXT:   cs349.div
// NOATTN-NEXT:   cs349.matmul
// NOATTN-NEXT:   return
func.func @attention(%q: tensor<4x8x16xbf16>, %k: tensor<2x8x16xbf16>, %v: tensor<2x8x16xbf16>) -> tensor<4x8x16xbf16> {
  %kr = cs349.repeat %k axis = 0 times = 2 : tensor<2x8x16xbf16> -> tensor<4x8x16xbf16>
  %vr = cs349.repeat %v axis = 0 times = 2 : tensor<2x8x16xbf16> -> tensor<4x8x16xbf16>
  %s = cs349.matmul %q, %kr transpose_b : tensor<4x8x16xbf16>, tensor<4x8x16xbf16> -> tensor<4x8x8xbf16>
  %c = cs349.constant dense<0.25> : tensor<bf16>
  %ss = cs349.mul %s, %c : tensor<4x8x8xbf16>, tensor<bf16>
  %m = cs349.causal_mask : tensor<8x8xbf16>
  %sm = cs349.add %ss, %m : tensor<4x8x8xbf16>, tensor<8x8xbf16>
  %p = cs349.softmax %sm axis = 2 : tensor<4x8x8xbf16>
  %o = cs349.matmul %p, %vr : tensor<4x8x8xbf16>, tensor<4x8x16xbf16> -> tensor<4x8x16xbf16>
  return %o : tensor<4x8x16xbf16>
}

// -----

// Decompose, then canonicalize: a gain of ones is x * 1 and disappears;
// then cse: two norms of one input share everything up to x * r (constants
// included, which stay where decomposition put them).

// CHECK-LABEL: func.func @shared_norm
// CHECK-SAME:    (%[[X:.*]]: tensor<4x8xf32>, %[[G:.*]]: tensor<8xf32>)
// CHECK-NEXT:    %[[SQ:.*]] = cs349.mul %[[X]], %[[X]]
// CHECK-NEXT:    cs349.reduce_sum %[[SQ]]
// CHECK-NEXT:    cs349.constant dense<8.000000e+00> : tensor<f32>
// CHECK-NEXT:    cs349.div
// CHECK-NEXT:    cs349.constant dense<9.99999974E-6> : tensor<f32>
// CHECK-NEXT:    cs349.add
// CHECK-NEXT:    %[[R:.*]] = cs349.rsqrt
// CHECK-NEXT:    %[[N:.*]] = cs349.mul %[[X]], %[[R]]
// CHECK-NEXT:    %[[Y:.*]] = cs349.mul %[[N]], %[[G]]
// CHECK-NEXT:    return %[[Y]], %[[N]]
func.func @shared_norm(%x: tensor<4x8xf32>, %g: tensor<8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %ones = cs349.constant dense<1.0> : tensor<8xf32>
  %0 = cs349.rms_norm %x, %g epsilon = 1.0e-5 : tensor<4x8xf32>, tensor<8xf32>
  %1 = cs349.rms_norm %x, %ones epsilon = 1.0e-5 : tensor<4x8xf32>, tensor<8xf32>
  return %0, %1 : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// A computation on constants only is folded to one constant after
// decomposition (silu of a small constant: x / (1 + exp(-x))).

// CHECK-LABEL: func.func @constant_subgraph
// CHECK-NEXT:    %[[C:.*]] = cs349.constant dense<[0.731058597, -0.238405839]> : tensor<2xf32>
// CHECK-NEXT:    return %[[C]]
func.func @constant_subgraph() -> tensor<2xf32> {
  %a = cs349.constant dense<[1.0, -2.0]> : tensor<2xf32>
  %0 = cs349.silu %a : tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// Canonicalization makes `0 - x` and `x * -1` the same `-x`; the cse that
// runs after it merges the two.

// CHECK-LABEL: func.func @equal_after_canonicalize
// CHECK-NEXT:    %[[NEG:.*]] = cs349.neg %{{.*}} : tensor<4xf32>
// CHECK-NEXT:    return %[[NEG]], %[[NEG]]
func.func @equal_after_canonicalize(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %zero = cs349.constant dense<0.0> : tensor<4xf32>
  %minus_one = cs349.constant dense<-1.0> : tensor<4xf32>
  %a = cs349.sub %zero, %x : tensor<4xf32>
  %b = cs349.mul %x, %minus_one : tensor<4xf32>
  return %a, %b : tensor<4xf32>, tensor<4xf32>
}
