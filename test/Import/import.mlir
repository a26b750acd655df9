// RUN: cs349-opt %s -split-input-file --import -verify-diagnostics | FileCheck %s
// Idempotence: importing the output again changes nothing.
// RUN: cs349-opt %s -split-input-file --import -verify-diagnostics | cs349-opt -split-input-file --import | FileCheck %s

// cs349 input is left as it is.
// CHECK-LABEL: func.func @cs349_unchanged
// CHECK-NEXT: %[[E:.*]] = cs349.exp %x : tensor<4x8xf32>
// CHECK-NEXT: return %[[E]]
func.func @cs349_unchanged(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = cs349.exp %x : tensor<4x8xf32>
  return %e : tensor<4x8xf32>
}

// -----

// TOSA ops with a cs349 equivalent are rewritten directly; the reduction
// keeps its axis, the matmul is batched, 1/c·x is x/c.
// CHECK-LABEL: func.func @tosa_direct
// CHECK: cs349.matmul %a, %b : tensor<2x4x8xf32>, tensor<2x8x4xf32> -> tensor<2x4x4xf32>
// CHECK: cs349.reduce_max %{{.*}} axes = [2] keepdims : tensor<2x4x4xf32> -> tensor<2x4x1xf32>
// CHECK: cs349.sub
// CHECK: cs349.exp
// CHECK: cs349.reduce_sum %{{.*}} axes = [2] keepdims
// CHECK: cs349.div %{{.*}}, %{{.*}} : tensor<2x4x4xf32>, tensor<2x4x1xf32>
// CHECK: cs349.reshape %{{.*}} : tensor<2x4x4xf32> -> tensor<8x4xf32>
// CHECK: cs349.transpose %{{.*}} perm = [1, 0] : tensor<8x4xf32> -> tensor<4x8xf32>
// CHECK-NOT: tosa.
func.func @tosa_direct(%a: tensor<2x4x8xf32>, %b: tensor<2x8x4xf32>) -> tensor<4x8xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %s = tosa.matmul %a, %b, %zp, %zp : (tensor<2x4x8xf32>, tensor<2x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x4x4xf32>
  %m = tosa.reduce_max %s {axis = 2 : i32} : (tensor<2x4x4xf32>) -> tensor<2x4x1xf32>
  %d = tosa.sub %s, %m : (tensor<2x4x4xf32>, tensor<2x4x1xf32>) -> tensor<2x4x4xf32>
  %e = tosa.exp %d : (tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<2x4x4xf32>) -> tensor<2x4x1xf32>
  %r = tosa.reciprocal %sum : (tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<2x4x4xf32>, tensor<2x4x1xf32>, tensor<1xi8>) -> tensor<2x4x4xf32>
  %shape = tosa.const_shape {values = dense<[8, 4]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %flat = tosa.reshape %p, %shape : (tensor<2x4x4xf32>, !tosa.shape<2>) -> tensor<8x4xf32>
  %t = tosa.transpose %flat {perms = array<i32: 1, 0>} : (tensor<8x4xf32>) -> tensor<4x8xf32>
  return %t : tensor<4x8xf32>
}

// -----

// TOSA's NaN mode: a maximum that skips NaN (nan_mode = IGNORE) is
// cs349.maxnum; a reduce_max that skips NaN is NaN only for a row of NaN,
// which no cs349 reduction computes, so it goes through upstream's lowering
// into an opaque kernel. The default mode propagates NaN, as cs349.max and
// cs349.reduce_max do.
// CHECK-LABEL: func.func @tosa_nan_mode
// CHECK: %[[IGN:.*]] = cs349.maxnum %a, %b : tensor<1x4xf32>
// CHECK: %[[PROP:.*]] = cs349.max %a, %b : tensor<1x4xf32>
// CHECK: cs349.kernel({{.*}}) {{.*}} attributes {cs349.opaque = ["linalg.reduce"]}
// CHECK: %[[RPROP:.*]] = cs349.reduce_max %a axes = [1] keepdims : tensor<1x4xf32> -> tensor<1x1xf32>
// CHECK: return %[[IGN]], %[[PROP]], %{{.*}}, %[[RPROP]]
func.func @tosa_nan_mode(%a: tensor<1x4xf32>, %b: tensor<1x4xf32>) -> (tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x1xf32>, tensor<1x1xf32>) {
  %0 = tosa.maximum %a, %b {nan_mode = IGNORE} : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  %1 = tosa.maximum %a, %b : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  %2 = tosa.reduce_max %a {axis = 1 : i32, nan_mode = IGNORE} : (tensor<1x4xf32>) -> tensor<1x1xf32>
  %3 = tosa.reduce_max %a {axis = 1 : i32} : (tensor<1x4xf32>) -> tensor<1x1xf32>
  return %0, %1, %2, %3 : tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x1xf32>, tensor<1x1xf32>
}

// -----

// A reciprocal with a batch of one that no product reads: the unit dim goes
// around the division and stays on the result (a random program once sent
// the importer round in circles here, narrowing the division and widening
// it again).
// CHECK-LABEL: func.func @tosa_lone_reciprocal
// CHECK: %[[ONE:.*]] = cs349.constant dense<1.000000e+00> : tensor<f32>
// CHECK: %[[N:.*]] = cs349.reshape %s : tensor<1x2x1xf32> -> tensor<2x1xf32>
// CHECK: %[[D:.*]] = cs349.div %[[ONE]], %[[N]] : tensor<f32>, tensor<2x1xf32>
// CHECK: %[[W:.*]] = cs349.reshape %[[D]] : tensor<2x1xf32> -> tensor<1x2x1xf32>
// CHECK: return %[[W]]
func.func @tosa_lone_reciprocal(%s: tensor<1x2x1xf32>) -> tensor<1x2x1xf32> {
  %r = tosa.reciprocal %s : (tensor<1x2x1xf32>) -> tensor<1x2x1xf32>
  return %r : tensor<1x2x1xf32>
}

// -----

// sigmoid(x)·x is SiLU (either operand order); a TOSA op without a cs349
// equivalent alone goes through upstream's lowering and is raised if it can
// be (a sigmoid is 1/(1+exp(-x))).
// CHECK-LABEL: func.func @tosa_silu
// CHECK: %[[ONE:.*]] = cs349.constant dense<1.000000e+00> : tensor<f32>
// CHECK: %[[S:.*]] = cs349.silu %x : tensor<4x8xf32>
// CHECK-NEXT: %[[N:.*]] = cs349.neg %x
// CHECK-NEXT: %[[E:.*]] = cs349.exp %[[N]]
// CHECK-NEXT: %[[A:.*]] = cs349.add %[[E]], %[[ONE]] : tensor<4x8xf32>, tensor<f32>
// CHECK-NEXT: %[[D:.*]] = cs349.div %[[ONE]], %[[A]] : tensor<f32>, tensor<4x8xf32>
// CHECK-NEXT: return %[[S]], %[[D]]
func.func @tosa_silu(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %s = tosa.sigmoid %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %y = tosa.mul %x, %s, %shift : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<1xi8>) -> tensor<4x8xf32>
  %s2 = tosa.sigmoid %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %y, %s2 : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>

// Elementwise generics: inputs broadcast by their maps become size-1 dims,
// permuted inputs transposes; fpowi x, 2 is x·x.
// CHECK-LABEL: func.func @linalg_elementwise
// CHECK-DAG: %[[G:.*]] = cs349.reshape %g : tensor<8xf32> -> tensor<1x8xf32>
// CHECK-DAG: %[[R:.*]] = cs349.reshape %r : tensor<4xf32> -> tensor<4x1xf32>
// CHECK-DAG: %[[T:.*]] = cs349.transpose %t perm = [1, 0] : tensor<8x4xf32> -> tensor<4x8xf32>
// CHECK: %[[SQ:.*]] = cs349.mul %x, %x : tensor<4x8xf32>
// CHECK: %[[M:.*]] = cs349.mul %[[SQ]], %[[G]] : tensor<4x8xf32>, tensor<1x8xf32>
// CHECK: %[[S:.*]] = cs349.sub %[[M]], %[[R]] : tensor<4x8xf32>, tensor<4x1xf32>
// CHECK: %[[A:.*]] = cs349.add %[[S]], %[[T]] : tensor<4x8xf32>
// CHECK: return %[[A]]
func.func @linalg_elementwise(%x: tensor<4x8xf32>, %g: tensor<8xf32>, %r: tensor<4xf32>, %t: tensor<8x4xf32>) -> tensor<4x8xf32> {
  %c2 = arith.constant 2 : i32
  %empty = tensor.empty() : tensor<4x8xf32>
  %y = linalg.generic {indexing_maps = [#id, #col, #row, #tr, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %g, %r, %t : tensor<4x8xf32>, tensor<8xf32>, tensor<4xf32>, tensor<8x4xf32>) outs(%empty : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %d: f32, %out: f32):
    %sq = math.fpowi %a, %c2 : f32, i32
    %m = arith.mulf %sq, %b : f32
    %s = arith.subf %m, %c : f32
    %v = arith.addf %s, %d : f32
    linalg.yield %v : f32
  } -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// Powers: powf of two elements, powf by a constant, fpowi by a constant
// that every element type holds (2 is x·x); fpowi by a power beyond ±256
// (which bf16 would round) stays opaque.
// CHECK-LABEL: func.func @linalg_powers
// CHECK-DAG: %[[HALF:.*]] = cs349.constant dense<5.000000e-01> : tensor<f32>
// CHECK-DAG: %[[CUBE:.*]] = cs349.constant dense<-3.000000e+00> : tensor<f32>
// CHECK: %[[P:.*]] = cs349.pow %x, %y : tensor<4x8xf32>
// CHECK: %[[R:.*]] = cs349.pow %[[P]], %[[HALF]] : tensor<4x8xf32>, tensor<f32>
// CHECK: %[[C:.*]] = cs349.pow %[[R]], %[[CUBE]] : tensor<4x8xf32>, tensor<f32>
// CHECK: %[[S:.*]] = cs349.mul %[[C]], %[[C]] : tensor<4x8xf32>
// CHECK: %[[K:.*]] = cs349.kernel(%[[S]]) {{.*}} attributes {cs349.opaque = ["linalg.generic"]}
// CHECK: math.fpowi
// CHECK: return %[[K]]
func.func @linalg_powers(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %half = arith.constant 0.5 : f32
  %c-3 = arith.constant -3 : i32
  %c2 = arith.constant 2 : i64
  %c300 = arith.constant 300 : i32
  %empty = tensor.empty() : tensor<4x8xf32>
  %p = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : tensor<4x8xf32>, tensor<4x8xf32>) outs(%empty : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %v = math.powf %a, %b : f32
    %r = math.powf %v, %half : f32
    %c = math.fpowi %r, %c-3 : f32, i32
    %s = math.fpowi %c, %c2 : f32, i64
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %q = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%p : tensor<4x8xf32>) outs(%empty : tensor<4x8xf32>) {
  ^bb0(%a: f32, %out: f32):
    %v = math.fpowi %a, %c300 : f32, i32
    linalg.yield %v : f32
  } -> tensor<4x8xf32>
  return %q : tensor<4x8xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#first = affine_map<(d0, d1) -> (0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
#row = affine_map<(d0, d1) -> (d0, 0)>

// A row max that also computes the argmax nobody reads (torch-mlir's
// max.dim before a softmax) loses the argmax (upstream's pattern for
// unused results) and is a reduce_max. A copy that changes nothing, of
// any element type (torch-mlir's i64 position ids read at (0, d1)), is its
// input; a transposing integer copy stays.
// CHECK-LABEL: func.func @unread_and_unchanged
// CHECK: %[[R:.*]] = cs349.reduce_max %x axes = [1] : tensor<4x8xf32> -> tensor<4xf32>
// CHECK: %[[M:.*]] = cs349.reshape %[[R]] : tensor<4xf32> -> tensor<4x1xf32>
// CHECK: %[[T:.*]] = cs349.kernel(%ids)
// CHECK: return %[[M]], %ids, %[[T]]
func.func @unread_and_unchanged(%x: tensor<4x8xf32>, %ids: tensor<1x8xi64>) -> (tensor<4x1xf32>, tensor<1x8xi64>, tensor<8x1xi64>) {
  %ninf = arith.constant 0xFF800000 : f32
  %c0 = arith.constant 0 : i64
  %e = tensor.empty() : tensor<4x1xf32>
  %ei = tensor.empty() : tensor<4x1xi64>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e : tensor<4x1xf32>) -> tensor<4x1xf32>
  %i0 = linalg.fill ins(%c0 : i64) outs(%ei : tensor<4x1xi64>) -> tensor<4x1xi64>
  %max:2 = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x8xf32>) outs(%m0, %i0 : tensor<4x1xf32>, tensor<4x1xi64>) {
  ^bb0(%in: f32, %out: f32, %arg: i64):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i64
    %m = arith.maximumf %in, %out : f32
    %gt = arith.cmpf ogt, %in, %out : f32
    %a = arith.select %gt, %ji, %arg : i64
    linalg.yield %m, %a : f32, i64
  } -> (tensor<4x1xf32>, tensor<4x1xi64>)
  %ec = tensor.empty() : tensor<1x8xi64>
  %copy = linalg.generic {indexing_maps = [#first, #id], iterator_types = ["parallel", "parallel"]}
      ins(%ids : tensor<1x8xi64>) outs(%ec : tensor<1x8xi64>) {
  ^bb0(%in: i64, %out: i64):
    linalg.yield %in : i64
  } -> tensor<1x8xi64>
  %et = tensor.empty() : tensor<8x1xi64>
  %t = linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]}
      ins(%ids : tensor<1x8xi64>) outs(%et : tensor<8x1xi64>) {
  ^bb0(%in: i64, %out: i64):
    linalg.yield %in : i64
  } -> tensor<8x1xi64>
  return %max#0, %copy, %t : tensor<4x1xf32>, tensor<1x8xi64>, tensor<8x1xi64>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// A generic whose body only yields a float constant writes it everywhere,
// whatever it reads (ids looking a splat table up, which upstream folds to
// its value): a splat constant. One with a reduction loop stays.
// CHECK-LABEL: func.func @constant_bodies
// CHECK-DAG: %[[A:.*]] = cs349.constant dense<-7.500000e-01> : tensor<4x8xf32>
// CHECK-DAG: %[[B:.*]] = cs349.constant dense<2.500000e-01> : tensor<4x8xbf16>
// CHECK: %[[R:.*]] = cs349.kernel
// CHECK: return %[[A]], %[[B]], %[[R]]
func.func @constant_bodies(%ids: tensor<4x8xi32>, %x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xbf16>, tensor<4xf32>) {
  %c = arith.constant -0.75 : f32
  %q = arith.constant 0.25 : bf16
  %e = tensor.empty() : tensor<4x8xf32>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%ids : tensor<4x8xi32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: i32, %out: f32):
    linalg.yield %c : f32
  } -> tensor<4x8xf32>
  %eb = tensor.empty() : tensor<4x8xbf16>
  %b = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%eb : tensor<4x8xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    linalg.yield %q : bf16
  } -> tensor<4x8xbf16>
  %er = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x8xf32>) outs(%er : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %c : f32
  } -> tensor<4xf32>
  return %a, %b, %r : tensor<4x8xf32>, tensor<4x8xbf16>, tensor<4xf32>
}

// -----

// tosa.pow is cs349.pow; by a constant 2 (RMSNorm's square), x·x.
// CHECK-LABEL: func.func @tosa_powers
// CHECK: %[[P:.*]] = cs349.pow %x, %y : tensor<4x8xf32>, tensor<1x8xf32>
// CHECK: %[[S:.*]] = cs349.mul %[[P]], %[[P]] : tensor<4x8xf32>
// CHECK: return %[[S]]
func.func @tosa_powers(%x: tensor<4x8xf32>, %y: tensor<1x8xf32>) -> tensor<4x8xf32> {
  %two = "tosa.const"() <{values = dense<2.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %p = tosa.pow %x, %y : (tensor<4x8xf32>, tensor<1x8xf32>) -> tensor<4x8xf32>
  %s = tosa.pow %p, %two : (tensor<4x8xf32>, tensor<1x1xf32>) -> tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// Reductions: an init that is the identity (0 for a sum; -inf or the
// lowest finite float for a max) disappears, any other takes part. A
// maximum that skips NaN (maxnumf) reduces maxnum(x, -inf), which is -inf
// where x is NaN.
// CHECK-LABEL: func.func @linalg_reductions
// CHECK: %[[NINF:.*]] = cs349.constant dense<0xFF800000> : tensor<f32>
// CHECK: %[[S:.*]] = cs349.reduce_sum %x axes = [1] : tensor<4x8xf32> -> tensor<4xf32>
// CHECK: %[[SKIP:.*]] = cs349.maxnum %x, %[[NINF]] : tensor<4x8xf32>, tensor<f32>
// CHECK: %[[M:.*]] = cs349.reduce_max %[[SKIP]] axes = [1] : tensor<4x8xf32> -> tensor<4xf32>
// CHECK: %[[M0:.*]] = cs349.reduce_max %x axes = [1] : tensor<4x8xf32> -> tensor<4xf32>
// CHECK: %[[Z:.*]] = cs349.max %[[M0]], %{{.*}} : tensor<4xf32>
// CHECK: return %[[S]], %[[M]], %[[Z]]
func.func @linalg_reductions(%x: tensor<4x8xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %zero = arith.constant 0.0 : f32
  %lowest = arith.constant -3.40282347E+38 : f32
  %empty = tensor.empty() : tensor<4xf32>
  %fz = linalg.fill ins(%zero : f32) outs(%empty : tensor<4xf32>) -> tensor<4xf32>
  %fl = linalg.fill ins(%lowest : f32) outs(%empty : tensor<4xf32>) -> tensor<4xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x8xf32>) outs(%fz : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %v = arith.addf %in, %acc : f32
    linalg.yield %v : f32
  } -> tensor<4xf32>
  %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x8xf32>) outs(%fl : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %v = arith.maxnumf %acc, %in : f32
    linalg.yield %v : f32
  } -> tensor<4xf32>
  // A max started at 0 is a max with 0, not a reduce_max.
  %relu = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x8xf32>) outs(%fz : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %v = arith.maximumf %in, %acc : f32
    linalg.yield %v : f32
  } -> tensor<4xf32>
  return %sum, %max, %relu : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// maxnumf skips NaN: elementwise it is cs349.maxnum. Reduced from an init
// that is not the identity it stays as written (a NaN init and a row of
// NaN give NaN, which maxnum of the reduce_max and the init would not).
// CHECK-LABEL: func.func @linalg_maxnumf
// CHECK: %[[E:.*]] = cs349.maxnum %x, %y : tensor<4x8xf32>
// CHECK: %[[R:.*]] = cs349.kernel(%x, %init) {{.*}} attributes {cs349.opaque = ["linalg.generic"]}
// CHECK: return %[[E]], %[[R]]
func.func @linalg_maxnumf(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>, %init: tensor<4xf32>) -> (tensor<4x8xf32>, tensor<4xf32>) {
  %empty = tensor.empty() : tensor<4x8xf32>
  %e = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : tensor<4x8xf32>, tensor<4x8xf32>) outs(%empty : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.maxnumf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x8xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %v = arith.maxnumf %acc, %in : f32
    linalg.yield %v : f32
  } -> tensor<4xf32>
  return %e, %r : tensor<4x8xf32>, tensor<4xf32>
}

// -----

#a = affine_map<(b, m, n, k) -> (b, m, k)>
#bt = affine_map<(b, m, n, k) -> (b, n, k)>
#c = affine_map<(b, m, n, k) -> (b, m, n)>

// Contractions: named matmul and batch_matmul, and a generic with B
// transposed; a zero init disappears, expand/collapse_shape are reshapes,
// and those that only add or remove the batch of one cancel against the
// unit dim the batched matmuls lose.
// CHECK-LABEL: func.func @linalg_contractions
// CHECK: %[[MM:.*]] = cs349.matmul %x, %w : tensor<4x8xf32>, tensor<8x6xf32> -> tensor<4x6xf32>
// CHECK: %[[V:.*]] = cs349.reshape %v : tensor<1x6x3xf32> -> tensor<6x3xf32>
// CHECK: %[[BMM:.*]] = cs349.matmul %[[MM]], %[[V]] : tensor<4x6xf32>, tensor<6x3xf32> -> tensor<4x3xf32>
// CHECK: %[[K:.*]] = cs349.reshape %k : tensor<1x5x3xf32> -> tensor<5x3xf32>
// CHECK: %[[BT:.*]] = cs349.matmul %[[BMM]], %[[K]] transpose_b : tensor<4x3xf32>, tensor<5x3xf32> -> tensor<4x5xf32>
// CHECK: return %[[BT]]
func.func @linalg_contractions(%x: tensor<4x8xf32>, %w: tensor<8x6xf32>, %v: tensor<1x6x3xf32>, %k: tensor<1x5x3xf32>) -> tensor<4x5xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x6xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x6xf32>) -> tensor<4x6xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x6xf32>) outs(%f0 : tensor<4x6xf32>) -> tensor<4x6xf32>
  %x3 = tensor.expand_shape %mm [[0, 1], [2]] output_shape [1, 4, 6] : tensor<4x6xf32> into tensor<1x4x6xf32>
  %e1 = tensor.empty() : tensor<1x4x3xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x4x3xf32>) -> tensor<1x4x3xf32>
  %bmm = linalg.batch_matmul ins(%x3, %v : tensor<1x4x6xf32>, tensor<1x6x3xf32>) outs(%f1 : tensor<1x4x3xf32>) -> tensor<1x4x3xf32>
  %e2 = tensor.empty() : tensor<1x4x5xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x4x5xf32>) -> tensor<1x4x5xf32>
  %bt = linalg.generic {indexing_maps = [#a, #bt, #c], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%bmm, %k : tensor<1x4x3xf32>, tensor<1x5x3xf32>) outs(%f2 : tensor<1x4x5xf32>) {
  ^bb0(%l: f32, %r: f32, %acc: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x4x5xf32>
  %out = tensor.collapse_shape %bt [[0, 1], [2]] : tensor<1x4x5xf32> into tensor<4x5xf32>
  return %out : tensor<4x5xf32>
}

// -----

#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>

// Mixed precision: f16 operands of an f32 matmul are converted, then
// multiplied (what linalg.matmul computes). A body that multiplies in f16
// and converts the product is not that matmul: it is raised as what it
// computes, products rounded to f16, converted and summed.
// CHECK-LABEL: func.func @linalg_mixed_precision
// CHECK: %[[A:.*]] = cs349.cast %a : tensor<4x8xf16> -> tensor<4x8xf32>
// CHECK: %[[B:.*]] = cs349.cast %b : tensor<8x6xf16> -> tensor<8x6xf32>
// CHECK: %[[MM:.*]] = cs349.matmul %[[A]], %[[B]] : tensor<4x8xf32>, tensor<8x6xf32> -> tensor<4x6xf32>
// CHECK: %[[P:.*]] = cs349.mul %{{.*}}, %{{.*}} : tensor<4x1x8xf16>, tensor<1x6x8xf16>
// CHECK: %[[W:.*]] = cs349.cast %[[P]] : tensor<4x6x8xf16> -> tensor<4x6x8xf32>
// CHECK: %[[LATE:.*]] = cs349.reduce_sum %[[W]] axes = [2] : tensor<4x6x8xf32> -> tensor<4x6xf32>
// CHECK: return %[[MM]], %[[LATE]]
func.func @linalg_mixed_precision(%a: tensor<4x8xf16>, %b: tensor<8x6xf16>) -> (tensor<4x6xf32>, tensor<4x6xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x6xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x6xf32>) -> tensor<4x6xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<4x8xf16>, tensor<8x6xf16>) outs(%f : tensor<4x6xf32>) -> tensor<4x6xf32>
  %late = linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<4x8xf16>, tensor<8x6xf16>) outs(%f : tensor<4x6xf32>) {
  ^bb0(%l: f16, %r: f16, %acc: f32):
    %p = arith.mulf %l, %r : f16
    %w = arith.extf %p : f16 to f32
    %s = arith.addf %acc, %w : f32
    linalg.yield %s : f32
  } -> tensor<4x6xf32>
  return %mm, %late : tensor<4x6xf32>, tensor<4x6xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// What cs349 has no op for runs in an opaque kernel of its own; an i1 mask
// is written between two of them like any tensor.
// CHECK-LABEL: func.func @opaque
// CHECK: %[[FLOOR:.*]] = cs349.kernel(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32> attributes {cs349.opaque = ["linalg.generic"]} {
// CHECK: math.floor
// CHECK: %[[MASK:.*]] = cs349.kernel(%x, %[[FLOOR]]) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1> attributes {cs349.opaque = ["linalg.generic"]} {
// CHECK: arith.cmpf one
// CHECK: %[[SEL:.*]] = cs349.kernel(%[[MASK]], %x, %[[FLOOR]]) : (tensor<4x8xi1>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32> attributes {cs349.opaque = ["linalg.generic"]} {
// CHECK: arith.select
// CHECK: math.ceil
// CHECK: %[[E:.*]] = cs349.exp %[[SEL]]
// CHECK: return %[[E]]
func.func @opaque(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %empty = tensor.empty() : tensor<4x8xf32>
  %floor = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%empty : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = math.floor %in : f32
    linalg.yield %v : f32
  } -> tensor<4x8xf32>
  %bempty = tensor.empty() : tensor<4x8xi1>
  %mask = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %floor : tensor<4x8xf32>, tensor<4x8xf32>) outs(%bempty : tensor<4x8xi1>) {
  ^bb0(%a: f32, %b: f32, %out: i1):
    %v = arith.cmpf one, %a, %b : f32
    linalg.yield %v : i1
  } -> tensor<4x8xi1>
  %sel = linalg.generic {indexing_maps = [#id, #id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mask, %x, %floor : tensor<4x8xi1>, tensor<4x8xf32>, tensor<4x8xf32>) outs(%empty : tensor<4x8xf32>) {
  ^bb0(%m: i1, %a: f32, %b: f32, %out: f32):
    %v = arith.select %m, %a, %b : f32
    %c = math.ceil %v : f32
    linalg.yield %c : f32
  } -> tensor<4x8xf32>
  %e = math.exp %sel : tensor<4x8xf32>
  return %e : tensor<4x8xf32>
}

// -----

// Integers converted to floats are a cs349.cast where the cast converts as
// the conversion does: sitofp of i64 or i32 (in a generic's body too,
// reading the integer input), uitofp of i1. An opaque kernel reads integer
// arguments (token ids, positions) as they are: uitofp of i64 (unsigned).
// CHECK-LABEL: func.func @integer_argument
// CHECK-DAG: %[[F:.*]] = cs349.cast %ids : tensor<4xi64> -> tensor<4xf32>
// CHECK-DAG: %[[H:.*]] = cs349.cast %small : tensor<4xi32> -> tensor<4xf16>
// CHECK-DAG: %[[M:.*]] = cs349.cast %mask : tensor<4xi1> -> tensor<4xf32>
// CHECK-DAG: %[[B:.*]] = cs349.cast %ids : tensor<4xi64> -> tensor<4xbf16>
// CHECK-DAG: %[[U:.*]] = cs349.kernel(%ids) : (tensor<4xi64>) -> tensor<4xf32> attributes {cs349.opaque = ["arith.uitofp"]} {
// CHECK-DAG: %[[G:.*]] = cs349.cast %ids : tensor<4xi64> -> tensor<4xf32>
// CHECK-DAG: %[[S:.*]] = cs349.mul %[[G]], %[[G]]
// CHECK: return %[[F]], %[[H]], %[[M]], %[[B]], %[[U]], %[[S]]
#id = affine_map<(d0) -> (d0)>
func.func @integer_argument(%ids: tensor<4xi64>, %small: tensor<4xi32>, %mask: tensor<4xi1>) -> (tensor<4xf32>, tensor<4xf16>, tensor<4xf32>, tensor<4xbf16>, tensor<4xf32>, tensor<4xf32>) {
  %f = arith.sitofp %ids : tensor<4xi64> to tensor<4xf32>
  %h = arith.sitofp %small : tensor<4xi32> to tensor<4xf16>
  %m = arith.uitofp %mask : tensor<4xi1> to tensor<4xf32>
  %b = arith.sitofp %ids : tensor<4xi64> to tensor<4xbf16>
  %u = arith.uitofp %ids : tensor<4xi64> to tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %s = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%ids : tensor<4xi64>) outs(%e : tensor<4xf32>) {
  ^bb0(%i: i64, %o: f32):
    %x = arith.sitofp %i : i64 to f32
    %sq = arith.mulf %x, %x : f32
    linalg.yield %sq : f32
  } -> tensor<4xf32>
  return %f, %h, %m, %b, %u, %s : tensor<4xf32>, tensor<4xf16>, tensor<4xf32>, tensor<4xbf16>, tensor<4xf32>, tensor<4xf32>
}

// -----

// Only what cannot be planned is an error: a dynamic shape,
// expected-error @+1 {{'func.func' op argument #0 has the dynamic shape 'tensor<?x8xf32>': cs349 plans only static shapes}}
func.func @dynamic(%x: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %e = math.exp %x : tensor<?x8xf32>
  return %e : tensor<?x8xf32>
}

// -----

// and element types cs349 has no tensors of.
func.func @f64_argument(%x: tensor<4xf64>) -> tensor<4xf32> {
  // expected-error @+1 {{'arith.truncf' op reads a value of type 'tensor<4xf64>' from outside: a cs349 kernel reads only statically shaped float, i1, i32 or i64 tensors}}
  %f = arith.truncf %x : tensor<4xf64> to tensor<4xf32>
  return %f : tensor<4xf32>
}

// -----

// A batch of one: ops whose result has a leading unit dim (rank >= 3) run
// without it, so only the arguments and the result keep it; the reshapes a
// front end wrote to add or remove it (around tosa.matmul) cancel.
// CHECK-LABEL: func.func @unit_batch_dim
// CHECK: cs349.mul %{{.*}}, %{{.*}} : tensor<8x16xf32>
// CHECK: cs349.reduce_sum %{{.*}} axes = [1] keepdims : tensor<8x16xf32> -> tensor<8x1xf32>
// CHECK: cs349.rsqrt %{{.*}} : tensor<8x1xf32>
// CHECK: cs349.mul %{{.*}}, %{{.*}} : tensor<8x16xf32>, tensor<8x1xf32>
// CHECK: %[[Y:.*]] = cs349.mul %{{.*}}, %{{.*}} : tensor<8x16xf32>, tensor<1x16xf32>
// CHECK: %[[W:.*]] = cs349.reshape %arg2 : tensor<1x4x16xf32> -> tensor<4x16xf32>
// CHECK: %[[WT:.*]] = cs349.transpose %[[W]] perm = [1, 0] : tensor<4x16xf32> -> tensor<16x4xf32>
// CHECK: %[[MM:.*]] = cs349.matmul %[[Y]], %[[WT]] : tensor<8x16xf32>, tensor<16x4xf32> -> tensor<8x4xf32>
// CHECK: %[[OUT:.*]] = cs349.reshape %[[MM]] : tensor<8x4xf32> -> tensor<1x8x4xf32>
// CHECK: return %[[OUT]]
func.func @unit_batch_dim(%arg0: tensor<1x8x16xf32>, %arg1: tensor<16xf32>, %arg2: tensor<1x4x16xf32>) -> tensor<1x8x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %sq = tosa.mul %arg0, %arg0, %shift : (tensor<1x8x16xf32>, tensor<1x8x16xf32>, tensor<1xi8>) -> tensor<1x8x16xf32>
  %s = tosa.reduce_sum %sq {axis = 2 : i32} : (tensor<1x8x16xf32>) -> tensor<1x8x1xf32>
  %r = tosa.rsqrt %s : (tensor<1x8x1xf32>) -> tensor<1x8x1xf32>
  %n = tosa.mul %arg0, %r, %shift : (tensor<1x8x16xf32>, tensor<1x8x1xf32>, tensor<1xi8>) -> tensor<1x8x16xf32>
  %shape = tosa.const_shape {values = dense<[1, 1, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %g3 = tosa.reshape %arg1, %shape : (tensor<16xf32>, !tosa.shape<3>) -> tensor<1x1x16xf32>
  %y = tosa.mul %n, %g3, %shift : (tensor<1x8x16xf32>, tensor<1x1x16xf32>, tensor<1xi8>) -> tensor<1x8x16xf32>
  %wt = tosa.transpose %arg2 {perms = array<i32: 0, 2, 1>} : (tensor<1x4x16xf32>) -> tensor<1x16x4xf32>
  %mm = tosa.matmul %y, %wt, %zp, %zp : (tensor<1x8x16xf32>, tensor<1x16x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x4xf32>
  return %mm : tensor<1x8x4xf32>
}

// -----

// Comparisons, selects and casts with a batch of one run without it too: a
// padding mask over [1, T, T] scores is [T, T] like the scores.
// CHECK-LABEL: func.func @unit_dim_mask
// CHECK: %[[K:.*]] = cs349.reshape %keep : tensor<1x8x8xf32> -> tensor<8x8xf32>
// CHECK: %[[M:.*]] = cs349.compare gt %[[K]], %{{.*}} : tensor<8x8xf32>, tensor<1x1xf32> -> tensor<8x8xi1>
// CHECK: %[[S:.*]] = cs349.reshape %scores : tensor<1x8x8xf32> -> tensor<8x8xf32>
// CHECK: %[[SEL:.*]] = cs349.select %[[M]], %[[S]], %{{.*}} : tensor<8x8xi1>, tensor<8x8xf32>, tensor<1x1xf32> -> tensor<8x8xf32>
// CHECK: %[[H:.*]] = cs349.cast %[[SEL]] : tensor<8x8xf32> -> tensor<8x8xbf16>
// CHECK: cs349.reshape %[[H]] : tensor<8x8xbf16> -> tensor<1x8x8xbf16>
func.func @unit_dim_mask(%scores: tensor<1x8x8xf32>, %keep: tensor<1x8x8xf32>) -> tensor<1x8x8xbf16> {
  %half = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %ninf = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %m = tosa.greater %keep, %half : (tensor<1x8x8xf32>, tensor<1x1x1xf32>) -> tensor<1x8x8xi1>
  %s = tosa.select %m, %scores, %ninf : (tensor<1x8x8xi1>, tensor<1x8x8xf32>, tensor<1x1x1xf32>) -> tensor<1x8x8xf32>
  %h = tosa.cast %s : (tensor<1x8x8xf32>) -> tensor<1x8x8xbf16>
  return %h : tensor<1x8x8xbf16>
}

// -----

// A transpose whose result has its input's type (square dims) still has
// its permutation shifted.
// CHECK-LABEL: func.func @unit_dim_square_transpose
// CHECK: %[[X:.*]] = cs349.reshape %arg0 : tensor<1x8x8xf32> -> tensor<8x8xf32>
// CHECK: %[[T:.*]] = cs349.transpose %[[X]] perm = [1, 0] : tensor<8x8xf32> -> tensor<8x8xf32>
// CHECK: cs349.reshape %[[T]] : tensor<8x8xf32> -> tensor<1x8x8xf32>
func.func @unit_dim_square_transpose(%arg0: tensor<1x8x8xf32>) -> tensor<1x8x8xf32> {
  %t = tosa.transpose %arg0 {perms = array<i32: 0, 2, 1>} : (tensor<1x8x8xf32>) -> tensor<1x8x8xf32>
  return %t : tensor<1x8x8xf32>
}

// -----

// A batch of two, and a transpose that moves the unit dim, keep their
// dims.
// CHECK-LABEL: func.func @unit_dim_kept
// CHECK: cs349.exp %arg0 : tensor<2x8x16xf32>
// CHECK: cs349.transpose %arg1 perm = [1, 0, 2] : tensor<1x8x16xf32> -> tensor<8x1x16xf32>
func.func @unit_dim_kept(%arg0: tensor<2x8x16xf32>, %arg1: tensor<1x8x16xf32>) -> (tensor<2x8x16xf32>, tensor<8x1x16xf32>) {
  %e = tosa.exp %arg0 : (tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  %t = tosa.transpose %arg1 {perms = array<i32: 1, 0, 2>} : (tensor<1x8x16xf32>) -> tensor<8x1x16xf32>
  return %e, %t : tensor<2x8x16xf32>, tensor<8x1x16xf32>
}

// -----

// GQA as front ends write it: reshape to one more dim, a broadcasting add
// of zeros, reshape back is a repeat (here 2 key/value heads for 6 query
// heads, the zeros on either side, the merged heads with or without the
// batch of one).
// CHECK-LABEL: func.func @gqa_repeat
// CHECK: %[[K:.*]] = cs349.repeat %arg0 axis = 0 times = 3 : tensor<2x8x16xf32> -> tensor<6x8x16xf32>
// CHECK: %[[V:.*]] = cs349.repeat %arg0 axis = 0 times = 3 : tensor<2x8x16xf32> -> tensor<6x8x16xf32>
// CHECK: %[[V4:.*]] = cs349.reshape %[[V]] : tensor<6x8x16xf32> -> tensor<1x6x8x16xf32>
// CHECK: return %[[K]], %[[V4]]
func.func @gqa_repeat(%arg0: tensor<2x8x16xf32>) -> (tensor<6x8x16xf32>, tensor<1x6x8x16xf32>) {
  %zeros = "tosa.const"() <{values = dense<0.0> : tensor<2x3x8x16xf32>}> : () -> tensor<2x3x8x16xf32>
  %to4 = tosa.const_shape {values = dense<[2, 1, 8, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %to3 = tosa.const_shape {values = dense<[6, 8, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %batched = tosa.const_shape {values = dense<[1, 6, 8, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %k4 = tosa.reshape %arg0, %to4 : (tensor<2x8x16xf32>, !tosa.shape<4>) -> tensor<2x1x8x16xf32>
  %kb = tosa.add %k4, %zeros : (tensor<2x1x8x16xf32>, tensor<2x3x8x16xf32>) -> tensor<2x3x8x16xf32>
  %kr = tosa.reshape %kb, %to3 : (tensor<2x3x8x16xf32>, !tosa.shape<3>) -> tensor<6x8x16xf32>
  %vb = tosa.add %zeros, %k4 : (tensor<2x3x8x16xf32>, tensor<2x1x8x16xf32>) -> tensor<2x3x8x16xf32>
  %vr = tosa.reshape %vb, %batched : (tensor<2x3x8x16xf32>, !tosa.shape<4>) -> tensor<1x6x8x16xf32>
  return %kr, %vr : tensor<6x8x16xf32>, tensor<1x6x8x16xf32>
}

// -----

// Not a repeat: adding ones, and a reshape that does not merge the
// broadcast dim back into the heads.
// CHECK-LABEL: func.func @gqa_not_repeat
// CHECK-NOT: cs349.repeat
// CHECK: cs349.add %{{.*}}, %{{.*}} : tensor<2x1x8x16xf32>, tensor<2x3x8x16xf32>
// CHECK: cs349.add %{{.*}}, %{{.*}} : tensor<2x1x8x16xf32>, tensor<2x3x8x16xf32>
// CHECK: cs349.reshape %{{.*}} : tensor<2x3x8x16xf32> -> tensor<2x24x16xf32>
func.func @gqa_not_repeat(%arg0: tensor<2x8x16xf32>) -> (tensor<6x8x16xf32>, tensor<2x24x16xf32>) {
  %ones = "tosa.const"() <{values = dense<1.0> : tensor<2x3x8x16xf32>}> : () -> tensor<2x3x8x16xf32>
  %zeros = "tosa.const"() <{values = dense<0.0> : tensor<2x3x8x16xf32>}> : () -> tensor<2x3x8x16xf32>
  %to4 = tosa.const_shape {values = dense<[2, 1, 8, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %to3 = tosa.const_shape {values = dense<[6, 8, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %other = tosa.const_shape {values = dense<[2, 24, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %k4 = tosa.reshape %arg0, %to4 : (tensor<2x8x16xf32>, !tosa.shape<4>) -> tensor<2x1x8x16xf32>
  %kb = tosa.add %k4, %ones : (tensor<2x1x8x16xf32>, tensor<2x3x8x16xf32>) -> tensor<2x3x8x16xf32>
  %kr = tosa.reshape %kb, %to3 : (tensor<2x3x8x16xf32>, !tosa.shape<3>) -> tensor<6x8x16xf32>
  %vb = tosa.add %k4, %zeros : (tensor<2x1x8x16xf32>, tensor<2x3x8x16xf32>) -> tensor<2x3x8x16xf32>
  %vr = tosa.reshape %vb, %other : (tensor<2x3x8x16xf32>, !tosa.shape<3>) -> tensor<2x24x16xf32>
  return %kr, %vr : tensor<6x8x16xf32>, tensor<2x24x16xf32>
}

// -----

#rows = affine_map<(d0, d1) -> (d0, d1)>
#scalar = affine_map<(d0, d1) -> ()>
#keep = affine_map<(d0, d1) -> (d0, 0)>
// A fill of a float constant is a splat constant; a scale given as a
// tensor<f64> input is read as a scalar; a reduction written at a constant
// 0 (keepdims) is a reduce_sum reshaped back, its fill init the identity.
// CHECK-LABEL: func.func @fills_and_scalars
// CHECK-DAG: %[[HALF:.*]] = cs349.constant dense<5.000000e-01> : tensor<f32>
// CHECK-DAG: %[[ZEROS:.*]] = cs349.constant dense<0.000000e+00> : tensor<4x8xf32>
// CHECK: %[[SCALED:.*]] = cs349.mul %x, %[[HALF]] : tensor<4x8xf32>, tensor<f32>
// CHECK: %[[SUM:.*]] = cs349.reduce_sum %x axes = [1] : tensor<4x8xf32> -> tensor<4xf32>
// CHECK: %[[KEPT:.*]] = cs349.reshape %[[SUM]] : tensor<4xf32> -> tensor<4x1xf32>
// CHECK: return %[[ZEROS]], %[[SCALED]], %[[KEPT]]
// CHECK-NOT: cs349.kernel
func.func @fills_and_scalars(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x1xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %zeros = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %half = arith.constant dense<0.5> : tensor<f64>
  %scaled = linalg.generic {indexing_maps = [#rows, #scalar, #rows], iterator_types = ["parallel", "parallel"]} ins(%x, %half : tensor<4x8xf32>, tensor<f64>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %h: f64, %o: f32):
    %t = arith.truncf %h : f64 to f32
    %m = arith.mulf %a, %t : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  %e1 = tensor.empty() : tensor<4x1xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4x1xf32>) -> tensor<4x1xf32>
  %sum = linalg.generic {indexing_maps = [#rows, #keep], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%init : tensor<4x1xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4x1xf32>
  return %zeros, %scaled, %sum : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x1xf32>
}

// -----

// sin and cos on whole tensors (positional encodings computed in the graph).
// CHECK-LABEL: func.func @sin_cos
// CHECK-NEXT: %[[S:.*]] = cs349.sin %x : tensor<4x8xf32>
// CHECK-NEXT: %[[C:.*]] = cs349.cos %x : tensor<4x8xf32>
// CHECK-NEXT: return %[[S]], %[[C]]
func.func @sin_cos(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %s = math.sin %x : tensor<4x8xf32>
  %c = math.cos %x : tensor<4x8xf32>
  return %s, %c : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// A tile whose result type is not its input's shape times its multiples
// (TOSA's verifier lets it through; its lowering would not verify).
func.func @tile_of_the_wrong_shape(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %multiples = tosa.const_shape {values = dense<[2, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  // expected-error @+1 {{'tosa.tile' op has the result type 'tensor<4x8xf32>' where its input and multiples give 'tensor<8x8xf32>'}}
  %r = tosa.tile %x, %multiples : (tensor<4x8xf32>, !tosa.shape<2>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// A matmul of different batches (TOSA's verifier lets it through; TOSA
// multiplies equal batches, and its lowering would not verify): an error,
// not a broadcast.
func.func @matmul_of_different_batches(%x: tensor<2x8x16xf32>, %w: tensor<1x16x16xf32>) -> tensor<2x8x16xf32> {
  %zero = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  // expected-error @+1 {{'tosa.matmul' op multiplies a batch of 2 by a batch of 1: TOSA's matmul needs equal batches}}
  %m = tosa.matmul %x, %w, %zero, %zero : (tensor<2x8x16xf32>, tensor<1x16x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x16xf32>
  return %m : tensor<2x8x16xf32>
}
