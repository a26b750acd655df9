// Integer tensors through cs349-run: an embedding lookup (i32 ids, which
// cs349-run fills in [0, 10) because a gather reads them as indices), a
// runtime padding mask (positions, an i64 constant cast to f32, compared with
// a length from the data; hidden scores selected to -inf), a bf16 activation
// whose softmax statistics are f32 (mixed precision), an i1 argument (0 or 1)
// used as a mask and as a number, and a float cast to i32 (toward zero).
func.func @integer_ops(%ids: tensor<6xi32>, %wte: tensor<10x4xbf16>,
                       %x: tensor<2x6xbf16>, %length: tensor<2xf32>,
                       %keep: tensor<2x6xi1>)
    -> (tensor<6x4xbf16>, tensor<2x6xf32>, tensor<2x6xbf16>, tensor<2x6xf32>,
        tensor<2x6xi32>) {
  %emb = cs349.gather %wte, %ids axis = 0
      : tensor<10x4xbf16>, tensor<6xi32> -> tensor<6x4xbf16>
  %pos = cs349.constant dense<[0, 1, 2, 3, 4, 5]> : tensor<6xi64>
  %posf = cs349.cast %pos : tensor<6xi64> -> tensor<6xf32>
  // length in [0.5, 1.5) times 4: between 2 and 6 keys visible per row.
  %four = cs349.constant dense<4.0> : tensor<f32>
  %len = cs349.mul %length, %four : tensor<2xf32>, tensor<f32>
  %len2 = cs349.reshape %len : tensor<2xf32> -> tensor<2x1xf32>
  %valid = cs349.compare lt %posf, %len2
      : tensor<6xf32>, tensor<2x1xf32> -> tensor<2x6xi1>
  %ninf = cs349.constant dense<0xFF80> : tensor<bf16>
  %masked = cs349.select %valid, %x, %ninf
      : tensor<2x6xi1>, tensor<2x6xbf16>, tensor<bf16> -> tensor<2x6xbf16>
  %wide = cs349.cast %masked : tensor<2x6xbf16> -> tensor<2x6xf32>
  %p = cs349.softmax %wide axis = 1 : tensor<2x6xf32>
  %zero = cs349.constant dense<0.0> : tensor<bf16>
  %kept = cs349.select %keep, %x, %zero
      : tensor<2x6xi1>, tensor<2x6xbf16>, tensor<bf16> -> tensor<2x6xbf16>
  %keepf = cs349.cast %keep : tensor<2x6xi1> -> tensor<2x6xf32>
  %fourb = cs349.constant dense<4.0> : tensor<bf16>
  %scaled = cs349.mul %x, %fourb : tensor<2x6xbf16>, tensor<bf16>
  %ints = cs349.cast %scaled : tensor<2x6xbf16> -> tensor<2x6xi32>
  return %emb, %p, %kept, %keepf, %ints
      : tensor<6x4xbf16>, tensor<2x6xf32>, tensor<2x6xbf16>, tensor<2x6xf32>,
        tensor<2x6xi32>
}
