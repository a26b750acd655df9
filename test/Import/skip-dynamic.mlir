// RUN: cs349-opt %s -split-input-file --import=skip-dynamic=true -verify-diagnostics | FileCheck %s

// A function with a dynamic argument is left out, with a warning; the
// others are imported.
// CHECK-LABEL: func.func @static_part
// CHECK-NEXT: cs349.exp %{{.*}} : tensor<4x8xf32>
// CHECK-NOT: func.func @dynamic_argument
// expected-warning @+1 {{argument #0 has the dynamic shape 'tensor<?x8xf32>': cs349 plans only static shapes; the function is left out (skip-dynamic=true)}}
func.func @dynamic_argument(%x: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %e = math.exp %x : tensor<?x8xf32>
  return %e : tensor<?x8xf32>
}
func.func @static_part(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = math.exp %x : tensor<4x8xf32>
  return %e : tensor<4x8xf32>
}

// -----

// A dynamic shape computed inside, which static arguments do not fix (a
// size read from data), is located at the op that computes it.
// CHECK-LABEL: module
// CHECK-NOT: func.func
func.func @dynamic_inside(%n: tensor<index>) -> tensor<?xf32> {
  %size = tensor.extract %n[] : tensor<index>
  // expected-warning @+1 {{'tensor.empty' op computes the dynamic shape 'tensor<?xf32>': cs349 plans only static shapes; the function is left out (skip-dynamic=true)}}
  %e = tensor.empty(%size) : tensor<?xf32>
  return %e : tensor<?xf32>
}

// -----

// Dynamic shapes that static arguments fix are inferred: the function is
// imported (no warning).
// CHECK-LABEL: func.func @dynamic_but_fixed
// CHECK-SAME: (%x: tensor<4x8xf32>) -> tensor<32xf32>
// CHECK-NEXT: cs349.reshape %x : tensor<4x8xf32> -> tensor<32xf32>
func.func @dynamic_but_fixed(%x: tensor<4x8xf32>) -> tensor<32xf32> {
  %d = tensor.cast %x : tensor<4x8xf32> to tensor<?x8xf32>
  %c = tensor.collapse_shape %d [[0, 1]] : tensor<?x8xf32> into tensor<?xf32>
  %s = tensor.cast %c : tensor<?xf32> to tensor<32xf32>
  return %s : tensor<32xf32>
}

// -----

// A function that a kept function calls cannot be left out.
// expected-error @+1 {{has a dynamic shape and is used by a function that stays: it cannot be left out}}
func.func @callee(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-warning @+1 {{computes the dynamic shape 'tensor<?xf32>'}}
  %d = tensor.cast %x : tensor<4xf32> to tensor<?xf32>
  %s = tensor.cast %d : tensor<?xf32> to tensor<4xf32>
  return %s : tensor<4xf32>
}
func.func @caller(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-note @+1 {{used here}}
  %r = call @callee(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Calls among left-out functions go with them.
// CHECK-LABEL: module
// CHECK-NOT: func.func
// expected-warning @+1 {{argument #0 has the dynamic shape}}
func.func @inner(%x: tensor<?xf32>) -> tensor<?xf32> {
  return %x : tensor<?xf32>
}
// expected-warning @+1 {{argument #0 has the dynamic shape}}
func.func @outer(%x: tensor<?xf32>) -> tensor<?xf32> {
  %r = call @inner(%x) : (tensor<?xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}
