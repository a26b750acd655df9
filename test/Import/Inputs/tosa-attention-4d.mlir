// Attention as a Dynamo-style front end writes it for a batch of one:
// [1, H, T, dh] queries, [1, G, S, dh] keys and values widened to H heads
// by GQA's reshape to 5-D + broadcasting add of zeros + reshape back, kᵀ as
// a 4-D transpose, the matmuls in 3-D between reshapes, 1/sqrt(dh) as a
// splat, softmax divided by reciprocal · mul.
func.func @attention(%q: tensor<1x4x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>) -> tensor<1x4x8x16xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %zeros = "tosa.const"() <{values = dense<0.0> : tensor<1x2x2x8x16xf32>}> : () -> tensor<1x2x2x8x16xf32>
  %to5 = tosa.const_shape {values = dense<[1, 2, 1, 8, 16]> : tensor<5xindex>} : () -> !tosa.shape<5>
  %to4 = tosa.const_shape {values = dense<[1, 4, 8, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %k5 = tosa.reshape %k, %to5 : (tensor<1x2x8x16xf32>, !tosa.shape<5>) -> tensor<1x2x1x8x16xf32>
  %kb = tosa.add %k5, %zeros : (tensor<1x2x1x8x16xf32>, tensor<1x2x2x8x16xf32>) -> tensor<1x2x2x8x16xf32>
  %kr = tosa.reshape %kb, %to4 : (tensor<1x2x2x8x16xf32>, !tosa.shape<4>) -> tensor<1x4x8x16xf32>
  %v5 = tosa.reshape %v, %to5 : (tensor<1x2x8x16xf32>, !tosa.shape<5>) -> tensor<1x2x1x8x16xf32>
  %vb = tosa.add %zeros, %v5 : (tensor<1x2x2x8x16xf32>, tensor<1x2x1x8x16xf32>) -> tensor<1x2x2x8x16xf32>
  %vr = tosa.reshape %vb, %to4 : (tensor<1x2x2x8x16xf32>, !tosa.shape<4>) -> tensor<1x4x8x16xf32>
  %kt = tosa.transpose %kr {perms = array<i32: 0, 1, 3, 2>} : (tensor<1x4x8x16xf32>) -> tensor<1x4x16x8xf32>
  %shq = tosa.const_shape {values = dense<[4, 8, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %shk = tosa.const_shape {values = dense<[4, 16, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %q3 = tosa.reshape %q, %shq : (tensor<1x4x8x16xf32>, !tosa.shape<3>) -> tensor<4x8x16xf32>
  %kt3 = tosa.reshape %kt, %shk : (tensor<1x4x16x8xf32>, !tosa.shape<3>) -> tensor<4x16x8xf32>
  %s = tosa.matmul %q3, %kt3, %zp, %zp : (tensor<4x8x16xf32>, tensor<4x16x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x8x8xf32>
  %shs = tosa.const_shape {values = dense<[1, 4, 8, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s4 = tosa.reshape %s, %shs : (tensor<4x8x8xf32>, !tosa.shape<4>) -> tensor<1x4x8x8xf32>
  %scale = "tosa.const"() <{values = dense<0.25> : tensor<1x4x8x8xf32>}> : () -> tensor<1x4x8x8xf32>
  %scaled = tosa.mul %s4, %scale, %shift : (tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>, tensor<1xi8>) -> tensor<1x4x8x8xf32>
  %m = tosa.reduce_max %scaled {axis = 3 : i32} : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x1xf32>
  %d = tosa.sub %scaled, %m : (tensor<1x4x8x8xf32>, tensor<1x4x8x1xf32>) -> tensor<1x4x8x8xf32>
  %e = tosa.exp %d : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %sum = tosa.reduce_sum %e {axis = 3 : i32} : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x1xf32>
  %r = tosa.reciprocal %sum : (tensor<1x4x8x1xf32>) -> tensor<1x4x8x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<1x4x8x8xf32>, tensor<1x4x8x1xf32>, tensor<1xi8>) -> tensor<1x4x8x8xf32>
  %shp = tosa.const_shape {values = dense<[4, 8, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %p3 = tosa.reshape %p, %shp : (tensor<1x4x8x8xf32>, !tosa.shape<3>) -> tensor<4x8x8xf32>
  %v3 = tosa.reshape %vr, %shq : (tensor<1x4x8x16xf32>, !tosa.shape<3>) -> tensor<4x8x16xf32>
  %o = tosa.matmul %p3, %v3, %zp, %zp : (tensor<4x8x8xf32>, tensor<4x8x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x8x16xf32>
  %o4 = tosa.reshape %o, %to4 : (tensor<4x8x16xf32>, !tosa.shape<4>) -> tensor<1x4x8x16xf32>
  return %o4 : tensor<1x4x8x16xf32>
}
