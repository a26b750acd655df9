// Every folder of constant-fold.mlir on constants that exercise it, in f32 so
// that the folded values and the compiled code can be compared to 1e-6.
func.func @folds() -> (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<1x2x4xf32>,
                       tensor<2x2xf32>, tensor<4x2xf32>, tensor<2x1xf32>, tensor<4xf32>,
                       tensor<4x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>,
                       tensor<6xf32>) {
  %a = cs349.constant dense<[[0.5, -1.0, 2.0, 0.25], [3.0, 1.5, -0.5, 1.0]]> : tensor<2x4xf32>
  %g = cs349.constant dense<[1.0, 2.0, 0.5, -1.0]> : tensor<4xf32>
  %0 = cs349.softmax %a axis = 1 : tensor<2x4xf32>
  %1 = cs349.rms_norm %a, %g epsilon = 1.0e-5 : tensor<2x4xf32>, tensor<4xf32>
  %2 = cs349.silu %a : tensor<2x4xf32>
  %q = cs349.reshape %a : tensor<2x4xf32> -> tensor<1x2x4xf32>
  %cos = cs349.rope_table cos theta = 100.0 : tensor<2x4xf32>
  %sin = cs349.rope_table sin theta = 100.0 : tensor<2x4xf32>
  %3 = cs349.rope %q, %cos, %sin : tensor<1x2x4xf32>, tensor<2x4xf32>
  %4 = cs349.matmul %a, %a transpose_b : tensor<2x4xf32>, tensor<2x4xf32> -> tensor<2x2xf32>
  %5 = cs349.transpose %a perm = [1, 0] : tensor<2x4xf32> -> tensor<4x2xf32>
  %t = cs349.tanh %a : tensor<2x4xf32>
  %r = cs349.rsqrt %0 : tensor<2x4xf32>
  %m = cs349.max %t, %r : tensor<2x4xf32>
  %6 = cs349.reduce_max %m axes = [1] keepdims : tensor<2x4xf32> -> tensor<2x1xf32>
  %e = cs349.exp %a : tensor<2x4xf32>
  %7 = cs349.reduce_sum %e axes = [0] : tensor<2x4xf32> -> tensor<4xf32>
  %rep = cs349.repeat %a axis = 0 times = 2 : tensor<2x4xf32> -> tensor<4x4xf32>
  %8 = cs349.matmul %rep, %5 : tensor<4x4xf32>, tensor<4x2xf32> -> tensor<4x2xf32>
  %9 = cs349.matmul %8, %a : tensor<4x2xf32>, tensor<2x4xf32> -> tensor<4x4xf32>
  %n = cs349.neg %a : tensor<2x4xf32>
  %d = cs349.div %n, %g : tensor<2x4xf32>, tensor<4xf32>
  %10 = cs349.sub %d, %g : tensor<2x4xf32>, tensor<4xf32>
  %rh = cs349.rotate_half %a : tensor<2x4xf32>
  %11 = cs349.add %rh, %a : tensor<2x4xf32>
  // Powers of a positive base, and C's special cases (NaN base to the 0th,
  // 1 to a NaN power, a negative base to an integral and a fractional power,
  // 0 to a negative power): the folder's double pow and math.powf agree.
  %12 = cs349.pow %e, %a : tensor<2x4xf32>
  %base = cs349.constant dense<[0x7FC00000, 1.0, -8.0, -2.0, 2.0, 0.0]> : tensor<6xf32>
  %power = cs349.constant dense<[0.0, 0x7FC00000, 0.5, 3.0, -1.0, -1.0]> : tensor<6xf32>
  %13 = cs349.pow %base, %power : tensor<6xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %9, %10, %11, %12, %13
      : tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<1x2x4xf32>,
        tensor<2x2xf32>, tensor<4x2xf32>, tensor<2x1xf32>, tensor<4xf32>,
        tensor<4x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>,
        tensor<6xf32>
}
