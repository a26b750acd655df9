// RUN: cs349-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(copy-repeated-returns))" | FileCheck %s

// A computed tensor returned twice: the second return is a copy of its own.
// CHECK-LABEL: func.func @twice
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK: %[[E:.*]] = math.exp %[[X]]
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<4xf32>
// CHECK: %[[COPY:.*]] = linalg.copy ins(%[[E]] : tensor<4xf32>) outs(%[[EMPTY]] : tensor<4xf32>) -> tensor<4xf32>
// CHECK: return %[[E]], %[[X]], %[[COPY]]
func.func @twice(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %e = math.exp %x : tensor<4xf32>
  return %e, %x, %e : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// Three times: two copies.
// CHECK-LABEL: func.func @thrice
// CHECK-COUNT-2: linalg.copy
// CHECK-NOT: linalg.copy
// CHECK: return
func.func @thrice(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %e = math.exp %x : tensor<4xf32>
  return %e, %e, %e : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// Negative: an argument returned twice (copied into its out-parameters
// anyway), values returned once, and a scalar returned twice stay.
// CHECK-LABEL: func.func @left_alone
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>, %[[S:.*]]: f32)
// CHECK: %[[E:.*]] = math.exp %[[X]]
// CHECK-NOT: linalg.copy
// CHECK: return %[[X]], %[[X]], %[[E]], %[[S]], %[[S]]
func.func @left_alone(%x: tensor<4xf32>, %s: f32) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, f32, f32) {
  %e = math.exp %x : tensor<4xf32>
  return %x, %x, %e, %s, %s : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, f32, f32
}
