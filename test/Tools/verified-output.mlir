// cs349-opt prints its output without verifying it again when it was verified
// after parsing and after every pass (VerifiedOutput.h); the output is the
// same. Without those verifications the printer still checks the module and
// prints an invalid op in the generic form, never through its custom printer
// (which would show `cs349.add %a, %b : tensor<4x8xf32>` and hide the wrong
// result type).

// RUN: cs349-opt %s -split-input-file --mlir-very-unsafe-disable-verifier-on-parsing | FileCheck %s --check-prefix=UNVERIFIED
// RUN: cs349-opt %s -split-input-file --mlir-very-unsafe-disable-verifier-on-parsing --cse | FileCheck %s --check-prefix=UNVERIFIED
// RUN: cs349-opt %s -split-input-file --mlir-very-unsafe-disable-verifier-on-parsing --cse -verify-each=0 | FileCheck %s --check-prefix=UNVERIFIED
// With verification on, the invalid op is an error after parsing.
// RUN: not cs349-opt %s -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=ERROR

// A valid function comes out in the custom form whichever way; the chunk
// after it is checked again although this one's pipeline ended verified.
// UNVERIFIED-LABEL: func.func @valid
// UNVERIFIED: cs349.add %a, %b : tensor<4x8xf32>
func.func @valid(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = cs349.add %a, %b : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// UNVERIFIED: "func.func"() <{function_type = (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x9xf32>, sym_name = "wrong_result_type"}>
// UNVERIFIED: "cs349.add"(%a, %b) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x9xf32>
// ERROR: error: 'cs349.add' op inferred type(s) 'tensor<4x8xf32>' are incompatible with return type(s) of operation 'tensor<4x9xf32>'
func.func @wrong_result_type(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x9xf32> {
  %0 = "cs349.add"(%a, %b) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x9xf32>
  return %0 : tensor<4x9xf32>
}
