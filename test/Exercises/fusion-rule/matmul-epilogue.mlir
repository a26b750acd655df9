// exercises/fusion-rule: an elementwise op no larger than a matmul's output
// (a bias add) is the matmul kernel's epilogue: one kernel, one write.
// RUN: cs349-opt %s --fuse | FileCheck %s
// CHECK-LABEL: func.func @bias
// CHECK: cs349.kernel
// CHECK: cs349.matmul
// CHECK-NEXT: cs349.add
// CHECK-NEXT: cs349.yield
// CHECK-NOT: cs349.kernel
func.func @bias(%a: tensor<4x8xf32>, %w: tensor<8x6xf32>, %b: tensor<6xf32>) -> tensor<4x6xf32> {
  %m = cs349.matmul %a, %w : tensor<4x8xf32>, tensor<8x6xf32> -> tensor<4x6xf32>
  %s = cs349.add %m, %b : tensor<4x6xf32>, tensor<6xf32>
  return %s : tensor<4x6xf32>
}
