// erf of a broadcasting product: the product and erf fuse into one kernel.
func.func @erf(%x: tensor<4x8xf32>, %r: tensor<4x1xf32>) -> tensor<4x8xf32> {
  %s = cs349.mul %x, %r : tensor<4x8xf32>, tensor<4x1xf32>
  %e = cs349.erf %s : tensor<4x8xf32>
  return %e : tensor<4x8xf32>
}
