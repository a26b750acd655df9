// exercises/lifetimes: a result read directly by a later kernel lives until
// that kernel; one read by nobody after it is free again at once.
// RUN: cs349-opt %s --plan-memory=alignment=1 | FileCheck %s
// CHECK-LABEL: func.func @f
// CHECK: cs349.plan = [#cs349.buffer<offset = {{[0-9]+}}, bytes = 128, first = 0, last = 2>]
// CHECK: cs349.plan = [#cs349.buffer<offset = {{[0-9]+}}, bytes = 128, first = 1, last = 1>]
// CHECK: cs349.plan = [#cs349.buffer<offset = {{[0-9]+}}, bytes = 128, first = 2, last = 2>]
func.func @f(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %a = cs349.kernel(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%in: tensor<4x8xf32>):
    %r = cs349.exp %in : tensor<4x8xf32>
    cs349.yield %r : tensor<4x8xf32>
  }
  %b = cs349.kernel(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%in: tensor<4x8xf32>):
    %r = cs349.neg %in : tensor<4x8xf32>
    cs349.yield %r : tensor<4x8xf32>
  }
  %c = cs349.kernel(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%in: tensor<4x8xf32>):
    %r = cs349.tanh %in : tensor<4x8xf32>
    cs349.yield %r : tensor<4x8xf32>
  }
  return %c : tensor<4x8xf32>
}
