// RUN: cs349-opt %s --convert-cs349-to-linalg -split-input-file | FileCheck %s --check-prefix=RECOMPUTE
// RUN: cs349-opt %s --convert-cs349-to-linalg=kernel-scratch=true -split-input-file | FileCheck %s --check-prefix=SCRATCH
// RUN: cs349-opt %s --bufferize -split-input-file | FileCheck %s --check-prefix=BUF
// RUN: cs349-opt %s --bufferize=kernel-scratch=true -split-input-file | FileCheck %s --check-prefix=BUF-SCRATCH
// RUN: not cs349-opt %s --convert-cs349-to-linalg=kernel-scratch=maybe -split-input-file 2>&1 | FileCheck %s --check-prefix=BAD

// BAD: for the --kernel-scratch option: 'maybe' is invalid value for boolean argument

// What a kernel body keeps in memory besides its results. By default
// nothing: every value the kernel does not yield is recomputed where it is
// read, so a planned function allocates its arena and nothing else. With
// kernel-scratch=true a reduction or contraction that would be evaluated more
// than once per element gets a scratch tensor instead.

// A row sum read once per column (rms_norm's statistic).

// RECOMPUTE-LABEL: func.func @row_sum
// RECOMPUTE: %[[OUT:.*]] = tensor.empty() : tensor<4x8xf32>
// RECOMPUTE-NOT: tensor.empty
// RECOMPUTE: %[[R:.*]] = linalg.generic {{.*}} outs(%[[OUT]] : tensor<4x8xf32>)
// RECOMPUTE:   scf.for
// RECOMPUTE:     arith.mulf
// RECOMPUTE:     arith.addf
// RECOMPUTE:   arith.divf
// RECOMPUTE-NOT: linalg.generic
// RECOMPUTE: return %[[R]]

// SCRATCH-LABEL: func.func @row_sum
// SCRATCH: %[[OUT:.*]] = tensor.empty() : tensor<4x8xf32>
// SCRATCH: %[[TMP:.*]] = tensor.empty() : tensor<4x1xf32>
// SCRATCH: %[[SUM:.*]] = linalg.generic {{.*}} outs(%[[TMP]] : tensor<4x1xf32>)
// SCRATCH:   scf.for
// SCRATCH: %[[R:.*]] = linalg.generic {{.*}} outs(%[[OUT]] : tensor<4x8xf32>)
// SCRATCH-NOT: scf.for
// SCRATCH:   tensor.extract %[[SUM]]
// SCRATCH-NOT: tensor.empty
// SCRATCH: return %[[R]]
func.func @row_sum(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = cs349.kernel (%x) : (tensor<4x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%a: tensor<4x8xf32>):
    %sq = cs349.mul %a, %a : tensor<4x8xf32>
    %s = cs349.reduce_sum %sq axes = [1] keepdims : tensor<4x8xf32> -> tensor<4x1xf32>
    %n = cs349.div %a, %s : tensor<4x8xf32>, tensor<4x1xf32>
    cs349.yield %n : tensor<4x8xf32>
  }
  return %0 : tensor<4x8xf32>
}

// -----

// A matmul read at two columns (RoPE's rotate_half in the q/k projection's
// epilogue): recomputed, it is two dot products in one loop nest, each
// rounded to bf16 as the stored matmul would be.

// RECOMPUTE-LABEL: func.func @rotate_half_epilogue
// RECOMPUTE-COUNT-1: tensor.empty
// RECOMPUTE-NOT: tensor.empty
// RECOMPUTE: linalg.generic
// RECOMPUTE:   scf.for
// RECOMPUTE:   arith.truncf %{{.*}} : f32 to bf16
// RECOMPUTE:   arith.select %{{.*}} : index
// RECOMPUTE:   scf.for
// RECOMPUTE:   arith.truncf %{{.*}} : f32 to bf16
// RECOMPUTE:   arith.negf
// RECOMPUTE-NOT: linalg.generic

// SCRATCH-LABEL: func.func @rotate_half_epilogue
// SCRATCH: %[[OUT:.*]] = tensor.empty() : tensor<4x8xbf16>
// SCRATCH: %[[TMP:.*]] = tensor.empty() : tensor<4x8xbf16>
// SCRATCH: %[[MM:.*]] = linalg.generic {{.*}} outs(%[[TMP]] : tensor<4x8xbf16>)
// SCRATCH:   scf.for
// SCRATCH: linalg.generic {{.*}} outs(%[[OUT]] : tensor<4x8xbf16>)
// SCRATCH-NOT: scf.for
// SCRATCH:   tensor.extract %[[MM]]
// SCRATCH:   tensor.extract %[[MM]]
func.func @rotate_half_epilogue(%x: tensor<4x8xbf16>, %w: tensor<8x8xbf16>) -> tensor<4x8xbf16> {
  %0 = cs349.kernel (%x, %w) : (tensor<4x8xbf16>, tensor<8x8xbf16>) -> tensor<4x8xbf16> {
  ^bb0(%a: tensor<4x8xbf16>, %b: tensor<8x8xbf16>):
    %m = cs349.matmul %a, %b : tensor<4x8xbf16>, tensor<8x8xbf16> -> tensor<4x8xbf16>
    %r = cs349.rotate_half %m : tensor<4x8xbf16>
    %s = cs349.add %m, %r : tensor<4x8xbf16>
    cs349.yield %s : tensor<4x8xbf16>
  }
  return %0 : tensor<4x8xbf16>
}

// -----

// Softmax recomputed: the row max is read by every element and, through the
// exp, by every step of the row sum; it is evaluated once per element (the
// read inside the sum's loop reuses the one outside it), not once per step.

// RECOMPUTE-LABEL: func.func @softmax_rows
// RECOMPUTE-COUNT-1: tensor.empty
// RECOMPUTE-NOT: tensor.empty
// RECOMPUTE: linalg.generic
// RECOMPUTE:   scf.for
// RECOMPUTE:     arith.maximumf
// RECOMPUTE:   math.exp
// RECOMPUTE:   scf.for
// RECOMPUTE-NOT: arith.maximumf
// RECOMPUTE:     math.exp
// RECOMPUTE:     arith.addf
// RECOMPUTE:   arith.divf
// RECOMPUTE-NOT: arith.maximumf

// SCRATCH-LABEL: func.func @softmax_rows
// SCRATCH-COUNT-3: tensor.empty
// SCRATCH-NOT: tensor.empty
func.func @softmax_rows(%x: tensor<2x8x8xbf16>) -> tensor<2x8x8xbf16> {
  %0 = cs349.kernel (%x) : (tensor<2x8x8xbf16>) -> tensor<2x8x8xbf16> {
  ^bb0(%a: tensor<2x8x8xbf16>):
    %m = cs349.reduce_max %a axes = [2] keepdims : tensor<2x8x8xbf16> -> tensor<2x8x1xbf16>
    %d = cs349.sub %a, %m : tensor<2x8x8xbf16>, tensor<2x8x1xbf16>
    %e = cs349.exp %d : tensor<2x8x8xbf16>
    %s = cs349.reduce_sum %e axes = [2] keepdims : tensor<2x8x8xbf16> -> tensor<2x8x1xbf16>
    %p = cs349.div %e, %s : tensor<2x8x8xbf16>, tensor<2x8x1xbf16>
    cs349.yield %p : tensor<2x8x8xbf16>
  }
  return %0 : tensor<2x8x8xbf16>
}

// -----

// A matmul read once per element (an elementwise epilogue) is fused in
// either mode: no scratch to choose.

// RECOMPUTE-LABEL: func.func @matmul_read_once
// RECOMPUTE-COUNT-1: tensor.empty
// RECOMPUTE-NOT: tensor.empty
// SCRATCH-LABEL: func.func @matmul_read_once
// SCRATCH-COUNT-1: tensor.empty
// SCRATCH-NOT: tensor.empty
func.func @matmul_read_once(%x: tensor<4x8xf32>, %w: tensor<8x6xf32>) -> tensor<4x6xf32> {
  %0 = cs349.kernel (%x, %w) : (tensor<4x8xf32>, tensor<8x6xf32>) -> tensor<4x6xf32> {
  ^bb0(%a: tensor<4x8xf32>, %b: tensor<8x6xf32>):
    %m = cs349.matmul %a, %b : tensor<4x8xf32>, tensor<8x6xf32> -> tensor<4x6xf32>
    %n = cs349.neg %m : tensor<4x6xf32>
    cs349.yield %n : tensor<4x6xf32>
  }
  return %0 : tensor<4x6xf32>
}

// -----

// An attention has no per-element form: one that its kernel does not yield
// (--fuse never builds such a kernel; it keeps attention alone) gets a tensor
// in either mode.

// RECOMPUTE-LABEL: func.func @attention_not_yielded
// RECOMPUTE: %[[OUT:.*]] = tensor.empty() : tensor<2x8x4xf32>
// RECOMPUTE: %[[TMP:.*]] = tensor.empty() : tensor<2x8x4xf32>
// RECOMPUTE: %[[O:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[TMP]])
// RECOMPUTE: linalg.generic {{.*}} outs(%[[OUT]] : tensor<2x8x4xf32>)
// RECOMPUTE:   tensor.extract %[[O]]
// SCRATCH-LABEL: func.func @attention_not_yielded
// SCRATCH-COUNT-2: tensor.empty() : tensor<2x8x4xf32>
func.func @attention_not_yielded(%q: tensor<2x8x4xf32>, %k: tensor<1x8x4xf32>, %v: tensor<1x8x4xf32>) -> tensor<2x8x4xf32> {
  %0 = cs349.kernel (%q, %k, %v) : (tensor<2x8x4xf32>, tensor<1x8x4xf32>, tensor<1x8x4xf32>) -> tensor<2x8x4xf32> {
  ^bb0(%a: tensor<2x8x4xf32>, %b: tensor<1x8x4xf32>, %c: tensor<1x8x4xf32>):
    %o = cs349.attention %a, %b, %c scale = 0.5 mask = causal : tensor<2x8x4xf32>, tensor<1x8x4xf32>, tensor<1x8x4xf32>
    %n = cs349.neg %o : tensor<2x8x4xf32>
    cs349.yield %n : tensor<2x8x4xf32>
  }
  return %0 : tensor<2x8x4xf32>
}

// -----

// Through the bufferize pipeline, planned: by default the arena is the only
// allocation; with kernel-scratch=true the row sum is a second one, outside
// the plan.

// BUF-LABEL: func.func @planned_row_sum
// BUF: %[[ARENA:.*]] = memref.alloc() : memref<128xi8>
// BUF-NOT: memref.alloc
// BUF: memref.dealloc %[[ARENA]]
// BUF-NOT: memref.dealloc

// BUF-SCRATCH-LABEL: func.func @planned_row_sum
// BUF-SCRATCH: %[[ARENA:.*]] = memref.alloc() : memref<128xi8>
// BUF-SCRATCH: %[[SUM:.*]] = memref.alloc() : memref<4x1xf32>
// BUF-SCRATCH-DAG: memref.dealloc %[[ARENA]]
// BUF-SCRATCH-DAG: memref.dealloc %[[SUM]]
func.func @planned_row_sum(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {cs349.arena = #cs349.arena<bytes = 128, naive = 128, lower_bound = 128, alignment = 64, kernels = 1, strategy = "greedy-by-size">} {
  %0 = cs349.kernel (%x) : (tensor<4x8xf32>) -> tensor<4x8xf32> attributes {cs349.plan = [#cs349.buffer<offset = 0, bytes = 128, first = 0, last = 0>]} {
  ^bb0(%a: tensor<4x8xf32>):
    %sq = cs349.mul %a, %a : tensor<4x8xf32>
    %s = cs349.reduce_sum %sq axes = [1] keepdims : tensor<4x8xf32> -> tensor<4x1xf32>
    %n = cs349.div %a, %s : tensor<4x8xf32>, tensor<4x1xf32>
    cs349.yield %n : tensor<4x8xf32>
  }
  return %0 : tensor<4x8xf32>
}
