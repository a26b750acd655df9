// exercises/lifetimes: a kernel result read by an op that is neither a kernel,
// a view nor the return cannot be planned: a located error.
// RUN: cs349-opt %s --allow-unregistered-dialect --plan-memory -verify-diagnostics -o /dev/null
func.func @f(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-note @+1 {{the result is written here}}
  %a = cs349.kernel(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%in: tensor<4x8xf32>):
    %r = cs349.exp %in : tensor<4x8xf32>
    cs349.yield %r : tensor<4x8xf32>
  }
  // expected-error @+1 {{reads a kernel result outside any cs349.kernel: run --fuse first}}
  "test.use"(%a) : (tensor<4x8xf32>) -> ()
  %c = cs349.kernel(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%in: tensor<4x8xf32>):
    %r = cs349.tanh %in : tensor<4x8xf32>
    cs349.yield %r : tensor<4x8xf32>
  }
  return %c : tensor<4x8xf32>
}
