// Integer constants converted to bf16 and narrowed to i32: 2^24 + 2^16 + 1
// and 2^24 + 1 (not f32 values), 2^60 + 2^52 + 1 and 2^53 + 1 (not double
// values).
func.func @wide() -> (tensor<2xbf16>, tensor<1xbf16>, tensor<1xi32>) {
  %f32_inexact = cs349.constant dense<[16842753, 16777217]> : tensor<2xi64>
  %to_bf16 = cs349.cast %f32_inexact : tensor<2xi64> -> tensor<2xbf16>
  %double_inexact = cs349.constant dense<1157425104234217473> : tensor<1xi64>
  %huge_to_bf16 = cs349.cast %double_inexact : tensor<1xi64> -> tensor<1xbf16>
  %odd = cs349.constant dense<9007199254740993> : tensor<1xi64>
  %low_bits = cs349.cast %odd : tensor<1xi64> -> tensor<1xi32>
  return %to_bf16, %huge_to_bf16, %low_bits : tensor<2xbf16>, tensor<1xbf16>, tensor<1xi32>
}
