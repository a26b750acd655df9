// RUN: cs349-opt %s -split-input-file -verify-diagnostics

// One case per message of lib/Dialect/CS349/IR/CS349DiscardableAttrs.cpp:
// the attributes passes leave for later passes and the tools (cs349.plan,
// cs349.arena, cs349.initializer, cs349.initialized_by, cs349.layer_arg,
// cs349.init_result, cs349.folded_from, cs349.opaque) on the wrong kind of op
// or argument, or with the wrong kind of value. attrs.mlir round-trips them
// where they belong.

// expected-error @+1 {{'func.func' op carries 'cs349.plan', which belongs on a cs349.kernel}}
func.func @plan_on_a_function() attributes {cs349.plan = []} {
  return
}

// -----

func.func @plan_not_buffers(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'cs349.kernel' op expects 'cs349.plan' to be an array of #cs349.buffer, got [0]}}
  %a = cs349.kernel(%x) : (tensor<4xf32>) -> tensor<4xf32> attributes {cs349.plan = [0]} {
  ^bb0(%xa: tensor<4xf32>):
    %0 = cs349.exp %xa : tensor<4xf32>
    cs349.yield %0 : tensor<4xf32>
  }
  return %a : tensor<4xf32>
}

// -----

func.func @plan_wrong_count(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'cs349.kernel' op has 2 buffers in 'cs349.plan' for its 1 results; expected one per result}}
  %a = cs349.kernel(%x) : (tensor<4xf32>) -> tensor<4xf32> attributes {cs349.plan = [#cs349.buffer<offset = 0, bytes = 16, first = 0, last = 0>, #cs349.buffer<offset = 16, bytes = 16, first = 0, last = 0>]} {
  ^bb0(%xa: tensor<4xf32>):
    %0 = cs349.exp %xa : tensor<4xf32>
    cs349.yield %0 : tensor<4xf32>
  }
  return %a : tensor<4xf32>
}

// -----

func.func @opaque_not_names(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'cs349.kernel' op expects 'cs349.opaque' to be an array of op names, got 1 : i64}}
  %a = cs349.kernel(%x) : (tensor<4xf32>) -> tensor<4xf32> attributes {cs349.opaque = 1} {
  ^bb0(%xa: tensor<4xf32>):
    %0 = cs349.exp %xa : tensor<4xf32>
    cs349.yield %0 : tensor<4xf32>
  }
  return %a : tensor<4xf32>
}

// -----

func.func @opaque_on_an_op(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'cs349.exp' op carries 'cs349.opaque', which belongs on a cs349.kernel}}
  %0 = cs349.exp %x {cs349.opaque = ["tosa.exp"]} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @arena_on_an_op(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'cs349.exp' op carries 'cs349.arena', which belongs on a function}}
  %0 = cs349.exp %x {cs349.arena = #cs349.arena<bytes = 16, naive = 16, lower_bound = 16, alignment = 1, kernels = 1, strategy = "naive">} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// expected-error @+1 {{'func.func' op expects 'cs349.arena' to be a #cs349.arena, got 16 : i64}}
func.func @arena_not_an_arena() attributes {cs349.arena = 16} {
  return
}

// -----

// expected-error @+1 {{'func.func' op expects 'cs349.initializer' to be a unit attribute, got true}}
func.func @initializer_not_unit() attributes {cs349.initializer = true} {
  return
}

// -----

func.func @initializer_on_an_op(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'cs349.exp' op carries 'cs349.initializer', which belongs on a function}}
  %0 = cs349.exp %x {cs349.initializer} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// expected-error @+1 {{'func.func' op expects 'cs349.initialized_by' to be a symbol reference, got "init"}}
func.func @initialized_by_a_string() attributes {cs349.initialized_by = "init"} {
  return
}

// -----

// expected-error @+1 {{'func.func' op names @missing in 'cs349.initialized_by', which is not a function}}
func.func @initialized_by_nothing() attributes {cs349.initialized_by = @missing} {
  return
}

// -----

func.func @plain() {
  return
}

// expected-error @+1 {{'func.func' op names @plain in 'cs349.initialized_by', which is not tagged 'cs349.initializer'}}
func.func @initialized_by_a_plain_function() attributes {cs349.initialized_by = @plain} {
  return
}

// -----

func.func @initialized_by_on_an_op(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'cs349.exp' op carries 'cs349.initialized_by', which belongs on a function}}
  %0 = cs349.exp %x {cs349.initialized_by = @f} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// expected-error @+1 {{'func.func' op carries 'cs349.layer_arg', which belongs on a function argument}}
func.func @layer_arg_on_a_function() attributes {cs349.layer_arg = 0} {
  return
}

// -----

func.func @init_result_on_an_op(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'cs349.exp' op carries 'cs349.init_result', which belongs on a function argument}}
  %0 = cs349.exp %x {cs349.init_result = 0} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// expected-error @+1 {{'func.func' op carries 'cs349.folded_from', which belongs on a function argument or result}}
func.func @folded_from_on_a_function() attributes {cs349.folded_from = ["g", "w"]} {
  return
}

// -----

// expected-error @+1 {{'func.func' op carries 'cs349.plans', which the cs349 dialect does not define; it defines cs349.plan, cs349.arena, cs349.initializer, cs349.initialized_by, cs349.layer_arg, cs349.init_result, cs349.folded_from and cs349.opaque}}
func.func @misspelt() attributes {cs349.plans = []} {
  return
}

// -----

// expected-error @+1 {{'func.func' op carries 'cs349.arg', which the cs349 dialect does not define}}
func.func @misspelt_argument(%x: tensor<4xf32> {cs349.arg = 0}) {
  return
}

// -----

// expected-error @+1 {{'func.func' op carries 'cs349.plan' on argument #0, but it belongs on a cs349.kernel}}
func.func @plan_on_an_argument(%x: tensor<4xf32> {cs349.plan = []}) {
  return
}

// -----

// expected-error @+1 {{'func.func' op expects 'cs349.layer_arg' on argument #0 to be a non-negative i64 integer, got -1 : i64}}
func.func @layer_arg_negative(%x: tensor<4xf32> {cs349.layer_arg = -1}) {
  return
}

// -----

// expected-error @+1 {{'func.func' op expects 'cs349.layer_arg' on argument #0 to be a non-negative i64 integer, got "0"}}
func.func @layer_arg_a_string(%x: tensor<4xf32> {cs349.layer_arg = "0"}) {
  return
}

// -----

// expected-error @+1 {{'func.func' op carries 'cs349.init_result' on argument #0 but names no initializer ('cs349.initialized_by')}}
func.func @init_result_without_initializer(%x: tensor<4xf32> {cs349.init_result = 0}) {
  return
}

// -----

func.func @init() -> f32 attributes {cs349.initializer} {
  %c = arith.constant 1.0 : f32
  return %c : f32
}

// expected-error @+1 {{'func.func' op carries 'cs349.init_result' on argument #0, which is not a tensor (or, bufferized, a memref)}}
func.func @init_result_on_a_scalar(%x: f32 {cs349.init_result = 0}) attributes {cs349.initialized_by = @init} {
  return
}

// -----

// expected-error @+1 {{'func.func' op carries 'cs349.folded_from' on argument #0, which is not a tensor (or, bufferized, a memref)}}
func.func @folded_from_on_a_scalar(%x: f32 {cs349.folded_from = ["g", "w"]}) {
  return
}

// -----

// expected-error @+1 {{'func.func' op expects 'cs349.folded_from' on argument #0 to be an array of strings, got [1, 2]}}
func.func @folded_from_not_names(%x: tensor<4xf32> {cs349.folded_from = [1, 2]}) {
  return
}

// -----

// expected-error @+1 {{'func.func' op carries 'cs349.layer_arg' on result #0, but it belongs on a function argument}}
func.func @layer_arg_on_a_result(%x: tensor<4xf32>) -> (tensor<4xf32> {cs349.layer_arg = 0}) {
  return %x : tensor<4xf32>
}

// -----

// expected-error @+1 {{'func.func' op carries 'cs349.folded_from' on result #0 but is not tagged 'cs349.initializer'}}
func.func @folded_from_outside_an_initializer(%x: tensor<4xf32>) -> (tensor<4xf32> {cs349.folded_from = ["g", "w"]}) {
  return %x : tensor<4xf32>
}

// -----

// expected-error @+1 {{'func.func' op carries 'cs349.folded_from' on result #0, which is not a tensor (or, bufferized, a memref)}}
func.func @folded_from_on_a_scalar_result(%x: f32) -> (f32 {cs349.folded_from = ["g", "w"]}) attributes {cs349.initializer} {
  return %x : f32
}

// -----

// expected-error @+1 {{'func.func' op expects 'cs349.folded_from' on result #0 to be an array of strings, got "g"}}
func.func @folded_from_a_string(%x: tensor<4xf32>) -> (tensor<4xf32> {cs349.folded_from = "g"}) attributes {cs349.initializer} {
  return %x : tensor<4xf32>
}
