// RUN: cs349-opt %s --convert-cs349-to-linalg=mode=planned -verify-diagnostics
// RUN: cs349-opt %s --convert-cs349-to-linalg=mode=unplanned | FileCheck %s

// mode=planned insists on a plan; mode=unplanned lowers any function, here
// the same one, without an arena.

// CHECK-LABEL: func.func @no_plan
// CHECK-NOT: memref.alloc
// CHECK: tensor.empty() : tensor<4x8xf32>
// expected-error @+1 {{expected a 'cs349.arena' attribute (run --plan-memory first) to lower it planned}}
func.func @no_plan(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = cs349.exp %x : tensor<4x8xf32>
  return %e : tensor<4x8xf32>
}
