// exercises/fusion-rule: an elementwise op larger than the matmul's output (a
// broadcast past it) is not its epilogue: it starts a kernel of its own.
// RUN: cs349-opt %s --fuse | FileCheck %s
// CHECK-LABEL: func.func @broadcast_past
// CHECK: cs349.kernel
// CHECK: cs349.matmul
// CHECK-NEXT: cs349.yield
// CHECK: cs349.kernel
// CHECK: cs349.add
func.func @broadcast_past(%a: tensor<4x8xf32>, %w: tensor<8x6xf32>, %b: tensor<3x4x6xf32>) -> tensor<3x4x6xf32> {
  %m = cs349.matmul %a, %w : tensor<4x8xf32>, tensor<8x6xf32> -> tensor<4x6xf32>
  %s = cs349.add %m, %b : tensor<4x6xf32>, tensor<3x4x6xf32>
  return %s : tensor<3x4x6xf32>
}
