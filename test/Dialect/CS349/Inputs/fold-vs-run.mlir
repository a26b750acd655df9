// Every folder of constant-fold.mlir on constants that exercise it, in f32 so
// that the folded values and the compiled code can be compared to 1e-6.
func.func @folds() -> (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<1x2x4xf32>,
                       tensor<2x2xf32>, tensor<4x2xf32>, tensor<2x1xf32>, tensor<4xf32>,
                       tensor<4x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>) {
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
  return %0, %1, %2, %3, %4, %5, %6, %7, %9, %10, %11
      : tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<1x2x4xf32>,
        tensor<2x2xf32>, tensor<4x2xf32>, tensor<2x1xf32>, tensor<4xf32>,
        tensor<4x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>
}
