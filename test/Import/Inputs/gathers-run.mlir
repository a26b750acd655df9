// Batched lookups as tosa.gather writes them (values [N, K, C] by ids
// [N, W] give [N, W, C]): by id arguments and by constant ids, into a table
// with a row of one element (whose index the lowering folds to 0), and a
// lookup in a splat table (which upstream folds to its value).
func.func @gathers(%table: tensor<3x5x4xf32>, %ids: tensor<3x6xi32>, %column: tensor<2x7x1xf32>)
    -> (tensor<3x6x4xf32>, tensor<2x3x1xf32>, tensor<1x4x2xf32>) {
  %g = tosa.gather %table, %ids : (tensor<3x5x4xf32>, tensor<3x6xi32>) -> tensor<3x6x4xf32>
  %fixed = "tosa.const"() <{values = dense<[[6, 0, 3], [1, 1, 5]]> : tensor<2x3xi32>}> : () -> tensor<2x3xi32>
  %c = tosa.gather %column, %fixed : (tensor<2x7x1xf32>, tensor<2x3xi32>) -> tensor<2x3x1xf32>
  %splat = "tosa.const"() <{values = dense<-0.75> : tensor<1x3x2xf32>}> : () -> tensor<1x3x2xf32>
  %some = "tosa.const"() <{values = dense<[[2, 0, 1, 1]]> : tensor<1x4xi32>}> : () -> tensor<1x4xi32>
  %s = tosa.gather %splat, %some : (tensor<1x3x2xf32>, tensor<1x4xi32>) -> tensor<1x4x2xf32>
  return %g, %c, %s : tensor<3x6x4xf32>, tensor<2x3x1xf32>, tensor<1x4x2xf32>
}
