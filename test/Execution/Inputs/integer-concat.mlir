// Integer and mask tensors joined by cs349.concat: token ids of a prompt
// and of the tokens after it (i64), and a padding mask of each (i1) that
// selects between two float tensors.
func.func @join(%prompt: tensor<2x3xi64>, %next: tensor<2x2xi64>, %prompt_mask: tensor<2x3xi1>, %next_mask: tensor<2x2xi1>, %x: tensor<2x5xf32>) -> (tensor<2x5xi64>, tensor<2x5xf32>) {
  %ids = cs349.concat %prompt, %next axis = 1 : tensor<2x3xi64>, tensor<2x2xi64> -> tensor<2x5xi64>
  %mask = cs349.concat %prompt_mask, %next_mask axis = 1 : tensor<2x3xi1>, tensor<2x2xi1> -> tensor<2x5xi1>
  %zero = cs349.constant dense<0.0> : tensor<f32>
  %kept = cs349.select %mask, %x, %zero : tensor<2x5xi1>, tensor<2x5xf32>, tensor<f32> -> tensor<2x5xf32>
  return %ids, %kept : tensor<2x5xi64>, tensor<2x5xf32>
}
