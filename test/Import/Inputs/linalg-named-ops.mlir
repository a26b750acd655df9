// Named linalg ops as torch-mlir and IREE write them: linalg.softmax along
// the last dimension and along another one, and a matmul of f16 operands
// into f32 (mixed precision: the operands are converted, then multiplied).
func.func @named_ops(%x: tensor<2x3x8xf32>, %a: tensor<3x8xf16>, %b: tensor<8x5xf16>) -> (tensor<2x3x8xf32>, tensor<2x3x8xf32>, tensor<3x5xf32>) {
  %e = tensor.empty() : tensor<2x3x8xf32>
  %last = linalg.softmax dimension(2) ins(%x : tensor<2x3x8xf32>) outs(%e : tensor<2x3x8xf32>) -> tensor<2x3x8xf32>
  %rows = linalg.softmax dimension(1) ins(%x : tensor<2x3x8xf32>) outs(%e : tensor<2x3x8xf32>) -> tensor<2x3x8xf32>
  %zero = arith.constant 0.0 : f32
  %em = tensor.empty() : tensor<3x5xf32>
  %z = linalg.fill ins(%zero : f32) outs(%em : tensor<3x5xf32>) -> tensor<3x5xf32>
  %m = linalg.matmul ins(%a, %b : tensor<3x8xf16>, tensor<8x5xf16>) outs(%z : tensor<3x5xf32>) -> tensor<3x5xf32>
  return %last, %rows, %m : tensor<2x3x8xf32>, tensor<2x3x8xf32>, tensor<3x5xf32>
}
