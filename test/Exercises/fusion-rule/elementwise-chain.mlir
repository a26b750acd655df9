// exercises/fusion-rule: a chain of elementwise ops is one kernel.
// RUN: cs349-opt %s --fuse | FileCheck %s
// CHECK-LABEL: func.func @chain
// CHECK-COUNT-1: cs349.kernel
// CHECK-NOT: cs349.kernel
func.func @chain(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = cs349.exp %x : tensor<4x8xf32>
  %n = cs349.neg %e : tensor<4x8xf32>
  %t = cs349.tanh %n : tensor<4x8xf32>
  return %t : tensor<4x8xf32>
}
