// GELU in both modes over a spread of inputs: x * r with r in [0.5, 1.5)
// times 4, so x covers about [-6, 6] (the tails, where gelu tends to 0 and to
// x, and the curved middle). Then a matmul epilogue: gelu of a projection, as
// in an MLP's up projection, which --fuse puts in the matmul's kernel.
func.func @gelu(%x: tensor<4x8xf32>, %r: tensor<4x1xf32>, %w: tensor<8x6xf32>)
    -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x6xf32>) {
  %four = cs349.constant dense<4.0> : tensor<f32>
  %scaled = cs349.mul %x, %r : tensor<4x8xf32>, tensor<4x1xf32>
  %s = cs349.mul %scaled, %four : tensor<4x8xf32>, tensor<f32>
  %exact = cs349.gelu %s : tensor<4x8xf32>
  %approx = cs349.gelu %s mode = tanh : tensor<4x8xf32>
  %up = cs349.matmul %s, %w : tensor<4x8xf32>, tensor<8x6xf32> -> tensor<4x6xf32>
  %act = cs349.gelu %up mode = tanh : tensor<4x6xf32>
  return %exact, %approx, %act : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x6xf32>
}
