// Float conversions as front ends write them: arith on whole tensors, in a
// generic body after other arithmetic, and tosa.cast.
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @casts(%a: tensor<4x8xf32>, %h: tensor<4x8xf16>) -> (tensor<4x8xbf16>, tensor<4x8xf32>, tensor<4x8xf16>, tensor<4x8xf32>, tensor<4x8xbf16>) {
  %t = arith.truncf %a : tensor<4x8xf32> to tensor<4x8xbf16>
  %e = arith.extf %t : tensor<4x8xbf16> to tensor<4x8xf32>
  %o = tensor.empty() : tensor<4x8xf16>
  %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x8xf32>) outs(%o : tensor<4x8xf16>) {
  ^bb0(%x: f32, %y: f16):
    %s = arith.mulf %x, %x : f32
    %n = arith.truncf %s : f32 to f16
    linalg.yield %n : f16
  } -> tensor<4x8xf16>
  %tc = tosa.cast %h : (tensor<4x8xf16>) -> tensor<4x8xf32>
  %tb = tosa.cast %a : (tensor<4x8xf32>) -> tensor<4x8xbf16>
  return %t, %e, %g, %tc, %tb : tensor<4x8xbf16>, tensor<4x8xf32>, tensor<4x8xf16>, tensor<4x8xf32>, tensor<4x8xbf16>
}
