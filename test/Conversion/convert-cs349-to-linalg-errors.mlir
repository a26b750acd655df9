// RUN: cs349-opt %s --convert-cs349-to-linalg -split-input-file -verify-diagnostics
// RUN: not cs349-opt %s --convert-cs349-to-linalg=mode=fast 2>&1 | FileCheck %s --check-prefix=MODE
// RUN: not cs349-opt %s --convert-cs349-to-linalg=attention-block=0 2>&1 | FileCheck %s --check-prefix=BLOCK
// RUN: not cs349-opt %s -split-input-file --convert-cs349-to-linalg=attention-block=131072 2>&1 | FileCheck %s --check-prefix=WIDEBLOCK

// MODE: for the --mode option: Cannot find option named 'fast'!
// RUN: not cs349-opt %s --lower-to-llvm=mode=fast 2>&1 | FileCheck %s --check-prefix=MODE
// RUN: cs349-opt --help | FileCheck %s --check-prefix=HELP-MODE
// HELP-MODE-LABEL: --convert-cs349-to-linalg
// HELP-MODE:       --mode=<value>
// HELP-MODE-NEXT:    =auto {{ *}}- planned when the function carries cs349.arena
// HELP-MODE-NEXT:    =planned {{ *}}- an error when a function has no plan
// HELP-MODE-NEXT:    =unplanned {{ *}}- ignore any plan: the reference
// BLOCK: expected attention-block >= 1, got 0

// A buffer that does not hold its result.
func.func @wrong_size(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {cs349.arena = #cs349.arena<bytes = 256, naive = 256, lower_bound = 256, alignment = 1, kernels = 1, strategy = "greedy-by-size">} {
  // expected-error @+1 {{expected buffer #0 to hold 128 bytes for 'tensor<4x8xf32>', got 64}}
  %0 = cs349.kernel (%x) : (tensor<4x8xf32>) -> tensor<4x8xf32> attributes {cs349.plan = [#cs349.buffer<offset = 0, bytes = 64, first = 0, last = 0>]} {
  ^bb0(%a: tensor<4x8xf32>):
    %e = cs349.exp %a : tensor<4x8xf32>
    cs349.yield %e : tensor<4x8xf32>
  }
  return %0 : tensor<4x8xf32>
}

// -----

// A buffer that ends past the arena.
func.func @outside_arena(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {cs349.arena = #cs349.arena<bytes = 160, naive = 128, lower_bound = 128, alignment = 1, kernels = 1, strategy = "greedy-by-size">} {
  // expected-error @+1 {{expected buffer #0 [64, 192) inside the arena of 160 bytes}}
  %0 = cs349.kernel (%x) : (tensor<4x8xf32>) -> tensor<4x8xf32> attributes {cs349.plan = [#cs349.buffer<offset = 64, bytes = 128, first = 0, last = 0>]} {
  ^bb0(%a: tensor<4x8xf32>):
    %e = cs349.exp %a : tensor<4x8xf32>
    cs349.yield %e : tensor<4x8xf32>
  }
  return %0 : tensor<4x8xf32>
}

// -----

// An offset that splits an element.
func.func @misaligned(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {cs349.arena = #cs349.arena<bytes = 256, naive = 128, lower_bound = 128, alignment = 1, kernels = 1, strategy = "greedy-by-size">} {
  // expected-error @+1 {{expected buffer #0 at an offset aligned to its 4-byte elements, got 6}}
  %0 = cs349.kernel (%x) : (tensor<4x8xf32>) -> tensor<4x8xf32> attributes {cs349.plan = [#cs349.buffer<offset = 6, bytes = 128, first = 0, last = 0>]} {
  ^bb0(%a: tensor<4x8xf32>):
    %e = cs349.exp %a : tensor<4x8xf32>
    cs349.yield %e : tensor<4x8xf32>
  }
  return %0 : tensor<4x8xf32>
}

// -----

// A planned function whose kernel has no plan.
func.func @missing_plan(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {cs349.arena = #cs349.arena<bytes = 128, naive = 128, lower_bound = 128, alignment = 1, kernels = 1, strategy = "greedy-by-size">} {
  // expected-error @+1 {{expected a 'cs349.plan' attribute in a planned function}}
  %0 = cs349.kernel (%x) : (tensor<4x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%a: tensor<4x8xf32>):
    %e = cs349.exp %a : tensor<4x8xf32>
    cs349.yield %e : tensor<4x8xf32>
  }
  return %0 : tensor<4x8xf32>
}

// -----

// Outside a kernel a result has no place in the arena.
func.func @outside_kernel(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {cs349.arena = #cs349.arena<bytes = 0, naive = 0, lower_bound = 0, alignment = 1, kernels = 0, strategy = "greedy-by-size">} {
  // expected-error @+1 {{expected every compute op of a planned function inside a cs349.kernel}}
  %e = cs349.exp %x : tensor<4x8xf32>
  return %e : tensor<4x8xf32>
}

// -----

// Only cs349 ops (and the return) are lowered.
func.func @foreign(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = cs349.exp %x : tensor<4x8xf32>
  // expected-error @+1 {{cannot be lowered inside a cs349 function}}
  %t = tensor.empty() : tensor<4x8xf32>
  return %e : tensor<4x8xf32>
}

// -----

// The FlashAttention loop keeps a query row in a vector: a head dim of 2^63-1
// (with a byte size that overflowed, now a verifier error) reached LLVM's
// vector conversion and aborted ("SmallVector unable to grow"). A head dim
// wider than a vector may be is a located error, with or without a plan.
func.func @attention_head_dim_too_wide(%q: tensor<1x4x131072xf32>) -> tensor<1x4x131072xf32> {
  // expected-error @+1 {{cannot be lowered as FlashAttention: its loop holds vectors of 131072 (head dim) and 4 (key block) lanes, at most 65536 are supported}}
  %o = cs349.attention %q, %q, %q scale = 0.5 mask = causal : tensor<1x4x131072xf32>, tensor<1x4x131072xf32>, tensor<1x4x131072xf32>
  return %o : tensor<1x4x131072xf32>
}

// -----

// The key block is min(attention-block, keys): only a wide block over many
// keys is refused (WIDEBLOCK); with the default block this lowers.
// WIDEBLOCK: error: 'cs349.attention' op cannot be lowered as FlashAttention: its loop holds vectors of 8 (head dim) and 131072 (key block) lanes
func.func @attention_many_keys(%q: tensor<1x131072x8xf32>) -> tensor<1x131072x8xf32> {
  %o = cs349.attention %q, %q, %q scale = 0.5 mask = causal : tensor<1x131072x8xf32>, tensor<1x131072x8xf32>, tensor<1x131072x8xf32>
  return %o : tensor<1x131072x8xf32>
}
