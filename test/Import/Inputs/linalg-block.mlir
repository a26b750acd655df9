// Scores, softmax and a projection as torch-mlir's linalg on tensors writes
// them: generics with broadcasting maps, reductions into filled inits,
// B-transposed contraction, reshapes, and ops cs349 has no op for (a floor;
// a compare and select joined by an i1 tensor).
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row3 = affine_map<(d0, d1, d2) -> (d0, d1)>
#bias = affine_map<(d0, d1, d2) -> (d2)>
#a = affine_map<(b, m, n, k) -> (b, m, k)>
#bt = affine_map<(b, m, n, k) -> (b, n, k)>
#c = affine_map<(b, m, n, k) -> (b, m, n)>
func.func @block(%q: tensor<2x8x16xf32>, %k: tensor<2x8x16xf32>, %v: tensor<2x8x16xf32>, %w: tensor<32x16xf32>, %b: tensor<16xf32>) -> tensor<8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %lowest = arith.constant -3.40282347E+38 : f32
  %scale = arith.constant 0.25 : f32
  %e_s = tensor.empty() : tensor<2x8x8xf32>
  %f_s = linalg.fill ins(%zero : f32) outs(%e_s : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s = linalg.generic {indexing_maps = [#a, #bt, #c], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x8x16xf32>, tensor<2x8x16xf32>) outs(%f_s : tensor<2x8x8xf32>) {
  ^bb0(%l: f32, %r: f32, %acc: f32):
    %p = arith.mulf %l, %r : f32
    %t = arith.addf %acc, %p : f32
    linalg.yield %t : f32
  } -> tensor<2x8x8xf32>
  %e_r = tensor.empty() : tensor<2x8xf32>
  %f_max = linalg.fill ins(%lowest : f32) outs(%e_r : tensor<2x8xf32>) -> tensor<2x8xf32>
  %max = linalg.generic {indexing_maps = [#id3, #row3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%s : tensor<2x8x8xf32>) outs(%f_max : tensor<2x8xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %x = arith.mulf %in, %scale : f32
    %t = arith.maximumf %x, %acc : f32
    linalg.yield %t : f32
  } -> tensor<2x8xf32>
  %exp = linalg.generic {indexing_maps = [#id3, #row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %max : tensor<2x8x8xf32>, tensor<2x8xf32>) outs(%e_s : tensor<2x8x8xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %x = arith.mulf %in, %scale : f32
    %d = arith.subf %x, %m : f32
    %t = math.exp %d : f32
    linalg.yield %t : f32
  } -> tensor<2x8x8xf32>
  %f_sum = linalg.fill ins(%zero : f32) outs(%e_r : tensor<2x8xf32>) -> tensor<2x8xf32>
  %sum = linalg.generic {indexing_maps = [#id3, #row3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%exp : tensor<2x8x8xf32>) outs(%f_sum : tensor<2x8xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %t = arith.addf %in, %acc : f32
    linalg.yield %t : f32
  } -> tensor<2x8xf32>
  %probs = linalg.generic {indexing_maps = [#id3, #row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%exp, %sum : tensor<2x8x8xf32>, tensor<2x8xf32>) outs(%e_s : tensor<2x8x8xf32>) {
  ^bb0(%in: f32, %den: f32, %out: f32):
    %t = arith.divf %in, %den : f32
    linalg.yield %t : f32
  } -> tensor<2x8x8xf32>
  %e_o = tensor.empty() : tensor<2x8x16xf32>
  %f_o = linalg.fill ins(%zero : f32) outs(%e_o : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  %o = linalg.batch_matmul ins(%probs, %v : tensor<2x8x8xf32>, tensor<2x8x16xf32>) outs(%f_o : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  %floor = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%o : tensor<2x8x16xf32>) outs(%e_o : tensor<2x8x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %t = math.floor %in : f32
    linalg.yield %t : f32
  } -> tensor<2x8x16xf32>
  %e_m = tensor.empty() : tensor<2x8x16xi1>
  %neg = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%floor : tensor<2x8x16xf32>) outs(%e_m : tensor<2x8x16xi1>) {
  ^bb0(%in: f32, %out: i1):
    %t = arith.cmpf olt, %in, %zero : f32
    linalg.yield %t : i1
  } -> tensor<2x8x16xi1>
  %relu = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%neg, %o : tensor<2x8x16xi1>, tensor<2x8x16xf32>) outs(%e_o : tensor<2x8x16xf32>) {
  ^bb0(%n: i1, %in: f32, %out: f32):
    %t = arith.select %n, %zero, %in : f32
    linalg.yield %t : f32
  } -> tensor<2x8x16xf32>
  %e_t = tensor.empty() : tensor<8x2x16xf32>
  %t = linalg.transpose ins(%relu : tensor<2x8x16xf32>) outs(%e_t : tensor<8x2x16xf32>) permutation = [1, 0, 2]
  %h = tensor.collapse_shape %t [[0], [1, 2]] : tensor<8x2x16xf32> into tensor<8x32xf32>
  %e_y = tensor.empty() : tensor<8x16xf32>
  %f_y = linalg.fill ins(%zero : f32) outs(%e_y : tensor<8x16xf32>) -> tensor<8x16xf32>
  %y = linalg.matmul ins(%h, %w : tensor<8x32xf32>, tensor<32x16xf32>) outs(%f_y : tensor<8x16xf32>) -> tensor<8x16xf32>
  %yb = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%y, %b : tensor<8x16xf32>, tensor<16xf32>) outs(%e_y : tensor<8x16xf32>) {
  ^bb0(%in: f32, %bias_in: f32, %out: f32):
    %t2 = arith.addf %in, %bias_in : f32
    linalg.yield %t2 : f32
  } -> tensor<8x16xf32>
  return %yb : tensor<8x16xf32>
}
