// exercises/lifetimes: a result the function returns (here through a view)
// lives to the last kernel, and the report marks it "(out)".
// RUN: cs349-opt %s --plan-memory=alignment=1 --memory-report -o /dev/null | FileCheck %s
// CHECK: a  exp  4x8xf32  128 B  0  2 (out)
func.func @f(%x: tensor<4x8xf32>) -> (tensor<8x4xf32>, tensor<4x8xf32>) {
  %a = cs349.kernel(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%in: tensor<4x8xf32>):
    %r = cs349.exp %in : tensor<4x8xf32> loc("a")
    cs349.yield %r : tensor<4x8xf32>
  }
  %v = cs349.reshape %a : tensor<4x8xf32> -> tensor<8x4xf32>
  %b = cs349.kernel(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%in: tensor<4x8xf32>):
    %r = cs349.neg %in : tensor<4x8xf32>
    cs349.yield %r : tensor<4x8xf32>
  }
  %c = cs349.kernel(%b) : (tensor<4x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%in: tensor<4x8xf32>):
    %r = cs349.tanh %in : tensor<4x8xf32>
    cs349.yield %r : tensor<4x8xf32>
  }
  return %v, %c : tensor<8x4xf32>, tensor<4x8xf32>
}
