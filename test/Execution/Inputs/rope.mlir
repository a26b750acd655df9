func.func @f(%x: tensor<5x6xf32>) -> tensor<5x6xf32> {
  %c = cs349.rope_table cos theta = 1.000000e+02 : tensor<5x6xf32>
  %s = cs349.rope_table sin theta = 1.000000e+02 : tensor<5x6xf32>
  %r = cs349.rope %x, %c, %s : tensor<5x6xf32>, tensor<5x6xf32>
  return %r : tensor<5x6xf32>
}
