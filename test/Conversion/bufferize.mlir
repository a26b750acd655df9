// RUN: cs349-opt %s --bufferize -split-input-file | FileCheck %s

// Planned: the arena is the only allocation. Kernel results are views of it,
// written in place; the function result is copied to the caller's
// out-parameter and the arena is freed on return.

// CHECK-LABEL: func.func @planned
// CHECK-SAME: (%[[X:.*]]: memref<4x8xf32>, %[[OUT:.*]]: memref<4x8xf32>)
// CHECK: %[[ARENA:.*]] = memref.alloc() : memref<256xi8>
// CHECK-NOT: memref.alloc
// CHECK: %[[V0:.*]] = memref.view %[[ARENA]][%{{.*}}][] : memref<256xi8> to memref<4x8xf32>
// CHECK: linalg.generic {{.*}} outs(%[[V0]] : memref<4x8xf32>)
// CHECK: %[[V1:.*]] = memref.view %[[ARENA]][%{{.*}}][] : memref<256xi8> to memref<4x8xf32>
// CHECK: linalg.generic {{.*}} outs(%[[V1]] : memref<4x8xf32>)
// CHECK:   memref.load %[[V0]]
// CHECK: memref.copy %[[V1]], %[[OUT]]
// CHECK: memref.dealloc %[[ARENA]]
// CHECK-NOT: memref.alloc
func.func @planned(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {cs349.arena = #cs349.arena<bytes = 256, naive = 256, lower_bound = 256, alignment = 64, kernels = 2, strategy = "greedy-by-size">} {
  %0 = cs349.kernel (%x) : (tensor<4x8xf32>) -> tensor<4x8xf32> attributes {cs349.plan = [#cs349.buffer<offset = 128, bytes = 128, first = 0, last = 1>]} {
  ^bb0(%a: tensor<4x8xf32>):
    %e = cs349.exp %a : tensor<4x8xf32>
    cs349.yield %e : tensor<4x8xf32>
  }
  %1 = cs349.kernel (%0) : (tensor<4x8xf32>) -> tensor<4x8xf32> attributes {cs349.plan = [#cs349.buffer<offset = 0, bytes = 128, first = 1, last = 1>]} {
  ^bb0(%a: tensor<4x8xf32>):
    %n = cs349.neg %a : tensor<4x8xf32>
    cs349.yield %n : tensor<4x8xf32>
  }
  return %1 : tensor<4x8xf32>
}

// -----

// The same function unplanned: the intermediate gets a buffer of its own and
// the result is computed straight into the out-parameter.

// CHECK-LABEL: func.func @unplanned
// CHECK-SAME: (%[[X:.*]]: memref<4x8xf32>, %[[OUT:.*]]: memref<4x8xf32>)
// CHECK: %[[T:.*]] = memref.alloc() : memref<4x8xf32>
// CHECK: linalg.generic {{.*}} outs(%[[T]] : memref<4x8xf32>)
// CHECK: linalg.generic {{.*}} outs(%[[OUT]] : memref<4x8xf32>)
// CHECK: memref.dealloc %[[T]]
func.func @unplanned(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = cs349.kernel (%x) : (tensor<4x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%a: tensor<4x8xf32>):
    %e = cs349.exp %a : tensor<4x8xf32>
    cs349.yield %e : tensor<4x8xf32>
  }
  %1 = cs349.kernel (%0) : (tensor<4x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%a: tensor<4x8xf32>):
    %n = cs349.neg %a : tensor<4x8xf32>
    cs349.yield %n : tensor<4x8xf32>
  }
  return %1 : tensor<4x8xf32>
}
