// exercises/fusion-rule: after a row reduction, a row-wise op no larger than
// the reduced input (RMSNorm's x * rsqrt(mean)) stays in the reduction's
// kernel.
// RUN: cs349-opt %s --fuse | FileCheck %s
// CHECK-LABEL: func.func @norm
// CHECK: cs349.kernel
// CHECK: cs349.reduce_sum
// CHECK-NEXT: cs349.rsqrt
// CHECK-NEXT: cs349.mul
// CHECK-NEXT: cs349.yield
// CHECK-NOT: cs349.kernel
func.func @norm(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %sq = cs349.mul %x, %x : tensor<4x8xf32>, tensor<4x8xf32>
  %s = cs349.reduce_sum %sq axes = [1] keepdims : tensor<4x8xf32> -> tensor<4x1xf32>
  %r = cs349.rsqrt %s : tensor<4x1xf32>
  %n = cs349.mul %x, %r : tensor<4x8xf32>, tensor<4x1xf32>
  return %n : tensor<4x8xf32>
}
