// RUN: cs349-run %s --function=first --print-inputs --summary > %t.inputs
// RUN: cs349-run %s --function=second --print-inputs --summary >> %t.inputs
// RUN: cs349-run %s --function=first --seed 7 --print-inputs --summary >> %t.inputs
// RUN: FileCheck %s --check-prefix=INPUTS < %t.inputs
// RUN: not cs349-run %s 2>&1 | FileCheck %s --check-prefix=AMBIGUOUS
// RUN: not cs349-run %s --function=missing 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not cs349-run %s --function=first --mode=fast 2>&1 | FileCheck %s --check-prefix=MODE
// RUN: not cs349-run %s --function=first --kernel-scratch=maybe 2>&1 | FileCheck %s --check-prefix=SCRATCH
// RUN: cs349-run %s --function=first > %t.first
// RUN: cs349-run %s --function=second > %t.second
// RUN: not cs349-run --compare %t.first %t.second 2>&1 | FileCheck %s --check-prefix=SHAPES
// RUN: not cs349-run --compare %t.first 2>&1 | FileCheck %s --check-prefix=TWO
// RUN: cs349-run %s --function=calls_first > %t.calls
// RUN: cs349-run --compare %t.first %t.calls --rtol 0 --atol 0 | FileCheck %s --check-prefix=CALLS
// RUN: not cs349-run %s --function=unlowerable 2>&1 | FileCheck %s --check-prefix=UNLOWERABLE

// The same argument (position and shape) gets the same values in every
// function and file, from splitmix64 keyed by (seed, position, shape); a
// different seed gives different values. Rank-2: uniform in
// [-sqrt(3/4), sqrt(3/4)); rank 1: uniform in [0.5, 1.5).

// INPUTS: // cs349-run @first seed 1
// INPUTS: argument 0: tensor<4x8xf32>
// INPUTS-NEXT: [[X:sum .*]]
// INPUTS: argument 1: tensor<8xf32>
// INPUTS-NEXT: [[G:sum .*]]
// INPUTS: result 0: tensor<4x8xf32>
// INPUTS: // cs349-run @second seed 1
// INPUTS: argument 0: tensor<4x8xf32>
// INPUTS-NEXT: [[X]]
// INPUTS: argument 1: tensor<8xf32>
// INPUTS-NEXT: [[G]]
// INPUTS: result 0: tensor<4xf32>
// INPUTS: // cs349-run @first seed 7
// INPUTS: argument 0: tensor<4x8xf32>
// INPUTS-NOT: [[X]]
// INPUTS: result 0

// AMBIGUOUS: cs349-run: more than one public function: choose one with --function
// MISSING: cs349-run: no function @missing with a body
// MODE: cs349-run: for the --mode option: Cannot find option named 'fast'!
// SCRATCH: cs349-run: for the --kernel-scratch option: 'maybe' is invalid value for boolean argument
// SHAPES: cs349-run: expected 'result 0: tensor<4x8xf32>' (32 values) to match 'result 0: tensor<4xf32>' (4 values)
// TWO: cs349-run: --compare expects two files, got 1

// Only the function that runs (and what it calls) is lowered and compiled:
// @first runs above although @unlowerable, in the same module, cannot be.
// CALLS: 32 values
// CALLS-SAME: max abs diff 0.000000e+00
// UNLOWERABLE: error: failed to legalize operation 'tosa.custom'
// UNLOWERABLE: cs349-run: lowering failed

func.func @first(%x: tensor<4x8xf32>, %g: tensor<8xf32>) -> tensor<4x8xf32> {
  %0 = cs349.rms_norm %x, %g epsilon = 1.0e-5 : tensor<4x8xf32>, tensor<8xf32>
  return %0 : tensor<4x8xf32>
}

func.func @second(%x: tensor<4x8xf32>, %g: tensor<8xf32>) -> tensor<4xf32> {
  %0 = cs349.mul %x, %g : tensor<4x8xf32>, tensor<8xf32>
  %1 = cs349.reduce_sum %0 axes = [1] : tensor<4x8xf32> -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

func.func @calls_first(%x: tensor<4x8xf32>, %g: tensor<8xf32>) -> tensor<4x8xf32> {
  %0 = func.call @first(%x, %g) : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

func.func @unlowerable(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = tosa.custom %x {operator_name = "opaque", domain_name = "user", implementation_attrs = ""} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
