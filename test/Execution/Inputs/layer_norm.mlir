// LayerNorm over rows of 12 (not a power of two, so 1/d is inexact), with and
// without a bias.
func.func @layer_norm(%x: tensor<2x3x12xf32>, %gain: tensor<12xf32>,
                      %bias: tensor<12xf32>)
    -> (tensor<2x3x12xf32>, tensor<2x3x12xf32>) {
  %with_bias = cs349.layer_norm %x, %gain, %bias epsilon = 1.000000e-05
      : tensor<2x3x12xf32>, tensor<12xf32>, tensor<12xf32>
  %without_bias = cs349.layer_norm %x, %gain epsilon = 1.000000e-03
      : tensor<2x3x12xf32>, tensor<12xf32>
  return %with_bias, %without_bias : tensor<2x3x12xf32>, tensor<2x3x12xf32>
}
