// RUN: cs349-opt %s -split-input-file -verify-diagnostics --verify-memory-plan | FileCheck %s
// A plan made by --plan-memory always passes.
// RUN: cs349-gen layer --preset tiny --seq 16 | cs349-opt --decompose --fuse --plan-memory --verify-memory-plan -o /dev/null

// A valid plan: nothing to report, the IR is unchanged.
// CHECK-LABEL: func.func @valid
// CHECK-SAME:    cs349.arena = #cs349.arena<bytes = 256, naive = 384, lower_bound = 256, alignment = 64, kernels = 3, strategy = "greedy-by-size">
// CHECK:         cs349.plan = [#cs349.buffer<offset = 0, bytes = 128, first = 0, last = 1>]
// CHECK:         cs349.plan = [#cs349.buffer<offset = 128, bytes = 128, first = 1, last = 2>]
// CHECK:         cs349.plan = [#cs349.buffer<offset = 0, bytes = 128, first = 2, last = 2>]
func.func @valid(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {cs349.arena = #cs349.arena<bytes = 256, naive = 384, lower_bound = 256, alignment = 64, kernels = 3, strategy = "greedy-by-size">} {
  %a = cs349.kernel(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32> attributes {cs349.plan = [#cs349.buffer<offset = 0, bytes = 128, first = 0, last = 1>]} {
  ^bb0(%xa: tensor<4x8xf32>):
    %0 = cs349.exp %xa : tensor<4x8xf32>
    cs349.yield %0 : tensor<4x8xf32>
  }
  %b = cs349.kernel(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32> attributes {cs349.plan = [#cs349.buffer<offset = 128, bytes = 128, first = 1, last = 2>]} {
  ^bb0(%aa: tensor<4x8xf32>):
    %0 = cs349.neg %aa : tensor<4x8xf32>
    cs349.yield %0 : tensor<4x8xf32>
  }
  %c = cs349.kernel(%b) : (tensor<4x8xf32>) -> tensor<4x8xf32> attributes {cs349.plan = [#cs349.buffer<offset = 0, bytes = 128, first = 2, last = 2>]} {
  ^bb0(%ba: tensor<4x8xf32>):
    %0 = cs349.tanh %ba : tensor<4x8xf32>
    cs349.yield %0 : tensor<4x8xf32>
  }
  return %c : tensor<4x8xf32>
}

// -----

// A function without a plan is not checked.
// CHECK-LABEL: func.func @unplanned
func.func @unplanned(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = cs349.kernel(%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%xa: tensor<4xf32>):
    %0 = cs349.exp %xa : tensor<4xf32>
    cs349.yield %0 : tensor<4xf32>
  }
  return %a : tensor<4xf32>
}

// -----

// Two buffers live at kernel 1 overlap in [64, 128): the error names both, on
// the first one's kernel, with a note on the other's.
func.func @overlap(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {cs349.arena = #cs349.arena<bytes = 320, naive = 384, lower_bound = 256, alignment = 64, kernels = 3, strategy = "greedy-by-size">} {
  // expected-error @+1 {{buffer 'a' (kernel 0 result #0) at [0, 128) live in kernels [0, 1] overlaps buffer 'b' (kernel 1 result #0) at [64, 192) live in kernels [1, 2]}}
  %a = cs349.kernel(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32> attributes {cs349.plan = [#cs349.buffer<offset = 0, bytes = 128, first = 0, last = 1>]} {
  ^bb0(%xa: tensor<4x8xf32>):
    %0 = cs349.exp %xa : tensor<4x8xf32> loc("a")
    cs349.yield %0 : tensor<4x8xf32>
  }
  // expected-note @+1 {{buffer 'b' (kernel 1 result #0) is written here}}
  %b = cs349.kernel(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32> attributes {cs349.plan = [#cs349.buffer<offset = 64, bytes = 128, first = 1, last = 2>]} {
  ^bb0(%aa: tensor<4x8xf32>):
    %0 = cs349.neg %aa : tensor<4x8xf32> loc("b")
    cs349.yield %0 : tensor<4x8xf32>
  }
  %c = cs349.kernel(%b) : (tensor<4x8xf32>) -> tensor<4x8xf32> attributes {cs349.plan = [#cs349.buffer<offset = 192, bytes = 128, first = 2, last = 2>]} {
  ^bb0(%ba: tensor<4x8xf32>):
    %0 = cs349.tanh %ba : tensor<4x8xf32>
    cs349.yield %0 : tensor<4x8xf32>
  }
  return %c : tensor<4x8xf32>
}

// -----

// Negative: the same offsets are fine when the lifetimes do not overlap (a
// is dead after kernel 1, c is written at kernel 2).
// CHECK-LABEL: func.func @reuse_after_death
func.func @reuse_after_death(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {cs349.arena = #cs349.arena<bytes = 256, naive = 384, lower_bound = 256, alignment = 64, kernels = 3, strategy = "greedy-by-size">} {
  %a = cs349.kernel(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32> attributes {cs349.plan = [#cs349.buffer<offset = 128, bytes = 128, first = 0, last = 1>]} {
  ^bb0(%xa: tensor<4x8xf32>):
    %0 = cs349.exp %xa : tensor<4x8xf32>
    cs349.yield %0 : tensor<4x8xf32>
  }
  %b = cs349.kernel(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32> attributes {cs349.plan = [#cs349.buffer<offset = 0, bytes = 128, first = 1, last = 2>]} {
  ^bb0(%aa: tensor<4x8xf32>):
    %0 = cs349.neg %aa : tensor<4x8xf32>
    cs349.yield %0 : tensor<4x8xf32>
  }
  %c = cs349.kernel(%b) : (tensor<4x8xf32>) -> tensor<4x8xf32> attributes {cs349.plan = [#cs349.buffer<offset = 128, bytes = 128, first = 2, last = 2>]} {
  ^bb0(%ba: tensor<4x8xf32>):
    %0 = cs349.tanh %ba : tensor<4x8xf32>
    cs349.yield %0 : tensor<4x8xf32>
  }
  return %c : tensor<4x8xf32>
}

// -----

func.func @past_the_end(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {cs349.arena = #cs349.arena<bytes = 192, naive = 256, lower_bound = 256, alignment = 64, kernels = 2, strategy = "greedy-by-size">} {
  %a = cs349.kernel(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32> attributes {cs349.plan = [#cs349.buffer<offset = 0, bytes = 128, first = 0, last = 1>]} {
  ^bb0(%xa: tensor<4x8xf32>):
    %0 = cs349.exp %xa : tensor<4x8xf32>
    cs349.yield %0 : tensor<4x8xf32>
  }
  // expected-error @+1 {{buffer 'k1#0' (kernel 1 result #0) occupies [128, 256) past the end of the 192-byte arena}}
  %b = cs349.kernel(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32> attributes {cs349.plan = [#cs349.buffer<offset = 128, bytes = 128, first = 1, last = 1>]} {
  ^bb0(%aa: tensor<4x8xf32>):
    %0 = cs349.neg %aa : tensor<4x8xf32>
    cs349.yield %0 : tensor<4x8xf32>
  }
  return %b : tensor<4x8xf32>
}

// -----

func.func @misaligned(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {cs349.arena = #cs349.arena<bytes = 256, naive = 512, lower_bound = 256, alignment = 256, kernels = 2, strategy = "greedy-by-size">} {
  %a = cs349.kernel(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32> attributes {cs349.plan = [#cs349.buffer<offset = 0, bytes = 128, first = 0, last = 1>]} {
  ^bb0(%xa: tensor<4x8xf32>):
    %0 = cs349.exp %xa : tensor<4x8xf32>
    cs349.yield %0 : tensor<4x8xf32>
  }
  // expected-error @+1 {{buffer 'k1#0' (kernel 1 result #0) at offset 128 is not a multiple of the alignment 256}}
  %b = cs349.kernel(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32> attributes {cs349.plan = [#cs349.buffer<offset = 128, bytes = 128, first = 1, last = 1>]} {
  ^bb0(%aa: tensor<4x8xf32>):
    %0 = cs349.neg %aa : tensor<4x8xf32>
    cs349.yield %0 : tensor<4x8xf32>
  }
  return %b : tensor<4x8xf32>
}

// -----

func.func @missing_kernel_plan(%x: tensor<4xf32>) -> tensor<4xf32> attributes {cs349.arena = #cs349.arena<bytes = 16, naive = 16, lower_bound = 16, alignment = 1, kernels = 1, strategy = "greedy-by-size">} {
  // expected-error @+1 {{has no 'cs349.plan' array of #cs349.buffer: run --plan-memory}}
  %a = cs349.kernel(%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%xa: tensor<4xf32>):
    %0 = cs349.exp %xa : tensor<4xf32>
    cs349.yield %0 : tensor<4xf32>
  }
  return %a : tensor<4xf32>
}

// -----

// expected-error @+1 {{has no 'cs349.arena' #cs349.arena attribute: run --plan-memory}}
func.func @missing_arena(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = cs349.kernel(%x) : (tensor<4xf32>) -> tensor<4xf32> attributes {cs349.plan = [#cs349.buffer<offset = 0, bytes = 16, first = 0, last = 0>]} {
  ^bb0(%xa: tensor<4xf32>):
    %0 = cs349.exp %xa : tensor<4xf32>
    cs349.yield %0 : tensor<4xf32>
  }
  return %a : tensor<4xf32>
}

// -----

func.func @wrong_bytes_and_lifetime(%x: tensor<4xf32>) -> tensor<4xf32> attributes {cs349.arena = #cs349.arena<bytes = 16, naive = 16, lower_bound = 16, alignment = 1, kernels = 1, strategy = "greedy-by-size">} {
  // expected-error @+2 {{buffer 'k0#0' (kernel 0 result #0) records 8 bytes but its type 'tensor<4xf32>' needs 16}}
  // expected-error @+1 {{buffer 'k0#0' (kernel 0 result #0) records the lifetime [0, 3] but it is written by kernel 0 and last read by kernel 0}}
  %a = cs349.kernel(%x) : (tensor<4xf32>) -> tensor<4xf32> attributes {cs349.plan = [#cs349.buffer<offset = 0, bytes = 8, first = 0, last = 3>]} {
  ^bb0(%xa: tensor<4xf32>):
    %0 = cs349.exp %xa : tensor<4xf32>
    cs349.yield %0 : tensor<4xf32>
  }
  return %a : tensor<4xf32>
}

// -----

// The derived totals must describe this IR.
// expected-error @+3 {{records 2 kernels but has 1}}
// expected-error @+2 {{records the naive size 32 but its buffers, each aligned to 1, add up to 16}}
// expected-error @+1 {{records the lower bound 8 but the most bytes live at one kernel are 16}}
func.func @wrong_totals(%x: tensor<4xf32>) -> tensor<4xf32> attributes {cs349.arena = #cs349.arena<bytes = 16, naive = 32, lower_bound = 8, alignment = 1, kernels = 2, strategy = "greedy-by-size">} {
  %a = cs349.kernel(%x) : (tensor<4xf32>) -> tensor<4xf32> attributes {cs349.plan = [#cs349.buffer<offset = 0, bytes = 16, first = 0, last = 0>]} {
  ^bb0(%xa: tensor<4xf32>):
    %0 = cs349.exp %xa : tensor<4xf32>
    cs349.yield %0 : tensor<4xf32>
  }
  return %a : tensor<4xf32>
}

// -----

// expected-error @+1 {{records the alignment 3, expected a power of two}}
func.func @bad_alignment(%x: tensor<4xf32>) -> tensor<4xf32> attributes {cs349.arena = #cs349.arena<bytes = 16, naive = 16, lower_bound = 16, alignment = 3, kernels = 1, strategy = "greedy-by-size">} {
  %a = cs349.kernel(%x) : (tensor<4xf32>) -> tensor<4xf32> attributes {cs349.plan = [#cs349.buffer<offset = 0, bytes = 16, first = 0, last = 0>]} {
  ^bb0(%xa: tensor<4xf32>):
    %0 = cs349.exp %xa : tensor<4xf32>
    cs349.yield %0 : tensor<4xf32>
  }
  return %a : tensor<4xf32>
}
