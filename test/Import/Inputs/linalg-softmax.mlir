// linalg.softmax as torch-mlir and IREE write it: along the last dimension
// and along another one.
func.func @softmaxes(%x: tensor<2x3x8xf32>) -> (tensor<2x3x8xf32>, tensor<2x3x8xf32>) {
  %e = tensor.empty() : tensor<2x3x8xf32>
  %last = linalg.softmax dimension(2) ins(%x : tensor<2x3x8xf32>) outs(%e : tensor<2x3x8xf32>) -> tensor<2x3x8xf32>
  %rows = linalg.softmax dimension(1) ins(%x : tensor<2x3x8xf32>) outs(%e : tensor<2x3x8xf32>) -> tensor<2x3x8xf32>
  return %last, %rows : tensor<2x3x8xf32>, tensor<2x3x8xf32>
}
