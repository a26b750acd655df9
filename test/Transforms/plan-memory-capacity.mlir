// RUN: cs349-opt %s -split-input-file -verify-diagnostics --plan-memory="alignment=1 capacity=256" | FileCheck %s
// RUN: not cs349-opt %s --plan-memory="alignment=1 capacity=255" 2>&1 | FileCheck %s --check-prefix=TIGHT
// RUN: not cs349-opt %s --plan-memory="alignment=1 capacity=300 strategy=naive" 2>&1 | FileCheck %s --check-prefix=NAIVE
// RUN: cs349-opt %s --plan-memory="alignment=1 capacity=300 strategy=best" | FileCheck %s

// --plan-memory=capacity=N: a plan that does not fit N bytes is an error at
// the function, with a note on what could help. The first and third of these
// three chained kernels share offset 0: arena 256 B = the lower bound, naive
// 384 B.

// CHECK-LABEL: func.func @chain
// CHECK-SAME:    cs349.arena = #cs349.arena<bytes = 256, naive = 384, lower_bound = 256
// TIGHT: plan-memory-capacity.mlir:[[@LINE+4]]:1: error: the memory plan needs 256 B but capacity is 255 B
// TIGHT: note: even the lower bound, 256 B at this kernel order, exceeds it
// NAIVE: plan-memory-capacity.mlir:[[@LINE+2]]:1: error: the memory plan needs 384 B but capacity is 300 B
// NAIVE: note: the lower bound is 256 B: a stronger strategy (best) may fit
func.func @chain(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %a = cs349.kernel(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%xa: tensor<4x8xf32>):
    %0 = cs349.exp %xa : tensor<4x8xf32>
    cs349.yield %0 : tensor<4x8xf32>
  }
  %b = cs349.kernel(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%aa: tensor<4x8xf32>):
    %0 = cs349.neg %aa : tensor<4x8xf32>
    cs349.yield %0 : tensor<4x8xf32>
  }
  %c = cs349.kernel(%b) : (tensor<4x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%ba: tensor<4x8xf32>):
    %0 = cs349.tanh %ba : tensor<4x8xf32>
    cs349.yield %0 : tensor<4x8xf32>
  }
  return %c : tensor<4x8xf32>
}
