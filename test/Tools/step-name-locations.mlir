// Diagnostics on ops that carry a step name (as cs349-gen writes them) are
// reported at the op's line and column in the input, and keep the name.
// RUN: cs349-opt %s -split-input-file -verify-diagnostics
// RUN: not cs349-opt %s -split-input-file 2>&1 | FileCheck %s

// CHECK: step-name-locations.mlir:[[@LINE+4]]:8: error: step "layer0.attn.q_proj": 'cs349.matmul' op expected the contraction dims to match, got 8 and 6
// CHECK-NOT: see current operation
func.func @verifier_error(%a: tensor<4x8xf32>, %b: tensor<6x8xf32>) -> tensor<4x6xf32> {
  // expected-error @+1 {{step "layer0.attn.q_proj": 'cs349.matmul' op expected the contraction dims to match, got 8 and 6}}
  %0 = cs349.matmul %a, %b : tensor<4x8xf32>, tensor<6x8xf32> -> tensor<4x6xf32> loc("layer0.attn.q_proj")
  return %0 : tensor<4x6xf32>
}

// -----

// An alias, as the printer writes named locations, resolves to the op too.
// CHECK: step-name-locations.mlir:[[@LINE+3]]:8: error: step "layer0.mlp.up"
func.func @through_alias(%a: tensor<4x8xf32>, %b: tensor<6x8xf32>) -> tensor<4x6xf32> {
  // expected-error @+1 {{step "layer0.mlp.up": 'cs349.matmul' op expected the contraction dims to match}}
  %0 = cs349.matmul %a, %b : tensor<4x8xf32>, tensor<6x8xf32> -> tensor<4x6xf32> loc(#up)
  return %0 : tensor<4x6xf32>
}
#up = loc("layer0.mlp.up")
