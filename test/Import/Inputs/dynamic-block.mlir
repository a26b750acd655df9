// A layer fragment as torch-mlir writes it when the batch and the sequence
// length are dynamic: sizes read with tensor.dim, inits made by tensor.empty
// of them, cf.asserts that two arguments agree, a reshape whose output
// shape is computed, a concatenation. static-block.mlir is the same
// fragment exported with batch 2 and sequence 8.
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row3 = affine_map<(d0, d1, d2) -> (d0, d1)>
#mm_a = affine_map<(m, n, k) -> (m, k)>
#mm_b = affine_map<(m, n, k) -> (n, k)>
#mm_c = affine_map<(m, n, k) -> (m, n)>
func.func @block(%x: tensor<?x?x16xf32>, %mask: tensor<?x?xf32>, %w: tensor<16x16xf32>) -> tensor<?x?x32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %b = tensor.dim %x, %c0 : tensor<?x?x16xf32>
  %t = tensor.dim %x, %c1 : tensor<?x?x16xf32>
  %mb = tensor.dim %mask, %c0 : tensor<?x?xf32>
  %mt = tensor.dim %mask, %c1 : tensor<?x?xf32>
  %same_b = arith.cmpi eq, %b, %mb : index
  cf.assert %same_b, "mismatched size for broadcast"
  %same_t = arith.cmpi eq, %t, %mt : index
  cf.assert %same_t, "mismatched size for broadcast"
  %flat = tensor.collapse_shape %x [[0, 1], [2]] : tensor<?x?x16xf32> into tensor<?x16xf32>
  %rows = arith.muli %b, %t : index
  %e_mm = tensor.empty(%rows) : tensor<?x16xf32>
  %f_mm = linalg.fill ins(%zero : f32) outs(%e_mm : tensor<?x16xf32>) -> tensor<?x16xf32>
  %mm = linalg.generic {indexing_maps = [#mm_a, #mm_b, #mm_c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%flat, %w : tensor<?x16xf32>, tensor<16x16xf32>) outs(%f_mm : tensor<?x16xf32>) {
  ^bb0(%l: f32, %r: f32, %acc: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<?x16xf32>
  %h = tensor.expand_shape %mm [[0, 1], [2]] output_shape [%b, %t, 16] : tensor<?x16xf32> into tensor<?x?x16xf32>
  %e3 = tensor.empty(%b, %t) : tensor<?x?x16xf32>
  %act = linalg.generic {indexing_maps = [#id3, #row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%h, %mask : tensor<?x?x16xf32>, tensor<?x?xf32>) outs(%e3 : tensor<?x?x16xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %s = arith.addf %in, %m : f32
    %e = math.tanh %s : f32
    linalg.yield %e : f32
  } -> tensor<?x?x16xf32>
  %e2 = tensor.empty(%b, %t) : tensor<?x?xf32>
  %f_sum = linalg.fill ins(%zero : f32) outs(%e2 : tensor<?x?xf32>) -> tensor<?x?xf32>
  %sum = linalg.generic {indexing_maps = [#id3, #row3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%act : tensor<?x?x16xf32>) outs(%f_sum : tensor<?x?xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<?x?xf32>
  %scaled = linalg.generic {indexing_maps = [#id3, #row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%act, %sum : tensor<?x?x16xf32>, tensor<?x?xf32>) outs(%e3 : tensor<?x?x16xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %p = arith.mulf %in, %s : f32
    linalg.yield %p : f32
  } -> tensor<?x?x16xf32>
  %cat = tensor.concat dim(2) %scaled, %x : (tensor<?x?x16xf32>, tensor<?x?x16xf32>) -> tensor<?x?x32xf32>
  return %cat : tensor<?x?x32xf32>
}
