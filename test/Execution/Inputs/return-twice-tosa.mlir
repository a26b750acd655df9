// A TOSA function (a model before --import) returning a computed value
// twice, next to an argument.
func.func @f(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %e = tosa.exp %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %e, %x, %e : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}
