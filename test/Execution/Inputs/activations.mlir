// sigmoid and relu of a broadcasting product, cos and sin of 6 times it (a
// few periods), sqrt and log of x*x + 1 (positive). Fused, each of the two
// chains is one elementwise kernel.
func.func @activations(%x: tensor<4x8xf32>, %r: tensor<4x1xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %one = cs349.constant dense<1.0> : tensor<f32>
  %s = cs349.mul %x, %r : tensor<4x8xf32>, tensor<4x1xf32>
  %sigmoid = cs349.sigmoid %s : tensor<4x8xf32>
  %relu = cs349.relu %s : tensor<4x8xf32>
  %six = cs349.constant dense<6.0> : tensor<f32>
  %wide = cs349.mul %s, %six : tensor<4x8xf32>, tensor<f32>
  %cos = cs349.cos %wide : tensor<4x8xf32>
  %sin = cs349.sin %wide : tensor<4x8xf32>
  %square = cs349.mul %x, %x : tensor<4x8xf32>, tensor<4x8xf32>
  %positive = cs349.add %square, %one : tensor<4x8xf32>, tensor<f32>
  %sqrt = cs349.sqrt %positive : tensor<4x8xf32>
  %log = cs349.log %positive : tensor<4x8xf32>
  return %sigmoid, %relu, %cos, %sin, %sqrt, %log : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}

// Outside the domain: sqrt and log of negative elements are NaN, log(0) is
// -inf, sqrt(-0) is -0 (run with --inputs).
func.func @outside_domain(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %sqrt = cs349.sqrt %x : tensor<4xf32>
  %log = cs349.log %x : tensor<4xf32>
  return %sqrt, %log : tensor<4xf32>, tensor<4xf32>
}
