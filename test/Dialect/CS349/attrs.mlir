// RUN: cs349-opt %s -split-input-file | cs349-opt -split-input-file | FileCheck %s

// The attributes passes leave for later passes and the tools, where they
// belong: they verify and print back unchanged. invalid-attrs.mlir has them
// where they do not.

// CHECK-LABEL: func.func @planned
// CHECK-SAME:    attributes {cs349.arena = #cs349.arena<bytes = 16, naive = 16, lower_bound = 16, alignment = 1, kernels = 1, strategy = "greedy-by-size">}
// CHECK:         cs349.kernel
// CHECK-SAME:    attributes {cs349.opaque = ["tosa.exp"], cs349.plan = [#cs349.buffer<offset = 0, bytes = 16, first = 0, last = 0>]}
func.func @planned(%x: tensor<4xf32>) -> tensor<4xf32> attributes {cs349.arena = #cs349.arena<bytes = 16, naive = 16, lower_bound = 16, alignment = 1, kernels = 1, strategy = "greedy-by-size">} {
  %a = cs349.kernel(%x) : (tensor<4xf32>) -> tensor<4xf32> attributes {cs349.plan = [#cs349.buffer<offset = 0, bytes = 16, first = 0, last = 0>], cs349.opaque = ["tosa.exp"]} {
  ^bb0(%xa: tensor<4xf32>):
    %0 = cs349.exp %xa : tensor<4xf32>
    cs349.yield %0 : tensor<4xf32>
  }
  return %a : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @layer
// CHECK-SAME:    (%{{.*}}: tensor<4x8xf32> {cs349.layer_arg = 0 : i64}, %{{.*}}: tensor<8x8xf32> {cs349.folded_from = ["g", "w"], cs349.init_result = 0 : i64})
// CHECK-SAME:    attributes {cs349.initialized_by = @layer_init}
// CHECK-LABEL: func.func @layer_init
// CHECK-SAME:    (%{{.*}}: tensor<8xf32> {cs349.layer_arg = 1 : i64}, %{{.*}}: tensor<8x8xf32> {cs349.layer_arg = 2 : i64})
// CHECK-SAME:    -> (tensor<8x8xf32> {cs349.folded_from = ["g", "w"]})
// CHECK-SAME:    attributes {cs349.initializer}
func.func @layer(%n: tensor<4x8xf32> {cs349.layer_arg = 0 : i64}, %w: tensor<8x8xf32> {cs349.folded_from = ["g", "w"], cs349.init_result = 0 : i64}) -> tensor<4x8xf32> attributes {cs349.initialized_by = @layer_init} {
  %0 = cs349.matmul %n, %w : tensor<4x8xf32>, tensor<8x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
func.func @layer_init(%g: tensor<8xf32> {cs349.layer_arg = 1 : i64}, %w: tensor<8x8xf32> {cs349.layer_arg = 2 : i64}) -> (tensor<8x8xf32> {cs349.folded_from = ["g", "w"]}) attributes {cs349.initializer} {
  %0 = cs349.reshape %g : tensor<8xf32> -> tensor<8x1xf32>
  %1 = cs349.mul %w, %0 : tensor<8x8xf32>, tensor<8x1xf32>
  return %1 : tensor<8x8xf32>
}
