// Attention cores in the spellings front ends write, one function each (the
// split lines let cs349-opt -split-input-file check them one by one;
// cs349-run runs them from the whole file with --function). Negative cases
// (softmax look-alikes, masks that are not causal) sit beside the positive
// ones.

// LLaMA's core as buddy-mlir writes it: kᵀ given as an argument, the scale
// as a multiply by the reciprocal of a constant, an additive mask argument
// after the scale, softmax divided by reciprocal · mul.
func.func @additive_reciprocal_scale(%q: tensor<2x4x8xf32>, %kt: tensor<2x8x4xf32>, %mask: tensor<1x1x4x4xf32>, %v: tensor<1x2x4x8xf32>) -> tensor<2x4x8xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x4x8xf32>, tensor<2x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x4x4xf32>
  %sh4 = tosa.const_shape {values = dense<[1, 2, 4, 4]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s4 = tosa.reshape %s, %sh4 : (tensor<2x4x4xf32>, !tosa.shape<4>) -> tensor<1x2x4x4xf32>
  %c = "tosa.const"() <{values = dense<2.82842708> : tensor<1x2x4x4xf32>}> : () -> tensor<1x2x4x4xf32>
  %rc = tosa.reciprocal %c : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %ss = tosa.mul %s4, %rc, %shift : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1xi8>) -> tensor<1x2x4x4xf32>
  %sm = tosa.add %ss, %mask : (tensor<1x2x4x4xf32>, tensor<1x1x4x4xf32>) -> tensor<1x2x4x4xf32>
  %m = tosa.reduce_max %sm {axis = 3 : i32} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x1xf32>
  %d = tosa.sub %sm, %m : (tensor<1x2x4x4xf32>, tensor<1x2x4x1xf32>) -> tensor<1x2x4x4xf32>
  %e = tosa.exp %d : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %sum = tosa.reduce_sum %e {axis = 3 : i32} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x1xf32>
  %r = tosa.reciprocal %sum : (tensor<1x2x4x1xf32>) -> tensor<1x2x4x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<1x2x4x4xf32>, tensor<1x2x4x1xf32>, tensor<1xi8>) -> tensor<1x2x4x4xf32>
  %sh3 = tosa.const_shape {values = dense<[2, 4, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %p3 = tosa.reshape %p, %sh3 : (tensor<1x2x4x4xf32>, !tosa.shape<3>) -> tensor<2x4x4xf32>
  %shv = tosa.const_shape {values = dense<[2, 4, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v3 = tosa.reshape %v, %shv : (tensor<1x2x4x8xf32>, !tosa.shape<3>) -> tensor<2x4x8xf32>
  %o = tosa.matmul %p3, %v3, %zp, %zp : (tensor<2x4x4xf32>, tensor<2x4x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x4x8xf32>
  return %o : tensor<2x4x8xf32>
}

// -----

// The decode step's core: kᵀ as a 4-D transpose, the scale as a splat of an
// arith constant, softmax as log-sum-exp exp(s - (m + log Σ exp(s - m)))
// with math.exp on whole tensors and tosa.log.
func.func @log_sum_exp(%q: tensor<1x2x4x8xf32>, %k: tensor<1x2x4x8xf32>, %v: tensor<1x2x4x8xf32>, %mask: tensor<1x1x4x4xf32>) -> tensor<2x4x8xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %kt = tosa.transpose %k {perms = array<i32: 0, 1, 3, 2>} : (tensor<1x2x4x8xf32>) -> tensor<1x2x8x4xf32>
  %shq = tosa.const_shape {values = dense<[2, 4, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %shk = tosa.const_shape {values = dense<[2, 8, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %q3 = tosa.reshape %q, %shq : (tensor<1x2x4x8xf32>, !tosa.shape<3>) -> tensor<2x4x8xf32>
  %kt3 = tosa.reshape %kt, %shk : (tensor<1x2x8x4xf32>, !tosa.shape<3>) -> tensor<2x8x4xf32>
  %s = tosa.matmul %q3, %kt3, %zp, %zp : (tensor<2x4x8xf32>, tensor<2x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x4x4xf32>
  %cst = arith.constant 0.353553385 : f32
  %splat = tensor.splat %cst : tensor<2x4x4xf32>
  %ss = tosa.mul %s, %splat, %shift : (tensor<2x4x4xf32>, tensor<2x4x4xf32>, tensor<1xi8>) -> tensor<2x4x4xf32>
  %shm = tosa.const_shape {values = dense<[1, 4, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %mask3 = tosa.reshape %mask, %shm : (tensor<1x1x4x4xf32>, !tosa.shape<3>) -> tensor<1x4x4xf32>
  %sm = tosa.add %ss, %mask3 : (tensor<2x4x4xf32>, tensor<1x4x4xf32>) -> tensor<2x4x4xf32>
  %m = tosa.reduce_max %sm {axis = 2 : i32} : (tensor<2x4x4xf32>) -> tensor<2x4x1xf32>
  %d = tosa.sub %sm, %m : (tensor<2x4x4xf32>, tensor<2x4x1xf32>) -> tensor<2x4x4xf32>
  %e = math.exp %d : tensor<2x4x4xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<2x4x4xf32>) -> tensor<2x4x1xf32>
  %l = tosa.log %sum : (tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
  %lse = tosa.add %m, %l : (tensor<2x4x1xf32>, tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
  %d2 = tosa.sub %sm, %lse : (tensor<2x4x4xf32>, tensor<2x4x1xf32>) -> tensor<2x4x4xf32>
  %p = math.exp %d2 : tensor<2x4x4xf32>
  %v3 = tosa.reshape %v, %shq : (tensor<1x2x4x8xf32>, !tosa.shape<3>) -> tensor<2x4x8xf32>
  %o = tosa.matmul %p, %v3, %zp, %zp : (tensor<2x4x4xf32>, tensor<2x4x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x4x8xf32>
  return %o : tensor<2x4x8xf32>
}

// -----

// Negative: a log-sum-exp look-alike that adds back another row's
// statistic (the row sum instead of the row maximum) is not a softmax.
func.func @not_log_sum_exp(%s: tensor<2x4x4xf32>, %v: tensor<2x4x8xf32>) -> tensor<2x4x8xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %m = tosa.reduce_max %s {axis = 2 : i32} : (tensor<2x4x4xf32>) -> tensor<2x4x1xf32>
  %d = tosa.sub %s, %m : (tensor<2x4x4xf32>, tensor<2x4x1xf32>) -> tensor<2x4x4xf32>
  %e = tosa.exp %d : (tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<2x4x4xf32>) -> tensor<2x4x1xf32>
  %l = tosa.log %sum : (tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
  %lse = tosa.add %sum, %l : (tensor<2x4x1xf32>, tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
  %d2 = tosa.sub %s, %lse : (tensor<2x4x4xf32>, tensor<2x4x1xf32>) -> tensor<2x4x4xf32>
  %p = tosa.exp %d2 : (tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<2x4x4xf32>, tensor<2x4x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x4x8xf32>
  return %o : tensor<2x4x8xf32>
}

// -----

// The scale as a multiply by a 1-element constant reshaped to rank 3, after
// an additive mask (the mask operand is then scaled too); reciprocal · mul.
func.func @reshaped_scale_after_mask(%q: tensor<2x4x8xf32>, %k: tensor<2x4x8xf32>, %v: tensor<2x4x8xf32>, %mask: tensor<4x4xf32>) -> tensor<2x4x8xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x4x8xf32>) -> tensor<2x8x4xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x4x8xf32>, tensor<2x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x4x4xf32>
  %shm = tosa.const_shape {values = dense<[1, 4, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %mask3 = tosa.reshape %mask, %shm : (tensor<4x4xf32>, !tosa.shape<3>) -> tensor<1x4x4xf32>
  %sm = tosa.add %s, %mask3 : (tensor<2x4x4xf32>, tensor<1x4x4xf32>) -> tensor<2x4x4xf32>
  %c1 = "tosa.const"() <{values = dense<0.353553385> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shc = tosa.const_shape {values = dense<[1, 1, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %c = tosa.reshape %c1, %shc : (tensor<1xf32>, !tosa.shape<3>) -> tensor<1x1x1xf32>
  %ss = tosa.mul %sm, %c, %shift : (tensor<2x4x4xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x4x4xf32>
  %m = tosa.reduce_max %ss {axis = 2 : i32} : (tensor<2x4x4xf32>) -> tensor<2x4x1xf32>
  %d = tosa.sub %ss, %m : (tensor<2x4x4xf32>, tensor<2x4x1xf32>) -> tensor<2x4x4xf32>
  %e = tosa.exp %d : (tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<2x4x4xf32>) -> tensor<2x4x1xf32>
  %r = tosa.reciprocal %sum : (tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<2x4x4xf32>, tensor<2x4x1xf32>, tensor<1xi8>) -> tensor<2x4x4xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<2x4x4xf32>, tensor<2x4x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x4x8xf32>
  return %o : tensor<2x4x8xf32>
}

// -----

// linalg as torch-mlir writes it: transposed-B batch_matmul, the scale as
// divf by a constant truncated from f64, the row max (maxnumf, init
// -3.4e38) and sum reduced away and broadcast back by the maps, divf.
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @linalg_divf(%q: tensor<2x4x8xf32>, %k: tensor<2x4x8xf32>, %v: tensor<2x4x8xf32>) -> tensor<2x4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %lowest = arith.constant -3.40282347E+38 : f32
  %e3 = tensor.empty() : tensor<2x4x4xf32>
  %e2 = tensor.empty() : tensor<2x4xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>] ins(%q, %k : tensor<2x4x8xf32>, tensor<2x4x8xf32>) outs(%z3 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %ss = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<2x4x4xf32>) outs(%e3 : tensor<2x4x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c = arith.constant 2.8284271247461903 : f64
    %t = arith.truncf %c : f64 to f32
    %r = arith.divf %a, %t : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  %fm = linalg.fill ins(%lowest : f32) outs(%e2 : tensor<2x4xf32>) -> tensor<2x4xf32>
  %m = linalg.generic {indexing_maps = [#id3, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ss : tensor<2x4x4xf32>) outs(%fm : tensor<2x4xf32>) {
  ^bb0(%a: f32, %b: f32):
    %x = arith.maxnumf %a, %b : f32
    linalg.yield %x : f32
  } -> tensor<2x4xf32>
  %ex = linalg.generic {indexing_maps = [#id3, #row, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ss, %m : tensor<2x4x4xf32>, tensor<2x4xf32>) outs(%e3 : tensor<2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %x = arith.subf %a, %b : f32
    %y = math.exp %x : f32
    linalg.yield %y : f32
  } -> tensor<2x4x4xf32>
  %fs = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x4xf32>) -> tensor<2x4xf32>
  %sum = linalg.generic {indexing_maps = [#id3, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ex : tensor<2x4x4xf32>) outs(%fs : tensor<2x4xf32>) {
  ^bb0(%a: f32, %b: f32):
    %x = arith.addf %a, %b : f32
    linalg.yield %x : f32
  } -> tensor<2x4xf32>
  %p = linalg.generic {indexing_maps = [#id3, #row, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ex, %sum : tensor<2x4x4xf32>, tensor<2x4xf32>) outs(%e3 : tensor<2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %x = arith.divf %a, %b : f32
    linalg.yield %x : f32
  } -> tensor<2x4x4xf32>
  %z8 = tensor.empty() : tensor<2x4x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%z8 : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x4x4xf32>, tensor<2x4x8xf32>) outs(%zo : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  return %o : tensor<2x4x8xf32>
}

// -----

// IREE's softmax_maxnumf spelling between the matmuls: maxnumf with init
// -3.4e38, the reciprocal as divf 1 / sum, times the exponentials; the scale
// as a multiply by a splat constant tensor.
#id3b = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#rowb = affine_map<(d0, d1, d2) -> (d0, d1)>
#row2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @linalg_reciprocal_mul(%q: tensor<2x4x8xf32>, %k: tensor<2x4x8xf32>, %v: tensor<2x4x8xf32>) -> tensor<2x4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant dense<0.353553385> : tensor<2x4x4xf32>
  %e3 = tensor.empty() : tensor<2x4x4xf32>
  %e2 = tensor.empty() : tensor<2x4xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>] ins(%q, %k : tensor<2x4x8xf32>, tensor<2x4x8xf32>) outs(%z3 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %ss = linalg.mul ins(%s, %scale : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%e3 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%e2 : tensor<2x4xf32>) -> tensor<2x4xf32>
  %m = linalg.generic {indexing_maps = [#id3b, #rowb], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ss : tensor<2x4x4xf32>) outs(%fm : tensor<2x4xf32>) {
  ^bb0(%a: f32, %b: f32):
    %x = arith.maximumf %b, %a : f32
    linalg.yield %x : f32
  } -> tensor<2x4xf32>
  %sub = linalg.generic {indexing_maps = [#id3b, #rowb, #id3b], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ss, %m : tensor<2x4x4xf32>, tensor<2x4xf32>) outs(%e3 : tensor<2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %x = arith.subf %a, %b : f32
    linalg.yield %x : f32
  } -> tensor<2x4x4xf32>
  %ex = linalg.generic {indexing_maps = [#id3b, #id3b], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sub : tensor<2x4x4xf32>) outs(%e3 : tensor<2x4x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %x = math.exp %a : f32
    linalg.yield %x : f32
  } -> tensor<2x4x4xf32>
  %fs = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x4xf32>) -> tensor<2x4xf32>
  %sum = linalg.generic {indexing_maps = [#id3b, #rowb], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ex : tensor<2x4x4xf32>) outs(%fs : tensor<2x4xf32>) {
  ^bb0(%a: f32, %b: f32):
    %x = arith.addf %b, %a : f32
    linalg.yield %x : f32
  } -> tensor<2x4xf32>
  %rcp = linalg.generic {indexing_maps = [#row2, #row2], iterator_types = ["parallel", "parallel"]} ins(%sum : tensor<2x4xf32>) outs(%e2 : tensor<2x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %x = arith.divf %one, %a : f32
    linalg.yield %x : f32
  } -> tensor<2x4xf32>
  %p = linalg.generic {indexing_maps = [#id3b, #rowb, #id3b], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ex, %rcp : tensor<2x4x4xf32>, tensor<2x4xf32>) outs(%e3 : tensor<2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %x = arith.mulf %a, %b : f32
    linalg.yield %x : f32
  } -> tensor<2x4x4xf32>
  %z8 = tensor.empty() : tensor<2x4x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%z8 : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x4x4xf32>, tensor<2x4x8xf32>) outs(%zo : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  return %o : tensor<2x4x8xf32>
}

// -----

// Negative (IREE's not_softmax_wrong_max_init, static): the row "max" starts
// at 0.0, so it is max(0, max(s)), which is not the softmax shift; the
// result is still exp(s - m) / Σ, but the matcher must not assume it.
#id3c = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#rowc = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @not_softmax_wrong_max_init(%s: tensor<2x4x4xf32>, %v: tensor<2x4x8xf32>) -> tensor<2x4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e3 = tensor.empty() : tensor<2x4x4xf32>
  %e2 = tensor.empty() : tensor<2x4xf32>
  %fm = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x4xf32>) -> tensor<2x4xf32>
  %m = linalg.generic {indexing_maps = [#id3c, #rowc], iterator_types = ["parallel", "parallel", "reduction"]} ins(%s : tensor<2x4x4xf32>) outs(%fm : tensor<2x4xf32>) {
  ^bb0(%a: f32, %b: f32):
    %x = arith.maximumf %a, %b : f32
    linalg.yield %x : f32
  } -> tensor<2x4xf32>
  %ex = linalg.generic {indexing_maps = [#id3c, #rowc, #id3c], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %m : tensor<2x4x4xf32>, tensor<2x4xf32>) outs(%e3 : tensor<2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %x = arith.subf %a, %b : f32
    %y = math.exp %x : f32
    linalg.yield %y : f32
  } -> tensor<2x4x4xf32>
  %fs = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x4xf32>) -> tensor<2x4xf32>
  %sum = linalg.generic {indexing_maps = [#id3c, #rowc], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ex : tensor<2x4x4xf32>) outs(%fs : tensor<2x4xf32>) {
  ^bb0(%a: f32, %b: f32):
    %x = arith.addf %a, %b : f32
    linalg.yield %x : f32
  } -> tensor<2x4xf32>
  %p = linalg.generic {indexing_maps = [#id3c, #rowc, #id3c], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ex, %sum : tensor<2x4x4xf32>, tensor<2x4xf32>) outs(%e3 : tensor<2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %x = arith.divf %a, %b : f32
    linalg.yield %x : f32
  } -> tensor<2x4x4xf32>
  %z8 = tensor.empty() : tensor<2x4x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%z8 : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x4x4xf32>, tensor<2x4x8xf32>) outs(%zo : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  return %o : tensor<2x4x8xf32>
}

// -----

// Negative (IREE's not_softmax_mismatched_source, static): the max is taken
// over one tensor and subtracted from another.
#id3d = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#rowd = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @not_softmax_mismatched_source(%s: tensor<2x4x4xf32>, %other: tensor<2x4x4xf32>, %v: tensor<2x4x8xf32>) -> tensor<2x4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %lowest = arith.constant -3.40282347E+38 : f32
  %e3 = tensor.empty() : tensor<2x4x4xf32>
  %e2 = tensor.empty() : tensor<2x4xf32>
  %fm = linalg.fill ins(%lowest : f32) outs(%e2 : tensor<2x4xf32>) -> tensor<2x4xf32>
  %m = linalg.generic {indexing_maps = [#id3d, #rowd], iterator_types = ["parallel", "parallel", "reduction"]} ins(%s : tensor<2x4x4xf32>) outs(%fm : tensor<2x4xf32>) {
  ^bb0(%a: f32, %b: f32):
    %x = arith.maximumf %a, %b : f32
    linalg.yield %x : f32
  } -> tensor<2x4xf32>
  %ex = linalg.generic {indexing_maps = [#id3d, #rowd, #id3d], iterator_types = ["parallel", "parallel", "parallel"]} ins(%other, %m : tensor<2x4x4xf32>, tensor<2x4xf32>) outs(%e3 : tensor<2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %x = arith.subf %a, %b : f32
    %y = math.exp %x : f32
    linalg.yield %y : f32
  } -> tensor<2x4x4xf32>
  %fs = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x4xf32>) -> tensor<2x4xf32>
  %sum = linalg.generic {indexing_maps = [#id3d, #rowd], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ex : tensor<2x4x4xf32>) outs(%fs : tensor<2x4xf32>) {
  ^bb0(%a: f32, %b: f32):
    %x = arith.addf %a, %b : f32
    linalg.yield %x : f32
  } -> tensor<2x4xf32>
  %p = linalg.generic {indexing_maps = [#id3d, #rowd, #id3d], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ex, %sum : tensor<2x4x4xf32>, tensor<2x4xf32>) outs(%e3 : tensor<2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %x = arith.divf %a, %b : f32
    linalg.yield %x : f32
  } -> tensor<2x4x4xf32>
  %z8 = tensor.empty() : tensor<2x4x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%z8 : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x4x4xf32>, tensor<2x4x8xf32>) outs(%zo : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  return %o : tensor<2x4x8xf32>
}

// -----

// IREE's softmax_no_rcp in f16: the row max starts at f16's lowest value
// (-65504), the sum is divided with divf.
#id3e = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#rowe = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @f16_lowest_init(%q: tensor<2x4x8xf16>, %k: tensor<2x4x8xf16>, %v: tensor<2x4x8xf16>) -> tensor<2x4x8xf16> {
  %zero = arith.constant 0.0 : f16
  %lowest = arith.constant -6.550400e+04 : f16
  %e3 = tensor.empty() : tensor<2x4x4xf16>
  %e2 = tensor.empty() : tensor<2x4xf16>
  %z3 = linalg.fill ins(%zero : f16) outs(%e3 : tensor<2x4x4xf16>) -> tensor<2x4x4xf16>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>] ins(%q, %k : tensor<2x4x8xf16>, tensor<2x4x8xf16>) outs(%z3 : tensor<2x4x4xf16>) -> tensor<2x4x4xf16>
  %fm = linalg.fill ins(%lowest : f16) outs(%e2 : tensor<2x4xf16>) -> tensor<2x4xf16>
  %m = linalg.generic {indexing_maps = [#id3e, #rowe], iterator_types = ["parallel", "parallel", "reduction"]} ins(%s : tensor<2x4x4xf16>) outs(%fm : tensor<2x4xf16>) {
  ^bb0(%a: f16, %b: f16):
    %x = arith.maximumf %a, %b : f16
    linalg.yield %x : f16
  } -> tensor<2x4xf16>
  %sub = linalg.generic {indexing_maps = [#id3e, #rowe, #id3e], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %m : tensor<2x4x4xf16>, tensor<2x4xf16>) outs(%e3 : tensor<2x4x4xf16>) {
  ^bb0(%a: f16, %b: f16, %o: f16):
    %x = arith.subf %a, %b : f16
    linalg.yield %x : f16
  } -> tensor<2x4x4xf16>
  %ex = linalg.generic {indexing_maps = [#id3e, #id3e], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sub : tensor<2x4x4xf16>) outs(%e3 : tensor<2x4x4xf16>) {
  ^bb0(%a: f16, %o: f16):
    %x = math.exp %a : f16
    linalg.yield %x : f16
  } -> tensor<2x4x4xf16>
  %fs = linalg.fill ins(%zero : f16) outs(%e2 : tensor<2x4xf16>) -> tensor<2x4xf16>
  %sum = linalg.generic {indexing_maps = [#id3e, #rowe], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ex : tensor<2x4x4xf16>) outs(%fs : tensor<2x4xf16>) {
  ^bb0(%a: f16, %b: f16):
    %x = arith.addf %a, %b : f16
    linalg.yield %x : f16
  } -> tensor<2x4xf16>
  %p = linalg.generic {indexing_maps = [#id3e, #rowe, #id3e], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ex, %sum : tensor<2x4x4xf16>, tensor<2x4xf16>) outs(%e3 : tensor<2x4x4xf16>) {
  ^bb0(%a: f16, %b: f16, %o: f16):
    %x = arith.divf %a, %b : f16
    linalg.yield %x : f16
  } -> tensor<2x4x4xf16>
  %z8 = tensor.empty() : tensor<2x4x8xf16>
  %zo = linalg.fill ins(%zero : f16) outs(%z8 : tensor<2x4x8xf16>) -> tensor<2x4x8xf16>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x4x4xf16>, tensor<2x4x8xf16>) outs(%zo : tensor<2x4x8xf16>) -> tensor<2x4x8xf16>
  return %o : tensor<2x4x8xf16>
}
