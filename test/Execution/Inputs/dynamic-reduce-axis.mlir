// A TOSA reduction whose result leaves the reduced axis dynamic (TOSA says
// 1): upstream's lowering crashes sizing it.
func.func @reduce(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %sum = tosa.reduce_sum %x {axis = 1 : i32} : (tensor<?x?xf32>) -> tensor<?x?xf32>
  return %sum : tensor<?x?xf32>
}
