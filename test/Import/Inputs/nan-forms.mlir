// Maxima that skip NaN, as front ends write them (test/Import/nan.test runs
// them on arguments holding NaN). Every function takes two tensors, 1x2x4
// (2x2x4 for the attention).

#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row = affine_map<(d0, d1, d2) -> (d0, d1)>

// torch.fmax: elementwise maxnumf.
func.func @fmax(%a: tensor<1x2x4xf32>, %b: tensor<1x2x4xf32>) -> tensor<1x2x4xf32> {
  %empty = tensor.empty() : tensor<1x2x4xf32>
  %m = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%a, %b : tensor<1x2x4xf32>, tensor<1x2x4xf32>) outs(%empty : tensor<1x2x4xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %v = arith.maxnumf %x, %y : f32
    linalg.yield %v : f32
  } -> tensor<1x2x4xf32>
  return %m : tensor<1x2x4xf32>
}

// Row maxima with maxnumf: from -inf (raised), and from 0.5 (kept as written).
func.func @row_max(%a: tensor<1x2x4xf32>, %b: tensor<1x2x4xf32>) -> (tensor<1x2xf32>, tensor<1x2xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %half = arith.constant 0.5 : f32
  %empty = tensor.empty() : tensor<1x2xf32>
  %from_ninf = linalg.fill ins(%ninf : f32) outs(%empty : tensor<1x2xf32>) -> tensor<1x2xf32>
  %from_half = linalg.fill ins(%half : f32) outs(%empty : tensor<1x2xf32>) -> tensor<1x2xf32>
  %m = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a : tensor<1x2x4xf32>) outs(%from_ninf : tensor<1x2xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %v = arith.maxnumf %x, %acc : f32
    linalg.yield %v : f32
  } -> tensor<1x2xf32>
  %h = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a : tensor<1x2x4xf32>) outs(%from_half : tensor<1x2xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %v = arith.maxnumf %x, %acc : f32
    linalg.yield %v : f32
  } -> tensor<1x2xf32>
  return %m, %h : tensor<1x2xf32>, tensor<1x2xf32>
}

// TOSA with nan_mode = IGNORE.
func.func @tosa_ignore(%a: tensor<1x2x4xf32>, %b: tensor<1x2x4xf32>) -> (tensor<1x2x4xf32>, tensor<1x2x1xf32>) {
  %m = tosa.maximum %a, %b {nan_mode = IGNORE} : (tensor<1x2x4xf32>, tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
  %r = tosa.reduce_max %a {axis = 2 : i32, nan_mode = IGNORE} : (tensor<1x2x4xf32>) -> tensor<1x2x1xf32>
  return %m, %r : tensor<1x2x4xf32>, tensor<1x2x1xf32>
}

// TOSA's comparisons are false where an operand is NaN; select by them.
func.func @tosa_compare_select(%a: tensor<1x2x4xf32>, %b: tensor<1x2x4xf32>) -> (tensor<1x2x4xf32>, tensor<1x2x4xi1>, tensor<1x2x4xi1>) {
  %t = "tosa.const"() <{values = dense<0.25> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %m = tosa.greater %a, %t : (tensor<1x2x4xf32>, tensor<1x1x1xf32>) -> tensor<1x2x4xi1>
  %s = tosa.select %m, %a, %b : (tensor<1x2x4xi1>, tensor<1x2x4xf32>, tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
  %eq = tosa.equal %a, %a : (tensor<1x2x4xf32>, tensor<1x2x4xf32>) -> tensor<1x2x4xi1>
  %ge = tosa.greater_equal %a, %b : (tensor<1x2x4xf32>, tensor<1x2x4xf32>) -> tensor<1x2x4xi1>
  return %s, %eq, %ge : tensor<1x2x4xf32>, tensor<1x2x4xi1>, tensor<1x2x4xi1>
}

// arith's comparisons and select in linalg: the ordered predicates and une
// as cs349.compare; an unordered one (true on NaN) as the ordered negation,
// with the select's arms swapped where only selects read it, as the mask
// `(m ? 0 : 1) != 0` where it is a result; `one` stays opaque.
func.func @linalg_compare_select(%a: tensor<1x2x4xf32>, %b: tensor<1x2x4xf32>) -> (tensor<1x2x4xf32>, tensor<1x2x4xf32>, tensor<1x2x4xf32>, tensor<1x2x4xf32>, tensor<1x2x4xf32>, tensor<1x2x4xi1>, tensor<1x2x4xi1>, tensor<1x2x4xi1>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x2x4xf32>
  // Only selects read the comparisons.
  %ordered = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%a, %b : tensor<1x2x4xf32>, tensor<1x2x4xf32>) outs(%e : tensor<1x2x4xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %gt = arith.cmpf ogt, %x, %y : f32
    %s0 = arith.select %gt, %x, %y : f32
    %le = arith.cmpf ole, %s0, %y : f32
    %s1 = arith.select %le, %s0, %x : f32
    %ne = arith.cmpf une, %s1, %x : f32
    %s2 = arith.select %ne, %s1, %y : f32
    linalg.yield %s2 : f32
  } -> tensor<1x2x4xf32>
  %unordered = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%a, %b : tensor<1x2x4xf32>, tensor<1x2x4xf32>) outs(%e : tensor<1x2x4xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %ugt = arith.cmpf ugt, %x, %y : f32
    %s0 = arith.select %ugt, %x, %y : f32
    %ule = arith.cmpf ule, %x, %y : f32
    %s1 = arith.select %ule, %y, %s0 : f32
    %ult = arith.cmpf ult, %s1, %x : f32
    %s2 = arith.select %ult, %s1, %x : f32
    linalg.yield %s2 : f32
  } -> tensor<1x2x4xf32>
  // ReLU as older front ends wrote it: NaN stays NaN.
  %relu = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%a : tensor<1x2x4xf32>) outs(%e : tensor<1x2x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %pos = arith.cmpf ugt, %x, %zero : f32
    %r = arith.select %pos, %x, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4xf32>
  // On tensors: every comparison a mask of its own, read by a select.
  %uge = arith.cmpf uge, %a, %b : tensor<1x2x4xf32>
  %s_uge = arith.select %uge, %a, %b : tensor<1x2x4xi1>, tensor<1x2x4xf32>
  %oeq = arith.cmpf oeq, %b, %b : tensor<1x2x4xf32>
  %olt = arith.cmpf olt, %a, %b : tensor<1x2x4xf32>
  %s_olt = arith.select %olt, %a, %b : tensor<1x2x4xi1>, tensor<1x2x4xf32>
  %ugt = arith.cmpf ugt, %a, %b : tensor<1x2x4xf32>
  %one = arith.cmpf one, %a, %b : tensor<1x2x4xf32>
  return %ordered, %unordered, %relu, %s_uge, %s_olt, %oeq, %ugt, %one : tensor<1x2x4xf32>, tensor<1x2x4xf32>, tensor<1x2x4xf32>, tensor<1x2x4xf32>, tensor<1x2x4xf32>, tensor<1x2x4xi1>, tensor<1x2x4xi1>, tensor<1x2x4xi1>
}

// Minima and absolute values: min(a, b) as -max(-a, -b) (minnumf with
// maxnum), |x| as max(x, -x); row minima from +inf, and from 0.5 (which
// takes part once); TOSA's minimum, clamp and abs through upstream's
// lowering.
func.func @linalg_min_abs(%a: tensor<1x2x4xf32>, %b: tensor<1x2x4xf32>) -> (tensor<1x2x4xf32>, tensor<1x2x4xf32>, tensor<1x2x4xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2x4xf32>, tensor<1x2x4xf32>, tensor<1x2x4xf32>) {
  %e = tensor.empty() : tensor<1x2x4xf32>
  %min = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%a, %b : tensor<1x2x4xf32>, tensor<1x2x4xf32>) outs(%e : tensor<1x2x4xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.minimumf %x, %y : f32
    linalg.yield %m : f32
  } -> tensor<1x2x4xf32>
  %fmin = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%a, %b : tensor<1x2x4xf32>, tensor<1x2x4xf32>) outs(%e : tensor<1x2x4xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.minnumf %x, %y : f32
    linalg.yield %m : f32
  } -> tensor<1x2x4xf32>
  %abs = math.absf %b : tensor<1x2x4xf32>
  %inf = arith.constant 0x7F800000 : f32
  %half = arith.constant 0.5 : f32
  %er = tensor.empty() : tensor<1x2xf32>
  %from_inf = linalg.fill ins(%inf : f32) outs(%er : tensor<1x2xf32>) -> tensor<1x2xf32>
  %from_half = linalg.fill ins(%half : f32) outs(%er : tensor<1x2xf32>) -> tensor<1x2xf32>
  %row_min = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%b : tensor<1x2x4xf32>) outs(%from_inf : tensor<1x2xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %m = arith.minimumf %x, %acc : f32
    linalg.yield %m : f32
  } -> tensor<1x2xf32>
  %row_fmin = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%b : tensor<1x2x4xf32>) outs(%from_inf : tensor<1x2xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %m = arith.minnumf %acc, %x : f32
    linalg.yield %m : f32
  } -> tensor<1x2xf32>
  %row_min_half = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a : tensor<1x2x4xf32>) outs(%from_half : tensor<1x2xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %m = arith.minimumf %x, %acc : f32
    linalg.yield %m : f32
  } -> tensor<1x2xf32>
  %tmin = tosa.minimum %a, %b : (tensor<1x2x4xf32>, tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
  %clamp = tosa.clamp %b {min_val = 1.5 : f32, max_val = 4.5 : f32} : (tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
  %tabs = tosa.abs %a : (tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
  return %min, %fmin, %abs, %row_min, %row_fmin, %row_min_half, %tmin, %clamp, %tabs : tensor<1x2x4xf32>, tensor<1x2x4xf32>, tensor<1x2x4xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2x4xf32>, tensor<1x2x4xf32>, tensor<1x2x4xf32>
}

// Attention whose softmax takes its row maximum with maxnumf (IREE's and
// torch-mlir's spelling): --optimize matches it, and a row of scores holding
// a NaN is NaN either way.
func.func @attention(%q: tensor<2x2x4xf32>, %k: tensor<2x2x4xf32>) -> tensor<2x2x4xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e3 = tensor.empty() : tensor<2x2x2xf32>
  %e2 = tensor.empty() : tensor<2x2xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x2x2xf32>) -> tensor<2x2x2xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>] ins(%q, %k : tensor<2x2x4xf32>, tensor<2x2x4xf32>) outs(%z3 : tensor<2x2x2xf32>) -> tensor<2x2x2xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%e2 : tensor<2x2xf32>) -> tensor<2x2xf32>
  %m = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%s : tensor<2x2x2xf32>) outs(%fm : tensor<2x2xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %v = arith.maxnumf %x, %acc : f32
    linalg.yield %v : f32
  } -> tensor<2x2xf32>
  %ex = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %m : tensor<2x2x2xf32>, tensor<2x2xf32>) outs(%e3 : tensor<2x2x2xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %d = arith.subf %x, %y : f32
    %v = math.exp %d : f32
    linalg.yield %v : f32
  } -> tensor<2x2x2xf32>
  %fs = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x2xf32>) -> tensor<2x2xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ex : tensor<2x2x2xf32>) outs(%fs : tensor<2x2xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %v = arith.addf %x, %acc : f32
    linalg.yield %v : f32
  } -> tensor<2x2xf32>
  %p = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ex, %sum : tensor<2x2x2xf32>, tensor<2x2xf32>) outs(%e3 : tensor<2x2x2xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %v = arith.divf %x, %y : f32
    linalg.yield %v : f32
  } -> tensor<2x2x2xf32>
  %e4 = tensor.empty() : tensor<2x2x4xf32>
  %z4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<2x2x4xf32>) -> tensor<2x2x4xf32>
  %o = linalg.batch_matmul ins(%p, %k : tensor<2x2x2xf32>, tensor<2x2x4xf32>) outs(%z4 : tensor<2x2x4xf32>) -> tensor<2x2x4xf32>
  return %o : tensor<2x2x4xf32>
}
