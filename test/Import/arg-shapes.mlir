// RUN: cs349-opt %s -split-input-file "--import=arg-shapes=0:4x8,1:4x8,0:2x3x8,0:2x16" -verify-diagnostics | FileCheck %s

// Malformed entries are refused before anything runs.
// RUN: not cs349-opt %s --import=arg-shapes=0:4xq -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD-SIZE
// BAD-SIZE: error: import: arg-shapes entry '0:4xq': 'q' is not a positive size (expected INDEX:SHAPE, e.g. 0:1x128)
// RUN: not cs349-opt %s --import=arg-shapes=0:0x8 -o /dev/null 2>&1 | FileCheck %s --check-prefix=ZERO
// ZERO: error: import: arg-shapes entry '0:0x8': '0' is not a positive size
// RUN: not cs349-opt %s --import=arg-shapes=4x8 -o /dev/null 2>&1 | FileCheck %s --check-prefix=NO-SHAPE
// NO-SHAPE: error: import: arg-shapes entry '4x8': no shape
// RUN: not cs349-opt %s --import=arg-shapes=x:4x8 -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD-INDEX
// BAD-INDEX: error: import: arg-shapes entry 'x:4x8': 'x' is not an argument index

// Sizes read with tensor.dim become constants, inits static, the generic
// takes its operand's shape, and the result is returned static.
// CHECK-LABEL: func.func @linalg_dims
// CHECK-SAME: (%x: tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[E:.*]] = cs349.exp %x : tensor<4x8xf32>
// CHECK-NEXT: return %[[E]] : tensor<4x8xf32>
func.func @linalg_dims(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %x, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%d0, %d1) : tensor<?x?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = math.exp %in : f32
    linalg.yield %v : f32
  } -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// -----

// Each argument takes the first entry for its index that fits: 0:4x8 does
// not repeat the static 16, 0:2x16 does; argument #1 takes 1:4x8. TOSA's
// shape inference carries the sizes through the TOSA ops.
// CHECK-LABEL: func.func @tosa_first_fit
// CHECK-SAME: (%a: tensor<2x16xf32>, %b: tensor<4x8xf32>) -> (tensor<2x16xf32>, tensor<4x8xf32>)
// CHECK: cs349.exp %a : tensor<2x16xf32>
// CHECK: cs349.tanh %b : tensor<4x8xf32>
func.func @tosa_first_fit(%a: tensor<?x16xf32>, %b: tensor<?x?xf32>) -> (tensor<?x16xf32>, tensor<?x?xf32>) {
  %e = tosa.exp %a : (tensor<?x16xf32>) -> tensor<?x16xf32>
  %t = tosa.tanh %b : (tensor<?x?xf32>) -> tensor<?x?xf32>
  return %e, %t : tensor<?x16xf32>, tensor<?x?xf32>
}

// -----

// An unranked argument takes the first entry for its index; a static one is
// left as it is.
// CHECK-LABEL: func.func @unranked_and_static
// CHECK-SAME: (%u: tensor<4x8xf32>, %s: tensor<2x2xf32>) -> (tensor<4x8xf32>, tensor<2x2xf32>)
func.func @unranked_and_static(%u: tensor<*xf32>, %s: tensor<2x2xf32>) -> (tensor<*xf32>, tensor<2x2xf32>) {
  %e = tosa.exp %u : (tensor<*xf32>) -> tensor<*xf32>
  %n = tosa.tanh %s : (tensor<2x2xf32>) -> tensor<2x2xf32>
  return %e, %n : tensor<*xf32>, tensor<2x2xf32>
}

// -----

// A concatenation learns its operands' sizes too (upstream folds no cast
// into it), as do slices with sizes read by tensor.dim.
// CHECK-LABEL: func.func @concat_of_slices
// CHECK-SAME: (%x: tensor<2x3x8xf32>) -> tensor<2x3x8xf32>
// CHECK: cs349.rotate_half %x : tensor<2x3x8xf32>
func.func @concat_of_slices(%x: tensor<?x?x8xf32>) -> tensor<?x?x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?x8xf32>
  %d1 = tensor.dim %x, %c1 : tensor<?x?x8xf32>
  %lo = tensor.extract_slice %x[0, 0, 0] [%d0, %d1, 4] [1, 1, 1] : tensor<?x?x8xf32> to tensor<?x?x4xf32>
  %hi = tensor.extract_slice %x[0, 0, 4] [%d0, %d1, 4] [1, 1, 1] : tensor<?x?x8xf32> to tensor<?x?x4xf32>
  %e = tensor.empty(%d0, %d1) : tensor<?x?x4xf32>
  %n = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%hi : tensor<?x?x4xf32>) outs(%e : tensor<?x?x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.negf %in : f32
    linalg.yield %v : f32
  } -> tensor<?x?x4xf32>
  %r = tensor.concat dim(2) %n, %lo : (tensor<?x?x4xf32>, tensor<?x?x4xf32>) -> tensor<?x?x8xf32>
  return %r : tensor<?x?x8xf32>
}

// -----

// Static arguments are enough where the ops declare dynamic results (no
// entry is needed; the one for argument #0 does not fit a static type).
// CHECK-LABEL: func.func @static_arguments
// CHECK-SAME: (%x: tensor<3x5xf32>) -> tensor<3x1xf32>
// CHECK: cs349.reduce_sum %{{.*}} axes = [1] keepdims : tensor<3x5xf32> -> tensor<3x1xf32>
func.func @static_arguments(%x: tensor<3x5xf32>) -> tensor<?x?xf32> {
  %e = tosa.exp %x : (tensor<3x5xf32>) -> tensor<?x?xf32>
  %s = tosa.reduce_sum %e {axis = 1 : i32} : (tensor<?x?xf32>) -> tensor<?x?xf32>
  return %s : tensor<?x?xf32>
}

// -----

// No entry fits: the usual error, with a note on the entries given.
// expected-error @+2 {{'func.func' op argument #0 has the dynamic shape 'tensor<?x5xf32>': cs349 plans only static shapes}}
// expected-note @+1 {{arg-shapes '0:4x8', '0:2x3x8', '0:2x16' does not fit it: a shape must have its rank and repeat its static sizes}}
func.func @no_entry_fits(%x: tensor<?x5xf32>) -> tensor<?x5xf32> {
  %e = tosa.exp %x : (tensor<?x5xf32>) -> tensor<?x5xf32>
  return %e : tensor<?x5xf32>
}

// -----

// A function that others call keeps its types: the calls expect them.
// expected-error @+2 {{'func.func' op argument #0 has the dynamic shape 'tensor<?x?xf32>'}}
// expected-note @+1 {{arg-shapes gives no shapes to a function that others call (their calls expect its types)}}
func.func private @callee(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %e = tosa.exp %x : (tensor<?x?xf32>) -> tensor<?x?xf32>
  return %e : tensor<?x?xf32>
}
func.func @caller(%x: tensor<4x8xf32>) -> tensor<?x?xf32> {
  %c = tensor.cast %x : tensor<4x8xf32> to tensor<?x?xf32>
  %r = func.call @callee(%c) : (tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// -----

// Sizes that a check of the program fails (they contradict each other):
// the check is the error.
func.func @contradicting_sizes(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = tensor.dim %x, %c0 : tensor<?x?xf32>
  %cols = tensor.dim %x, %c1 : tensor<?x?xf32>
  %square = arith.cmpi eq, %rows, %cols : index
  // expected-error @+1 {{'cf.assert' op fails for the static sizes: "expected a square matrix"}}
  cf.assert %square, "expected a square matrix"
  return %x : tensor<?x?xf32>
}

// -----

// A body of more than one block keeps its result types (the import takes
// only one block).
// expected-error @+1 {{'func.func' op expected a single-block body to import, got 3 blocks}}
func.func @three_blocks(%x: tensor<4x8xf32>, %c: i1) -> tensor<?x8xf32> {
  %d = tensor.cast %x : tensor<4x8xf32> to tensor<?x8xf32>
  cf.cond_br %c, ^a, ^b
^a:
  return %d : tensor<?x8xf32>
^b:
  return %d : tensor<?x8xf32>
}

// -----

// A size that comes from data stays dynamic, and the op that computes it
// is named.
func.func @size_from_data(%x: tensor<?x8xf32>, %n: tensor<index>) -> tensor<?xf32> {
  %size = tensor.extract %n[] : tensor<index>
  // expected-error @+1 {{'tensor.empty' op computes the dynamic shape 'tensor<?xf32>': cs349 plans only static shapes}}
  %e = tensor.empty(%size) : tensor<?xf32>
  return %e : tensor<?xf32>
}
