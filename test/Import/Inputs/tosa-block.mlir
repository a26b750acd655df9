// A small attention core and SwiGLU MLP as a TFLite- or Dynamo-style front
// end writes them in TOSA: unit batch dims, reshapes, 1/sqrt(dh) as a
// reciprocal constant, softmax divided by reciprocal · mul, an additive mask
// argument, sigmoid · x, and a floor that cs349 has no op for.
func.func @block(%q: tensor<4x8x16xf32>, %kt: tensor<4x16x8xf32>, %mask: tensor<1x1x8x8xf32>, %v: tensor<1x4x8x16xf32>, %w1: tensor<1x16x32xf32>, %w2: tensor<1x16x32xf32>, %w3: tensor<1x32x16xf32>) -> tensor<1x8x16xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<4x8x16xf32>, tensor<4x16x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x8x8xf32>
  %shape4 = tosa.const_shape {values = dense<[1, 4, 8, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s4 = tosa.reshape %s, %shape4 : (tensor<4x8x8xf32>, !tosa.shape<4>) -> tensor<1x4x8x8xf32>
  %sq = "tosa.const"() <{values = dense<4.0> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %rsq = tosa.reciprocal %sq : (tensor<1x1x1x1xf32>) -> tensor<1x1x1x1xf32>
  %scaled = tosa.mul %s4, %rsq, %shift : (tensor<1x4x8x8xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<1x4x8x8xf32>
  %masked = tosa.add %scaled, %mask : (tensor<1x4x8x8xf32>, tensor<1x1x8x8xf32>) -> tensor<1x4x8x8xf32>
  %m = tosa.reduce_max %masked {axis = 3 : i32} : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x1xf32>
  %d = tosa.sub %masked, %m : (tensor<1x4x8x8xf32>, tensor<1x4x8x1xf32>) -> tensor<1x4x8x8xf32>
  %e = tosa.exp %d : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %sum = tosa.reduce_sum %e {axis = 3 : i32} : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x1xf32>
  %r = tosa.reciprocal %sum : (tensor<1x4x8x1xf32>) -> tensor<1x4x8x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<1x4x8x8xf32>, tensor<1x4x8x1xf32>, tensor<1xi8>) -> tensor<1x4x8x8xf32>
  %shape3 = tosa.const_shape {values = dense<[4, 8, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %p3 = tosa.reshape %p, %shape3 : (tensor<1x4x8x8xf32>, !tosa.shape<3>) -> tensor<4x8x8xf32>
  %shapev = tosa.const_shape {values = dense<[4, 8, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v3 = tosa.reshape %v, %shapev : (tensor<1x4x8x16xf32>, !tosa.shape<3>) -> tensor<4x8x16xf32>
  %o = tosa.matmul %p3, %v3, %zp, %zp : (tensor<4x8x8xf32>, tensor<4x8x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x8x16xf32>
  %ot = tosa.transpose %o {perms = array<i32: 1, 0, 2>} : (tensor<4x8x16xf32>) -> tensor<8x4x16xf32>
  %shapeh = tosa.const_shape {values = dense<[1, 8, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %h = tosa.reshape %ot, %shapeh : (tensor<8x4x16xf32>, !tosa.shape<3>) -> tensor<1x8x64xf32>
  %start = tosa.const_shape {values = dense<[0, 0, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %size = tosa.const_shape {values = dense<[1, 8, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %hx = tosa.slice %h, %start, %size : (tensor<1x8x64xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<1x8x16xf32>
  %floor = tosa.floor %hx : (tensor<1x8x16xf32>) -> tensor<1x8x16xf32>
  %g = tosa.matmul %floor, %w1, %zp, %zp : (tensor<1x8x16xf32>, tensor<1x16x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x32xf32>
  %sg = tosa.sigmoid %g : (tensor<1x8x32xf32>) -> tensor<1x8x32xf32>
  %act = tosa.mul %sg, %g, %shift : (tensor<1x8x32xf32>, tensor<1x8x32xf32>, tensor<1xi8>) -> tensor<1x8x32xf32>
  %u = tosa.matmul %hx, %w2, %zp, %zp : (tensor<1x8x16xf32>, tensor<1x16x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x32xf32>
  %gu = tosa.mul %act, %u, %shift : (tensor<1x8x32xf32>, tensor<1x8x32xf32>, tensor<1xi8>) -> tensor<1x8x32xf32>
  %down = tosa.matmul %gu, %w3, %zp, %zp : (tensor<1x8x32xf32>, tensor<1x32x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x16xf32>
  %res = tosa.add %down, %hx : (tensor<1x8x16xf32>, tensor<1x8x16xf32>) -> tensor<1x8x16xf32>
  return %res : tensor<1x8x16xf32>
}
