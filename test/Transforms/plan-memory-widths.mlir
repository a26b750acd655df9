// RUN: cs349-opt %s --fuse=enable=false --plan-memory="strategy=naive alignment=1" | FileCheck %s
// RUN: cs349-opt %s --fuse=enable=false --plan-memory="strategy=naive alignment=1" | cs349-run - | FileCheck %s --check-prefix=EXEC

// Each written result is planned at its own element type's width: for 48
// elements an i1 mask takes 48 bytes, a bf16 tensor 96, f32 and i32 192, i64
// 384. Mixed precision: bf16 scores, their f32 softmax statistics (twice the
// bytes), the probabilities cast back to bf16. The naive plan places them end
// to end, so the arena is their sum, 1,200 bytes; the lowered function
// allocates exactly that arena.

// CHECK-LABEL: func.func @widths
// CHECK-SAME: cs349.arena = #cs349.arena<bytes = 1200,
// CHECK: -> tensor<4x12xi1> attributes {cs349.plan = [#cs349.buffer<offset = 0, bytes = 48,
// CHECK: cs349.compare
// CHECK: -> tensor<4x12xf32> attributes {cs349.plan = [#cs349.buffer<offset = 48, bytes = 192,
// CHECK: cs349.cast {{.*}} -> tensor<4x12xf32>
// CHECK: -> tensor<4x12xf32> attributes {cs349.plan = [#cs349.buffer<offset = 240, bytes = 192,
// CHECK: cs349.softmax
// CHECK: -> tensor<4x12xbf16> attributes {cs349.plan = [#cs349.buffer<offset = 432, bytes = 96,
// CHECK: cs349.cast {{.*}} -> tensor<4x12xbf16>
// CHECK: -> tensor<4x12xbf16> attributes {cs349.plan = [#cs349.buffer<offset = 528, bytes = 96,
// CHECK: cs349.select
// CHECK: -> tensor<4x12xi32> attributes {cs349.plan = [#cs349.buffer<offset = 624, bytes = 192,
// CHECK: cs349.cast {{.*}} -> tensor<4x12xi32>
// CHECK: -> tensor<4x12xi64> attributes {cs349.plan = [#cs349.buffer<offset = 816, bytes = 384,
// CHECK: cs349.cast {{.*}} -> tensor<4x12xi64>

// EXEC: memory: 1 allocations, 1200 bytes, peak 1200 bytes, 0 bytes not freed
// EXEC-NEXT: memory: planned arena 1200 bytes, allocated arena 1200 bytes, other allocations 0 bytes
func.func @widths(%x: tensor<4x12xbf16>) -> (tensor<4x12xbf16>, tensor<4x12xi64>) {
  %zero = cs349.constant dense<0.0> : tensor<bf16>
  %positive = cs349.compare gt %x, %zero : tensor<4x12xbf16>, tensor<bf16> -> tensor<4x12xi1>
  %wide = cs349.cast %x : tensor<4x12xbf16> -> tensor<4x12xf32>
  %p = cs349.softmax %wide axis = 1 : tensor<4x12xf32>
  %narrow = cs349.cast %p : tensor<4x12xf32> -> tensor<4x12xbf16>
  %masked = cs349.select %positive, %narrow, %zero : tensor<4x12xi1>, tensor<4x12xbf16>, tensor<bf16> -> tensor<4x12xbf16>
  %i = cs349.cast %x : tensor<4x12xbf16> -> tensor<4x12xi32>
  %l = cs349.cast %i : tensor<4x12xi32> -> tensor<4x12xi64>
  return %masked, %l : tensor<4x12xbf16>, tensor<4x12xi64>
}
