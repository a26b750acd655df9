// Slices, a concatenation written as insert_slices, RoPE's rotate-half and
// a lookup of rows by id, as front ends write them (run.test runs it as
// written and imported).
#ids = affine_map<(d0, d1, d2) -> (d0, d1)>
#out = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @moves(%x: tensor<1x2x6x8xf32>, %cache: tensor<16x8xf32>, %pos: tensor<1x6xi64>) -> (tensor<1x2x6x8xf32>, tensor<1x2x6x12xf32>) {
  %table = tensor.extract_slice %cache[0, 0] [6, 8] [1, 1] : tensor<16x8xf32> to tensor<6x8xf32>
  %e = tensor.empty() : tensor<1x6x8xf32>
  %cos = linalg.generic {indexing_maps = [#ids, #out], iterator_types = ["parallel", "parallel", "parallel"]} ins(%pos : tensor<1x6xi64>) outs(%e : tensor<1x6x8xf32>) {
  ^bb0(%in: i64, %o: f32):
    %i = arith.index_cast %in : i64 to index
    %j = linalg.index 2 : index
    %v = tensor.extract %table[%i, %j] : tensor<6x8xf32>
    linalg.yield %v : f32
  } -> tensor<1x6x8xf32>
  %c = tosa.const_shape {values = dense<[1, 1, 6, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %cos4 = tosa.reshape %cos, %c : (tensor<1x6x8xf32>, !tosa.shape<4>) -> tensor<1x1x6x8xf32>
  %lo = tensor.extract_slice %x[0, 0, 0, 0] [1, 2, 6, 4] [1, 1, 1, 1] : tensor<1x2x6x8xf32> to tensor<1x2x6x4xf32>
  %hi = tensor.extract_slice %x[0, 0, 0, 4] [1, 2, 6, 4] [1, 1, 1, 1] : tensor<1x2x6x8xf32> to tensor<1x2x6x4xf32>
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %n = tosa.negate %hi, %z, %z : (tensor<1x2x6x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x6x4xf32>
  %r0 = tensor.empty() : tensor<1x2x6x8xf32>
  %r1 = tensor.insert_slice %n into %r0[0, 0, 0, 0] [1, 2, 6, 4] [1, 1, 1, 1] : tensor<1x2x6x4xf32> into tensor<1x2x6x8xf32>
  %r2 = tensor.insert_slice %lo into %r1[0, 0, 0, 4] [1, 2, 6, 4] [1, 1, 1, 1] : tensor<1x2x6x4xf32> into tensor<1x2x6x8xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %xc = tosa.mul %x, %cos4, %shift : (tensor<1x2x6x8xf32>, tensor<1x1x6x8xf32>, tensor<1xi8>) -> tensor<1x2x6x8xf32>
  %rs = tosa.mul %r2, %cos4, %shift : (tensor<1x2x6x8xf32>, tensor<1x1x6x8xf32>, tensor<1xi8>) -> tensor<1x2x6x8xf32>
  %rope = tosa.add %xc, %rs : (tensor<1x2x6x8xf32>, tensor<1x2x6x8xf32>) -> tensor<1x2x6x8xf32>
  %wide = tensor.concat dim(3) %rope, %lo : (tensor<1x2x6x8xf32>, tensor<1x2x6x4xf32>) -> tensor<1x2x6x12xf32>
  return %rope, %wide : tensor<1x2x6x8xf32>, tensor<1x2x6x12xf32>
}
