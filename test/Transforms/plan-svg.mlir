// RUN: cs349-opt %s --plan-svg -split-input-file -verify-diagnostics -o /dev/null | FileCheck %s
// RUN: not cs349-opt %s --plan-svg=output=%t.missing/plan.svg -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOFILE
// RUN: not cs349-opt %s --plan-svg=functions=three -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=ONLY
// RUN: cs349-gen layer --preset tiny --seq 16 | cs349-opt --optimize --fuse --plan-memory=alignment=1 --plan-svg=output=%t.svg -o /dev/null
// RUN: FileCheck %s --input-file=%t.svg --check-prefix=LAYER

// Three kernels planned by hand: 128 B each, the first and the last share
// offset 0. Three kernels are 48 px wide each, 256 B are 420 px high.

// CHECK-LABEL: <svg xmlns="http://www.w3.org/2000/svg" width="640" height="530"
// CHECK: @three: 3 kernels, 3 written results
// CHECK: arena 256 B (greedy-by-size, alignment 1) · lower bound 256 B · no reuse 384 B
// CHECK: <rect x="96.0" y="70.00" width="96.0" height="210.00" {{.*}}><title>e = exp : 4x8xf32, 128 B
// CHECK-NEXT: kernels 0 to 1, offset 0 B</title></rect>
// CHECK: <rect x="144.0" y="280.00" width="96.0" height="210.00" {{.*}}><title>n = neg : 4x8xf32, 128 B
// CHECK-NEXT: kernels 1 to 2, offset 128 B</title></rect>
// CHECK: <rect x="192.0" y="70.00" width="48.0" height="210.00" {{.*}} stroke-width="1.6"><title>t = tanh : 4x8xf32, 128 B
// CHECK-NEXT: kernels 2 to 2 (function result), offset 0 B</title></rect>
// CHECK: <line x1="96.0" y1="490.00" {{.*}} stroke="#1f4e99"
// CHECK: arena 256 B</text>
// CHECK: <line x1="96.0" y1="490.00" {{.*}} stroke="#c0392b" {{.*}} stroke-dasharray
// CHECK: lower bound 256 B</text>
// CHECK: </svg>

// With functions=three only @three is drawn, and the other inputs, which have
// no @three, are errors.
// ONLY: @three: 3 kernels
// ONLY-NOT: @planned:
// ONLY: error: plan-svg: no planned function @three

// NOFILE: error: cannot write the memory report to '{{.*}}plan.svg'

// LAYER: <svg
// LAYER: <title>layer0.attn.norm = mul : 16x128xbf16, 4.1 kB (4096 B)
// LAYER: lower bound
// LAYER: </svg>

func.func @three(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {cs349.arena = #cs349.arena<bytes = 256, naive = 384, lower_bound = 256, alignment = 1, kernels = 3, strategy = "greedy-by-size">} {
  %0 = cs349.kernel(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xf32> attributes {cs349.plan = [#cs349.buffer<offset = 0, bytes = 128, first = 0, last = 1>]} {
  ^bb0(%a: tensor<4x8xf32>):
    %e = cs349.exp %a : tensor<4x8xf32> loc("e")
    cs349.yield %e : tensor<4x8xf32>
  }
  %1 = cs349.kernel(%0) : (tensor<4x8xf32>) -> tensor<4x8xf32> attributes {cs349.plan = [#cs349.buffer<offset = 128, bytes = 128, first = 1, last = 2>]} {
  ^bb0(%a: tensor<4x8xf32>):
    %n = cs349.neg %a : tensor<4x8xf32> loc("n")
    cs349.yield %n : tensor<4x8xf32>
  }
  %2 = cs349.kernel(%1) : (tensor<4x8xf32>) -> tensor<4x8xf32> attributes {cs349.plan = [#cs349.buffer<offset = 0, bytes = 128, first = 2, last = 2>]} {
  ^bb0(%a: tensor<4x8xf32>):
    %t = cs349.tanh %a : tensor<4x8xf32> loc("t")
    cs349.yield %t : tensor<4x8xf32>
  }
  return %2 : tensor<4x8xf32>
}

// -----

// Functions without a plan (declarations, helpers) are skipped: one panel.

// CHECK-LABEL: <svg
// CHECK: @planned: 1 kernels, 1 written results
// CHECK-NOT: @helper
// CHECK: </svg>

func.func private @external(tensor<4xf32>) -> tensor<4xf32>

func.func @helper(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

func.func @planned(%arg0: tensor<4xf32>) -> tensor<4xf32> attributes {cs349.arena = #cs349.arena<bytes = 16, naive = 16, lower_bound = 16, alignment = 1, kernels = 1, strategy = "greedy-by-size">} {
  %0 = cs349.kernel(%arg0) : (tensor<4xf32>) -> tensor<4xf32> attributes {cs349.plan = [#cs349.buffer<offset = 0, bytes = 16, first = 0, last = 0>]} {
  ^bb0(%a: tensor<4xf32>):
    %e = cs349.exp %a : tensor<4xf32>
    cs349.yield %e : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

// Nothing planned: an error, not an empty picture.

// expected-error @+1 {{no function has a memory plan (cs349.arena): run --plan-memory before --plan-svg}}
module {
  func.func @unplanned(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
}

// -----

// A plan that does not describe the IR is not drawn.

func.func @wrong_size(%arg0: tensor<4xf32>) -> tensor<4xf32> attributes {cs349.arena = #cs349.arena<bytes = 16, naive = 16, lower_bound = 16, alignment = 1, kernels = 1, strategy = "greedy-by-size">} {
  // expected-error @+1 {{records 8 bytes but its type 'tensor<4xf32>' needs 16}}
  %0 = cs349.kernel(%arg0) : (tensor<4xf32>) -> tensor<4xf32> attributes {cs349.plan = [#cs349.buffer<offset = 0, bytes = 8, first = 0, last = 0>]} {
  ^bb0(%a: tensor<4xf32>):
    %e = cs349.exp %a : tensor<4xf32>
    cs349.yield %e : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}
