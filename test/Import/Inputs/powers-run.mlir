// Powers as front ends write them: RMSNorm's square as tosa.pow by 2, GELU's
// cube as math.fpowi by 3, a root, a reciprocal and a power of two tensors
// as math.powf (of a positive base: exp of the argument), and a bf16 power.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>

func.func @powers(%x: tensor<4x8xf32>, %y: tensor<8xf32>, %z: tensor<4x8xbf16>)
    -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xbf16>) {
  %two = "tosa.const"() <{values = dense<2.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %square = tosa.pow %x, %two : (tensor<4x8xf32>, tensor<1x1xf32>) -> tensor<4x8xf32>
  %half = arith.constant 0.5 : f32
  %c3 = arith.constant 3 : i32
  %cm1 = arith.constant -1 : i64
  %empty = tensor.empty() : tensor<4x8xf32>
  %powers = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : tensor<4x8xf32>, tensor<8xf32>) outs(%empty : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %base = math.exp %a : f32
    %p = math.powf %base, %b : f32
    %r = math.powf %p, %half : f32
    %c = math.fpowi %a, %c3 : f32, i32
    %i = math.fpowi %r, %cm1 : f32, i64
    %s = arith.addf %c, %i : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %three = "tosa.const"() <{values = dense<3.0> : tensor<1x1xbf16>}> : () -> tensor<1x1xbf16>
  %e = tosa.exp %z : (tensor<4x8xbf16>) -> tensor<4x8xbf16>
  %cube = tosa.pow %e, %three : (tensor<4x8xbf16>, tensor<1x1xbf16>) -> tensor<4x8xbf16>
  return %square, %powers, %cube : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xbf16>
}
