// exercises/lifetimes: views of views count too (reshape, then transpose).
// RUN: cs349-opt %s --plan-memory=alignment=1 | FileCheck %s
// CHECK-LABEL: func.func @f
// CHECK: cs349.plan = [#cs349.buffer<offset = {{[0-9]+}}, bytes = 128, first = 0, last = 3>]
// CHECK: cs349.plan = [#cs349.buffer<offset = {{[0-9]+}}, bytes = 128, first = 1, last = 2>]
// CHECK: cs349.plan = [#cs349.buffer<offset = {{[0-9]+}}, bytes = 128, first = 2, last = 2>]
// CHECK: cs349.plan = [#cs349.buffer<offset = {{[0-9]+}}, bytes = 128, first = 3, last = 3>]
func.func @f(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %a = cs349.kernel(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%in: tensor<4x8xf32>):
    %r = cs349.exp %in : tensor<4x8xf32>
    cs349.yield %r : tensor<4x8xf32>
  }
  %v = cs349.reshape %a : tensor<4x8xf32> -> tensor<8x4xf32>
  %w = cs349.transpose %v perm = [1, 0] : tensor<8x4xf32> -> tensor<4x8xf32>
  %b = cs349.kernel(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%in: tensor<4x8xf32>):
    %r = cs349.neg %in : tensor<4x8xf32>
    cs349.yield %r : tensor<4x8xf32>
  }
  %b2 = cs349.kernel(%b) : (tensor<4x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%in: tensor<4x8xf32>):
    %r = cs349.exp %in : tensor<4x8xf32>
    cs349.yield %r : tensor<4x8xf32>
  }
  %c = cs349.kernel(%w) : (tensor<4x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%in: tensor<4x8xf32>):
    %r = cs349.tanh %in : tensor<4x8xf32>
    cs349.yield %r : tensor<4x8xf32>
  }
  return %c : tensor<4x8xf32>
}
