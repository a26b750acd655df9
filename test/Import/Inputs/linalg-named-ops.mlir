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

// Contractions that read A transposed ([batch,] K, M), as linalg.matmul and
// linalg.batch_matmul write them with indexing maps (alone and with B
// transposed too).
#aT = affine_map<(m, n, k) -> (k, m)>
#b = affine_map<(m, n, k) -> (k, n)>
#bT = affine_map<(m, n, k) -> (n, k)>
#c = affine_map<(m, n, k) -> (m, n)>
#baT = affine_map<(h, m, n, k) -> (h, k, m)>
#bb = affine_map<(h, m, n, k) -> (h, k, n)>
#bc = affine_map<(h, m, n, k) -> (h, m, n)>
func.func @transposed_a(%at: tensor<8x3xf32>, %b: tensor<8x5xf32>, %bt: tensor<5x8xf32>, %xt: tensor<2x8x3xf32>, %y: tensor<2x8x5xf32>)
    -> (tensor<3x5xf32>, tensor<3x5xf32>, tensor<2x3x5xf32>) {
  %zero = arith.constant 0.0 : f32
  %em = tensor.empty() : tensor<3x5xf32>
  %z = linalg.fill ins(%zero : f32) outs(%em : tensor<3x5xf32>) -> tensor<3x5xf32>
  %m = linalg.matmul indexing_maps = [#aT, #b, #c] ins(%at, %b : tensor<8x3xf32>, tensor<8x5xf32>) outs(%z : tensor<3x5xf32>) -> tensor<3x5xf32>
  %mt = linalg.matmul indexing_maps = [#aT, #bT, #c] ins(%at, %bt : tensor<8x3xf32>, tensor<5x8xf32>) outs(%z : tensor<3x5xf32>) -> tensor<3x5xf32>
  %eb = tensor.empty() : tensor<2x3x5xf32>
  %zb = linalg.fill ins(%zero : f32) outs(%eb : tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
  %bm = linalg.batch_matmul indexing_maps = [#baT, #bb, #bc] ins(%xt, %y : tensor<2x8x3xf32>, tensor<2x8x5xf32>) outs(%zb : tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
  return %m, %mt, %bm : tensor<3x5xf32>, tensor<3x5xf32>, tensor<2x3x5xf32>
}
