// Pads by a constant as front ends write them: tensor.pad with static
// amounts (a zero defined outside its body, a bf16 constant inside it) and
// tosa.pad by -0.0, whose lowering writes the amounts as constant operands
// (run.test runs it as written and imported).
func.func @pads(%x: tensor<3x4xf32>, %y: tensor<2x3xbf16>, %z: tensor<2x2x3xf32>) -> (tensor<6x7xf32>, tensor<2x5xbf16>, tensor<2x4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[1, 0] high[2, 3] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<3x4xf32> to tensor<6x7xf32>
  %q = tensor.pad %y low[0, 2] high[0, 0] {
  ^bb0(%i: index, %j: index):
    %c = arith.constant 1.5 : bf16
    tensor.yield %c : bf16
  } : tensor<2x3xbf16> to tensor<2x5xbf16>
  %padding = tosa.const_shape {values = dense<[0, 0, 1, 1, 0, 1]> : tensor<6xindex>} : () -> !tosa.shape<6>
  %value = "tosa.const"() <{values = dense<-0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %r = tosa.pad %z, %padding, %value : (tensor<2x2x3xf32>, !tosa.shape<6>, tensor<1xf32>) -> tensor<2x4x4xf32>
  return %p, %q, %r : tensor<6x7xf32>, tensor<2x5xbf16>, tensor<2x4x4xf32>
}
