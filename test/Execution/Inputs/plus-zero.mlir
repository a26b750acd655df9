func.func @plus_zero(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %one = cs349.constant dense<1.0> : tensor<f32>
  %zero = cs349.constant dense<0.0> : tensor<f32>
  %sum = cs349.add %x, %zero : tensor<4xf32>, tensor<f32>
  %reciprocal = cs349.div %one, %sum : tensor<f32>, tensor<4xf32>
  return %sum, %reciprocal : tensor<4xf32>, tensor<4xf32>
}
