// Gemma's RMSNorm scales by (1 + γ), stored as γ: written with what exists,
// an rms_norm whose gain is γ + 1, followed by a projection.
func.func @gemma_norm(%x: tensor<4x8xf32>) -> tensor<4x6xf32> {
  %gamma = cs349.constant dense<[0.5, -0.25, 0.0, 1.0, -0.5, 0.25, 2.0, -1.0]> : tensor<8xf32>
  %one = cs349.constant dense<1.0> : tensor<f32>
  %gain = cs349.add %gamma, %one : tensor<8xf32>, tensor<f32>
  %w = cs349.constant dense<[[0.5, -1.0, 0.25, 2.0, -0.5, 1.0], [1.0, 0.5, -0.25, 0.0, 0.75, -1.5], [-0.5, 0.25, 1.0, -1.0, 0.5, 0.0], [0.25, 0.75, -0.5, 1.5, -1.0, 0.5], [1.5, -0.25, 0.5, 0.25, 1.0, -0.75], [-1.0, 1.0, 0.0, 0.5, -0.25, 0.25], [0.0, -0.5, 1.5, -0.75, 0.25, 1.0], [0.75, 0.0, -1.0, 0.25, 0.5, -0.5]]> : tensor<8x6xf32>
  %n = cs349.rms_norm %x, %gain epsilon = 1.0e-6 : tensor<4x8xf32>, tensor<8xf32>
  %y = cs349.matmul %n, %w : tensor<4x8xf32>, tensor<8x6xf32> -> tensor<4x6xf32>
  return %y : tensor<4x6xf32>
}
