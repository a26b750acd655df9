// Two results that are one value only once upstream's TOSA lowering has
// folded them: an identity transpose and an identity tile of one exp.
func.func @f(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %e = tosa.exp %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %t = tosa.transpose %e {perms = array<i32: 0, 1>} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %multiples = tosa.const_shape {values = dense<[1, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %r = tosa.tile %e, %multiples : (tensor<4x8xf32>, !tosa.shape<2>) -> tensor<4x8xf32>
  return %t, %r : tensor<4x8xf32>, tensor<4x8xf32>
}
