// No mask (an encoder): every query sees every key.
func.func @none(%q: tensor<2x7x4xf32>, %k: tensor<1x7x4xf32>, %v: tensor<1x7x4xf32>) -> tensor<2x7x4xf32> {
  %kr = cs349.repeat %k axis = 0 times = 2 : tensor<1x7x4xf32> -> tensor<2x7x4xf32>
  %vr = cs349.repeat %v axis = 0 times = 2 : tensor<1x7x4xf32> -> tensor<2x7x4xf32>
  %s = cs349.matmul %q, %kr transpose_b : tensor<2x7x4xf32>, tensor<2x7x4xf32> -> tensor<2x7x7xf32>
  %c = cs349.constant dense<0.5> : tensor<f32>
  %ss = cs349.mul %s, %c : tensor<2x7x7xf32>, tensor<f32>
  %p = cs349.softmax %ss axis = 2 : tensor<2x7x7xf32>
  %o = cs349.matmul %p, %vr : tensor<2x7x7xf32>, tensor<2x7x4xf32> -> tensor<2x7x4xf32>
  return %o : tensor<2x7x4xf32>
}
