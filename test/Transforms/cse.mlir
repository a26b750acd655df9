// RUN: cs349-opt %s -split-input-file --cse | FileCheck %s

// Upstream --cse on the cs349 dialect. The cases follow upstream's
// mlir/test/Transforms/cse.mlir: CSE merges ops that are Pure and compare
// equal (name, operands, attributes/properties, result types; locations are
// ignored), and it never looks into a region that is isolated from above from
// the outside, which is what keeps cs349.kernel bodies apart.

// CHECK-LABEL: func.func @simple_constant
// CHECK-NEXT:    %[[C:.*]] = cs349.constant dense<1.000000e+00> : tensor<bf16>
// CHECK-NEXT:    return %[[C]], %[[C]]
func.func @simple_constant() -> (tensor<bf16>, tensor<bf16>) {
  %0 = cs349.constant dense<1.0> : tensor<bf16>
  %1 = cs349.constant dense<1.0> : tensor<bf16>
  return %0, %1 : tensor<bf16>, tensor<bf16>
}

// -----

// Same value, different element type or shape: different constants.

// CHECK-LABEL: func.func @different_constants
// CHECK-NEXT:    %[[A:.*]] = cs349.constant dense<1.000000e+00> : tensor<bf16>
// CHECK-NEXT:    %[[B:.*]] = cs349.constant dense<2.000000e+00> : tensor<bf16>
// CHECK-NEXT:    %[[C:.*]] = cs349.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[D:.*]] = cs349.constant dense<1.000000e+00> : tensor<1xbf16>
// CHECK-NEXT:    return %[[A]], %[[B]], %[[C]], %[[D]]
func.func @different_constants() -> (tensor<bf16>, tensor<bf16>, tensor<f32>, tensor<1xbf16>) {
  %0 = cs349.constant dense<1.0> : tensor<bf16>
  %1 = cs349.constant dense<2.0> : tensor<bf16>
  %2 = cs349.constant dense<1.0> : tensor<f32>
  %3 = cs349.constant dense<1.0> : tensor<1xbf16>
  return %0, %1, %2, %3 : tensor<bf16>, tensor<bf16>, tensor<f32>, tensor<1xbf16>
}

// -----

// Duplicates merge transitively: once %c..%f are one value, %g/%h/%i become
// duplicates, then %j/%k.

// CHECK-LABEL: func.func @many
// CHECK-SAME:    (%[[A:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<4x8xf32>)
// CHECK-NEXT:    %[[C:.*]] = cs349.add %[[A]], %[[B]] : tensor<4x8xf32>
// CHECK-NEXT:    %[[G:.*]] = cs349.mul %[[C]], %[[C]] : tensor<4x8xf32>
// CHECK-NEXT:    %[[J:.*]] = cs349.sub %[[G]], %[[G]] : tensor<4x8xf32>
// CHECK-NEXT:    %[[L:.*]] = cs349.exp %[[J]] : tensor<4x8xf32>
// CHECK-NEXT:    return %[[L]]
func.func @many(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %c = cs349.add %a, %b : tensor<4x8xf32>
  %d = cs349.add %a, %b : tensor<4x8xf32>
  %e = cs349.add %a, %b : tensor<4x8xf32>
  %f = cs349.add %a, %b : tensor<4x8xf32>
  %g = cs349.mul %c, %d : tensor<4x8xf32>
  %h = cs349.mul %e, %f : tensor<4x8xf32>
  %i = cs349.mul %c, %e : tensor<4x8xf32>
  %j = cs349.sub %g, %h : tensor<4x8xf32>
  %k = cs349.sub %h, %i : tensor<4x8xf32>
  %l = cs349.exp %j : tensor<4x8xf32>
  %m = cs349.exp %k : tensor<4x8xf32>
  return %l : tensor<4x8xf32>
}

// -----

// Commutative ops (add, mul, max) merge with swapped operands; sub and div
// do not.

// CHECK-LABEL: func.func @commutative
// CHECK-SAME:    (%[[A:.*]]: tensor<4xf32>, %[[B:.*]]: tensor<4xf32>)
// CHECK-NEXT:    %[[ADD:.*]] = cs349.add %[[A]], %[[B]]
// CHECK-NEXT:    %[[MUL:.*]] = cs349.mul %[[A]], %[[B]]
// CHECK-NEXT:    %[[MAX:.*]] = cs349.max %[[A]], %[[B]]
// CHECK-NEXT:    %[[SUB0:.*]] = cs349.sub %[[A]], %[[B]]
// CHECK-NEXT:    %[[SUB1:.*]] = cs349.sub %[[B]], %[[A]]
// CHECK-NEXT:    %[[DIV0:.*]] = cs349.div %[[A]], %[[B]]
// CHECK-NEXT:    %[[DIV1:.*]] = cs349.div %[[B]], %[[A]]
// CHECK-NEXT:    return %[[ADD]], %[[ADD]], %[[MUL]], %[[MUL]], %[[MAX]], %[[MAX]], %[[SUB0]], %[[SUB1]], %[[DIV0]], %[[DIV1]]
func.func @commutative(%a: tensor<4xf32>, %b: tensor<4xf32>)
    -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>,
        tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %0 = cs349.add %a, %b : tensor<4xf32>
  %1 = cs349.add %b, %a : tensor<4xf32>
  %2 = cs349.mul %a, %b : tensor<4xf32>
  %3 = cs349.mul %b, %a : tensor<4xf32>
  %4 = cs349.max %a, %b : tensor<4xf32>
  %5 = cs349.max %b, %a : tensor<4xf32>
  %6 = cs349.sub %a, %b : tensor<4xf32>
  %7 = cs349.sub %b, %a : tensor<4xf32>
  %8 = cs349.div %a, %b : tensor<4xf32>
  %9 = cs349.div %b, %a : tensor<4xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9
      : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>,
        tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// Ops that differ only in an attribute stay apart; a true duplicate next to
// each merges. One pair per attribute the layer uses.

// CHECK-LABEL: func.func @different_attributes
// CHECK-NEXT:    %[[N0:.*]] = cs349.rms_norm %{{.*}}, %{{.*}} epsilon = 1.000000e-05
// CHECK-NEXT:    %[[N1:.*]] = cs349.rms_norm %{{.*}}, %{{.*}} epsilon = 9.9999999999999995E-7
// CHECK-NEXT:    %[[S0:.*]] = cs349.softmax %{{.*}} axis = 1
// CHECK-NEXT:    %[[S1:.*]] = cs349.softmax %{{.*}} axis = 0
// CHECK-NEXT:    %[[R0:.*]] = cs349.reduce_sum %{{.*}} axes = [1] keepdims
// CHECK-NEXT:    %[[R1:.*]] = cs349.reduce_sum %{{.*}} axes = [0] keepdims
// CHECK-NEXT:    %[[T0:.*]] = cs349.transpose %{{.*}} perm = [1, 0, 2]
// CHECK-NEXT:    %[[T1:.*]] = cs349.transpose %{{.*}} perm = [2, 0, 1]
// CHECK-NEXT:    %[[M0:.*]] = cs349.matmul %{{.*}}, %{{.*}} :
// CHECK-NEXT:    %[[M1:.*]] = cs349.matmul %{{.*}}, %{{.*}} transpose_b :
// CHECK-NEXT:    %[[C0:.*]] = cs349.rope_table cos theta = 5.000000e+05
// CHECK-NEXT:    %[[C1:.*]] = cs349.rope_table sin theta = 5.000000e+05
// CHECK-NEXT:    %[[C2:.*]] = cs349.rope_table cos theta = 1.000000e+04
// CHECK-NEXT:    return %[[N0]], %[[N0]], %[[N1]], %[[S0]], %[[S0]], %[[S1]], %[[R0]], %[[R0]], %[[R1]], %[[T0]], %[[T0]], %[[T1]], %[[M0]], %[[M0]], %[[M1]], %[[C0]], %[[C0]], %[[C1]], %[[C2]]
func.func @different_attributes(%x: tensor<4x4xf32>, %g: tensor<4xf32>, %y: tensor<2x4x4xf32>)
    -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>,
        tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>,
        tensor<4x1xf32>, tensor<4x1xf32>, tensor<1x4xf32>,
        tensor<4x2x4xf32>, tensor<4x2x4xf32>, tensor<4x2x4xf32>,
        tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>,
        tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>) {
  %n0 = cs349.rms_norm %x, %g epsilon = 1.0e-5 : tensor<4x4xf32>, tensor<4xf32>
  %n1 = cs349.rms_norm %x, %g epsilon = 1.0e-5 : tensor<4x4xf32>, tensor<4xf32>
  %n2 = cs349.rms_norm %x, %g epsilon = 1.0e-6 : tensor<4x4xf32>, tensor<4xf32>
  %s0 = cs349.softmax %x axis = 1 : tensor<4x4xf32>
  %s1 = cs349.softmax %x axis = 1 : tensor<4x4xf32>
  %s2 = cs349.softmax %x axis = 0 : tensor<4x4xf32>
  %r0 = cs349.reduce_sum %x axes = [1] keepdims : tensor<4x4xf32> -> tensor<4x1xf32>
  %r1 = cs349.reduce_sum %x axes = [1] keepdims : tensor<4x4xf32> -> tensor<4x1xf32>
  %r2 = cs349.reduce_sum %x axes = [0] keepdims : tensor<4x4xf32> -> tensor<1x4xf32>
  %t0 = cs349.transpose %y perm = [1, 0, 2] : tensor<2x4x4xf32> -> tensor<4x2x4xf32>
  %t1 = cs349.transpose %y perm = [1, 0, 2] : tensor<2x4x4xf32> -> tensor<4x2x4xf32>
  %t2 = cs349.transpose %y perm = [2, 0, 1] : tensor<2x4x4xf32> -> tensor<4x2x4xf32>
  %m0 = cs349.matmul %x, %x : tensor<4x4xf32>, tensor<4x4xf32> -> tensor<4x4xf32>
  %m1 = cs349.matmul %x, %x : tensor<4x4xf32>, tensor<4x4xf32> -> tensor<4x4xf32>
  %m2 = cs349.matmul %x, %x transpose_b : tensor<4x4xf32>, tensor<4x4xf32> -> tensor<4x4xf32>
  %c0 = cs349.rope_table cos theta = 500000.0 : tensor<4x4xf32>
  %c1 = cs349.rope_table cos theta = 500000.0 : tensor<4x4xf32>
  %c2 = cs349.rope_table sin theta = 500000.0 : tensor<4x4xf32>
  %c3 = cs349.rope_table cos theta = 10000.0 : tensor<4x4xf32>
  return %n0, %n1, %n2, %s0, %s1, %s2, %r0, %r1, %r2, %t0, %t1, %t2, %m0, %m1, %m2, %c0, %c1, %c2, %c3
      : tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>,
        tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>,
        tensor<4x1xf32>, tensor<4x1xf32>, tensor<1x4xf32>,
        tensor<4x2x4xf32>, tensor<4x2x4xf32>, tensor<4x2x4xf32>,
        tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>,
        tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>
}

// -----

// keepdims is an attribute too: the same sum with and without it differs in
// the attribute and in the result type.

// CHECK-LABEL: func.func @keepdims
// CHECK-NEXT:    %[[K:.*]] = cs349.reduce_max %{{.*}} axes = [1] keepdims : tensor<4x8xf32> -> tensor<4x1xf32>
// CHECK-NEXT:    %[[D:.*]] = cs349.reduce_max %{{.*}} axes = [1] : tensor<4x8xf32> -> tensor<4xf32>
// CHECK-NEXT:    return %[[K]], %[[D]]
func.func @keepdims(%x: tensor<4x8xf32>) -> (tensor<4x1xf32>, tensor<4xf32>) {
  %0 = cs349.reduce_max %x axes = [1] keepdims : tensor<4x8xf32> -> tensor<4x1xf32>
  %1 = cs349.reduce_max %x axes = [1] : tensor<4x8xf32> -> tensor<4xf32>
  return %0, %1 : tensor<4x1xf32>, tensor<4xf32>
}

// -----

// Same op, same operand, different result type: not merged.

// CHECK-LABEL: func.func @different_results
// CHECK-NEXT:    %[[A:.*]] = cs349.reshape %{{.*}} : tensor<4x8xf32> -> tensor<32xf32>
// CHECK-NEXT:    %[[B:.*]] = cs349.reshape %{{.*}} : tensor<4x8xf32> -> tensor<2x16xf32>
// CHECK-NEXT:    %[[M0:.*]] = cs349.causal_mask : tensor<4x4xbf16>
// CHECK-NEXT:    %[[M1:.*]] = cs349.causal_mask : tensor<8x8xbf16>
// CHECK-NEXT:    return %[[A]], %[[A]], %[[B]], %[[M0]], %[[M0]], %[[M1]]
func.func @different_results(%x: tensor<4x8xf32>)
    -> (tensor<32xf32>, tensor<32xf32>, tensor<2x16xf32>, tensor<4x4xbf16>, tensor<4x4xbf16>, tensor<8x8xbf16>) {
  %0 = cs349.reshape %x : tensor<4x8xf32> -> tensor<32xf32>
  %1 = cs349.reshape %x : tensor<4x8xf32> -> tensor<32xf32>
  %2 = cs349.reshape %x : tensor<4x8xf32> -> tensor<2x16xf32>
  %3 = cs349.causal_mask : tensor<4x4xbf16>
  %4 = cs349.causal_mask : tensor<4x4xbf16>
  %5 = cs349.causal_mask : tensor<8x8xbf16>
  return %0, %1, %2, %3, %4, %5
      : tensor<32xf32>, tensor<32xf32>, tensor<2x16xf32>, tensor<4x4xbf16>, tensor<4x4xbf16>, tensor<8x8xbf16>
}

// -----

// Locations do not matter; a discardable attribute does (CSE compares the
// whole attribute dictionary), so pass annotations keep ops apart.

// CHECK-LABEL: func.func @locations_and_annotations
// CHECK-NEXT:    %[[A:.*]] = cs349.exp %{{.*}} : tensor<4xf32>
// CHECK-NEXT:    %[[B:.*]] = cs349.exp %{{.*}} {note = 1 : i64} : tensor<4xf32>
// CHECK-NEXT:    return %[[A]], %[[A]], %[[B]]
func.func @locations_and_annotations(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %0 = cs349.exp %x : tensor<4xf32> loc("first")
  %1 = cs349.exp %x : tensor<4xf32> loc("second")
  %2 = cs349.exp %x {note = 1} : tensor<4xf32>
  return %0, %1, %2 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// A kernel is isolated from above: the constant inside it is not replaced by
// the identical one outside (down the dominance tree), and the one outside
// after it is not replaced by the inner one (up the tree). Identical ops
// inside one kernel do merge.

// CHECK-LABEL: func.func @kernel_isolated
// CHECK-NEXT:    %[[OUT0:.*]] = cs349.constant dense<2.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[K:.*]] = cs349.kernel
// CHECK-NEXT:    ^bb0(%[[A:.*]]: tensor<4xf32>):
// CHECK-NEXT:      %[[IN:.*]] = cs349.constant dense<2.000000e+00> : tensor<f32>
// CHECK-NEXT:      %[[M:.*]] = cs349.mul %[[A]], %[[IN]]
// CHECK-NEXT:      %[[E:.*]] = cs349.exp %[[M]]
// CHECK-NEXT:      %[[S:.*]] = cs349.add %[[E]], %[[E]]
// CHECK-NEXT:      cs349.yield %[[S]]
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[MUL:.*]] = cs349.mul %{{.*}}, %[[OUT0]]
// CHECK-NEXT:    return %[[K]], %[[MUL]], %[[OUT0]]
func.func @kernel_isolated(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<f32>) {
  %c = cs349.constant dense<2.0> : tensor<f32>
  %k = cs349.kernel (%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    %ci = cs349.constant dense<2.0> : tensor<f32>
    %cj = cs349.constant dense<2.0> : tensor<f32>
    %m0 = cs349.mul %a, %ci : tensor<4xf32>, tensor<f32>
    %m1 = cs349.mul %a, %cj : tensor<4xf32>, tensor<f32>
    %e0 = cs349.exp %m0 : tensor<4xf32>
    %e1 = cs349.exp %m1 : tensor<4xf32>
    %s = cs349.add %e0, %e1 : tensor<4xf32>
    cs349.yield %s : tensor<4xf32>
  }
  %m = cs349.mul %x, %c : tensor<4xf32>, tensor<f32>
  %c2 = cs349.constant dense<2.0> : tensor<f32>
  return %k, %m, %c2 : tensor<4xf32>, tensor<4xf32>, tensor<f32>
}

// -----

// An op inside a kernel is not merged with the same op at function level,
// and two different kernels keep their own copies.

// CHECK-LABEL: func.func @no_cse_across_kernels
// CHECK:         cs349.kernel
// CHECK:           cs349.exp
// CHECK:         cs349.kernel
// CHECK:           cs349.exp
// CHECK:           cs349.neg
// CHECK:         cs349.exp
// CHECK-NEXT:    return
func.func @no_cse_across_kernels(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %k0 = cs349.kernel (%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    %e = cs349.exp %a : tensor<4xf32>
    cs349.yield %e : tensor<4xf32>
  }
  %k1 = cs349.kernel (%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    %e = cs349.exp %a : tensor<4xf32>
    %n = cs349.neg %e : tensor<4xf32>
    cs349.yield %n : tensor<4xf32>
  }
  %e = cs349.exp %x : tensor<4xf32>
  return %k0, %k1, %e : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// Two kernels with the same operands and identical bodies compute the same
// thing and have no side effects (RecursiveMemoryEffects over Pure ops): CSE
// merges them, as upstream merges single-block ops with identical regions.

// CHECK-LABEL: func.func @identical_kernels
// CHECK:         %[[K:.*]] = cs349.kernel
// CHECK-NOT:     cs349.kernel
// CHECK:         return %[[K]], %[[K]]
func.func @identical_kernels(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %k0 = cs349.kernel (%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    %e = cs349.exp %a : tensor<4xf32>
    cs349.yield %e : tensor<4xf32>
  }
  %k1 = cs349.kernel (%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    %e = cs349.exp %a : tensor<4xf32>
    cs349.yield %e : tensor<4xf32>
  }
  return %k0, %k1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// Two decomposed rms_norms of the same input with different gains share
// everything up to x * r: one row sum and one rsqrt remain, the gains stay
// apart.

// CHECK-LABEL: func.func @shared_prefix
// CHECK-SAME:    (%[[X:.*]]: tensor<4x8xf32>, %[[G0:.*]]: tensor<8xf32>, %[[G1:.*]]: tensor<8xf32>)
// CHECK-NEXT:    %[[SQ:.*]] = cs349.mul %[[X]], %[[X]]
// CHECK-NEXT:    %[[SUM:.*]] = cs349.reduce_sum %[[SQ]]
// CHECK-NEXT:    %[[R:.*]] = cs349.rsqrt %[[SUM]]
// CHECK-NEXT:    %[[N:.*]] = cs349.mul %[[X]], %[[R]]
// CHECK-NEXT:    %[[Y0:.*]] = cs349.mul %[[N]], %[[G0]]
// CHECK-NEXT:    %[[Y1:.*]] = cs349.mul %[[N]], %[[G1]]
// CHECK-NEXT:    return %[[Y0]], %[[Y1]]
func.func @shared_prefix(%x: tensor<4x8xf32>, %g0: tensor<8xf32>, %g1: tensor<8xf32>)
    -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %sq0 = cs349.mul %x, %x : tensor<4x8xf32>
  %sum0 = cs349.reduce_sum %sq0 axes = [1] keepdims : tensor<4x8xf32> -> tensor<4x1xf32>
  %r0 = cs349.rsqrt %sum0 : tensor<4x1xf32>
  %n0 = cs349.mul %x, %r0 : tensor<4x8xf32>, tensor<4x1xf32>
  %y0 = cs349.mul %n0, %g0 : tensor<4x8xf32>, tensor<8xf32>
  %sq1 = cs349.mul %x, %x : tensor<4x8xf32>
  %sum1 = cs349.reduce_sum %sq1 axes = [1] keepdims : tensor<4x8xf32> -> tensor<4x1xf32>
  %r1 = cs349.rsqrt %sum1 : tensor<4x1xf32>
  %n1 = cs349.mul %x, %r1 : tensor<4x8xf32>, tensor<4x1xf32>
  %y1 = cs349.mul %n1, %g1 : tensor<4x8xf32>, tensor<8xf32>
  return %y0, %y1 : tensor<4x8xf32>, tensor<4x8xf32>
}
