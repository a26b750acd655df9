// A fill, an f64 scale input and a keepdims reduction (run.test runs it
// as written and imported).
#rows = affine_map<(d0, d1) -> (d0, d1)>
#scalar = affine_map<(d0, d1) -> ()>
#keep = affine_map<(d0, d1) -> (d0, 0)>
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
