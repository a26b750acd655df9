// Integers converted to floats as front ends write them: positions and ids
// (i64, i32) to f32, f16 and bf16, a mask (i1) to f32, and an angle computed from
// a position inside a generic (run.test runs it as written and imported).
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @conversions(%ids: tensor<4x8xi64>, %small: tensor<4x8xi32>, %mask: tensor<4x8xi1>, %x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf16>, tensor<4x8xbf16>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %f = arith.sitofp %ids : tensor<4x8xi64> to tensor<4x8xf32>
  %h = arith.sitofp %small : tensor<4x8xi32> to tensor<4x8xf16>
  %b = arith.sitofp %ids : tensor<4x8xi64> to tensor<4x8xbf16>
  %m = arith.uitofp %mask : tensor<4x8xi1> to tensor<4x8xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %angle = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%ids, %x : tensor<4x8xi64>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%i: i64, %v: f32, %o: f32):
    %p = arith.sitofp %i : i64 to f32
    %scaled = arith.mulf %p, %v : f32
    %s = math.sin %scaled : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %f, %h, %b, %m, %angle : tensor<4x8xf32>, tensor<4x8xf16>, tensor<4x8xbf16>, tensor<4x8xf32>, tensor<4x8xf32>
}
