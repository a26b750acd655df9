// Masks built in the graph from iota / compare / select, as front ends
// write them (buddy-mlir's causal + padding mask), feeding attention or
// returned. Only the provably causal ones become cs349.causal_mask; the
// others stay data.

// The causal mask with finfo.min as buddy-mlir builds it (key j visible from
// query i iff j < i + 1), plus a padding mask from an all-true attention
// mask (1 - cast(mask) selected to finfo.min: all zeros), added to the
// scaled scores.
#m1 = affine_map<(d0, d1, d2) -> (d1)>
#m2 = affine_map<(d0, d1, d2) -> (d0, d2)>
#m3 = affine_map<(d0, d1, d2) -> (d0, d1)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @causal_built(%q: tensor<1x2x4x8xf32>, %k: tensor<1x2x4x8xf32>, %v: tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %true = arith.constant dense<true> : tensor<1x4xi1>
  %lowest = arith.constant dense<-3.40282347E+38> : tensor<4x4xf32>
  %iota = "tosa.const"() <{values = dense<[0, 1, 2, 3]> : tensor<4xi64>}> : () -> tensor<4xi64>
  %ones = "tosa.const"() <{values = dense<1> : tensor<4xi64>}> : () -> tensor<4xi64>
  %next = tosa.add %iota, %ones : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
  %s0 = tosa.const_shape {values = dense<[4, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %col = tosa.reshape %next, %s0 : (tensor<4xi64>, !tosa.shape<2>) -> tensor<4x1xi64>
  %eb = tensor.empty() : tensor<4x4xi1>
  %visible = linalg.generic {indexing_maps = [#m1, #m2, #m3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%iota, %col : tensor<4xi64>, tensor<4x1xi64>) outs(%eb : tensor<4x4xi1>) {
  ^bb0(%j: i64, %i1: i64, %o: i1):
    %c = arith.cmpi slt, %j, %i1 : i64
    linalg.yield %c : i1
  } -> tensor<4x4xi1>
  %zero = arith.constant 0.000000e+00 : f32
  %ef = tensor.empty() : tensor<4x4xf32>
  %causal = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%visible, %lowest : tensor<4x4xi1>, tensor<4x4xf32>) outs(%ef : tensor<4x4xf32>) {
  ^bb0(%b: i1, %l: f32, %o: f32):
    %x = arith.select %b, %zero, %l : f32
    linalg.yield %x : f32
  } -> tensor<4x4xf32>
  %s1 = tosa.const_shape {values = dense<[1, 1, 1, 4]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %pad1 = tosa.reshape %true, %s1 : (tensor<1x4xi1>, !tosa.shape<4>) -> tensor<1x1x1x4xi1>
  %falses = "tosa.const"() <{values = dense<false> : tensor<1x1x4x4xi1>}> : () -> tensor<1x1x4x4xi1>
  %pad2 = tosa.add %pad1, %falses : (tensor<1x1x1x4xi1>, tensor<1x1x4x4xi1>) -> tensor<1x1x4x4xi1>
  %padf = tosa.cast %pad2 : (tensor<1x1x4x4xi1>) -> tensor<1x1x4x4xf32>
  %onef = "tosa.const"() <{values = dense<1.000000e+00> : tensor<1x1x4x4xf32>}> : () -> tensor<1x1x4x4xf32>
  %inv = tosa.sub %onef, %padf : (tensor<1x1x4x4xf32>, tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
  %invb = tosa.cast %inv : (tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xi1>
  %minf = arith.constant -3.40282347E+38 : f32
  %e4 = tensor.empty() : tensor<1x1x4x4xf32>
  %padding = linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%invb, %inv : tensor<1x1x4x4xi1>, tensor<1x1x4x4xf32>) outs(%e4 : tensor<1x1x4x4xf32>) {
  ^bb0(%b: i1, %x: f32, %o: f32):
    %y = arith.select %b, %minf, %x : f32
    linalg.yield %y : f32
  } -> tensor<1x1x4x4xf32>
  %s2 = tosa.const_shape {values = dense<[1, 1, 4, 4]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %causal4 = tosa.reshape %causal, %s2 : (tensor<4x4xf32>, !tosa.shape<4>) -> tensor<1x1x4x4xf32>
  %mask = tosa.add %padding, %causal4 : (tensor<1x1x4x4xf32>, tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 1, 3, 2>} : (tensor<1x2x4x8xf32>) -> tensor<1x2x8x4xf32>
  %shq = tosa.const_shape {values = dense<[2, 4, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %shk = tosa.const_shape {values = dense<[2, 8, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %q3 = tosa.reshape %q, %shq : (tensor<1x2x4x8xf32>, !tosa.shape<3>) -> tensor<2x4x8xf32>
  %kt3 = tosa.reshape %kt, %shk : (tensor<1x2x8x4xf32>, !tosa.shape<3>) -> tensor<2x8x4xf32>
  %s = tosa.matmul %q3, %kt3, %zp, %zp : (tensor<2x4x8xf32>, tensor<2x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x4x4xf32>
  %sh4 = tosa.const_shape {values = dense<[1, 2, 4, 4]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s4 = tosa.reshape %s, %sh4 : (tensor<2x4x4xf32>, !tosa.shape<4>) -> tensor<1x2x4x4xf32>
  %c = "tosa.const"() <{values = dense<0.353553385> : tensor<1x2x4x4xf32>}> : () -> tensor<1x2x4x4xf32>
  %ss = tosa.mul %s4, %c, %shift : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1xi8>) -> tensor<1x2x4x4xf32>
  %sm = tosa.add %ss, %mask : (tensor<1x2x4x4xf32>, tensor<1x1x4x4xf32>) -> tensor<1x2x4x4xf32>
  %m = tosa.reduce_max %sm {axis = 3 : i32} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x1xf32>
  %d = tosa.sub %sm, %m : (tensor<1x2x4x4xf32>, tensor<1x2x4x1xf32>) -> tensor<1x2x4x4xf32>
  %e = tosa.exp %d : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %sum = tosa.reduce_sum %e {axis = 3 : i32} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x1xf32>
  %r = tosa.reciprocal %sum : (tensor<1x2x4x1xf32>) -> tensor<1x2x4x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<1x2x4x4xf32>, tensor<1x2x4x1xf32>, tensor<1xi8>) -> tensor<1x2x4x4xf32>
  %shp = tosa.const_shape {values = dense<[2, 4, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %p3 = tosa.reshape %p, %shp : (tensor<1x2x4x4xf32>, !tosa.shape<3>) -> tensor<2x4x4xf32>
  %v3 = tosa.reshape %v, %shq : (tensor<1x2x4x8xf32>, !tosa.shape<3>) -> tensor<2x4x8xf32>
  %o = tosa.matmul %p3, %v3, %zp, %zp : (tensor<2x4x4xf32>, tensor<2x4x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x4x8xf32>
  %to4 = tosa.const_shape {values = dense<[1, 2, 4, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %o4 = tosa.reshape %o, %to4 : (tensor<2x4x8xf32>, !tosa.shape<4>) -> tensor<1x2x4x8xf32>
  return %o4 : tensor<1x2x4x8xf32>
}

// -----

// The causal mask with -inf, written with linalg.index (no iota constant)
// and returned: it is causal_mask itself, the same numbers.
#id2b = affine_map<(d0, d1) -> (d0, d1)>
func.func @causal_index_neg_inf() -> tensor<1x1x6x6xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<6x6xf32>
  %mask = linalg.generic {indexing_maps = [#id2b], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<6x6xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %hide = arith.cmpi ugt, %j, %i : index
    %x = arith.select %hide, %ninf, %zero : f32
    linalg.yield %x : f32
  } -> tensor<6x6xf32>
  %r = tensor.expand_shape %mask [[0, 1, 2], [3]] output_shape [1, 1, 6, 6] : tensor<6x6xf32> into tensor<1x1x6x6xf32>
  return %r : tensor<1x1x6x6xf32>
}

// -----

// The causal mask in TOSA alone (TFLite's spelling): key j is hidden from
// query i iff j > i, tosa.greater on two iotas and tosa.select of -inf or 0.
func.func @tosa_greater_select() -> tensor<1x5x5xf32> {
  %j = "tosa.const"() <{values = dense<[[0, 1, 2, 3, 4]]> : tensor<1x5xi32>}> : () -> tensor<1x5xi32>
  %i = "tosa.const"() <{values = dense<[[0], [1], [2], [3], [4]]> : tensor<5x1xi32>}> : () -> tensor<5x1xi32>
  %future = tosa.greater %j, %i : (tensor<1x5xi32>, tensor<5x1xi32>) -> tensor<5x5xi1>
  %ninf = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %zero = "tosa.const"() <{values = dense<0.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %m = tosa.select %future, %ninf, %zero : (tensor<5x5xi1>, tensor<1x1xf32>, tensor<1x1xf32>) -> tensor<5x5xf32>
  %s = tosa.const_shape {values = dense<[1, 5, 5]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %r = tosa.reshape %m, %s : (tensor<5x5xf32>, !tosa.shape<3>) -> tensor<1x5x5xf32>
  return %r : tensor<1x5x5xf32>
}

// -----

// A sliding window of 3 keys (Mistral's): visible iff i - 3 < j <= i.
#id2c = affine_map<(d0, d1) -> (d0, d1)>
func.func @sliding_window_built() -> tensor<6x6xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %lowest = arith.constant -3.40282347E+38 : f32
  %c3 = arith.constant 3 : index
  %e = tensor.empty() : tensor<6x6xf32>
  %mask = linalg.generic {indexing_maps = [#id2c], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<6x6xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %past = arith.cmpi sle, %j, %i : index
    %jw = arith.addi %j, %c3 : index
    %near = arith.cmpi sgt, %jw, %i : index
    %vis = arith.andi %past, %near : i1
    %x = arith.select %vis, %zero, %lowest : f32
    linalg.yield %x : f32
  } -> tensor<6x6xf32>
  return %mask : tensor<6x6xf32>
}

// -----

// The same window with finfo.min in front of a softmax: attention with
// mask = sliding_window window = 3.
#id2w = affine_map<(d0, d1) -> (d0, d1)>
func.func @sliding_window_attention(%q: tensor<2x6x8xf32>, %k: tensor<2x6x8xf32>, %v: tensor<2x6x8xf32>) -> tensor<2x6x8xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %zero = arith.constant 0.000000e+00 : f32
  %lowest = arith.constant -3.40282347E+38 : f32
  %c3 = arith.constant 3 : index
  %e = tensor.empty() : tensor<6x6xf32>
  %mask = linalg.generic {indexing_maps = [#id2w], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<6x6xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %past = arith.cmpi sle, %j, %i : index
    %jw = arith.addi %j, %c3 : index
    %near = arith.cmpi sgt, %jw, %i : index
    %vis = arith.andi %past, %near : i1
    %x = arith.select %vis, %zero, %lowest : f32
    linalg.yield %x : f32
  } -> tensor<6x6xf32>
  %sh = tosa.const_shape {values = dense<[1, 6, 6]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %mask3 = tosa.reshape %mask, %sh : (tensor<6x6xf32>, !tosa.shape<3>) -> tensor<1x6x6xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x6x8xf32>) -> tensor<2x8x6xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x6x8xf32>, tensor<2x8x6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x6x6xf32>
  %sm = tosa.add %s, %mask3 : (tensor<2x6x6xf32>, tensor<1x6x6xf32>) -> tensor<2x6x6xf32>
  %m = tosa.reduce_max %sm {axis = 2 : i32} : (tensor<2x6x6xf32>) -> tensor<2x6x1xf32>
  %d = tosa.sub %sm, %m : (tensor<2x6x6xf32>, tensor<2x6x1xf32>) -> tensor<2x6x6xf32>
  %ex = tosa.exp %d : (tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
  %sum = tosa.reduce_sum %ex {axis = 2 : i32} : (tensor<2x6x6xf32>) -> tensor<2x6x1xf32>
  %r = tosa.reciprocal %sum : (tensor<2x6x1xf32>) -> tensor<2x6x1xf32>
  %p = tosa.mul %ex, %r, %shift : (tensor<2x6x6xf32>, tensor<2x6x1xf32>, tensor<1xi8>) -> tensor<2x6x6xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<2x6x6xf32>, tensor<2x6x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x6x8xf32>
  return %o : tensor<2x6x8xf32>
}

// -----

// Negative: j < i hides the diagonal too (query 0 sees nothing), so the
// mask is not causal and stays data (an opaque kernel).
#id2d = affine_map<(d0, d1) -> (d0, d1)>
func.func @strictly_lower_not_causal() -> tensor<6x6xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<6x6xf32>
  %mask = linalg.generic {indexing_maps = [#id2d], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<6x6xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %vis = arith.cmpi slt, %j, %i : index
    %x = arith.select %vis, %zero, %ninf : f32
    linalg.yield %x : f32
  } -> tensor<6x6xf32>
  return %mask : tensor<6x6xf32>
}

// -----

// Negative: hiding with -1e4 (not -inf, not finfo.min) can leak weight to
// hidden keys when scores are large: it stays data.
#id2e = affine_map<(d0, d1) -> (d0, d1)>
func.func @soft_hiding_not_causal() -> tensor<6x6xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %big = arith.constant -1.000000e+04 : f32
  %e = tensor.empty() : tensor<6x6xf32>
  %mask = linalg.generic {indexing_maps = [#id2e], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<6x6xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %vis = arith.cmpi sle, %j, %i : index
    %x = arith.select %vis, %zero, %big : f32
    linalg.yield %x : f32
  } -> tensor<6x6xf32>
  return %mask : tensor<6x6xf32>
}

// -----

// Negative: a padding mask from an argument (the positions a batch pads)
// is runtime data: nothing to evaluate, it stays as it is.
#id2f = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @padding_from_argument(%keep: tensor<6xf32>) -> tensor<6x6xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<6x6xf32>
  %mask = linalg.generic {indexing_maps = [#col, #id2f], iterator_types = ["parallel", "parallel"]} ins(%keep : tensor<6xf32>) outs(%e : tensor<6x6xf32>) {
  ^bb0(%k: f32, %o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %past = arith.cmpi sle, %j, %i : index
    %kept = arith.cmpf ogt, %k, %zero : f32
    %vis = arith.andi %past, %kept : i1
    %x = arith.select %vis, %zero, %ninf : f32
    linalg.yield %x : f32
  } -> tensor<6x6xf32>
  return %mask : tensor<6x6xf32>
}
