// A power that bf16 does not hold exactly (257 rounds to 256): the generic
// stays opaque and runs as written.
#id = affine_map<(d0, d1) -> (d0, d1)>

func.func @opaque_power(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %c257 = arith.constant 257 : i32
  %empty = tensor.empty() : tensor<4x8xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%empty : tensor<4x8xf32>) {
  ^bb0(%a: f32, %out: f32):
    %v = math.fpowi %a, %c257 : f32, i32
    linalg.yield %v : f32
  } -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}
