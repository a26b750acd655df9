// slice, concat and cast as written and through the pipelines: slices of an
// argument (one axis, and strided along two) and of a matmul result read by
// a reduction (a view of the matmul kernel's buffer once fused, as the fused
// QKV projection's q, k and v are), a concat of an argument slice, a computed value and an argument,
// read by an elementwise op and by a row reduction, and a round trip through
// bf16.
func.func @data_movement(%x: tensor<4x10xf32>, %y: tensor<4x3xf32>,
                         %w: tensor<10x6xf32>)
    -> (tensor<2x3xf32>, tensor<4x10xf32>, tensor<4x1xf32>, tensor<4x10xf32>,
        tensor<4x1xf32>) {
  %q = cs349.slice %x axes = [1] offsets = [0] sizes = [4] strides = [1]
      : tensor<4x10xf32> -> tensor<4x4xf32>
  %k = cs349.slice %x axes = [1] offsets = [4] sizes = [3] strides = [1]
      : tensor<4x10xf32> -> tensor<4x3xf32>
  %box = cs349.slice %x axes = [0, 1] offsets = [1, 1] sizes = [2, 3]
      strides = [2, 3] : tensor<4x10xf32> -> tensor<2x3xf32>
  %e = cs349.exp %k : tensor<4x3xf32>
  %c = cs349.concat %q, %e, %y axis = 1
      : tensor<4x4xf32>, tensor<4x3xf32>, tensor<4x3xf32> -> tensor<4x10xf32>
  %t = cs349.tanh %c : tensor<4x10xf32>
  %r = cs349.reduce_sum %c axes = [1] keepdims : tensor<4x10xf32> -> tensor<4x1xf32>
  %narrow = cs349.cast %x : tensor<4x10xf32> -> tensor<4x10xbf16>
  %back = cs349.cast %narrow : tensor<4x10xbf16> -> tensor<4x10xf32>
  %p = cs349.matmul %x, %w : tensor<4x10xf32>, tensor<10x6xf32> -> tensor<4x6xf32>
  %v = cs349.slice %p axes = [1] offsets = [3] sizes = [3] strides = [1]
      : tensor<4x6xf32> -> tensor<4x3xf32>
  %m = cs349.reduce_max %v axes = [1] keepdims : tensor<4x3xf32> -> tensor<4x1xf32>
  return %box, %t, %r, %back, %m
      : tensor<2x3xf32>, tensor<4x10xf32>, tensor<4x1xf32>, tensor<4x10xf32>,
        tensor<4x1xf32>
}
