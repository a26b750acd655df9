// A linear layer as torch-mlir prints a model without its data: the weight
// and the bias are dense_resource<__elided__>, the weight transposed by a
// generic before the matmul, the bias added by another.
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
#bias = affine_map<(d0, d1) -> (d1)>
func.func @linear(%x: tensor<4x8xf32>) -> tensor<4x6xf32> {
  %w = arith.constant dense_resource<__elided__> : tensor<6x8xf32>
  %b = arith.constant dense_resource<__elided__> : tensor<6xf32>
  %zero = arith.constant 0.0 : f32
  %et = tensor.empty() : tensor<8x6xf32>
  %wt = linalg.generic {indexing_maps = [#id2, #tr], iterator_types = ["parallel", "parallel"]} ins(%w : tensor<6x8xf32>) outs(%et : tensor<8x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<8x6xf32>
  %e = tensor.empty() : tensor<4x6xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x6xf32>) -> tensor<4x6xf32>
  %y = linalg.matmul ins(%x, %wt : tensor<4x8xf32>, tensor<8x6xf32>) outs(%z : tensor<4x6xf32>) -> tensor<4x6xf32>
  %o = linalg.generic {indexing_maps = [#id2, #bias, #id2], iterator_types = ["parallel", "parallel"]} ins(%y, %b : tensor<4x6xf32>, tensor<6xf32>) outs(%e : tensor<4x6xf32>) {
  ^bb0(%a: f32, %c: f32, %out: f32):
    %s = arith.addf %a, %c : f32
    linalg.yield %s : f32
  } -> tensor<4x6xf32>
  return %o : tensor<4x6xf32>
}

// -----

// Negative: a copy that broadcasts ([6] to [4, 6]) is no transpose and no
// cs349 view: it stays an opaque kernel.
#bc = affine_map<(d0, d1) -> (d1)>
#id2b = affine_map<(d0, d1) -> (d0, d1)>
func.func @broadcasting_copy(%b: tensor<6xf32>) -> tensor<4x6xf32> {
  %e = tensor.empty() : tensor<4x6xf32>
  %o = linalg.generic {indexing_maps = [#bc, #id2b], iterator_types = ["parallel", "parallel"]} ins(%b : tensor<6xf32>) outs(%e : tensor<4x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<4x6xf32>
  return %o : tensor<4x6xf32>
}
