// dynamic-block.mlir's fragment as a static export writes it (batch 2,
// sequence 8): no sizes read, no asserts.
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row3 = affine_map<(d0, d1, d2) -> (d0, d1)>
#mm_a = affine_map<(m, n, k) -> (m, k)>
#mm_b = affine_map<(m, n, k) -> (n, k)>
#mm_c = affine_map<(m, n, k) -> (m, n)>
func.func @block(%x: tensor<2x8x16xf32>, %mask: tensor<2x8xf32>, %w: tensor<16x16xf32>) -> tensor<2x8x32xf32> {
  %zero = arith.constant 0.0 : f32
  %flat = tensor.collapse_shape %x [[0, 1], [2]] : tensor<2x8x16xf32> into tensor<16x16xf32>
  %e_mm = tensor.empty() : tensor<16x16xf32>
  %f_mm = linalg.fill ins(%zero : f32) outs(%e_mm : tensor<16x16xf32>) -> tensor<16x16xf32>
  %mm = linalg.generic {indexing_maps = [#mm_a, #mm_b, #mm_c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%flat, %w : tensor<16x16xf32>, tensor<16x16xf32>) outs(%f_mm : tensor<16x16xf32>) {
  ^bb0(%l: f32, %r: f32, %acc: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<16x16xf32>
  %h = tensor.expand_shape %mm [[0, 1], [2]] output_shape [2, 8, 16] : tensor<16x16xf32> into tensor<2x8x16xf32>
  %e3 = tensor.empty() : tensor<2x8x16xf32>
  %act = linalg.generic {indexing_maps = [#id3, #row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%h, %mask : tensor<2x8x16xf32>, tensor<2x8xf32>) outs(%e3 : tensor<2x8x16xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %s = arith.addf %in, %m : f32
    %e = math.tanh %s : f32
    linalg.yield %e : f32
  } -> tensor<2x8x16xf32>
  %e2 = tensor.empty() : tensor<2x8xf32>
  %f_sum = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %sum = linalg.generic {indexing_maps = [#id3, #row3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%act : tensor<2x8x16xf32>) outs(%f_sum : tensor<2x8xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<2x8xf32>
  %scaled = linalg.generic {indexing_maps = [#id3, #row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%act, %sum : tensor<2x8x16xf32>, tensor<2x8xf32>) outs(%e3 : tensor<2x8x16xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %p = arith.mulf %in, %s : f32
    linalg.yield %p : f32
  } -> tensor<2x8x16xf32>
  %cat = tensor.concat dim(2) %scaled, %x : (tensor<2x8x16xf32>, tensor<2x8x16xf32>) -> tensor<2x8x32xf32>
  return %cat : tensor<2x8x32xf32>
}
