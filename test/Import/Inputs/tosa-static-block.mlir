// tosa-dynamic-block.mlir's fragment exported with sequence 8.
func.func @block(%x: tensor<1x8x16xf32>, %w: tensor<1x16x16xf32>) -> tensor<8x16xf32> {
  %zero = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %m = tosa.matmul %x, %w, %zero, %zero : (tensor<1x8x16xf32>, tensor<1x16x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x16xf32>
  %max = tosa.reduce_max %m {axis = 2 : i32} : (tensor<1x8x16xf32>) -> tensor<1x8x1xf32>
  %d = tosa.sub %m, %max : (tensor<1x8x16xf32>, tensor<1x8x1xf32>) -> tensor<1x8x16xf32>
  %e = tosa.exp %d : (tensor<1x8x16xf32>) -> tensor<1x8x16xf32>
  %s = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<1x8x16xf32>) -> tensor<1x8x1xf32>
  %r = tosa.reciprocal %s : (tensor<1x8x1xf32>) -> tensor<1x8x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<1x8x16xf32>, tensor<1x8x1xf32>, tensor<1xi8>) -> tensor<1x8x16xf32>
  %y = tosa.add %p, %x : (tensor<1x8x16xf32>, tensor<1x8x16xf32>) -> tensor<1x8x16xf32>
  %rows = tosa.const_shape {values = dense<[-1, 16]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %flat = tosa.reshape %y, %rows : (tensor<1x8x16xf32>, !tosa.shape<2>) -> tensor<8x16xf32>
  return %flat : tensor<8x16xf32>
}
