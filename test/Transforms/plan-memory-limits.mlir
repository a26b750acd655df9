// RUN: cs349-opt %s -split-input-file -verify-diagnostics --plan-memory=alignment=4611686018427387904 | FileCheck %s
// RUN: not cs349-opt %s -split-input-file --plan-memory 2>%t.err | FileCheck %s --check-prefix=ALIGN64
// RUN: FileCheck %s --check-prefix=ALIGN64-ERR < %t.err
// An alignment past the largest arena is an option error, before any input
// is read (2^63 used to wrap the offset arithmetic: two live buffers at 0).
// RUN: not cs349-opt %s --plan-memory=alignment=9223372036854775808 2>&1 | FileCheck %s --check-prefix=BAD-ALIGN
// BAD-ALIGN: plan-memory: alignment must be a power of two (bytes) of at most 2^62, got 9223372036854775808

// Offsets are int64 byte offsets: a function whose buffers, end to end and
// each aligned, could need more than 2^63 - 1 bytes is a located error
// before planning. At alignment 2^62 three buffers need 3 * 2^62.

// ALIGN64-LABEL: func.func @three_buffers
// ALIGN64-SAME: cs349.arena = #cs349.arena<bytes = 256, naive = 384
// expected-error @+1 {{cannot plan memory: the 3 buffers, each at an offset aligned to 4611686018427387904 bytes, need up to 13835058055282163712 bytes, more than the largest arena (9223372036854775807 bytes)}}
func.func @three_buffers(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
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

// -----

// One buffer at alignment 2^62 fits: offset 0, arena 128 B.

// CHECK-LABEL: func.func @one_buffer
// CHECK-SAME: cs349.arena = #cs349.arena<bytes = 128, naive = 4611686018427387904, lower_bound = 128, alignment = 4611686018427387904
// CHECK: cs349.plan = [#cs349.buffer<offset = 0, bytes = 128
func.func @one_buffer(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %a = cs349.kernel(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%xa: tensor<4x8xf32>):
    %0 = cs349.exp %xa : tensor<4x8xf32>
    cs349.yield %0 : tensor<4x8xf32>
  }
  return %a : tensor<4x8xf32>
}

// -----

// Sizes alone: five live buffers of 2^61 - 8 bytes (each a valid tensor)
// need more than the largest arena at any alignment.

// ALIGN64-ERR: plan-memory-limits.mlir:[[@LINE+2]]:1: error: cannot plan memory: the 5 buffers, each at an offset aligned to 64 bytes, need up to 11529215046068469760 bytes, more than the largest arena (9223372036854775807 bytes)
// expected-error @+1 {{cannot plan memory: the 5 buffers, each at an offset aligned to 4611686018427387904 bytes, need up to 23058430092136939520 bytes}}
func.func @huge_buffers(%x: tensor<576460752303423486xf32>) -> (tensor<576460752303423486xf32>, tensor<576460752303423486xf32>, tensor<576460752303423486xf32>, tensor<576460752303423486xf32>, tensor<576460752303423486xf32>) {
  %a:5 = cs349.kernel(%x) : (tensor<576460752303423486xf32>) -> (tensor<576460752303423486xf32>, tensor<576460752303423486xf32>, tensor<576460752303423486xf32>, tensor<576460752303423486xf32>, tensor<576460752303423486xf32>) {
  ^bb0(%xa: tensor<576460752303423486xf32>):
    %0 = cs349.exp %xa : tensor<576460752303423486xf32>
    %1 = cs349.neg %xa : tensor<576460752303423486xf32>
    %2 = cs349.tanh %xa : tensor<576460752303423486xf32>
    %3 = cs349.rsqrt %xa : tensor<576460752303423486xf32>
    %4 = cs349.exp %0 : tensor<576460752303423486xf32>
    cs349.yield %0, %1, %2, %3, %4 : tensor<576460752303423486xf32>, tensor<576460752303423486xf32>, tensor<576460752303423486xf32>, tensor<576460752303423486xf32>, tensor<576460752303423486xf32>
  }
  return %a#0, %a#1, %a#2, %a#3, %a#4 : tensor<576460752303423486xf32>, tensor<576460752303423486xf32>, tensor<576460752303423486xf32>, tensor<576460752303423486xf32>, tensor<576460752303423486xf32>
}
