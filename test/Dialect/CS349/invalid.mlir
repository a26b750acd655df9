// RUN: cs349-opt %s -split-input-file -verify-diagnostics

// One case per verifier message of lib/Dialect/CS349/IR/CS349Ops.cpp, plus
// the constraints ODS generates (element types, static shapes, matching
// types). Each message says what was expected and what was found.

//===----------------------------------------------------------------------===//
// Element types and shapes (ODS constraints)
//===----------------------------------------------------------------------===//

func.func @f64_is_not_a_cs349_type(%a: tensor<4xf64>) -> tensor<4xf64> {
  // expected-error @+1 {{'cs349.exp' op operand #0 must be statically shaped tensor of bfloat16 type or 16-bit float or 32-bit float values (at most 2^63-1 bytes), but got 'tensor<4xf64>'}}
  %0 = cs349.exp %a : tensor<4xf64>
  return %0 : tensor<4xf64>
}

// -----

// The builtin type accepts shapes whose element count overflows int64;
// every size computed from them (folds, fusion, plans) would wrap.
func.func @byte_size_overflows(%a: tensor<8x9223372036854775807xf32>, %w: tensor<9223372036854775807x4xf32>) -> tensor<8x4xf32> {
  // expected-error @+1 {{'cs349.matmul' op operand #0 must be statically shaped tensor of bfloat16 type or 16-bit float or 32-bit float values (at most 2^63-1 bytes), but got 'tensor<8x9223372036854775807xf32>'}}
  %0 = cs349.matmul %a, %w : tensor<8x9223372036854775807xf32>, tensor<9223372036854775807x4xf32> -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

// 2^62 bf16 elements are 2^63 bytes: one too many.
func.func @byte_size_just_overflows(%a: tensor<4611686018427387904xbf16>) -> tensor<4611686018427387904xbf16> {
  // expected-error @+1 {{'cs349.exp' op operand #0 must be statically shaped tensor of bfloat16 type or 16-bit float or 32-bit float values (at most 2^63-1 bytes)}}
  %0 = cs349.exp %a : tensor<4611686018427387904xbf16>
  return %0 : tensor<4611686018427387904xbf16>
}

// -----

// Elements are counted before bytes, as getTensorBytes counts them:
// 2^61 x 2 x 0 f32 elements are 0 bytes (accepted), though 4 x 2^61 bytes
// would overflow; 2^62 x 4 x 0 overflows while counting (rejected).
func.func @byte_size_counts_elements_first(%a: tensor<2305843009213693952x2x0xf32>) -> tensor<2305843009213693952x2x0xf32> {
  %0 = cs349.neg %a : tensor<2305843009213693952x2x0xf32>
  return %0 : tensor<2305843009213693952x2x0xf32>
}

// -----

func.func @element_count_overflows_before_zero(%a: tensor<4611686018427387904x4x0xf32>) -> tensor<4611686018427387904x4x0xf32> {
  // expected-error @+1 {{'cs349.neg' op operand #0 must be statically shaped tensor of bfloat16 type or 16-bit float or 32-bit float values (at most 2^63-1 bytes)}}
  %0 = cs349.neg %a : tensor<4611686018427387904x4x0xf32>
  return %0 : tensor<4611686018427387904x4x0xf32>
}

// -----

func.func @dynamic_shape(%a: tensor<?x4xf32>) -> tensor<?x4xf32> {
  // expected-error @+1 {{'cs349.neg' op operand #0 must be statically shaped tensor}}
  %0 = cs349.neg %a : tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

func.func @elementwise_result_shape(%a: tensor<4x8xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{'cs349.tanh' op all non-scalar operands/results must have the same shape and base type}}
  %0 = "cs349.tanh"(%a) : (tensor<4x8xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

func.func @unary_result_type(%a: tensor<4x8xf32>) -> tensor<4x8xbf16> {
  // expected-error @+1 {{'cs349.rotate_half' op requires the same type for all operands and results}}
  %0 = "cs349.rotate_half"(%a) : (tensor<4x8xf32>) -> tensor<4x8xbf16>
  return %0 : tensor<4x8xbf16>
}

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

// -----

func.func @constant_type_mismatch() -> tensor<4xf32> {
  // expected-error @+1 {{'cs349.constant' op failed to verify that all of {value, result} have same type}}
  %0 = "cs349.constant"() <{value = dense<1.0> : tensor<2xf32>}> : () -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @mask_not_square() -> tensor<4x8xbf16> {
  // expected-error @+1 {{'cs349.causal_mask' op expected a square [T, T] mask, got [4, 8]}}
  %0 = cs349.causal_mask : tensor<4x8xbf16>
  return %0 : tensor<4x8xbf16>
}

// -----

func.func @mask_rank() -> tensor<2x4x4xbf16> {
  // expected-error @+1 {{'cs349.causal_mask' op expected a square [T, T] mask, got [2, 4, 4]}}
  %0 = cs349.causal_mask : tensor<2x4x4xbf16>
  return %0 : tensor<2x4x4xbf16>
}

// -----

func.func @causal_mask_window() -> tensor<4x4xbf16> {
  // expected-error @+1 {{'cs349.causal_mask' op expected a window of at least 1 key, got 0}}
  %0 = cs349.causal_mask window = 0 : tensor<4x4xbf16>
  return %0 : tensor<4x4xbf16>
}

// -----

func.func @rope_table_rank() -> tensor<8xbf16> {
  // expected-error @+1 {{'cs349.rope_table' op expected a [T, dh] table, got rank 1}}
  %0 = cs349.rope_table cos theta = 10000.0 : tensor<8xbf16>
  return %0 : tensor<8xbf16>
}

// -----

func.func @rope_table_odd() -> tensor<4x7xbf16> {
  // expected-error @+1 {{'cs349.rope_table' op expected an even head dimension, got 7}}
  %0 = cs349.rope_table sin theta = 10000.0 : tensor<4x7xbf16>
  return %0 : tensor<4x7xbf16>
}

// -----

func.func @rope_table_theta() -> tensor<4x8xbf16> {
  // expected-error @+1 {{'cs349.rope_table' op expected a positive theta, got 0}}
  %0 = cs349.rope_table cos theta = 0.0 : tensor<4x8xbf16>
  return %0 : tensor<4x8xbf16>
}

// -----

func.func @rope_table_kind() -> tensor<4x8xbf16> {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'kind' [cos, sin]}}
  %0 = cs349.rope_table tan theta = 10000.0 : tensor<4x8xbf16>
  return %0 : tensor<4x8xbf16>
}

//===----------------------------------------------------------------------===//
// Binary elementwise ops: broadcasting and element types
//===----------------------------------------------------------------------===//

// -----

func.func @not_broadcastable(%a: tensor<4x8xf32>, %b: tensor<4x3xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{expected broadcastable shapes, got [4, 8] and [4, 3]}}
  %0 = cs349.add %a, %b : tensor<4x8xf32>, tensor<4x3xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @mixed_element_types(%a: tensor<4x8xf32>, %b: tensor<4x8xbf16>) -> tensor<4x8xf32> {
  // expected-error @+1 {{expected operands of one element type, got 'f32' and 'bf16'}}
  %0 = cs349.mul %a, %b : tensor<4x8xf32>, tensor<4x8xbf16>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @three_types(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{expected one or two operand types, got 3}}
  %0 = cs349.sub %a, %a : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @unranked_operands(%a: tensor<*xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{expected ranked tensor types, got 'tensor<*xf32>'}}
  %0 = cs349.add %a, %a : tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// A binary op whose operand is typed with the wrong shape: the parser reports
// it at the use, with its location.
func.func @binary_operand_typed_wrong(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-note @-1 {{prior use here}}
  // expected-error @+1 {{use of value '%a' expects different type than prior uses: 'tensor<4x4xf32>' vs 'tensor<4x8xf32>'}}
  %0 = cs349.add %a, %a : tensor<4x4xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// A binary op whose result is typed with the wrong shape (generic form):
// upstream's InferTypeOpInterface check says what it inferred.
func.func @binary_result_typed_wrong(%a: tensor<4x8xf32>, %r: tensor<4x1xf32>) -> tensor<4x1xf32> {
  // expected-error @+2 {{'cs349.div' op inferred type(s) 'tensor<4x8xf32>' are incompatible with return type(s) of operation 'tensor<4x1xf32>'}}
  // expected-error @+1 {{'cs349.div' op failed to infer returned types}}
  %0 = "cs349.div"(%a, %r) : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
  return %0 : tensor<4x1xf32>
}

// -----

func.func @binary_generic_not_broadcastable(%a: tensor<4x8xf32>, %b: tensor<2x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+2 {{expected broadcastable shapes, got [4, 8] and [2, 8]}}
  // expected-error @+1 {{'cs349.max' op failed to infer returned types}}
  %0 = "cs349.max"(%a, %b) : (tensor<4x8xf32>, tensor<2x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

//===----------------------------------------------------------------------===//
// rotate_half and reductions
//===----------------------------------------------------------------------===//

// -----

func.func @rotate_half_odd(%a: tensor<4x7xf32>) -> tensor<4x7xf32> {
  // expected-error @+1 {{'cs349.rotate_half' op expected an even last dimension, got [4, 7]}}
  %0 = cs349.rotate_half %a : tensor<4x7xf32>
  return %0 : tensor<4x7xf32>
}

// -----

func.func @rotate_half_scalar(%a: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'cs349.rotate_half' op expected an even last dimension, got []}}
  %0 = cs349.rotate_half %a : tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @reduce_no_axes(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'cs349.reduce_sum' op expected at least one axis}}
  %0 = cs349.reduce_sum %a axes = [] : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @reduce_axis_out_of_range(%a: tensor<4x8xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'cs349.reduce_max' op expected axes in [0, 2), got 2}}
  %0 = cs349.reduce_max %a axes = [2] : tensor<4x8xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @reduce_negative_axis(%a: tensor<4x8xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'cs349.reduce_sum' op expected axes in [0, 2), got -1}}
  %0 = cs349.reduce_sum %a axes = [-1] : tensor<4x8xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @reduce_axis_twice(%a: tensor<4x8xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'cs349.reduce_sum' op expected distinct axes, got 1 twice}}
  %0 = cs349.reduce_sum %a axes = [1, 1] : tensor<4x8xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @reduce_element_type(%a: tensor<4x8xf32>) -> tensor<4x1xbf16> {
  // expected-error @+1 {{'cs349.reduce_sum' op expected result element type 'f32', got 'bf16'}}
  %0 = cs349.reduce_sum %a axes = [1] keepdims : tensor<4x8xf32> -> tensor<4x1xbf16>
  return %0 : tensor<4x1xbf16>
}

// -----

// Without keepdims the reduced axis disappears.
func.func @reduce_shape_without_keepdims(%a: tensor<4x8xf32>) -> tensor<4x1xf32> {
  // expected-error @+1 {{'cs349.reduce_max' op expected result shape [4], got [4, 1]}}
  %0 = cs349.reduce_max %a axes = [1] : tensor<4x8xf32> -> tensor<4x1xf32>
  return %0 : tensor<4x1xf32>
}

// -----

func.func @reduce_shape_with_keepdims(%a: tensor<4x8xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'cs349.reduce_sum' op expected result shape [4, 1], got [4]}}
  %0 = cs349.reduce_sum %a axes = [1] keepdims : tensor<4x8xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

//===----------------------------------------------------------------------===//
// softmax, rms_norm, rope
//===----------------------------------------------------------------------===//

// -----

func.func @softmax_axis(%a: tensor<2x4x4xf32>) -> tensor<2x4x4xf32> {
  // expected-error @+1 {{'cs349.softmax' op expected axis in [0, 3), got 3}}
  %0 = cs349.softmax %a axis = 3 : tensor<2x4x4xf32>
  return %0 : tensor<2x4x4xf32>
}

// -----

func.func @rms_norm_scalar(%a: tensor<f32>, %g: tensor<1xf32>) -> tensor<f32> {
  // expected-error @+1 {{'cs349.rms_norm' op expected an input of rank >= 1}}
  %0 = cs349.rms_norm %a, %g epsilon = 1.0e-5 : tensor<f32>, tensor<1xf32>
  return %0 : tensor<f32>
}

// -----

func.func @rms_norm_gain_type(%x: tensor<4x8xbf16>, %g: tensor<8xf32>) -> tensor<4x8xbf16> {
  // expected-error @+1 {{'cs349.rms_norm' op expected the gain's element type 'bf16', got 'f32'}}
  %0 = cs349.rms_norm %x, %g epsilon = 1.0e-5 : tensor<4x8xbf16>, tensor<8xf32>
  return %0 : tensor<4x8xbf16>
}

// -----

func.func @rms_norm_gain_shape(%x: tensor<4x8xbf16>, %g: tensor<4xbf16>) -> tensor<4x8xbf16> {
  // expected-error @+1 {{'cs349.rms_norm' op expected a gain of shape [8], got [4]}}
  %0 = cs349.rms_norm %x, %g epsilon = 1.0e-5 : tensor<4x8xbf16>, tensor<4xbf16>
  return %0 : tensor<4x8xbf16>
}

// -----

func.func @rms_norm_gain_rank(%x: tensor<4x8xbf16>, %g: tensor<1x8xbf16>) -> tensor<4x8xbf16> {
  // expected-error @+1 {{'cs349.rms_norm' op expected a gain of shape [8], got [1, 8]}}
  %0 = cs349.rms_norm %x, %g epsilon = 1.0e-5 : tensor<4x8xbf16>, tensor<1x8xbf16>
  return %0 : tensor<4x8xbf16>
}

// -----

func.func @rms_norm_negative_epsilon(%x: tensor<4x8xbf16>, %g: tensor<8xbf16>) -> tensor<4x8xbf16> {
  // expected-error @+1 {{'cs349.rms_norm' op expected a non-negative epsilon, got -1}}
  %0 = cs349.rms_norm %x, %g epsilon = -1.0 : tensor<4x8xbf16>, tensor<8xbf16>
  return %0 : tensor<4x8xbf16>
}

// -----

func.func @layer_norm_scalar(%a: tensor<f32>, %g: tensor<1xf32>) -> tensor<f32> {
  // expected-error @+1 {{'cs349.layer_norm' op expected an input of rank >= 1}}
  %0 = cs349.layer_norm %a, %g epsilon = 1.0e-5 : tensor<f32>, tensor<1xf32>
  return %0 : tensor<f32>
}

// -----

func.func @layer_norm_gain_type(%x: tensor<4x8xbf16>, %g: tensor<8xf32>) -> tensor<4x8xbf16> {
  // expected-error @+1 {{'cs349.layer_norm' op expected the gain's element type 'bf16', got 'f32'}}
  %0 = cs349.layer_norm %x, %g epsilon = 1.0e-5 : tensor<4x8xbf16>, tensor<8xf32>
  return %0 : tensor<4x8xbf16>
}

// -----

func.func @layer_norm_gain_shape(%x: tensor<4x8xf32>, %g: tensor<4xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'cs349.layer_norm' op expected a gain of shape [8], got [4]}}
  %0 = cs349.layer_norm %x, %g, %b epsilon = 1.0e-5 : tensor<4x8xf32>, tensor<4xf32>, tensor<8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @layer_norm_bias_type(%x: tensor<4x8xbf16>, %g: tensor<8xbf16>, %b: tensor<8xf32>) -> tensor<4x8xbf16> {
  // expected-error @+1 {{'cs349.layer_norm' op expected the bias's element type 'bf16', got 'f32'}}
  %0 = cs349.layer_norm %x, %g, %b epsilon = 1.0e-5 : tensor<4x8xbf16>, tensor<8xbf16>, tensor<8xf32>
  return %0 : tensor<4x8xbf16>
}

// -----

func.func @layer_norm_bias_shape(%x: tensor<4x8xf32>, %g: tensor<8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'cs349.layer_norm' op expected a bias of shape [8], got [4, 8]}}
  %0 = cs349.layer_norm %x, %g, %b epsilon = 1.0e-5 : tensor<4x8xf32>, tensor<8xf32>, tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @layer_norm_negative_epsilon(%x: tensor<4x8xf32>, %g: tensor<8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'cs349.layer_norm' op expected a non-negative epsilon, got -1}}
  %0 = cs349.layer_norm %x, %g epsilon = -1.0 : tensor<4x8xf32>, tensor<8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @layer_norm_result_type(%x: tensor<4x8xf32>, %g: tensor<8xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{'cs349.layer_norm' op failed to verify that all of {input, result} have same type}}
  %0 = "cs349.layer_norm"(%x, %g) {epsilon = 1.0e-5 : f64} : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

func.func @rope_rank(%x: tensor<8xbf16>, %t: tensor<8xbf16>) -> tensor<8xbf16> {
  // expected-error @+1 {{'cs349.rope' op expected an input of rank >= 2 ([..., T, dh]), got 1}}
  %0 = cs349.rope %x, %t, %t : tensor<8xbf16>, tensor<8xbf16>
  return %0 : tensor<8xbf16>
}

// -----

func.func @rope_odd_head_dim(%x: tensor<2x4x7xbf16>, %t: tensor<4x7xbf16>) -> tensor<2x4x7xbf16> {
  // expected-error @+1 {{'cs349.rope' op expected an even head dimension, got 7}}
  %0 = cs349.rope %x, %t, %t : tensor<2x4x7xbf16>, tensor<4x7xbf16>
  return %0 : tensor<2x4x7xbf16>
}

// -----

func.func @rope_table_element_type(%x: tensor<2x4x8xbf16>, %t: tensor<4x8xf32>) -> tensor<2x4x8xbf16> {
  // expected-error @+1 {{'cs349.rope' op expected tables of element type 'bf16', got 'f32'}}
  %0 = cs349.rope %x, %t, %t : tensor<2x4x8xbf16>, tensor<4x8xf32>
  return %0 : tensor<2x4x8xbf16>
}

// -----

func.func @rope_table_shape(%x: tensor<2x4x8xbf16>, %t: tensor<8x8xbf16>) -> tensor<2x4x8xbf16> {
  // expected-error @+1 {{'cs349.rope' op expected tables of shape [4, 8], got [8, 8]}}
  %0 = cs349.rope %x, %t, %t : tensor<2x4x8xbf16>, tensor<8x8xbf16>
  return %0 : tensor<2x4x8xbf16>
}

// -----

func.func @rope_cos_sin_differ(%x: tensor<2x4x8xbf16>, %c: tensor<4x8xbf16>, %s: tensor<8x8xbf16>) -> tensor<2x4x8xbf16> {
  // expected-error @+1 {{'cs349.rope' op failed to verify that all of {cos, sin} have same type}}
  %0 = "cs349.rope"(%x, %c, %s) : (tensor<2x4x8xbf16>, tensor<4x8xbf16>, tensor<8x8xbf16>) -> tensor<2x4x8xbf16>
  return %0 : tensor<2x4x8xbf16>
}

//===----------------------------------------------------------------------===//
// matmul
//===----------------------------------------------------------------------===//

// -----

func.func @matmul_rank(%a: tensor<8xf32>, %b: tensor<8x4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'cs349.matmul' op expected operands of rank >= 2, got 1 and 2}}
  %0 = cs349.matmul %a, %b : tensor<8xf32>, tensor<8x4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @matmul_element_type(%a: tensor<4x8xf32>, %b: tensor<8x4xbf16>) -> tensor<4x4xf32> {
  // expected-error @+1 {{'cs349.matmul' op expected one element type, got 'f32', 'bf16' -> 'f32'}}
  %0 = cs349.matmul %a, %b : tensor<4x8xf32>, tensor<8x4xbf16> -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

func.func @matmul_contraction(%a: tensor<4x128xf32>, %b: tensor<64x4xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{'cs349.matmul' op expected the contraction dims to match, got 128 and 64}}
  %0 = cs349.matmul %a, %b : tensor<4x128xf32>, tensor<64x4xf32> -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

// With transpose_b the right operand is [..., N, K]: its last dim contracts.
func.func @matmul_contraction_transpose_b(%q: tensor<2x4x8xf32>, %k: tensor<2x8x4xf32>) -> tensor<2x4x8xf32> {
  // expected-error @+1 {{'cs349.matmul' op expected the contraction dims to match, got 8 and 4}}
  %0 = cs349.matmul %q, %k transpose_b : tensor<2x4x8xf32>, tensor<2x8x4xf32> -> tensor<2x4x8xf32>
  return %0 : tensor<2x4x8xf32>
}

// -----

func.func @matmul_batch(%a: tensor<4x2x8xf32>, %b: tensor<3x8x2xf32>) -> tensor<4x2x2xf32> {
  // expected-error @+1 {{'cs349.matmul' op expected broadcastable batch dims, got [4] and [3]}}
  %0 = cs349.matmul %a, %b : tensor<4x2x8xf32>, tensor<3x8x2xf32> -> tensor<4x2x2xf32>
  return %0 : tensor<4x2x2xf32>
}

// -----

func.func @matmul_result_shape(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'cs349.matmul' op expected result shape [4, 16], got [4, 8]}}
  %0 = cs349.matmul %a, %b : tensor<4x8xf32>, tensor<8x16xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @matmul_broadcast_result(%a: tensor<2x4x8xf32>, %b: tensor<8x16xf32>) -> tensor<4x16xf32> {
  // expected-error @+1 {{'cs349.matmul' op expected result shape [2, 4, 16], got [4, 16]}}
  %0 = cs349.matmul %a, %b : tensor<2x4x8xf32>, tensor<8x16xf32> -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

//===----------------------------------------------------------------------===//
// attention
//===----------------------------------------------------------------------===//

// -----

func.func @attention_rank(%q: tensor<4x8xf32>, %k: tensor<2x4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'cs349.attention' op expected [heads, seq, head_dim] operands, got ranks 2, 3, 3}}
  %0 = cs349.attention %q, %k, %k scale = 0.125 mask = none : tensor<4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @attention_element_type(%q: tensor<4x4x8xf32>, %k: tensor<2x4x8xbf16>) -> tensor<4x4x8xf32> {
  // expected-error @+1 {{'cs349.attention' op expected one element type for q, k and v}}
  %0 = cs349.attention %q, %k, %k scale = 0.125 mask = none : tensor<4x4x8xf32>, tensor<2x4x8xbf16>, tensor<2x4x8xbf16>
  return %0 : tensor<4x4x8xf32>
}

// -----

func.func @attention_kv_shapes(%q: tensor<4x4x8xf32>, %k: tensor<2x4x8xf32>, %v: tensor<2x6x8xf32>) -> tensor<4x4x8xf32> {
  // expected-error @+1 {{'cs349.attention' op expected key and value of one shape, got [2, 4, 8] and [2, 6, 8]}}
  %0 = cs349.attention %q, %k, %v scale = 0.125 mask = none : tensor<4x4x8xf32>, tensor<2x4x8xf32>, tensor<2x6x8xf32>
  return %0 : tensor<4x4x8xf32>
}

// -----

// Grouped-query attention: each key/value head serves H/G query heads.
func.func @attention_gqa(%q: tensor<4x4x8xf32>, %k: tensor<3x4x8xf32>) -> tensor<4x4x8xf32> {
  // expected-error @+1 {{'cs349.attention' op expected the query heads (4) to be a multiple of the key/value heads (3)}}
  %0 = cs349.attention %q, %k, %k scale = 0.125 mask = none : tensor<4x4x8xf32>, tensor<3x4x8xf32>, tensor<3x4x8xf32>
  return %0 : tensor<4x4x8xf32>
}

// -----

func.func @attention_head_dim(%q: tensor<4x4x8xf32>, %k: tensor<2x4x16xf32>) -> tensor<4x4x8xf32> {
  // expected-error @+1 {{'cs349.attention' op expected the query head dim to match the key's, got 8 and 16}}
  %0 = cs349.attention %q, %k, %k scale = 0.125 mask = none : tensor<4x4x8xf32>, tensor<2x4x16xf32>, tensor<2x4x16xf32>
  return %0 : tensor<4x4x8xf32>
}

// -----

func.func @attention_causal_lengths(%q: tensor<4x4x8xf32>, %k: tensor<2x6x8xf32>) -> tensor<4x4x8xf32> {
  // expected-error @+1 {{'cs349.attention' op expected equal query and key lengths for a causal mask, got 4 and 6}}
  %0 = cs349.attention %q, %k, %k scale = 0.125 mask = causal : tensor<4x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x8xf32>
  return %0 : tensor<4x4x8xf32>
}

// -----

// Without a causal mask, queries may attend to a longer key sequence.
func.func @attention_cross_lengths_ok(%q: tensor<4x4x8xf32>, %k: tensor<2x6x8xf32>) -> tensor<4x4x8xf32> {
  %0 = cs349.attention %q, %k, %k scale = 0.125 mask = none : tensor<4x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x8xf32>
  return %0 : tensor<4x4x8xf32>
}

// -----

func.func @attention_window_lengths(%q: tensor<4x4x8xf32>, %k: tensor<2x6x8xf32>) -> tensor<4x4x8xf32> {
  // expected-error @+1 {{'cs349.attention' op expected equal query and key lengths for a sliding_window mask, got 4 and 6}}
  %0 = cs349.attention %q, %k, %k scale = 0.125 mask = sliding_window window = 2 : tensor<4x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x8xf32>
  return %0 : tensor<4x4x8xf32>
}

// -----

func.func @attention_window_zero(%q: tensor<4x4x8xf32>, %k: tensor<2x4x8xf32>) -> tensor<4x4x8xf32> {
  // expected-error @+1 {{'cs349.attention' op expected a window of at least 1 key, got 0}}
  %0 = cs349.attention %q, %k, %k scale = 0.125 mask = sliding_window window = 0 : tensor<4x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>
  return %0 : tensor<4x4x8xf32>
}

// -----

func.func @attention_window_missing(%q: tensor<4x4x8xf32>, %k: tensor<2x4x8xf32>) -> tensor<4x4x8xf32> {
  // expected-error @+1 {{'cs349.attention' op expected a window exactly when the mask is sliding_window, got mask = sliding_window without a window}}
  %0 = cs349.attention %q, %k, %k scale = 0.125 mask = sliding_window : tensor<4x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>
  return %0 : tensor<4x4x8xf32>
}

// -----

func.func @attention_window_not_sliding(%q: tensor<4x4x8xf32>, %k: tensor<2x4x8xf32>) -> tensor<4x4x8xf32> {
  // expected-error @+1 {{'cs349.attention' op expected a window exactly when the mask is sliding_window, got mask = causal with a window}}
  %0 = cs349.attention %q, %k, %k scale = 0.125 mask = causal window = 4 : tensor<4x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>
  return %0 : tensor<4x4x8xf32>
}

// -----

func.func @attention_additive_missing(%q: tensor<4x4x8xf32>, %k: tensor<2x4x8xf32>) -> tensor<4x4x8xf32> {
  // expected-error @+1 {{'cs349.attention' op expected a mask operand exactly when the mask is additive, got mask = additive without a mask operand}}
  %0 = cs349.attention %q, %k, %k scale = 0.125 mask = additive : tensor<4x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>
  return %0 : tensor<4x4x8xf32>
}

// -----

func.func @attention_operand_not_additive(%q: tensor<4x4x8xf32>, %k: tensor<2x4x8xf32>, %m: tensor<4x4xf32>) -> tensor<4x4x8xf32> {
  // expected-error @+1 {{'cs349.attention' op expected a mask operand exactly when the mask is additive, got mask = none with a mask operand}}
  %0 = cs349.attention %q, %k, %k scale = 0.125 mask = none %m : tensor<4x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<4x4xf32>
  return %0 : tensor<4x4x8xf32>
}

// -----

func.func @attention_mask_shape(%q: tensor<4x4x8xf32>, %k: tensor<2x4x8xf32>, %m: tensor<4x5xf32>) -> tensor<4x4x8xf32> {
  // expected-error @+1 {{'cs349.attention' op expected a mask operand that broadcasts to the scores [4, 4, 4], got [4, 5]}}
  %0 = cs349.attention %q, %k, %k scale = 0.125 mask = additive %m : tensor<4x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<4x5xf32>
  return %0 : tensor<4x4x8xf32>
}

// -----

func.func @attention_mask_rank(%q: tensor<4x4x8xf32>, %k: tensor<2x4x8xf32>, %m: tensor<1x4x4x4xf32>) -> tensor<4x4x8xf32> {
  // expected-error @+1 {{'cs349.attention' op expected a mask operand that broadcasts to the scores [4, 4, 4], got [1, 4, 4, 4]}}
  %0 = cs349.attention %q, %k, %k scale = 0.125 mask = additive %m : tensor<4x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<1x4x4x4xf32>
  return %0 : tensor<4x4x8xf32>
}

// -----

func.func @attention_mask_element_type(%q: tensor<4x4x8xf32>, %k: tensor<2x4x8xf32>, %m: tensor<4x4xbf16>) -> tensor<4x4x8xf32> {
  // expected-error @+1 {{'cs349.attention' op expected the mask operand's element type to be 'f32', got 'bf16'}}
  %0 = cs349.attention %q, %k, %k scale = 0.125 mask = additive %m : tensor<4x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<4x4xbf16>
  return %0 : tensor<4x4x8xf32>
}

// -----

func.func @attention_unknown_mask(%q: tensor<4x4x8xf32>, %k: tensor<2x4x8xf32>) -> tensor<4x4x8xf32> {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'mask' [none, causal, sliding_window, additive]}}
  %0 = cs349.attention %q, %k, %k scale = 0.125 mask = padding : tensor<4x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>
  return %0 : tensor<4x4x8xf32>
}

//===----------------------------------------------------------------------===//
// Views
//===----------------------------------------------------------------------===//

// -----

func.func @reshape_element_type(%a: tensor<4x8xf32>) -> tensor<32xbf16> {
  // expected-error @+1 {{'cs349.reshape' op expected result element type 'f32', got 'bf16'}}
  %0 = cs349.reshape %a : tensor<4x8xf32> -> tensor<32xbf16>
  return %0 : tensor<32xbf16>
}

// -----

func.func @reshape_elements(%a: tensor<4x8xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{'cs349.reshape' op expected the same number of elements, got 32 and 16}}
  %0 = cs349.reshape %a : tensor<4x8xf32> -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

func.func @transpose_perm_size(%a: tensor<2x4x8xf32>) -> tensor<4x2x8xf32> {
  // expected-error @+1 {{'cs349.transpose' op expected a permutation of 3 dims, got 2}}
  %0 = cs349.transpose %a perm = [1, 0] : tensor<2x4x8xf32> -> tensor<4x2x8xf32>
  return %0 : tensor<4x2x8xf32>
}

// -----

func.func @transpose_perm_repeats(%a: tensor<2x4x8xf32>) -> tensor<4x4x8xf32> {
  // expected-error @+1 {{'cs349.transpose' op expected a permutation of [0, 3), got [1, 1, 2]}}
  %0 = cs349.transpose %a perm = [1, 1, 2] : tensor<2x4x8xf32> -> tensor<4x4x8xf32>
  return %0 : tensor<4x4x8xf32>
}

// -----

func.func @transpose_perm_range(%a: tensor<2x4x8xf32>) -> tensor<4x2x8xf32> {
  // expected-error @+1 {{'cs349.transpose' op expected a permutation of [0, 3), got [1, 0, 3]}}
  %0 = cs349.transpose %a perm = [1, 0, 3] : tensor<2x4x8xf32> -> tensor<4x2x8xf32>
  return %0 : tensor<4x2x8xf32>
}

// -----

func.func @transpose_result_shape(%a: tensor<2x4x8xf32>) -> tensor<2x4x8xf32> {
  // expected-error @+1 {{'cs349.transpose' op expected result shape [4, 2, 8], got [2, 4, 8]}}
  %0 = cs349.transpose %a perm = [1, 0, 2] : tensor<2x4x8xf32> -> tensor<2x4x8xf32>
  return %0 : tensor<2x4x8xf32>
}

// -----

func.func @repeat_axis(%a: tensor<2x4x8xf32>) -> tensor<2x4x8xf32> {
  // expected-error @+1 {{'cs349.repeat' op expected axis in [0, 3), got 3}}
  %0 = cs349.repeat %a axis = 3 times = 1 : tensor<2x4x8xf32> -> tensor<2x4x8xf32>
  return %0 : tensor<2x4x8xf32>
}

// -----

func.func @repeat_times(%a: tensor<2x4x8xf32>) -> tensor<2x4x8xf32> {
  // expected-error @+1 {{'cs349.repeat' op expected times >= 1, got 0}}
  %0 = cs349.repeat %a axis = 0 times = 0 : tensor<2x4x8xf32> -> tensor<2x4x8xf32>
  return %0 : tensor<2x4x8xf32>
}

// -----

// GQA repeat of 2 key/value heads to 8 query heads: times must be 4.
func.func @repeat_result_shape(%k: tensor<2x4x8xf32>) -> tensor<8x4x8xf32> {
  // expected-error @+1 {{'cs349.repeat' op expected result shape [6, 4, 8], got [8, 4, 8]}}
  %0 = cs349.repeat %k axis = 0 times = 3 : tensor<2x4x8xf32> -> tensor<8x4x8xf32>
  return %0 : tensor<8x4x8xf32>
}

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

// -----

func.func @kernel_block_arg_count(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'cs349.kernel' op expected 2 block arguments, one per input, got 1}}
  %0 = cs349.kernel (%x, %y) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    cs349.yield %a : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @kernel_block_arg_type(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'cs349.kernel' op expected block argument #0 of type 'tensor<4xf32>', got 'tensor<8xf32>'}}
  %0 = cs349.kernel (%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<8xf32>):
    %r = cs349.reshape %a : tensor<8xf32> -> tensor<2x4xf32>
    %s = cs349.reduce_sum %r axes = [0] : tensor<2x4xf32> -> tensor<4xf32>
    cs349.yield %s : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @kernel_yield_types(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'cs349.kernel' op expected the yielded types to be the result types}}
  %0 = cs349.kernel (%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    %s = cs349.reduce_sum %a axes = [0] keepdims : tensor<4xf32> -> tensor<1xf32>
    cs349.yield %s : tensor<1xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @kernel_yield_count(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  // expected-error @+1 {{'cs349.kernel' op expected the yielded types to be the result types}}
  %0:2 = cs349.kernel (%x) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  ^bb0(%a: tensor<4xf32>):
    cs349.yield %a : tensor<4xf32>
  }
  return %0#0, %0#1 : tensor<4xf32>, tensor<4xf32>
}

// -----

func.func @kernel_wrong_terminator(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'cs349.kernel' op expected the body to end in cs349.yield}}
  %0 = "cs349.kernel"(%x) ({
  ^bb0(%a: tensor<4xf32>):
    func.return %a : tensor<4xf32>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// The body is isolated from above: it sees values only as block arguments.
func.func @kernel_isolated(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-note @+1 {{required by region isolation constraints}}
  %0 = cs349.kernel () : () -> tensor<4xf32> {
    // expected-error @+1 {{'cs349.neg' op using value defined outside the region}}
    %n = cs349.neg %x : tensor<4xf32>
    cs349.yield %n : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @yield_outside_kernel(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'cs349.yield' op expects parent op 'cs349.kernel'}}
  cs349.yield %x : tensor<4xf32>
}

// -----

func.func @kernel_non_tensor_result(%x: tensor<4xf32>) -> f32 {
  // expected-error @+1 {{'cs349.kernel' op result #0 must be variadic of statically shaped tensor}}
  %0 = "cs349.kernel"(%x) ({
  ^bb0(%a: tensor<4xf32>):
    "cs349.yield"(%a) : (tensor<4xf32>) -> ()
  }) : (tensor<4xf32>) -> f32
  return %0 : f32
}

// -----

func.func @slice_no_axes(%x: tensor<4x6xf32>) -> tensor<4x6xf32> {
  // expected-error @+1 {{'cs349.slice' op expected at least one axis}}
  %0 = cs349.slice %x axes = [] offsets = [] sizes = [] strides = [] : tensor<4x6xf32> -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}

// -----

func.func @slice_lengths(%x: tensor<4x6xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'cs349.slice' op expected one offset, size and stride per axis, got 1 axes, 2 offsets, 1 sizes and 1 strides}}
  %0 = cs349.slice %x axes = [1] offsets = [0, 0] sizes = [3] strides = [1] : tensor<4x6xf32> -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

func.func @slice_axis_range(%x: tensor<4x6xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'cs349.slice' op expected axes in [0, 2), got 2}}
  %0 = cs349.slice %x axes = [2] offsets = [0] sizes = [3] strides = [1] : tensor<4x6xf32> -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

func.func @slice_axis_twice(%x: tensor<4x6xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'cs349.slice' op expected distinct axes, got 1 twice}}
  %0 = cs349.slice %x axes = [1, 1] offsets = [0, 0] sizes = [3, 3] strides = [1, 1] : tensor<4x6xf32> -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

func.func @slice_negative_offset(%x: tensor<4x6xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'cs349.slice' op expected a non-negative offset along axis 1, got -1}}
  %0 = cs349.slice %x axes = [1] offsets = [-1] sizes = [3] strides = [1] : tensor<4x6xf32> -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

func.func @slice_zero_size(%x: tensor<4x6xf32>) -> tensor<4x0xf32> {
  // expected-error @+1 {{'cs349.slice' op expected a positive size along axis 1, got 0}}
  %0 = cs349.slice %x axes = [1] offsets = [0] sizes = [0] strides = [1] : tensor<4x6xf32> -> tensor<4x0xf32>
  return %0 : tensor<4x0xf32>
}

// -----

func.func @slice_zero_stride(%x: tensor<4x6xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'cs349.slice' op expected a positive stride along axis 1, got 0}}
  %0 = cs349.slice %x axes = [1] offsets = [0] sizes = [3] strides = [0] : tensor<4x6xf32> -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

func.func @slice_past_end(%x: tensor<4x6xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'cs349.slice' op expected the slice along axis 1 (offset 2, size 3, stride 2) inside the input's 6 elements, its last index is 6}}
  %0 = cs349.slice %x axes = [1] offsets = [2] sizes = [3] strides = [2] : tensor<4x6xf32> -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

func.func @slice_past_int64(%x: tensor<4x6xf32>) -> tensor<4x2xf32> {
  // expected-error @+1 {{'cs349.slice' op expected the slice along axis 1 (offset 5, size 2, stride 9223372036854775807) inside the input's 6 elements, its last index is at least 2^63}}
  %0 = cs349.slice %x axes = [1] offsets = [5] sizes = [2] strides = [9223372036854775807] : tensor<4x6xf32> -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

func.func @slice_result_shape(%x: tensor<4x6xf32>) -> tensor<4x2xf32> {
  // expected-error @+1 {{'cs349.slice' op expected result shape [4, 3], got [4, 2]}}
  %0 = cs349.slice %x axes = [1] offsets = [0] sizes = [3] strides = [1] : tensor<4x6xf32> -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

func.func @slice_element_type(%x: tensor<4x6xf32>) -> tensor<4x3xbf16> {
  // expected-error @+1 {{'cs349.slice' op expected result element type 'f32', got 'bf16'}}
  %0 = cs349.slice %x axes = [1] offsets = [0] sizes = [3] strides = [1] : tensor<4x6xf32> -> tensor<4x3xbf16>
  return %0 : tensor<4x3xbf16>
}

// -----

func.func @concat_no_inputs() -> tensor<4xf32> {
  // expected-error @+1 {{'cs349.concat' op expected at least one input}}
  %0 = "cs349.concat"() {axis = 0 : i64} : () -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @concat_axis(%a: tensor<4x2xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{'cs349.concat' op expected axis in [0, 2), got 2}}
  %0 = cs349.concat %a, %a axis = 2 : tensor<4x2xf32>, tensor<4x2xf32> -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

func.func @concat_element_types(%a: tensor<4x2xf32>, %b: tensor<4x2xbf16>) -> tensor<4x4xf32> {
  // expected-error @+1 {{'cs349.concat' op expected inputs of one element type, got 'f32' (input #0) and 'bf16' (input #1)}}
  %0 = cs349.concat %a, %b axis = 1 : tensor<4x2xf32>, tensor<4x2xbf16> -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

func.func @concat_ranks(%a: tensor<4x2xf32>, %b: tensor<4x2x1xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{'cs349.concat' op expected inputs of one rank, got 2 (input #0) and 3 (input #1)}}
  %0 = cs349.concat %a, %b axis = 1 : tensor<4x2xf32>, tensor<4x2x1xf32> -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

func.func @concat_other_dims(%a: tensor<4x2xf32>, %b: tensor<3x2xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{'cs349.concat' op expected the inputs to agree outside axis 1, got [4, 2] (input #0) and [3, 2] (input #1)}}
  %0 = cs349.concat %a, %b axis = 1 : tensor<4x2xf32>, tensor<3x2xf32> -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

func.func @concat_result_element_type(%a: tensor<4x2xf32>) -> tensor<4x4xf16> {
  // expected-error @+1 {{'cs349.concat' op expected result element type 'f32', got 'f16'}}
  %0 = cs349.concat %a, %a axis = 1 : tensor<4x2xf32>, tensor<4x2xf32> -> tensor<4x4xf16>
  return %0 : tensor<4x4xf16>
}

// -----

func.func @concat_result_shape(%a: tensor<4x2xf32>, %b: tensor<4x3xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{'cs349.concat' op expected result shape [4, 5], got [4, 4]}}
  %0 = cs349.concat %a, %b axis = 1 : tensor<4x2xf32>, tensor<4x3xf32> -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

func.func @cast_shape(%a: tensor<4x2xf32>) -> tensor<2x4xbf16> {
  // expected-error @+1 {{'cs349.cast' op expected the result shape to be the input's [4, 2], got [2, 4]}}
  %0 = cs349.cast %a : tensor<4x2xf32> -> tensor<2x4xbf16>
  return %0 : tensor<2x4xbf16>
}

// -----

func.func @float_op_on_integers(%a: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'cs349.neg' op operand #0 must be statically shaped tensor of bfloat16 type or 16-bit float or 32-bit float values (at most 2^63-1 bytes), but got 'tensor<4xi32>'}}
  %0 = cs349.neg %a : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @compare_element_types(%a: tensor<4xf32>, %b: tensor<4xbf16>) -> tensor<4xi1> {
  // expected-error @+1 {{'cs349.compare' op expected operands of one element type, got 'f32' and 'bf16'}}
  %0 = cs349.compare lt %a, %b : tensor<4xf32>, tensor<4xbf16> -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @compare_shapes(%a: tensor<4xf32>, %b: tensor<3xf32>) -> tensor<4xi1> {
  // expected-error @+1 {{'cs349.compare' op expected broadcastable shapes, got [4] and [3]}}
  %0 = cs349.compare lt %a, %b : tensor<4xf32>, tensor<3xf32> -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @compare_result_type(%a: tensor<4xf32>) -> tensor<4xi32> {
  // expected-error @+1 {{'cs349.compare' op expected an i1 result, got 'i32'}}
  %0 = cs349.compare lt %a, %a : tensor<4xf32>, tensor<4xf32> -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @compare_result_shape(%a: tensor<4xf32>, %b: tensor<2x1xf32>) -> tensor<4xi1> {
  // expected-error @+1 {{'cs349.compare' op expected result shape [2, 4], got [4]}}
  %0 = cs349.compare lt %a, %b : tensor<4xf32>, tensor<2x1xf32> -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @compare_float_result(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'cs349.compare' op result #0 must be statically shaped tensor of 1-bit, 32-bit or 64-bit signless integer values (at most 2^63-1 bytes), but got 'tensor<4xf32>'}}
  %0 = cs349.compare lt %a, %a : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @select_condition_type(%c: tensor<4xi32>, %a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'cs349.select' op expected an i1 condition, got 'i32'}}
  %0 = cs349.select %c, %a, %a : tensor<4xi32>, tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @select_value_types(%c: tensor<4xi1>, %a: tensor<4xf32>, %b: tensor<4xbf16>) -> tensor<4xf32> {
  // expected-error @+1 {{'cs349.select' op expected true and false values of one element type, got 'f32' and 'bf16'}}
  %0 = cs349.select %c, %a, %b : tensor<4xi1>, tensor<4xf32>, tensor<4xbf16> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @select_result_type(%c: tensor<4xi1>, %a: tensor<4xf32>) -> tensor<4xbf16> {
  // expected-error @+1 {{'cs349.select' op expected result element type 'f32', got 'bf16'}}
  %0 = cs349.select %c, %a, %a : tensor<4xi1>, tensor<4xf32>, tensor<4xf32> -> tensor<4xbf16>
  return %0 : tensor<4xbf16>
}

// -----

func.func @select_shapes(%c: tensor<3xi1>, %a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'cs349.select' op expected broadcastable shapes, got [3], [4] and [4]}}
  %0 = cs349.select %c, %a, %a : tensor<3xi1>, tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @select_result_shape(%c: tensor<2x1xi1>, %a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'cs349.select' op expected result shape [2, 4], got [4]}}
  %0 = cs349.select %c, %a, %a : tensor<2x1xi1>, tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @gather_index_type(%t: tensor<8x4xf32>, %i: tensor<3xi1>) -> tensor<3x4xf32> {
  // expected-error @+1 {{'cs349.gather' op expected i32 or i64 indices, got 'i1'}}
  %0 = cs349.gather %t, %i axis = 0 : tensor<8x4xf32>, tensor<3xi1> -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @gather_float_indices(%t: tensor<8x4xf32>, %i: tensor<3xf32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{'cs349.gather' op operand #1 must be statically shaped tensor of 1-bit, 32-bit or 64-bit signless integer values (at most 2^63-1 bytes), but got 'tensor<3xf32>'}}
  %0 = cs349.gather %t, %i axis = 0 : tensor<8x4xf32>, tensor<3xf32> -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @gather_axis(%t: tensor<8x4xf32>, %i: tensor<3xi32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{'cs349.gather' op expected axis in [0, 2), got 2}}
  %0 = cs349.gather %t, %i axis = 2 : tensor<8x4xf32>, tensor<3xi32> -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @gather_empty_table(%t: tensor<0x4xf32>, %i: tensor<3xi32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{'cs349.gather' op expected a table with at least one slice along axis 0, got [0, 4]}}
  %0 = cs349.gather %t, %i axis = 0 : tensor<0x4xf32>, tensor<3xi32> -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @gather_result_type(%t: tensor<8x4xf32>, %i: tensor<3xi32>) -> tensor<3x4xbf16> {
  // expected-error @+1 {{'cs349.gather' op expected result element type 'f32', got 'bf16'}}
  %0 = cs349.gather %t, %i axis = 0 : tensor<8x4xf32>, tensor<3xi32> -> tensor<3x4xbf16>
  return %0 : tensor<3x4xbf16>
}

// -----

func.func @gather_result_shape(%t: tensor<8x4xf32>, %i: tensor<2x3xi64>) -> tensor<8x6xf32> {
  // expected-error @+1 {{'cs349.gather' op expected result shape [8, 2, 3], got [8, 6]}}
  %0 = cs349.gather %t, %i axis = 1 : tensor<8x4xf32>, tensor<2x3xi64> -> tensor<8x6xf32>
  return %0 : tensor<8x6xf32>
}
