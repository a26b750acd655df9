// RUN: cs349-opt %s -split-input-file --import | FileCheck %s

// A static extract_slice is a cs349.slice of the dims it narrows; one that
// drops unit dims is followed by a reshape; a whole-tensor one is nothing.
// CHECK-LABEL: func.func @extract_slice
// CHECK: %[[S:.*]] = cs349.slice %x axes = [1] offsets = [2] sizes = [4] strides = [2] : tensor<4x16xf32> -> tensor<4x4xf32>
// CHECK: %[[T:.*]] = cs349.slice %x axes = [0] offsets = [3] sizes = [1] strides = [1] : tensor<4x16xf32> -> tensor<1x16xf32>
// CHECK: %[[R:.*]] = cs349.reshape %[[T]] : tensor<1x16xf32> -> tensor<16xf32>
// CHECK: return %[[S]], %[[R]], %x
func.func @extract_slice(%x: tensor<4x16xf32>) -> (tensor<4x4xf32>, tensor<16xf32>, tensor<4x16xf32>) {
  %s = tensor.extract_slice %x[0, 2] [4, 4] [1, 2] : tensor<4x16xf32> to tensor<4x4xf32>
  %t = tensor.extract_slice %x[3, 0] [1, 16] [1, 1] : tensor<4x16xf32> to tensor<16xf32>
  %w = tensor.extract_slice %x[0, 0] [4, 16] [1, 1] : tensor<4x16xf32> to tensor<4x16xf32>
  return %s, %t, %w : tensor<4x4xf32>, tensor<16xf32>, tensor<4x16xf32>
}

// -----

// tensor.concat, and insert_slices that fill an empty tensor along one
// axis (in any order), are cs349.concat in the order of the offsets.
// CHECK-LABEL: func.func @concatenations
// CHECK: %[[C:.*]] = cs349.concat %a, %b axis = 1 : tensor<4x3xf32>, tensor<4x5xf32> -> tensor<4x8xf32>
// CHECK: %[[I:.*]] = cs349.concat %a, %b axis = 1 : tensor<4x3xf32>, tensor<4x5xf32> -> tensor<4x8xf32>
// CHECK: return %[[C]], %[[I]]
func.func @concatenations(%a: tensor<4x3xf32>, %b: tensor<4x5xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %c = tensor.concat dim(1) %a, %b : (tensor<4x3xf32>, tensor<4x5xf32>) -> tensor<4x8xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %i0 = tensor.insert_slice %b into %e[0, 3] [4, 5] [1, 1] : tensor<4x5xf32> into tensor<4x8xf32>
  %i1 = tensor.insert_slice %a into %i0[0, 0] [4, 3] [1, 1] : tensor<4x3xf32> into tensor<4x8xf32>
  return %c, %i1 : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// Insert chains that are no concatenation stay opaque: a gap (what is in
// the gap is undefined), pieces along two axes.
// CHECK-LABEL: func.func @not_concatenations
// CHECK-NOT: cs349.concat
// CHECK-COUNT-3: cs349.opaque = ["tensor.insert_slice"]
// CHECK-NOT: cs349.concat
func.func @not_concatenations(%a: tensor<4x3xf32>, %b: tensor<2x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %e = tensor.empty() : tensor<4x8xf32>
  %gap = tensor.insert_slice %a into %e[0, 0] [4, 3] [1, 1] : tensor<4x3xf32> into tensor<4x8xf32>
  %f = tensor.empty() : tensor<4x8xf32>
  %i0 = tensor.insert_slice %a into %f[0, 0] [4, 3] [1, 1] : tensor<4x3xf32> into tensor<4x8xf32>
  %i1 = tensor.insert_slice %b into %i0[2, 0] [2, 8] [1, 1] : tensor<2x8xf32> into tensor<4x8xf32>
  return %gap, %i1 : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// A pad by a constant: along each padded dim, the source between splat
// constants of the padding value (only the sides that are padded).
// CHECK-LABEL: func.func @pad
// CHECK-DAG: %[[TOP:.*]] = cs349.constant dense<-0.000000e+00> : tensor<1x4xf32>
// CHECK-DAG: %[[BOTTOM:.*]] = cs349.constant dense<-0.000000e+00> : tensor<2x4xf32>
// CHECK-DAG: %[[RIGHT:.*]] = cs349.constant dense<-0.000000e+00> : tensor<6x3xf32>
// CHECK: %[[ROWS:.*]] = cs349.concat %[[TOP]], %x, %[[BOTTOM]] axis = 0 : tensor<1x4xf32>, tensor<3x4xf32>, tensor<2x4xf32> -> tensor<6x4xf32>
// CHECK: %[[P:.*]] = cs349.concat %[[ROWS]], %[[RIGHT]] axis = 1 : tensor<6x4xf32>, tensor<6x3xf32> -> tensor<6x7xf32>
// CHECK: return %[[P]]
func.func @pad(%x: tensor<3x4xf32>) -> tensor<6x7xf32> {
  %c1 = arith.constant 1 : index
  %p = tensor.pad %x low[%c1, 0] high[2, 3] {
  ^bb0(%i: index, %j: index):
    %v = arith.constant -0.0 : f32
    tensor.yield %v : f32
  } : tensor<3x4xf32> to tensor<6x7xf32>
  return %p : tensor<6x7xf32>
}

// -----

// A pad whose value depends on the index stays opaque; one whose body
// computes its value from constants is folded first, then raised.
// CHECK-LABEL: func.func @computed_pads
// CHECK: %[[TWO:.*]] = cs349.constant dense<2.000000e+00> : tensor<1x4xf32>
// CHECK: %[[P:.*]] = cs349.kernel(%x) {{.*}} attributes {cs349.opaque = ["tensor.pad"]}
// CHECK: arith.sitofp
// CHECK: %[[Q:.*]] = cs349.concat %x, %[[TWO]] axis = 0
// CHECK: return %[[P]], %[[Q]]
func.func @computed_pads(%x: tensor<3x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %p = tensor.pad %x low[1, 0] high[0, 0] {
  ^bb0(%i: index, %j: index):
    %k = arith.index_cast %j : index to i32
    %v = arith.sitofp %k : i32 to f32
    tensor.yield %v : f32
  } : tensor<3x4xf32> to tensor<4x4xf32>
  %q = tensor.pad %x low[0, 0] high[1, 0] {
  ^bb0(%i: index, %j: index):
    %one = arith.constant 1.0 : f32
    %two = arith.addf %one, %one : f32
    tensor.yield %two : f32
  } : tensor<3x4xf32> to tensor<4x4xf32>
  return %p, %q : tensor<4x4xf32>, tensor<4x4xf32>
}

// -----

// RoPE's rotate-half: the upper half negated, then the lower half.
// CHECK-LABEL: func.func @rotate_half
// CHECK-NEXT: %[[R:.*]] = cs349.rotate_half %x : tensor<2x3x8xf32>
// CHECK-NEXT: return %[[R]]
func.func @rotate_half(%x: tensor<2x3x8xf32>) -> tensor<2x3x8xf32> {
  %lo = tensor.extract_slice %x[0, 0, 0] [2, 3, 4] [1, 1, 1] : tensor<2x3x8xf32> to tensor<2x3x4xf32>
  %hi = tensor.extract_slice %x[0, 0, 4] [2, 3, 4] [1, 1, 1] : tensor<2x3x8xf32> to tensor<2x3x4xf32>
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %n = tosa.negate %hi, %z, %z : (tensor<2x3x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x3x4xf32>
  %r = tensor.concat dim(2) %n, %lo : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x8xf32>
  return %r : tensor<2x3x8xf32>
}

// -----

// The halves in the other order, or the lower half negated, are not
// rotate-half: they stay a concatenation.
// CHECK-LABEL: func.func @not_rotate_half
// CHECK-NOT: cs349.rotate_half
// CHECK: cs349.concat
// CHECK-NOT: cs349.rotate_half
func.func @not_rotate_half(%x: tensor<3x8xf32>) -> tensor<3x8xf32> {
  %lo = tensor.extract_slice %x[0, 0] [3, 4] [1, 1] : tensor<3x8xf32> to tensor<3x4xf32>
  %hi = tensor.extract_slice %x[0, 4] [3, 4] [1, 1] : tensor<3x8xf32> to tensor<3x4xf32>
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %n = tosa.negate %lo, %z, %z : (tensor<3x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<3x4xf32>
  %r = tensor.concat dim(1) %n, %hi : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x8xf32>
  return %r : tensor<3x8xf32>
}

// -----

#ids = affine_map<(d0, d1, d2) -> (d0, d1)>
#out = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// A lookup of rows by id, with the bounds checks torch-mlir writes, is a
// cs349.gather (after the batch of one goes).
// CHECK-LABEL: func.func @lookup
// CHECK: %[[IDS:.*]] = cs349.reshape %ids : tensor<1x6xi64> -> tensor<6xi64>
// CHECK: %[[G:.*]] = cs349.gather %table, %[[IDS]] axis = 0 : tensor<10x4xf32>, tensor<6xi64> -> tensor<6x4xf32>
// CHECK-NOT: cs349.kernel
func.func @lookup(%table: tensor<10x4xf32>, %ids: tensor<1x6xi64>) -> tensor<1x6x4xf32> {
  %c10 = arith.constant 10 : index
  %c0 = arith.constant 0 : i64
  %e = tensor.empty() : tensor<1x6x4xf32>
  %g = linalg.generic {indexing_maps = [#ids, #out], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ids : tensor<1x6xi64>) outs(%e : tensor<1x6x4xf32>) {
  ^bb0(%in: i64, %o: f32):
    %i = arith.index_cast %in : i64 to index
    %j = linalg.index 2 : index
    %lt = arith.cmpi slt, %i, %c10 : index
    cf.assert %lt, "index must be smaller than dim size"
    %ge = arith.cmpi sge, %in, %c0 : i64
    cf.assert %ge, "index must be larger or equal to 0"
    %v = tensor.extract %table[%i, %j] : tensor<10x4xf32>
    linalg.yield %v : f32
  } -> tensor<1x6x4xf32>
  return %g : tensor<1x6x4xf32>
}

// -----

#ids = affine_map<(d0, d1, d2) -> (d0, d1)>
#out = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// Batched lookups as tosa.gather lowers (each batch of ids reads its own
// [K, C] table): one gather per batch of the sliced table by the sliced
// ids, joined by a concat. A table whose batch is one is shared by every
// batch of ids: one gather by all of them. An index into a dim of one may
// be the constant 0.
// CHECK-LABEL: func.func @batched_lookups
// CHECK-DAG: %[[T0:.*]] = cs349.slice %table axes = [0] offsets = [0] sizes = [1] strides = [1] : tensor<2x5x4xf32> -> tensor<1x5x4xf32>
// CHECK-DAG: %[[T1:.*]] = cs349.slice %table axes = [0] offsets = [1] sizes = [1] strides = [1] : tensor<2x5x4xf32> -> tensor<1x5x4xf32>
// CHECK-DAG: %[[I0:.*]] = cs349.slice %ids axes = [0] offsets = [0] sizes = [1] strides = [1] : tensor<2x3xi32> -> tensor<1x3xi32>
// CHECK-DAG: %[[I1:.*]] = cs349.slice %ids axes = [0] offsets = [1] sizes = [1] strides = [1] : tensor<2x3xi32> -> tensor<1x3xi32>
// CHECK-DAG: %[[R0:.*]] = cs349.reshape %[[T0]] : tensor<1x5x4xf32> -> tensor<5x4xf32>
// CHECK-DAG: %[[J0:.*]] = cs349.reshape %[[I0]] : tensor<1x3xi32> -> tensor<3xi32>
// CHECK-DAG: %[[G0:.*]] = cs349.gather %[[R0]], %[[J0]] axis = 0 : tensor<5x4xf32>, tensor<3xi32> -> tensor<3x4xf32>
// CHECK-DAG: %[[P0:.*]] = cs349.reshape %[[G0]] : tensor<3x4xf32> -> tensor<1x3x4xf32>
// CHECK-DAG: %[[P1:.*]] = cs349.reshape %{{.*}} : tensor<3x4xf32> -> tensor<1x3x4xf32>
// CHECK: %[[B:.*]] = cs349.concat %[[P0]], %[[P1]] axis = 0 : tensor<1x3x4xf32>, tensor<1x3x4xf32> -> tensor<2x3x4xf32>
// CHECK: %[[S:.*]] = cs349.reshape %shared : tensor<1x5x1xf32> -> tensor<5x1xf32>
// CHECK: %[[C:.*]] = cs349.gather %[[S]], %ids axis = 0 : tensor<5x1xf32>, tensor<2x3xi32> -> tensor<2x3x1xf32>
// CHECK: return %[[B]], %[[C]]
// CHECK-NOT: cs349.kernel
func.func @batched_lookups(%table: tensor<2x5x4xf32>, %shared: tensor<1x5x1xf32>, %ids: tensor<2x3xi32>) -> (tensor<2x3x4xf32>, tensor<2x3x1xf32>) {
  %c0 = arith.constant 0 : index
  %e = tensor.empty() : tensor<2x3x4xf32>
  %g = linalg.generic {indexing_maps = [#ids, #out], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ids : tensor<2x3xi32>) outs(%e : tensor<2x3x4xf32>) {
  ^bb0(%in: i32, %o: f32):
    %n = linalg.index 0 : index
    %i = arith.index_cast %in : i32 to index
    %c = linalg.index 2 : index
    %v = tensor.extract %table[%n, %i, %c] : tensor<2x5x4xf32>
    linalg.yield %v : f32
  } -> tensor<2x3x4xf32>
  %e1 = tensor.empty() : tensor<2x3x1xf32>
  %s = linalg.generic {indexing_maps = [#ids, #out], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ids : tensor<2x3xi32>) outs(%e1 : tensor<2x3x1xf32>) {
  ^bb0(%in: i32, %o: f32):
    %i = arith.index_cast %in : i32 to index
    %v = tensor.extract %shared[%c0, %i, %c0] : tensor<1x5x1xf32>
    linalg.yield %v : f32
  } -> tensor<2x3x1xf32>
  return %g, %s : tensor<2x3x4xf32>, tensor<2x3x1xf32>
}

// -----

#ids = affine_map<(d0, d1, d2) -> (d0, d1)>
#out = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// Not batched lookups: a batch index that is another loop, more than 64
// batches (so many gathers would not pay), a 0 into a batch of two.
// CHECK-LABEL: func.func @not_batched_lookups
// CHECK-NOT: cs349.gather
func.func @not_batched_lookups(%table: tensor<3x5x3xf32>, %many: tensor<65x2x1xf32>, %two: tensor<2x5x4xf32>, %ids: tensor<3x3xi32>, %many_ids: tensor<65x1xi32>, %two_ids: tensor<2x3xi32>)
    -> (tensor<3x3x3xf32>, tensor<65x1x1xf32>, tensor<2x3x4xf32>) {
  %c0 = arith.constant 0 : index
  %e = tensor.empty() : tensor<3x3x3xf32>
  %crossed = linalg.generic {indexing_maps = [#ids, #out], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ids : tensor<3x3xi32>) outs(%e : tensor<3x3x3xf32>) {
  ^bb0(%in: i32, %o: f32):
    %n = linalg.index 2 : index
    %i = arith.index_cast %in : i32 to index
    %c = linalg.index 0 : index
    %v = tensor.extract %table[%n, %i, %c] : tensor<3x5x3xf32>
    linalg.yield %v : f32
  } -> tensor<3x3x3xf32>
  %e1 = tensor.empty() : tensor<65x1x1xf32>
  %m = linalg.generic {indexing_maps = [#ids, #out], iterator_types = ["parallel", "parallel", "parallel"]} ins(%many_ids : tensor<65x1xi32>) outs(%e1 : tensor<65x1x1xf32>) {
  ^bb0(%in: i32, %o: f32):
    %n = linalg.index 0 : index
    %i = arith.index_cast %in : i32 to index
    %v = tensor.extract %many[%n, %i, %c0] : tensor<65x2x1xf32>
    linalg.yield %v : f32
  } -> tensor<65x1x1xf32>
  %e2 = tensor.empty() : tensor<2x3x4xf32>
  %z = linalg.generic {indexing_maps = [#ids, #out], iterator_types = ["parallel", "parallel", "parallel"]} ins(%two_ids : tensor<2x3xi32>) outs(%e2 : tensor<2x3x4xf32>) {
  ^bb0(%in: i32, %o: f32):
    %i = arith.index_cast %in : i32 to index
    %c = linalg.index 2 : index
    %v = tensor.extract %two[%c0, %i, %c] : tensor<2x5x4xf32>
    linalg.yield %v : f32
  } -> tensor<2x3x4xf32>
  return %crossed, %m, %z : tensor<3x3x3xf32>, tensor<65x1x1xf32>, tensor<2x3x4xf32>
}

// -----

#ids = affine_map<(d0, d1) -> (d0)>
#out = affine_map<(d0, d1) -> (d0, d1)>
// Not a lookup of rows: the table read at (loop, id) (a column gather), or
// a stricter check than the table's bounds, stays opaque.
// CHECK-LABEL: func.func @not_lookups
// CHECK-NOT: cs349.gather
func.func @not_lookups(%table: tensor<4x10xf32>, %rows: tensor<10x4xf32>, %ids: tensor<6xi64>) -> (tensor<6x4xf32>, tensor<6x4xf32>) {
  %c5 = arith.constant 5 : index
  %e = tensor.empty() : tensor<6x4xf32>
  %columns = linalg.generic {indexing_maps = [#ids, #out], iterator_types = ["parallel", "parallel"]} ins(%ids : tensor<6xi64>) outs(%e : tensor<6x4xf32>) {
  ^bb0(%in: i64, %o: f32):
    %i = arith.index_cast %in : i64 to index
    %j = linalg.index 1 : index
    %v = tensor.extract %table[%j, %i] : tensor<4x10xf32>
    linalg.yield %v : f32
  } -> tensor<6x4xf32>
  %strict = linalg.generic {indexing_maps = [#ids, #out], iterator_types = ["parallel", "parallel"]} ins(%ids : tensor<6xi64>) outs(%e : tensor<6x4xf32>) {
  ^bb0(%in: i64, %o: f32):
    %i = arith.index_cast %in : i64 to index
    %j = linalg.index 1 : index
    %lt = arith.cmpi slt, %i, %c5 : index
    cf.assert %lt, "index must be smaller than 5"
    %v = tensor.extract %rows[%i, %j] : tensor<10x4xf32>
    linalg.yield %v : f32
  } -> tensor<6x4xf32>
  return %columns, %strict : tensor<6x4xf32>, tensor<6x4xf32>
}
