func.func @f(%q: tensor<2x4x8xf32>, %k: tensor<2x6x8xf32>, %v: tensor<2x6x8xf32>) -> tensor<2x4x8xf32> {
  %s = cs349.matmul %q, %k transpose_b : tensor<2x4x8xf32>, tensor<2x6x8xf32> -> tensor<2x4x6xf32>
  %m = cs349.causal_mask : tensor<1x1xf32>
  %sm = cs349.add %s, %m : tensor<2x4x6xf32>, tensor<1x1xf32>
  %p = cs349.softmax %sm axis = 2 : tensor<2x4x6xf32>
  %o = cs349.matmul %p, %v : tensor<2x4x6xf32>, tensor<2x6x8xf32> -> tensor<2x4x8xf32>
  return %o : tensor<2x4x8xf32>
}
