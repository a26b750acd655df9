// RUN: cs349-opt %s -split-input-file -verify-diagnostics --plan-memory=alignment=1 | FileCheck %s
// RUN: cs349-opt %s -split-input-file -verify-diagnostics --plan-memory | FileCheck %s --check-prefix=ALIGN64
// RUN: cs349-opt %s -split-input-file -verify-diagnostics --plan-memory="strategy=naive alignment=1" | FileCheck %s --check-prefix=NAIVE
// Every strategy of the planner library makes a valid plan (checked by the
// pass itself) at least as small as the lower bound.
// RUN: cs349-opt %s -split-input-file -verify-diagnostics --plan-memory="strategy=best-fit alignment=1" | FileCheck %s --check-prefix=ANY
// RUN: cs349-opt %s -split-input-file -verify-diagnostics --plan-memory="strategy=search alignment=1 time-limit=0.5" | FileCheck %s --check-prefix=ANY
// RUN: cs349-opt %s -split-input-file -verify-diagnostics --plan-memory="strategy=best alignment=1 time-limit=0.5" | FileCheck %s --check-prefix=ANY

// Bad options are errors before any input is read.
// RUN: not cs349-opt %s --plan-memory=strategy=fastest 2>&1 | FileCheck %s --check-prefix=BAD-STRATEGY
// BAD-STRATEGY: for the --strategy option: Cannot find option named 'fastest'!
// RUN: cs349-opt --help | FileCheck %s --check-prefix=HELP-STRATEGY
// HELP-STRATEGY-LABEL: --plan-memory
// HELP-STRATEGY:       --strategy=<value>
// HELP-STRATEGY-NEXT:    =naive {{ *}}- end to end, no reuse
// HELP-STRATEGY-NEXT:    =greedy-by-size
// HELP-STRATEGY-NEXT:    =best-fit
// HELP-STRATEGY-NEXT:    =search
// HELP-STRATEGY-NEXT:    =best
// RUN: not cs349-opt %s --plan-memory=alignment=0 2>&1 | FileCheck %s --check-prefix=BAD-ALIGN0
// BAD-ALIGN0: plan-memory: alignment must be a power of two (bytes) of at most 2^62, got 0
// RUN: not cs349-opt %s --plan-memory=alignment=48 2>&1 | FileCheck %s --check-prefix=BAD-ALIGN48
// BAD-ALIGN48: plan-memory: alignment must be a power of two (bytes) of at most 2^62, got 48
// RUN: not cs349-opt %s --plan-memory=time-limit=-1 2>&1 | FileCheck %s --check-prefix=BAD-TIME
// BAD-TIME: plan-memory: time-limit must be a non-negative number of seconds, got -1

// Three kernels in a chain: each result lives from its producer to its
// reader; the last is returned and lives to the last kernel. The first and
// the third never live at the same time, so they share offset 0.
// CHECK-LABEL: func.func @chain
// CHECK-SAME:    cs349.arena = #cs349.arena<bytes = 256, naive = 384, lower_bound = 256, alignment = 1, kernels = 3, strategy = "greedy-by-size">
// CHECK:         cs349.kernel
// CHECK-SAME:      cs349.plan = [#cs349.buffer<offset = 0, bytes = 128, first = 0, last = 1>]
// CHECK:         cs349.kernel
// CHECK-SAME:      cs349.plan = [#cs349.buffer<offset = 128, bytes = 128, first = 1, last = 2>]
// CHECK:         cs349.kernel
// CHECK-SAME:      cs349.plan = [#cs349.buffer<offset = 0, bytes = 128, first = 2, last = 2>]
// NAIVE-LABEL: func.func @chain
// NAIVE-SAME:    cs349.arena = #cs349.arena<bytes = 384, naive = 384, lower_bound = 256, alignment = 1, kernels = 3, strategy = "naive">
// NAIVE:         offset = 0, bytes = 128
// NAIVE:         offset = 128, bytes = 128
// NAIVE:         offset = 256, bytes = 128
// ANY-LABEL: func.func @chain
// ANY-SAME:    cs349.arena = #cs349.arena<bytes = 256, naive = 384, lower_bound = 256
// The JSON report (report=PATH) is tested in memory-report.mlir.
func.func @chain(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %a = cs349.kernel(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%xa: tensor<4x8xf32>):
    %0 = cs349.exp %xa : tensor<4x8xf32> loc("a")
    cs349.yield %0 : tensor<4x8xf32>
  }
  %b = cs349.kernel(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%aa: tensor<4x8xf32>):
    %0 = cs349.neg %aa : tensor<4x8xf32>
    cs349.yield %0 : tensor<4x8xf32>
  }
  %c = cs349.kernel(%b) : (tensor<4x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%ba: tensor<4x8xf32>):
    %0 = cs349.tanh %ba : tensor<4x8xf32> loc("c")
    cs349.yield %0 : tensor<4x8xf32>
  }
  return %c : tensor<4x8xf32>
}

// -----

// Offsets are multiples of the alignment and the naive size adds aligned
// sizes; the lower bound counts the bytes themselves.
// ALIGN64-LABEL: func.func @aligned
// ALIGN64-SAME:    cs349.arena = #cs349.arena<bytes = 76, naive = 192, lower_bound = 24, alignment = 64, kernels = 3, strategy = "greedy-by-size">
// ALIGN64:         cs349.plan = [#cs349.buffer<offset = 0, bytes = 12, first = 0, last = 1>]
// ALIGN64:         cs349.plan = [#cs349.buffer<offset = 64, bytes = 12, first = 1, last = 2>]
// ALIGN64:         cs349.plan = [#cs349.buffer<offset = 0, bytes = 12, first = 2, last = 2>]
// CHECK-LABEL: func.func @aligned
// CHECK-SAME:    cs349.arena = #cs349.arena<bytes = 24, naive = 36, lower_bound = 24, alignment = 1
func.func @aligned(%x: tensor<3xf32>) -> tensor<3xf32> {
  %a = cs349.kernel(%x) : (tensor<3xf32>) -> tensor<3xf32> {
  ^bb0(%xa: tensor<3xf32>):
    %0 = cs349.exp %xa : tensor<3xf32>
    cs349.yield %0 : tensor<3xf32>
  }
  %b = cs349.kernel(%a) : (tensor<3xf32>) -> tensor<3xf32> {
  ^bb0(%aa: tensor<3xf32>):
    %0 = cs349.neg %aa : tensor<3xf32>
    cs349.yield %0 : tensor<3xf32>
  }
  %c = cs349.kernel(%b) : (tensor<3xf32>) -> tensor<3xf32> {
  ^bb0(%ba: tensor<3xf32>):
    %0 = cs349.tanh %ba : tensor<3xf32>
    cs349.yield %0 : tensor<3xf32>
  }
  return %c : tensor<3xf32>
}

// -----

// A view never copies: kernel 2 reads %a through a transpose, so %a lives
// until kernel 2 and cannot share memory with %b. A result returned through a
// view lives to the last kernel. Arguments (%x, %w) are not planned.
// CHECK-LABEL: func.func @views_extend_lifetimes
// CHECK-SAME:    cs349.arena = #cs349.arena<bytes = 192, naive = 192, lower_bound = 192, alignment = 1, kernels = 3
// CHECK:         cs349.plan = [#cs349.buffer<offset = {{[0-9]+}}, bytes = 64, first = 0, last = 2>]
// CHECK:         cs349.plan = [#cs349.buffer<offset = {{[0-9]+}}, bytes = 64, first = 1, last = 2>]
// CHECK:         cs349.plan = [#cs349.buffer<offset = {{[0-9]+}}, bytes = 64, first = 2, last = 2>]
func.func @views_extend_lifetimes(%x: tensor<4x4xf32>, %w: tensor<4x4xf32>) -> tensor<16xf32> {
  %a = cs349.kernel(%x) : (tensor<4x4xf32>) -> tensor<4x4xf32> {
  ^bb0(%xa: tensor<4x4xf32>):
    %0 = cs349.exp %xa : tensor<4x4xf32>
    cs349.yield %0 : tensor<4x4xf32>
  }
  %t = cs349.transpose %a perm = [1, 0] : tensor<4x4xf32> -> tensor<4x4xf32>
  %b = cs349.kernel(%w) : (tensor<4x4xf32>) -> tensor<4x4xf32> {
  ^bb0(%wa: tensor<4x4xf32>):
    %0 = cs349.neg %wa : tensor<4x4xf32>
    cs349.yield %0 : tensor<4x4xf32>
  }
  %c = cs349.kernel(%t, %b) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32> {
  ^bb0(%ta: tensor<4x4xf32>, %ba: tensor<4x4xf32>):
    %0 = cs349.matmul %ta, %ba : tensor<4x4xf32>, tensor<4x4xf32> -> tensor<4x4xf32>
    cs349.yield %0 : tensor<4x4xf32>
  }
  %r = cs349.reshape %c : tensor<4x4xf32> -> tensor<16xf32>
  return %r : tensor<16xf32>
}

// -----

// Function results live to the last kernel even when nothing reads them
// after their producer; a result nobody reads lives in its producer only.
// CHECK-LABEL: func.func @function_results
// CHECK-SAME:    cs349.arena = #cs349.arena<bytes = 64, naive = 96, lower_bound = 64, alignment = 1, kernels = 2
// CHECK:         cs349.plan = [#cs349.buffer<offset = 0, bytes = 32, first = 0, last = 1>, #cs349.buffer<offset = 32, bytes = 32, first = 0, last = 0>]
// CHECK:         cs349.plan = [#cs349.buffer<offset = 32, bytes = 32, first = 1, last = 1>]
func.func @function_results(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %a:2 = cs349.kernel(%x) : (tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  ^bb0(%xa: tensor<8xf32>):
    %0 = cs349.exp %xa : tensor<8xf32>
    %1 = cs349.neg %xa : tensor<8xf32>
    cs349.yield %0, %1 : tensor<8xf32>, tensor<8xf32>
  }
  %b = cs349.kernel(%x) : (tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%xa: tensor<8xf32>):
    %0 = cs349.tanh %xa : tensor<8xf32>
    cs349.yield %0 : tensor<8xf32>
  }
  return %a#0, %b : tensor<8xf32>, tensor<8xf32>
}

// -----

// Sizes are 64-bit: the [32, 32768, 32768] bf16 scores of a 32K prompt are
// 68.7 GB.
// CHECK-LABEL: func.func @huge
// CHECK-SAME:    cs349.arena = #cs349.arena<bytes = 68719476736, naive = 68719476736, lower_bound = 68719476736
func.func @huge(%q: tensor<32x32768x128xbf16>, %k: tensor<32x32768x128xbf16>) -> tensor<32x32768x32768xbf16> {
  %s = cs349.kernel(%q, %k) : (tensor<32x32768x128xbf16>, tensor<32x32768x128xbf16>) -> tensor<32x32768x32768xbf16> {
  ^bb0(%qa: tensor<32x32768x128xbf16>, %ka: tensor<32x32768x128xbf16>):
    %0 = cs349.matmul %qa, %ka transpose_b : tensor<32x32768x128xbf16>, tensor<32x32768x128xbf16> -> tensor<32x32768x32768xbf16>
    cs349.yield %0 : tensor<32x32768x32768xbf16>
  }
  return %s : tensor<32x32768x32768xbf16>
}

// -----

// A function with nothing to compute has an empty plan; a declaration is
// skipped.
// CHECK-LABEL: func.func @nothing
// CHECK-SAME:    cs349.arena = #cs349.arena<bytes = 0, naive = 0, lower_bound = 0, alignment = 1, kernels = 0
// CHECK-LABEL: func.func private @declaration
// CHECK-NOT:     cs349.arena
func.func @nothing(%x: tensor<4xf32>) -> tensor<2x2xf32> {
  %0 = cs349.reshape %x : tensor<4xf32> -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}
func.func private @declaration(tensor<4xf32>) -> tensor<4xf32>

// -----

// expected-error @+1 {{has no cs349.kernel ops: run --fuse before planning memory}}
func.func @not_fused(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-note @+1 {{this op computes a tensor outside any kernel}}
  %0 = cs349.exp %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @partly_fused(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = cs349.kernel(%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%xa: tensor<4xf32>):
    %0 = cs349.exp %xa : tensor<4xf32>
    cs349.yield %0 : tensor<4xf32>
  }
  // expected-error @+1 {{computes a tensor outside any cs349.kernel: run --fuse first}}
  %1 = cs349.neg %a : tensor<4xf32>
  return %1 : tensor<4xf32>
}
