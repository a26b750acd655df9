// RUN: cs349-opt %s --convert-cs349-to-linalg -split-input-file | FileCheck %s

// Views change the indices of their readers: no op copies the transposed or
// reshaped tensor; one linalg.generic computes the add.

// CHECK-LABEL: func.func @views_are_index_math
// CHECK-NOT: linalg.transpose
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<2x4x8xf32>
// CHECK: %[[R:.*]] = linalg.generic {{.*}} outs(%[[EMPTY]] : tensor<2x4x8xf32>)
// CHECK:   %[[H:.*]] = linalg.index 0
// CHECK:   %[[T:.*]] = linalg.index 1
// CHECK:   %[[D:.*]] = linalg.index 2
// CHECK:   tensor.extract %x[%{{.*}}, %{{.*}}] : tensor<4x16xf32>
// CHECK:   arith.addf
// CHECK: return %[[R]]
func.func @views_are_index_math(%x: tensor<4x16xf32>, %y: tensor<2x4x8xf32>) -> tensor<2x4x8xf32> {
  %0 = cs349.reshape %x : tensor<4x16xf32> -> tensor<4x2x8xf32>
  %1 = cs349.transpose %0 perm = [1, 0, 2] : tensor<4x2x8xf32> -> tensor<2x4x8xf32>
  %2 = cs349.add %1, %y : tensor<2x4x8xf32>
  return %2 : tensor<2x4x8xf32>
}

// -----

// Constant data is computed where it is read: the causal mask is a compare
// and a select, splat scalars are arith constants; neither takes a tensor.

// CHECK-LABEL: func.func @constant_data_is_computed
// CHECK-COUNT-1: tensor.empty
// CHECK-NOT: tensor.empty
// CHECK: linalg.generic
// CHECK:   %[[I:.*]] = linalg.index 0
// CHECK:   %[[J:.*]] = linalg.index 1
// CHECK:   arith.cmpi ugt, %[[J]], %[[I]]
// CHECK:   arith.select %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK:   arith.constant 2.500000e-01 : f32
func.func @constant_data_is_computed(%s: tensor<4x4xbf16>) -> tensor<4x4xbf16> {
  %mask = cs349.causal_mask : tensor<4x4xbf16>
  %c = cs349.constant dense<0.25> : tensor<bf16>
  %0 = cs349.add %s, %mask : tensor<4x4xbf16>
  %1 = cs349.mul %0, %c : tensor<4x4xbf16>, tensor<bf16>
  return %1 : tensor<4x4xbf16>
}

// -----

// bf16 is computed in f32 and every op's result is rounded to bf16, also when
// it is recomputed in a fused kernel (truncf/extf between the ops).

// CHECK-LABEL: func.func @bf16_rounding
// CHECK: linalg.generic
// CHECK:   %[[X:.*]] = arith.extf %{{.*}} : bf16 to f32
// CHECK:   %[[E:.*]] = math.exp %[[X]] : f32
// CHECK:   %[[R:.*]] = arith.truncf %[[E]] : f32 to bf16
// CHECK:   %[[W:.*]] = arith.extf %[[R]] : bf16 to f32
// CHECK:   arith.negf %[[W]] : f32
func.func @bf16_rounding(%x: tensor<4x8xbf16>) -> tensor<4x8xbf16> {
  %0 = cs349.kernel (%x) : (tensor<4x8xbf16>) -> tensor<4x8xbf16> {
  ^bb0(%a: tensor<4x8xbf16>):
    %e = cs349.exp %a : tensor<4x8xbf16>
    %n = cs349.neg %e : tensor<4x8xbf16>
    cs349.yield %n : tensor<4x8xbf16>
  }
  return %0 : tensor<4x8xbf16>
}

// -----

// A matmul whose elements are read once (an elementwise epilogue, both reads
// of silu at the same indices) is fused into the epilogue: no scratch.

// CHECK-LABEL: func.func @matmul_epilogue
// CHECK-COUNT-1: tensor.empty
// CHECK-NOT: tensor.empty
// CHECK: linalg.generic
// CHECK:   scf.for
// CHECK:     arith.mulf
// CHECK:     arith.addf
// CHECK-NOT: scf.for
// CHECK:   math.exp
func.func @matmul_epilogue(%x: tensor<4x8xf32>, %w: tensor<8x6xf32>) -> tensor<4x6xf32> {
  %0 = cs349.kernel (%x, %w) : (tensor<4x8xf32>, tensor<8x6xf32>) -> tensor<4x6xf32> {
  ^bb0(%a: tensor<4x8xf32>, %b: tensor<8x6xf32>):
    %m = cs349.matmul %a, %b : tensor<4x8xf32>, tensor<8x6xf32> -> tensor<4x6xf32>
    %s = cs349.silu %m : tensor<4x6xf32>
    cs349.yield %s : tensor<4x6xf32>
  }
  return %0 : tensor<4x6xf32>
}

// -----

// The planned route: one arena of the planned size, each kernel result a view
// of it at its planned offset, written through a restrict/writable tensor.

// CHECK-LABEL: func.func @planned
// CHECK-NOT: cs349.arena
// CHECK: %[[ARENA:.*]] = memref.alloc() : memref<256xi8>
// CHECK: %[[C128:.*]] = arith.constant 128 : index
// CHECK: %[[V0:.*]] = memref.view %[[ARENA]][%[[C128]]][] : memref<256xi8> to memref<4x8xf32>
// CHECK: %[[T0:.*]] = bufferization.to_tensor %[[V0]] restrict writable
// CHECK: %[[K0:.*]] = linalg.generic {{.*}} outs(%[[T0]] : tensor<4x8xf32>)
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[V1:.*]] = memref.view %[[ARENA]][%[[C0]]][] : memref<256xi8> to memref<4x8xf32>
// CHECK: %[[T1:.*]] = bufferization.to_tensor %[[V1]] restrict writable
// CHECK: %[[K1:.*]] = linalg.generic {{.*}} outs(%[[T1]] : tensor<4x8xf32>)
// CHECK:   tensor.extract %[[K0]]
// CHECK: return %[[K1]]
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

// FlashAttention: loops over heads, queries and key blocks, running max/sum
// and the output row in vectors; no [H, T, S] = 2x8x8 tensor anywhere.

// CHECK-LABEL: func.func @attention
// CHECK-NOT: tensor<2x8x8x
// CHECK: scf.for
// CHECK:   scf.for
// CHECK:     scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args({{.*}}) -> (f32, f32, vector<4xf32>)
// CHECK:       vector.reduction <maximumf>
// CHECK:       math.exp {{.*}} : vector<8xf32>
// CHECK:       vector.reduction <add>
// CHECK:       vector.fma
// CHECK:     tensor.insert
// CHECK-NOT: tensor<2x8x8x
func.func @attention(%q: tensor<2x8x4xf32>, %k: tensor<1x8x4xf32>, %v: tensor<1x8x4xf32>) -> tensor<2x8x4xf32> {
  %o = cs349.attention %q, %k, %v scale = 0.5 mask = causal : tensor<2x8x4xf32>, tensor<1x8x4xf32>, tensor<1x8x4xf32>
  return %o : tensor<2x8x4xf32>
}

// -----

// A sliding window of 3 visits keys [max(t + 1, 3) - 3, t + 1) of query t:
// the key blocks before the window are never visited.

// CHECK-LABEL: func.func @attention_window
// CHECK: %[[END:.*]] = arith.addi %{{.*}}, %{{.*}} : index
// CHECK: %[[PAST:.*]] = arith.maxui %[[END]], %{{.*}} : index
// CHECK: %[[BEGIN:.*]] = arith.subi %[[PAST]], %{{.*}} : index
// CHECK: scf.for %{{.*}} = %[[BEGIN]] to %[[END]] step %{{.*}} iter_args({{.*}}) -> (f32, f32, vector<4xf32>)
func.func @attention_window(%q: tensor<2x8x4xf32>, %k: tensor<1x8x4xf32>, %v: tensor<1x8x4xf32>) -> tensor<2x8x4xf32> {
  %o = cs349.attention %q, %k, %v scale = 0.5 mask = sliding_window window = 3 : tensor<2x8x4xf32>, tensor<1x8x4xf32>, tensor<1x8x4xf32>
  return %o : tensor<2x8x4xf32>
}

// -----

// An additive [1, S] mask: each score adds the mask at [0, key]; a block
// whose scores are all -inf so far is shifted by 0, not by -inf.

// CHECK-LABEL: func.func @attention_additive
// CHECK-SAME: %[[M:[^:]*]]: tensor<1x8xf32>
// CHECK: tensor.extract %[[M]][%{{.*}}, %{{.*}}] : tensor<1x8xf32>
// CHECK: arith.cmpf oeq
// CHECK: arith.select
func.func @attention_additive(%q: tensor<2x8x4xf32>, %k: tensor<1x8x4xf32>, %v: tensor<1x8x4xf32>, %m: tensor<1x8xf32>) -> tensor<2x8x4xf32> {
  %o = cs349.attention %q, %k, %v scale = 0.5 mask = additive %m : tensor<2x8x4xf32>, tensor<1x8x4xf32>, tensor<1x8x4xf32>, tensor<1x8xf32>
  return %o : tensor<2x8x4xf32>
}
