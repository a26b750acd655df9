// A result whose length is a value read from an argument: no argument size
// tells it before the run.
func.func @from_data(%x: tensor<?xf32>, %n: tensor<i64>) -> tensor<?xf32> {
  %length = tensor.extract %n[] : tensor<i64>
  %size = arith.index_cast %length : i64 to index
  %empty = tensor.empty(%size) : tensor<?xf32>
  return %empty : tensor<?xf32>
}
