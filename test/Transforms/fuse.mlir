// RUN: cs349-opt %s -split-input-file -allow-unregistered-dialect -verify-diagnostics --fuse | FileCheck %s
// Fusing fused IR changes nothing: kernels are kept, in order.
// RUN: cs349-opt %s -split-input-file -allow-unregistered-dialect -verify-diagnostics --fuse \
// RUN:   | cs349-opt -split-input-file -allow-unregistered-dialect --fuse | FileCheck %s
// RUN: cs349-opt %s -split-input-file -allow-unregistered-dialect -verify-diagnostics --fuse=enable=false \
// RUN:   | FileCheck %s --check-prefix=UNFUSED

// Elementwise chains fuse into one kernel.
// CHECK-LABEL: func.func @elementwise_chain
// CHECK:         %[[K:.*]] = cs349.kernel(%x, %y) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32> {
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      cs349.add
// CHECK-NEXT:      cs349.exp
// CHECK-NEXT:      %[[N:.*]] = cs349.neg
// CHECK-NEXT:      cs349.yield %[[N]]
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[K]]
// UNFUSED-LABEL: func.func @elementwise_chain
// UNFUSED-COUNT-3: = cs349.kernel(
// UNFUSED-NOT:   cs349.kernel
// UNFUSED:       return
func.func @elementwise_chain(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = cs349.add %x, %y : tensor<4x8xf32>
  %1 = cs349.exp %0 : tensor<4x8xf32>
  %2 = cs349.neg %1 : tensor<4x8xf32>
  return %2 : tensor<4x8xf32>
}

// -----

// A matmul absorbs elementwise consumers no larger than its output.
// CHECK-LABEL: func.func @matmul_epilogue
// CHECK:         cs349.kernel(%x, %w, %r)
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      cs349.matmul
// CHECK-NEXT:      cs349.tanh
// CHECK-NEXT:      cs349.add
// CHECK-NEXT:      cs349.yield
// CHECK-NOT:     cs349.kernel
func.func @matmul_epilogue(%x: tensor<4x16xf32>, %w: tensor<16x8xf32>, %r: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = cs349.matmul %x, %w : tensor<4x16xf32>, tensor<16x8xf32> -> tensor<4x8xf32>
  %1 = cs349.tanh %0 : tensor<4x8xf32>
  %2 = cs349.add %r, %1 : tensor<4x8xf32>
  return %2 : tensor<4x8xf32>
}

// -----

// Negative: a consumer that broadcasts the [4,1] product to [4,8] is larger
// than the matmul output, so the product is written.
// CHECK-LABEL: func.func @matmul_epilogue_too_large
// CHECK:         %[[M:.*]] = cs349.kernel(%x, %w) : (tensor<4x16xf32>, tensor<16x1xf32>) -> tensor<4x1xf32>
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      cs349.matmul
// CHECK-NEXT:      cs349.yield
// CHECK:         cs349.kernel(%[[M]], %b) : (tensor<4x1xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      cs349.add
func.func @matmul_epilogue_too_large(%x: tensor<4x16xf32>, %w: tensor<16x1xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = cs349.matmul %x, %w : tensor<4x16xf32>, tensor<16x1xf32> -> tensor<4x1xf32>
  %1 = cs349.add %0, %b : tensor<4x1xf32>, tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// -----

// A matmul never absorbs its producers: its inputs are always written.
// CHECK-LABEL: func.func @matmul_no_prologue
// CHECK:         %[[T:.*]] = cs349.kernel(%x) : (tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      cs349.tanh
// CHECK-NEXT:      cs349.yield
// CHECK:         cs349.kernel(%[[T]], %w)
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      cs349.matmul
// CHECK-NEXT:      cs349.yield
func.func @matmul_no_prologue(%x: tensor<4x16xf32>, %w: tensor<16x8xf32>) -> tensor<4x8xf32> {
  %0 = cs349.tanh %x : tensor<4x16xf32>
  %1 = cs349.matmul %0, %w : tensor<4x16xf32>, tensor<16x8xf32> -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// -----

// RMSNorm decomposed: the reduction takes its elementwise prologue (x*x) and
// the row-wise ops after it; constants are cloned into the kernel.
// CHECK-LABEL: func.func @rms_norm_one_kernel
// CHECK-NOT:     cs349.constant
// CHECK:         %[[K:.*]] = cs349.kernel(%x, %g) : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      cs349.mul
// CHECK-NEXT:      cs349.reduce_sum
// CHECK-NEXT:      cs349.constant dense<8.000000e+00>
// CHECK-NEXT:      cs349.div
// CHECK-NEXT:      cs349.constant dense<9.99999974E-6>
// CHECK-NEXT:      cs349.add
// CHECK-NEXT:      cs349.rsqrt
// CHECK-NEXT:      cs349.mul
// CHECK-NEXT:      cs349.mul
// CHECK-NEXT:      cs349.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[K]]
// UNFUSED-LABEL: func.func @rms_norm_one_kernel
// UNFUSED-COUNT-7: = cs349.kernel(
// UNFUSED-NOT:   cs349.kernel
// UNFUSED:       return
func.func @rms_norm_one_kernel(%x: tensor<4x8xf32>, %g: tensor<8xf32>) -> tensor<4x8xf32> {
  %d = cs349.constant dense<8.0> : tensor<f32>
  %eps = cs349.constant dense<1.0e-5> : tensor<f32>
  %0 = cs349.mul %x, %x : tensor<4x8xf32>
  %1 = cs349.reduce_sum %0 axes = [1] keepdims : tensor<4x8xf32> -> tensor<4x1xf32>
  %2 = cs349.div %1, %d : tensor<4x1xf32>, tensor<f32>
  %3 = cs349.add %2, %eps : tensor<4x1xf32>, tensor<f32>
  %4 = cs349.rsqrt %3 : tensor<4x1xf32>
  %5 = cs349.mul %x, %4 : tensor<4x8xf32>, tensor<4x1xf32>
  %6 = cs349.mul %5, %g : tensor<4x8xf32>, tensor<8xf32>
  return %6 : tensor<4x8xf32>
}

// -----

// A reduction never joins a matmul kernel: tanh(x @ W) is written once (the
// epilogue keeps tanh: moving it to the reduction would write x @ W instead).
// CHECK-LABEL: func.func @reduction_after_matmul
// CHECK:         %[[M:.*]] = cs349.kernel(%x, %w)
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      cs349.matmul
// CHECK-NEXT:      cs349.tanh
// CHECK-NEXT:      cs349.yield
// CHECK:         cs349.kernel(%[[M]]) : (tensor<4x8xf32>) -> tensor<4x1xf32>
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      cs349.reduce_sum
// CHECK-NEXT:      cs349.yield
func.func @reduction_after_matmul(%x: tensor<4x16xf32>, %w: tensor<16x8xf32>) -> tensor<4x1xf32> {
  %0 = cs349.matmul %x, %w : tensor<4x16xf32>, tensor<16x8xf32> -> tensor<4x8xf32>
  %1 = cs349.tanh %0 : tensor<4x8xf32>
  %2 = cs349.reduce_sum %1 axes = [1] keepdims : tensor<4x8xf32> -> tensor<4x1xf32>
  return %2 : tensor<4x1xf32>
}

// -----

// Attention without FlashAttention: scale and mask in the q.kT epilogue (the
// masked scores are written), softmax in one kernel (the probabilities are
// written), p.v a kernel of its own. GQA repeat views stay between kernels.
// CHECK-LABEL: func.func @scores_softmax
// CHECK:         %[[KR:.*]] = cs349.repeat %k
// CHECK:         %[[VR:.*]] = cs349.repeat %v
// CHECK:         %[[S:.*]] = cs349.kernel(%q, %[[KR]]) : (tensor<4x8x2xbf16>, tensor<4x8x2xbf16>) -> tensor<4x8x8xbf16>
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      cs349.matmul
// CHECK-NEXT:      cs349.constant
// CHECK-NEXT:      cs349.mul
// CHECK-NEXT:      cs349.causal_mask
// CHECK-NEXT:      cs349.add
// CHECK-NEXT:      cs349.yield
// CHECK:         %[[P:.*]] = cs349.kernel(%[[S]]) : (tensor<4x8x8xbf16>) -> tensor<4x8x8xbf16>
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      cs349.reduce_max
// CHECK-NEXT:      cs349.sub
// CHECK-NEXT:      cs349.exp
// CHECK-NEXT:      cs349.reduce_sum
// CHECK-NEXT:      cs349.div
// CHECK-NEXT:      cs349.yield
// CHECK:         cs349.kernel(%[[P]], %[[VR]])
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      cs349.matmul
// CHECK-NEXT:      cs349.yield
// UNFUSED-LABEL: func.func @scores_softmax
// UNFUSED-COUNT-9: = cs349.kernel(
// UNFUSED-NOT:   cs349.kernel
// UNFUSED:       return
func.func @scores_softmax(%q: tensor<4x8x2xbf16>, %k: tensor<2x8x2xbf16>, %v: tensor<2x8x2xbf16>) -> tensor<4x8x2xbf16> {
  %kr = cs349.repeat %k axis = 0 times = 2 : tensor<2x8x2xbf16> -> tensor<4x8x2xbf16>
  %vr = cs349.repeat %v axis = 0 times = 2 : tensor<2x8x2xbf16> -> tensor<4x8x2xbf16>
  %s = cs349.matmul %q, %kr transpose_b : tensor<4x8x2xbf16>, tensor<4x8x2xbf16> -> tensor<4x8x8xbf16>
  %c = cs349.constant dense<0.707> : tensor<bf16>
  %ss = cs349.mul %s, %c : tensor<4x8x8xbf16>, tensor<bf16>
  %m = cs349.causal_mask : tensor<8x8xbf16>
  %sm = cs349.add %ss, %m : tensor<4x8x8xbf16>, tensor<8x8xbf16>
  %mx = cs349.reduce_max %sm axes = [2] keepdims : tensor<4x8x8xbf16> -> tensor<4x8x1xbf16>
  %d = cs349.sub %sm, %mx : tensor<4x8x8xbf16>, tensor<4x8x1xbf16>
  %e = cs349.exp %d : tensor<4x8x8xbf16>
  %sum = cs349.reduce_sum %e axes = [2] keepdims : tensor<4x8x8xbf16> -> tensor<4x8x1xbf16>
  %p = cs349.div %e, %sum : tensor<4x8x8xbf16>, tensor<4x8x1xbf16>
  %o = cs349.matmul %p, %vr : tensor<4x8x8xbf16>, tensor<4x8x2xbf16> -> tensor<4x8x2xbf16>
  return %o : tensor<4x8x2xbf16>
}

// -----

// x2*x2 of the second RMSNorm moves from the o_proj epilogue into the RMSNorm
// kernel: x2 is written anyway (the RMSNorm and the last residual read it), so
// computing x2*x2 there costs no write.
// CHECK-LABEL: func.func @square_sinks_into_rms_norm
// CHECK:         %[[X2:.*]] = cs349.kernel(%o, %wo, %x) : ({{.*}}) -> tensor<4x8xf32>
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      cs349.matmul
// CHECK-NEXT:      %[[R:.*]] = cs349.add
// CHECK-NEXT:      cs349.yield %[[R]]
// CHECK:         %[[H:.*]] = cs349.kernel(%[[X2]]) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:    ^bb0(%[[A:.*]]: tensor<4x8xf32>):
// CHECK-NEXT:      cs349.mul %[[A]], %[[A]]
// CHECK-NEXT:      cs349.reduce_sum
// CHECK-NEXT:      cs349.rsqrt
// CHECK-NEXT:      cs349.mul %[[A]]
// CHECK-NEXT:      cs349.yield
// CHECK:         cs349.kernel(%[[H]], %wd, %[[X2]])
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      cs349.matmul
// CHECK-NEXT:      cs349.add
// CHECK-NEXT:      cs349.yield
func.func @square_sinks_into_rms_norm(%o: tensor<4x16xf32>, %wo: tensor<16x8xf32>, %x: tensor<4x8xf32>,
                                      %wd: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %0 = cs349.matmul %o, %wo : tensor<4x16xf32>, tensor<16x8xf32> -> tensor<4x8xf32>
  %x2 = cs349.add %x, %0 : tensor<4x8xf32>
  %sq = cs349.mul %x2, %x2 : tensor<4x8xf32>
  %sum = cs349.reduce_sum %sq axes = [1] keepdims : tensor<4x8xf32> -> tensor<4x1xf32>
  %r = cs349.rsqrt %sum : tensor<4x1xf32>
  %h = cs349.mul %x2, %r : tensor<4x8xf32>, tensor<4x1xf32>
  %d = cs349.matmul %h, %wd : tensor<4x8xf32>, tensor<8x8xf32> -> tensor<4x8xf32>
  %out = cs349.add %x2, %d : tensor<4x8xf32>
  return %out : tensor<4x8xf32>
}

// -----

// Negative: when nothing else reads the matmul output, squaring it in the
// epilogue writes the square instead of the product: it stays.
// CHECK-LABEL: func.func @square_stays_in_epilogue
// CHECK:         %[[SQ:.*]] = cs349.kernel(%o, %w)
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      cs349.matmul
// CHECK-NEXT:      cs349.mul
// CHECK-NEXT:      cs349.yield
// CHECK:         cs349.kernel(%[[SQ]])
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      cs349.reduce_sum
func.func @square_stays_in_epilogue(%o: tensor<4x16xf32>, %w: tensor<16x8xf32>) -> tensor<4x1xf32> {
  %0 = cs349.matmul %o, %w : tensor<4x16xf32>, tensor<16x8xf32> -> tensor<4x8xf32>
  %sq = cs349.mul %0, %0 : tensor<4x8xf32>
  %sum = cs349.reduce_sum %sq axes = [1] keepdims : tensor<4x8xf32> -> tensor<4x1xf32>
  return %sum : tensor<4x1xf32>
}

// -----

// RoPE after the q projection: the head views between the matmul and RoPE
// are read only inside the kernel, so they are cloned into it with the RoPE
// tables; the kernel writes the rotated heads, not the projection.
// CHECK-LABEL: func.func @rope_epilogue
// CHECK-NOT:     cs349.rope_table
// CHECK:         %[[Q:.*]] = cs349.kernel(%h, %wq) : (tensor<8x16xbf16>, tensor<16x16xbf16>) -> tensor<4x8x4xbf16>
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      cs349.matmul
// CHECK-NEXT:      cs349.reshape
// CHECK-NEXT:      cs349.transpose
// CHECK-NEXT:      cs349.rope_table cos
// CHECK-NEXT:      cs349.mul
// CHECK-NEXT:      cs349.rotate_half
// CHECK-NEXT:      cs349.rope_table sin
// CHECK-NEXT:      cs349.mul
// CHECK-NEXT:      cs349.add
// CHECK-NEXT:      cs349.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[Q]]
func.func @rope_epilogue(%h: tensor<8x16xbf16>, %wq: tensor<16x16xbf16>) -> tensor<4x8x4xbf16> {
  %q = cs349.matmul %h, %wq : tensor<8x16xbf16>, tensor<16x16xbf16> -> tensor<8x16xbf16>
  %q3 = cs349.reshape %q : tensor<8x16xbf16> -> tensor<8x4x4xbf16>
  %qh = cs349.transpose %q3 perm = [1, 0, 2] : tensor<8x4x4xbf16> -> tensor<4x8x4xbf16>
  %cos = cs349.rope_table cos theta = 10000.0 : tensor<8x4xbf16>
  %sin = cs349.rope_table sin theta = 10000.0 : tensor<8x4xbf16>
  %a = cs349.mul %qh, %cos : tensor<4x8x4xbf16>, tensor<8x4xbf16>
  %r = cs349.rotate_half %qh : tensor<4x8x4xbf16>
  %b = cs349.mul %r, %sin : tensor<4x8x4xbf16>, tensor<8x4xbf16>
  %qr = cs349.add %a, %b : tensor<4x8x4xbf16>
  return %qr : tensor<4x8x4xbf16>
}

// -----

// A view of a kernel result read by two later kernels stays at function
// level, right after the kernel, and keeps the result written. A view read
// both inside its source's kernel and outside is cloned for the inside.
// CHECK-LABEL: func.func @views_between_kernels
// CHECK:         %[[A:.*]]:2 = cs349.kernel(%x) : (tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<8x4xf32>)
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      %[[E:.*]] = cs349.exp
// CHECK-NEXT:      cs349.transpose %[[E]]
// CHECK-NEXT:      %[[N:.*]] = cs349.neg
// CHECK-NEXT:      cs349.yield %[[E]], %[[N]]
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[T:.*]] = cs349.transpose %[[A]]#0
// CHECK-NEXT:    cs349.kernel(%[[T]], %w)
// CHECK:         cs349.kernel(%[[T]], %u)
// CHECK:         return %[[A]]#1
func.func @views_between_kernels(%x: tensor<4x8xf32>, %w: tensor<4x2xf32>, %u: tensor<4x3xf32>)
    -> (tensor<8x4xf32>, tensor<8x2xf32>, tensor<8x3xf32>) {
  %a = cs349.exp %x : tensor<4x8xf32>
  %t = cs349.transpose %a perm = [1, 0] : tensor<4x8xf32> -> tensor<8x4xf32>
  %n = cs349.neg %t : tensor<8x4xf32>
  %m1 = cs349.matmul %t, %w : tensor<8x4xf32>, tensor<4x2xf32> -> tensor<8x2xf32>
  %m2 = cs349.matmul %t, %u : tensor<8x4xf32>, tensor<4x3xf32> -> tensor<8x3xf32>
  return %n, %m1, %m2 : tensor<8x4xf32>, tensor<8x2xf32>, tensor<8x3xf32>
}

// -----

// A kernel writes every value read after it: here two results.
// CHECK-LABEL: func.func @two_results
// CHECK:         %[[K:.*]]:2 = cs349.kernel(%x, %w) : ({{.*}}) -> (tensor<4x8xf32>, tensor<4x8xf32>)
// CHECK:         return %[[K]]#0, %[[K]]#1
func.func @two_results(%x: tensor<4x16xf32>, %w: tensor<16x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %0 = cs349.matmul %x, %w : tensor<4x16xf32>, tensor<16x8xf32> -> tensor<4x8xf32>
  %1 = cs349.neg %0 : tensor<4x8xf32>
  %2 = cs349.exp %1 : tensor<4x8xf32>
  return %1, %2 : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// Fused attention, composites and existing kernels are kernels of their own;
// nothing joins them.
// CHECK-LABEL: func.func @standalone_ops
// CHECK:         %[[A:.*]] = cs349.kernel(%q, %k, %v)
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      cs349.attention
// CHECK-NEXT:      cs349.yield
// CHECK:         %[[N:.*]] = cs349.kernel(%[[A]])
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      cs349.neg
// CHECK-NEXT:      cs349.yield
// CHECK:         %[[E:.*]] = cs349.kernel(%[[N]])
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      cs349.exp
// CHECK-NEXT:      cs349.yield
// CHECK:         %[[S:.*]] = cs349.kernel(%[[E]])
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      cs349.softmax
// CHECK-NEXT:      cs349.yield
// CHECK:         return %[[S]]
func.func @standalone_ops(%q: tensor<4x8x2xbf16>, %k: tensor<2x8x2xbf16>, %v: tensor<2x8x2xbf16>) -> tensor<4x8x2xbf16> {
  %o = cs349.attention %q, %k, %v scale = 0.5 mask = causal : tensor<4x8x2xbf16>, tensor<2x8x2xbf16>, tensor<2x8x2xbf16>
  %n = cs349.kernel (%o) : (tensor<4x8x2xbf16>) -> tensor<4x8x2xbf16> {
  ^bb0(%a: tensor<4x8x2xbf16>):
    %0 = cs349.neg %a : tensor<4x8x2xbf16>
    cs349.yield %0 : tensor<4x8x2xbf16>
  }
  %e = cs349.exp %n : tensor<4x8x2xbf16>
  %s = cs349.softmax %e axis = 2 : tensor<4x8x2xbf16>
  return %s : tensor<4x8x2xbf16>
}

// -----

// Negative: joining %e to the first kernel would make it read the second
// kernel, which reads the first; the broadcast is too large for the second
// kernel's [4,1] product, so %e starts a kernel of its own.
// CHECK-LABEL: func.func @no_cycle
// CHECK:         %[[T:.*]] = cs349.kernel(%x, %w)
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      cs349.matmul
// CHECK-NEXT:      cs349.tanh
// CHECK-NEXT:      cs349.yield
// CHECK:         %[[Y:.*]] = cs349.kernel(%[[T]], %w2)
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      cs349.matmul
// CHECK-NEXT:      cs349.yield
// CHECK:         cs349.kernel(%[[T]], %[[Y]])
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      cs349.add
// CHECK-NEXT:      cs349.yield
func.func @no_cycle(%x: tensor<4x16xf32>, %w: tensor<16x8xf32>, %w2: tensor<8x1xf32>) -> tensor<4x8xf32> {
  %m = cs349.matmul %x, %w : tensor<4x16xf32>, tensor<16x8xf32> -> tensor<4x8xf32>
  %t = cs349.tanh %m : tensor<4x8xf32>
  %y = cs349.matmul %t, %w2 : tensor<4x8xf32>, tensor<8x1xf32> -> tensor<4x1xf32>
  %e = cs349.add %t, %y : tensor<4x8xf32>, tensor<4x1xf32>
  return %e : tensor<4x8xf32>
}

// -----

// Constant data stays at function level only when the function itself reads
// it; views of arguments stay where they are.
// CHECK-LABEL: func.func @constants_and_argument_views
// CHECK:         %[[C:.*]] = cs349.constant dense<2.000000e+00>
// CHECK:         %[[V:.*]] = cs349.reshape %x
// CHECK:         %[[K:.*]] = cs349.kernel(%[[V]])
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      cs349.constant dense<2.000000e+00>
// CHECK-NEXT:      cs349.mul
// CHECK-NEXT:      cs349.yield
// CHECK:         return %[[K]], %[[C]]
func.func @constants_and_argument_views(%x: tensor<32xf32>) -> (tensor<4x8xf32>, tensor<f32>) {
  %c = cs349.constant dense<2.0> : tensor<f32>
  %v = cs349.reshape %x : tensor<32xf32> -> tensor<4x8xf32>
  %0 = cs349.mul %v, %c : tensor<4x8xf32>, tensor<f32>
  return %0, %c : tensor<4x8xf32>, tensor<f32>
}

// -----

// A memory plan describes one partition: new kernels drop it (run
// --plan-memory again); an unchanged partition keeps it.
// CHECK-LABEL: func.func @stale_plan
// CHECK-NOT:     cs349.arena
// CHECK-NOT:     cs349.plan
// CHECK:         return
func.func @stale_plan(%x: tensor<4xf32>) -> tensor<4xf32> attributes {cs349.arena = #cs349.arena<bytes = 16, naive = 16, lower_bound = 16, alignment = 1, kernels = 1, strategy = "greedy-by-size">} {
  %a = cs349.kernel(%x) : (tensor<4xf32>) -> tensor<4xf32> attributes {cs349.plan = [#cs349.buffer<offset = 0, bytes = 16, first = 0, last = 0>]} {
  ^bb0(%xa: tensor<4xf32>):
    %0 = cs349.exp %xa : tensor<4xf32>
    cs349.yield %0 : tensor<4xf32>
  }
  %1 = cs349.neg %a : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @kept_plan
// CHECK-SAME:    cs349.arena = #cs349.arena<bytes = 16
// CHECK:         cs349.plan = [#cs349.buffer<offset = 0, bytes = 16, first = 0, last = 0>]
func.func @kept_plan(%x: tensor<4xf32>) -> tensor<4xf32> attributes {cs349.arena = #cs349.arena<bytes = 16, naive = 16, lower_bound = 16, alignment = 1, kernels = 1, strategy = "greedy-by-size">} {
  %a = cs349.kernel(%x) : (tensor<4xf32>) -> tensor<4xf32> attributes {cs349.plan = [#cs349.buffer<offset = 0, bytes = 16, first = 0, last = 0>]} {
  ^bb0(%xa: tensor<4xf32>):
    %0 = cs349.exp %xa : tensor<4xf32>
    cs349.yield %0 : tensor<4xf32>
  }
  return %a : tensor<4xf32>
}

// -----

// A function without a body is left alone.
// CHECK-LABEL: func.func private @declaration
func.func private @declaration(tensor<4xf32>) -> tensor<4xf32>

// -----

func.func @two_blocks(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @-1 {{expected a single-block body to fuse, got 2 blocks}}
  "test.br"()[^bb1] : () -> ()
^bb1:
  return %x : tensor<4xf32>
}

// -----

func.func @op_with_region(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{has regions: --fuse cannot place it in a cs349.kernel}}
  %0 = "test.region"(%x) ({
    "test.yield"() : () -> ()
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @non_tensor_op(%x: tensor<4xf32>) -> index {
  // expected-error @+1 {{reads or writes values that are not static bf16/f16/f32 tensors}}
  %0 = "test.size"(%x) : (tensor<4xf32>) -> index
  return %0 : index
}

// -----

// Ops declare their fusion kind: a broadcasting elementwise op (the row
// scale) and erf join the kernel of exp like any elementwise op. Unfused,
// each is a kernel of its own.
// CHECK-LABEL: func.func @broadcasting_elementwise
// CHECK:         %[[K:.*]] = cs349.kernel
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      cs349.exp
// CHECK-NEXT:      cs349.mul %{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<4x1xf32>
// CHECK-NEXT:      %[[E:.*]] = cs349.erf
// CHECK-NEXT:      cs349.yield %[[E]]
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[K]]
// UNFUSED-LABEL: func.func @broadcasting_elementwise
// UNFUSED-COUNT-3: = cs349.kernel
// UNFUSED-NOT:   cs349.kernel
func.func @broadcasting_elementwise(%x: tensor<4x8xf32>, %r: tensor<4x1xf32>) -> tensor<4x8xf32> {
  %0 = cs349.exp %x : tensor<4x8xf32>
  %1 = cs349.mul %0, %r : tensor<4x8xf32>, tensor<4x1xf32>
  %2 = cs349.erf %1 : tensor<4x8xf32>
  return %2 : tensor<4x8xf32>
}

// -----

// relu and sigmoid are a matmul epilogue; exp, log, sqrt, cos and sin join
// one elementwise kernel. Unfused, each op is a kernel of its own.
// CHECK-LABEL: func.func @activations_and_math
// CHECK:         cs349.kernel(%x, %w)
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      cs349.matmul
// CHECK-NEXT:      cs349.relu
// CHECK-NEXT:      %[[S:.*]] = cs349.sigmoid
// CHECK-NEXT:      cs349.yield %[[S]]
// CHECK-NEXT:    }
// CHECK-NEXT:    cs349.kernel(%r)
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      cs349.exp
// CHECK-NEXT:      cs349.log
// CHECK-NEXT:      cs349.sqrt
// CHECK-NEXT:      cs349.cos
// CHECK-NEXT:      cs349.sin
// CHECK-NEXT:      cs349.add
// CHECK-NEXT:      cs349.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    return
// UNFUSED-LABEL: func.func @activations_and_math
// UNFUSED-COUNT-9: = cs349.kernel
// UNFUSED-NOT:   cs349.kernel
func.func @activations_and_math(%x: tensor<4x16xf32>, %w: tensor<16x8xf32>, %r: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %0 = cs349.matmul %x, %w : tensor<4x16xf32>, tensor<16x8xf32> -> tensor<4x8xf32>
  %1 = cs349.relu %0 : tensor<4x8xf32>
  %2 = cs349.sigmoid %1 : tensor<4x8xf32>
  %3 = cs349.exp %r : tensor<4x8xf32>
  %4 = cs349.log %3 : tensor<4x8xf32>
  %5 = cs349.sqrt %3 : tensor<4x8xf32>
  %6 = cs349.cos %4 : tensor<4x8xf32>
  %7 = cs349.sin %5 : tensor<4x8xf32>
  %8 = cs349.add %6, %7 : tensor<4x8xf32>
  return %2, %8 : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// LayerNorm decomposed: both reductions are over the same rows, so the row
// sum, the centring, the squares, the second row sum and the row-wise ops
// after it are one kernel, as for RMSNorm; the bias add joins it.
// CHECK-LABEL: func.func @layer_norm_decomposed_one_kernel
// CHECK-NOT:     cs349.constant
// CHECK:         %[[K:.*]] = cs349.kernel(%x, %g, %b) : (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      cs349.reduce_sum
// CHECK-NEXT:      cs349.constant dense<1.250000e-01>
// CHECK-NEXT:      cs349.mul
// CHECK-NEXT:      cs349.sub
// CHECK-NEXT:      cs349.mul
// CHECK-NEXT:      cs349.reduce_sum
// CHECK-NEXT:      cs349.mul
// CHECK-NEXT:      cs349.constant dense<9.99999974E-6>
// CHECK-NEXT:      cs349.add
// CHECK-NEXT:      cs349.rsqrt
// CHECK-NEXT:      cs349.mul
// CHECK-NEXT:      cs349.mul
// CHECK-NEXT:      cs349.add
// CHECK-NEXT:      cs349.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[K]]
// UNFUSED-LABEL: func.func @layer_norm_decomposed_one_kernel
// UNFUSED-COUNT-11: = cs349.kernel(
// UNFUSED-NOT:   cs349.kernel
// UNFUSED:       return
func.func @layer_norm_decomposed_one_kernel(%x: tensor<4x8xf32>, %g: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %inv_d = cs349.constant dense<0.125> : tensor<f32>
  %eps = cs349.constant dense<1.0e-5> : tensor<f32>
  %0 = cs349.reduce_sum %x axes = [1] keepdims : tensor<4x8xf32> -> tensor<4x1xf32>
  %1 = cs349.mul %0, %inv_d : tensor<4x1xf32>, tensor<f32>
  %2 = cs349.sub %x, %1 : tensor<4x8xf32>, tensor<4x1xf32>
  %3 = cs349.mul %2, %2 : tensor<4x8xf32>
  %4 = cs349.reduce_sum %3 axes = [1] keepdims : tensor<4x8xf32> -> tensor<4x1xf32>
  %5 = cs349.mul %4, %inv_d : tensor<4x1xf32>, tensor<f32>
  %6 = cs349.add %5, %eps : tensor<4x1xf32>, tensor<f32>
  %7 = cs349.rsqrt %6 : tensor<4x1xf32>
  %8 = cs349.mul %2, %7 : tensor<4x8xf32>, tensor<4x1xf32>
  %9 = cs349.mul %8, %g : tensor<4x8xf32>, tensor<8xf32>
  %10 = cs349.add %9, %b : tensor<4x8xf32>, tensor<8xf32>
  return %10 : tensor<4x8xf32>
}

// -----

// LayerNorm as written is a composite: a row kernel of its own (the lowering
// computes it row by row), never a matmul's prologue.
// CHECK-LABEL: func.func @layer_norm_row_kernel
// CHECK:         %[[N:.*]] = cs349.kernel(%x, %g, %b)
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      cs349.layer_norm
// CHECK-NEXT:      cs349.yield
// CHECK:         cs349.kernel(%[[N]], %w)
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      cs349.matmul
// CHECK-NEXT:      cs349.yield
func.func @layer_norm_row_kernel(%x: tensor<4x8xf32>, %g: tensor<8xf32>, %b: tensor<8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %n = cs349.layer_norm %x, %g, %b epsilon = 1.0e-5 : tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>
  %y = cs349.matmul %n, %w : tensor<4x8xf32>, tensor<8x8xf32> -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}
