// Named linalg ops as front ends write them: linalg.softmax along the last
// dimension and along another one; a matmul of f16 operands into f32 (mixed
// precision: the operands are converted, then multiplied); linalg.reduce
// (upstream's TOSA lowering writes it), linalg.broadcast and linalg.map.
func.func @named_ops(%x: tensor<2x3x8xf32>, %a: tensor<3x8xf16>, %b: tensor<8x5xf16>, %g: tensor<8xf32>)
    -> (tensor<2x3x8xf32>, tensor<2x3x8xf32>, tensor<3x5xf32>, tensor<2x8xf32>, tensor<2x3xf32>, tensor<2x3x8xf32>) {
  %e = tensor.empty() : tensor<2x3x8xf32>
  %last = linalg.softmax dimension(2) ins(%x : tensor<2x3x8xf32>) outs(%e : tensor<2x3x8xf32>) -> tensor<2x3x8xf32>
  %rows = linalg.softmax dimension(1) ins(%x : tensor<2x3x8xf32>) outs(%e : tensor<2x3x8xf32>) -> tensor<2x3x8xf32>
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %em = tensor.empty() : tensor<3x5xf32>
  %z = linalg.fill ins(%zero : f32) outs(%em : tensor<3x5xf32>) -> tensor<3x5xf32>
  %m = linalg.matmul ins(%a, %b : tensor<3x8xf16>, tensor<8x5xf16>) outs(%z : tensor<3x5xf32>) -> tensor<3x5xf32>
  %e28 = tensor.empty() : tensor<2x8xf32>
  %z28 = linalg.fill ins(%zero : f32) outs(%e28 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %sum = linalg.reduce ins(%x : tensor<2x3x8xf32>) outs(%z28 : tensor<2x8xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %e23 = tensor.empty() : tensor<2x3xf32>
  %n23 = linalg.fill ins(%ninf : f32) outs(%e23 : tensor<2x3xf32>) -> tensor<2x3xf32>
  %max = linalg.reduce ins(%x : tensor<2x3x8xf32>) outs(%n23 : tensor<2x3xf32>) dimensions = [2]
    (%in: f32, %acc: f32) {
      %s = arith.maximumf %in, %acc : f32
      linalg.yield %s : f32
    }
  %gb = linalg.broadcast ins(%g : tensor<8xf32>) outs(%e : tensor<2x3x8xf32>) dimensions = [0, 1]
  %scaled = linalg.map ins(%x, %gb : tensor<2x3x8xf32>, tensor<2x3x8xf32>) outs(%e : tensor<2x3x8xf32>)
    (%l: f32, %r: f32, %o: f32) {
      %p = arith.mulf %l, %r : f32
      linalg.yield %p : f32
    }
  return %last, %rows, %m, %sum, %max, %scaled : tensor<2x3x8xf32>, tensor<2x3x8xf32>, tensor<3x5xf32>, tensor<2x8xf32>, tensor<2x3xf32>, tensor<2x3x8xf32>
}
