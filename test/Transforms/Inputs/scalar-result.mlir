// A kernel whose one written result is a rank-0 tensor.
func.func @scalar(%x: tensor<4x8xf32>) -> tensor<f32> {
  %0 = cs349.exp %x : tensor<4x8xf32>
  %1 = cs349.reduce_sum %0 axes = [0, 1] : tensor<4x8xf32> -> tensor<f32>
  %2 = cs349.exp %1 : tensor<f32>
  return %2 : tensor<f32>
}
