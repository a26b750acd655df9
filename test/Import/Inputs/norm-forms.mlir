// RMSNorm as buddy-mlir writes it in front of a projection: x² as fpowi,
// the mean as a multiply by a reshaped 1-element reciprocal, γ reshaped to
// [1, 1, d] and on the left of the product, the linear weight [N, d]
// transposed before a plain matmul.
#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @rms_norm_projection(%x: tensor<1x4x8xf32>, %gamma: tensor<8xf32>, %w: tensor<6x8xf32>) -> tensor<1x4x6xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %e = tensor.empty() : tensor<1x4x8xf32>
  %c2 = arith.constant 2 : i32
  %sq = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<1x4x8xf32>) outs(%e : tensor<1x4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %p = math.fpowi %in, %c2 : f32, i32
    linalg.yield %p : f32
  } -> tensor<1x4x8xf32>
  %sum = tosa.reduce_sum %sq {axis = 2 : i32} : (tensor<1x4x8xf32>) -> tensor<1x4x1xf32>
  %d = "tosa.const"() <{values = dense<8.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %rd = tosa.reciprocal %d : (tensor<1xf32>) -> tensor<1xf32>
  %s0 = tosa.const_shape {values = dense<[1, 1, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %rd3 = tosa.reshape %rd, %s0 : (tensor<1xf32>, !tosa.shape<3>) -> tensor<1x1x1xf32>
  %mean = tosa.mul %rd3, %sum, %shift : (tensor<1x1x1xf32>, tensor<1x4x1xf32>, tensor<1xi8>) -> tensor<1x4x1xf32>
  %eps = "tosa.const"() <{values = dense<9.99999997E-7> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %me = tosa.add %mean, %eps : (tensor<1x4x1xf32>, tensor<1x1x1xf32>) -> tensor<1x4x1xf32>
  %r = tosa.rsqrt %me : (tensor<1x4x1xf32>) -> tensor<1x4x1xf32>
  %n = tosa.mul %x, %r, %shift : (tensor<1x4x8xf32>, tensor<1x4x1xf32>, tensor<1xi8>) -> tensor<1x4x8xf32>
  %s1 = tosa.const_shape {values = dense<[1, 1, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %g3 = tosa.reshape %gamma, %s1 : (tensor<8xf32>, !tosa.shape<3>) -> tensor<1x1x8xf32>
  %y = tosa.mul %g3, %n, %shift : (tensor<1x1x8xf32>, tensor<1x4x8xf32>, tensor<1xi8>) -> tensor<1x4x8xf32>
  %wt = tosa.transpose %w {perms = array<i32: 1, 0>} : (tensor<6x8xf32>) -> tensor<8x6xf32>
  %s2 = tosa.const_shape {values = dense<[1, 8, 6]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %wt3 = tosa.reshape %wt, %s2 : (tensor<8x6xf32>, !tosa.shape<3>) -> tensor<1x8x6xf32>
  %o = tosa.matmul %y, %wt3, %zp, %zp : (tensor<1x4x8xf32>, tensor<1x8x6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x6xf32>
  return %o : tensor<1x4x6xf32>
}
