// RUN: cs349-opt %s -split-input-file --decompose-aggregated-ops | FileCheck %s

// linalg.softmax has no loops of its own: upstream's decomposition makes
// it the row maximum (maxnumf from NaN, so the first number wins), the
// exponentials of the shifted row, their sum and the division.
// CHECK-LABEL: func.func @softmax
// CHECK-NOT: linalg.softmax dimension
// CHECK: arith.maxnumf
// CHECK: math.exp
// CHECK: arith.addf
// CHECK: arith.divf
// CHECK-NOT: linalg.softmax dimension
func.func @softmax(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %e = tensor.empty() : tensor<2x4xf32>
  %s = linalg.softmax dimension(1) ins(%x : tensor<2x4xf32>) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
  return %s : tensor<2x4xf32>
}

// -----

// Inside an opaque kernel (what --import leaves of a softmax in f64) too.
// CHECK-LABEL: func.func @in_a_kernel
// CHECK: cs349.kernel
// CHECK-NOT: linalg.softmax dimension
// CHECK: arith.divf
// CHECK: cs349.yield
func.func @in_a_kernel(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %y = cs349.kernel(%x) : (tensor<2x4xf32>) -> tensor<2x4xf32> attributes {cs349.opaque = ["linalg.softmax"]} {
  ^bb0(%a: tensor<2x4xf32>):
    %e = tensor.empty() : tensor<2x4xf32>
    %s = linalg.softmax dimension(0) ins(%a : tensor<2x4xf32>) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
    cs349.yield %s : tensor<2x4xf32>
  }
  return %y : tensor<2x4xf32>
}
