// RUN: cs349-opt %s -split-input-file --canonicalize -mlir-elide-elementsattrs-if-larger=64 | FileCheck %s

// Constant folding: ops whose operands are constants are evaluated (in
// double, rounded once to the element type) as long as the result has at
// most kMaxFoldElements = 65536 elements; splats fold at any size. The
// causal mask is never evaluated, rope tables only when an op that reads them
// is folded.

// CHECK-LABEL: func.func @binary
// CHECK-NEXT:    %[[ADD:.*]] = cs349.constant dense<{{\[}}[1.100000e+01, 2.200000e+01], [1.300000e+01, 2.400000e+01]]> : tensor<2x2xf32>
// CHECK-NEXT:    %[[SUB:.*]] = cs349.constant dense<{{\[}}[-1.000000e+00, 0.000000e+00], [4.000000e+00, 5.000000e+00]]> : tensor<2x2xf32>
// CHECK-NEXT:    %[[MUL:.*]] = cs349.constant dense<{{\[}}[2.000000e+00, 4.000000e+00], [-3.000000e+00, -4.000000e+00]]> : tensor<2x2xf32>
// CHECK-NEXT:    %[[DIV:.*]] = cs349.constant dense<{{\[}}[5.000000e-01, 1.000000e+00], [-3.000000e+00, -4.000000e+00]]> : tensor<2x2xf32>
// CHECK-NEXT:    %[[MAX:.*]] = cs349.constant dense<{{\[}}[2.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>
// CHECK-NEXT:    return %[[ADD]], %[[SUB]], %[[MUL]], %[[DIV]], %[[MAX]]
func.func @binary() -> (tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>) {
  %a = cs349.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %b = cs349.constant dense<[10.0, 20.0]> : tensor<2xf32>
  %c = cs349.constant dense<[[2.0], [-1.0]]> : tensor<2x1xf32>
  // Broadcasts: a row against every row, a column against every column.
  %0 = cs349.add %a, %b : tensor<2x2xf32>, tensor<2xf32>
  %1 = cs349.sub %a, %c : tensor<2x2xf32>, tensor<2x1xf32>
  %2 = cs349.mul %a, %c : tensor<2x2xf32>, tensor<2x1xf32>
  %3 = cs349.div %a, %c : tensor<2x2xf32>, tensor<2x1xf32>
  %4 = cs349.max %a, %c : tensor<2x2xf32>, tensor<2x1xf32>
  return %0, %1, %2, %3, %4 : tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>
}

// -----

// max propagates NaN; maxnum returns the other operand, and NaN only for two.

// CHECK-LABEL: func.func @nan_maxima
// CHECK-NEXT:    %[[MAX:.*]] = cs349.constant dense<[0x7FC00000, 0x7FC00000, 0x7FC00000, 4.000000e+00]> : tensor<4xf32>
// CHECK-NEXT:    %[[MAXNUM:.*]] = cs349.constant dense<[2.000000e+00, 1.000000e+00, 0x7FC00000, 4.000000e+00]> : tensor<4xf32>
// CHECK-NEXT:    return %[[MAX]], %[[MAXNUM]]
func.func @nan_maxima() -> (tensor<4xf32>, tensor<4xf32>) {
  %a = cs349.constant dense<[0x7FC00000, 1.0, 0x7FC00000, 3.0]> : tensor<4xf32>
  %b = cs349.constant dense<[2.0, 0x7FC00000, 0x7FC00000, 4.0]> : tensor<4xf32>
  %0 = cs349.max %a, %b : tensor<4xf32>
  %1 = cs349.maxnum %a, %b : tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// pow is C's pow: 0 as an exponent gives 1 even for a NaN base, a
// negative base gives a number (here -8) only to an integral power and NaN
// (of either sign) otherwise.

// CHECK-LABEL: func.func @powers
// CHECK-NEXT:    %[[P:.*]] = cs349.constant dense<[1.000000e+00, 1.000000e+00, 0x{{[7F]}}FC00000, -8.000000e+00, 5.000000e-01, 0x7F800000]> : tensor<6xf32>
// CHECK-NEXT:    return %[[P]]
func.func @powers() -> tensor<6xf32> {
  %a = cs349.constant dense<[0x7FC00000, 1.0, -8.0, -2.0, 2.0, 0.0]> : tensor<6xf32>
  %b = cs349.constant dense<[0.0, 0x7FC00000, 0.5, 3.0, -1.0, -1.0]> : tensor<6xf32>
  %0 = cs349.pow %a, %b : tensor<6xf32>
  return %0 : tensor<6xf32>
}

// -----

// The result is rounded to bf16 once: 1 + 0.001 is 1 in bf16 (8 bits of
// mantissa).

// CHECK-LABEL: func.func @bf16_rounding
// CHECK-NEXT:    %[[C:.*]] = cs349.constant dense<1.000000e+00> : tensor<bf16>
// CHECK-NEXT:    return %[[C]]
func.func @bf16_rounding() -> tensor<bf16> {
  %one = cs349.constant dense<1.0> : tensor<bf16>
  %small = cs349.constant dense<0.001> : tensor<bf16>
  %0 = cs349.add %one, %small : tensor<bf16>
  return %0 : tensor<bf16>
}

// -----

// CHECK-LABEL: func.func @unary
// CHECK-NEXT:    %[[NEG:.*]] = cs349.constant dense<[-1.000000e+00, -4.000000e+00, 2.000000e+00]> : tensor<3xf32>
// CHECK-NEXT:    %[[EXP:.*]] = cs349.constant dense<[2.71828175, 54.5981483, 0.135335281]> : tensor<3xf32>
// CHECK-NEXT:    %[[RSQRT:.*]] = cs349.constant dense<[1.000000e+00, 5.000000e-01, 0x{{.*}}]> : tensor<3xf32>
// CHECK-NEXT:    %[[TANH:.*]] = cs349.constant dense<[0.761594176, 0.999329328, -0.964027583]> : tensor<3xf32>
// CHECK-NEXT:    %[[SILU:.*]] = cs349.constant dense<[0.731058597, 3.92805505, -0.238405839]> : tensor<3xf32>
// CHECK-NEXT:    return %[[NEG]], %[[EXP]], %[[RSQRT]], %[[TANH]], %[[SILU]]
func.func @unary() -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %a = cs349.constant dense<[1.0, 4.0, -2.0]> : tensor<3xf32>
  %0 = cs349.neg %a : tensor<3xf32>
  %1 = cs349.exp %a : tensor<3xf32>
  // rsqrt(-2) is NaN: folding keeps it rather than refusing.
  %2 = cs349.rsqrt %a : tensor<3xf32>
  %3 = cs349.tanh %a : tensor<3xf32>
  %4 = cs349.silu %a : tensor<3xf32>
  return %0, %1, %2, %3, %4 : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
}

// -----

// CHECK-LABEL: func.func @reductions
// CHECK-NEXT:    %[[ROWS:.*]] = cs349.constant dense<{{\[}}[4.000000e+00], [7.500000e+00]]> : tensor<2x1xf32>
// CHECK-NEXT:    %[[COLS:.*]] = cs349.constant dense<[3.000000e+00, 5.000000e+00, 4.000000e+00]> : tensor<3xf32>
// CHECK-NEXT:    %[[ALL:.*]] = cs349.constant dense<1.150000e+01> : tensor<1x1xf32>
// CHECK-NEXT:    %[[SPLAT:.*]] = cs349.constant dense<4.096000e+03> : tensor<2x1xbf16>
// CHECK-NEXT:    return %[[ROWS]], %[[COLS]], %[[ALL]], %[[SPLAT]]
func.func @reductions() -> (tensor<2x1xf32>, tensor<3xf32>, tensor<1x1xf32>, tensor<2x1xbf16>) {
  %a = cs349.constant dense<[[1.0, 5.0, -2.0], [3.0, 0.5, 4.0]]> : tensor<2x3xf32>
  %0 = cs349.reduce_sum %a axes = [1] keepdims : tensor<2x3xf32> -> tensor<2x1xf32>
  %1 = cs349.reduce_max %a axes = [0] : tensor<2x3xf32> -> tensor<3xf32>
  %2 = cs349.reduce_sum %a axes = [0, 1] keepdims : tensor<2x3xf32> -> tensor<1x1xf32>
  // A splat sums to count * value without visiting the elements.
  %s = cs349.constant dense<1.0> : tensor<2x4096xbf16>
  %3 = cs349.reduce_sum %s axes = [1] keepdims : tensor<2x4096xbf16> -> tensor<2x1xbf16>
  return %0, %1, %2, %3 : tensor<2x1xf32>, tensor<3xf32>, tensor<1x1xf32>, tensor<2x1xbf16>
}

// -----

// Row-wise composites fold before --decompose sees them.
// softmax([0, 1]) = [1, e] / (1 + e); rms_norm([0, 1]) = [0, 1] * sqrt(2),
// times the gain [1, 2].

// CHECK-LABEL: func.func @rowwise
// CHECK-NEXT:    %[[SOFTMAX:.*]] = cs349.constant dense<{{\[}}[0.268941432, 0.731058597], [5.000000e-01, 5.000000e-01]]> : tensor<2x2xf32>
// CHECK-NEXT:    %[[NORM:.*]] = cs349.constant dense<{{\[}}[0.000000e+00, 2.82842708], [1.000000e+00, 2.000000e+00]]> : tensor<2x2xf32>
// CHECK-NEXT:    %[[ROT:.*]] = cs349.constant dense<{{\[}}[-3.000000e+00, -4.000000e+00, 1.000000e+00, 2.000000e+00]]> : tensor<1x4xf32>
// CHECK-NEXT:    return %[[SOFTMAX]], %[[NORM]], %[[ROT]]
func.func @rowwise() -> (tensor<2x2xf32>, tensor<2x2xf32>, tensor<1x4xf32>) {
  %a = cs349.constant dense<[[0.0, 1.0], [2.0, 2.0]]> : tensor<2x2xf32>
  %g = cs349.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %0 = cs349.softmax %a axis = 1 : tensor<2x2xf32>
  %1 = cs349.rms_norm %a, %g epsilon = 0.0 : tensor<2x2xf32>, tensor<2xf32>
  %q = cs349.constant dense<[[1.0, 2.0, 3.0, 4.0]]> : tensor<1x4xf32>
  %2 = cs349.rotate_half %q : tensor<1x4xf32>
  return %0, %1, %2 : tensor<2x2xf32>, tensor<2x2xf32>, tensor<1x4xf32>
}

// -----

// A softmax of a splat is 1/n along the axis (here axis 0, n = 4).

// CHECK-LABEL: func.func @softmax_splat
// CHECK-NEXT:    %[[C:.*]] = cs349.constant dense<2.500000e-01> : tensor<4x3xf32>
// CHECK-NEXT:    return %[[C]]
func.func @softmax_splat() -> tensor<4x3xf32> {
  %a = cs349.constant dense<7.0> : tensor<4x3xf32>
  %0 = cs349.softmax %a axis = 0 : tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

// RoPE with the tables: row t = 0 is the identity (cos 0 = 1, sin 0 = 0);
// row 1 rotates columns {0, 2} by 1 rad and {1, 3} by theta^(-1/2) = 0.1 rad:
// [1 cos 1 - 3 sin 1, 2 cos .1 - 4 sin .1, 3 cos 1 + sin 1, 4 cos .1 + 2 sin .1].

// CHECK-LABEL: func.func @rope_with_tables
// CHECK-NEXT:    %[[C:.*]] = cs349.constant dense<{{\[}}{{\[}}[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00], [-1.98411059, 1.59067464, 2.46237779, 4.17968369]]]> : tensor<1x2x4xf32>
// CHECK-NEXT:    return %[[C]]
func.func @rope_with_tables() -> tensor<1x2x4xf32> {
  %q = cs349.constant dense<[[[1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0]]]> : tensor<1x2x4xf32>
  %cos = cs349.rope_table cos theta = 100.0 : tensor<2x4xf32>
  %sin = cs349.rope_table sin theta = 100.0 : tensor<2x4xf32>
  %0 = cs349.rope %q, %cos, %sin : tensor<1x2x4xf32>, tensor<2x4xf32>
  return %0 : tensor<1x2x4xf32>
}

// -----

// Negative: a rope table on its own is not materialised (it is constant data
// that kernels compute from indices), nor is one that a fold would need above
// the limit (512 x 256 = 131072 elements). A small one read by a folded op
// is evaluated: with dh = 2 both columns turn by t radians, so row 1 is
// 2 cos 1.

// CHECK-LABEL: func.func @rope_tables_kept
// CHECK-DAG:     %[[DOUBLED:.*]] = cs349.constant dense<{{\[}}[2.000000e+00, 2.000000e+00], [1.08060455, 1.08060455]]> : tensor<2x2xf32>
// CHECK-DAG:     %[[SMALL:.*]] = cs349.rope_table cos theta = 1.000000e+04 : tensor<2x2xf32>
// CHECK-DAG:     %[[LARGE:.*]] = cs349.rope_table cos theta = 1.000000e+04 : tensor<512x256xf32>
// CHECK-DAG:     %[[TWO:.*]] = cs349.constant dense<2.000000e+00> : tensor<f32>
// CHECK:         %[[MUL:.*]] = cs349.mul %[[LARGE]], %[[TWO]]
// CHECK:         return %[[SMALL]], %[[DOUBLED]], %[[MUL]]
func.func @rope_tables_kept() -> (tensor<2x2xf32>, tensor<2x2xf32>, tensor<512x256xf32>) {
  %two = cs349.constant dense<2.0> : tensor<f32>
  %small = cs349.rope_table cos theta = 10000.0 : tensor<2x2xf32>
  %large = cs349.rope_table cos theta = 10000.0 : tensor<512x256xf32>
  %0 = cs349.mul %two, %small : tensor<f32>, tensor<2x2xf32>
  %1 = cs349.mul %two, %large : tensor<f32>, tensor<512x256xf32>
  return %small, %0, %1 : tensor<2x2xf32>, tensor<2x2xf32>, tensor<512x256xf32>
}

// -----

// Negative: the causal mask is never evaluated, even when small and added to
// a constant; adding +0 to it is still the identity.

// CHECK-LABEL: func.func @causal_mask_kept
// CHECK-DAG:     %[[ONE:.*]] = cs349.constant dense<1.000000e+00> : tensor<bf16>
// CHECK-DAG:     %[[MASK:.*]] = cs349.causal_mask : tensor<4x4xbf16>
// CHECK:         %[[ADD:.*]] = cs349.add %[[MASK]], %[[ONE]]
// CHECK:         return %[[MASK]], %[[ADD]]
func.func @causal_mask_kept() -> (tensor<4x4xbf16>, tensor<4x4xbf16>) {
  %zero = cs349.constant dense<0.0> : tensor<bf16>
  %one = cs349.constant dense<1.0> : tensor<bf16>
  %mask = cs349.causal_mask : tensor<4x4xbf16>
  %0 = cs349.add %mask, %zero : tensor<4x4xbf16>, tensor<bf16>
  %1 = cs349.add %mask, %one : tensor<4x4xbf16>, tensor<bf16>
  return %0, %1 : tensor<4x4xbf16>, tensor<4x4xbf16>
}

// -----

// CHECK-LABEL: func.func @matmul
// CHECK-NEXT:    %[[AB:.*]] = cs349.constant dense<{{\[}}[1.900000e+01, 2.200000e+01], [4.300000e+01, 5.000000e+01]]> : tensor<2x2xf32>
// CHECK-NEXT:    %[[ABT:.*]] = cs349.constant dense<{{\[}}[1.700000e+01, 2.300000e+01], [3.900000e+01, 5.300000e+01]]> : tensor<2x2xf32>
// CHECK-NEXT:    %[[BATCH:.*]] = cs349.constant dense<{{\[}}{{\[}}[5.000000e+00, 6.000000e+00]], {{\[}}[7.000000e+00, 8.000000e+00]]]> : tensor<2x1x2xf32>
// CHECK-NEXT:    %[[SPLAT:.*]] = cs349.constant dense<1.638400e+04> : tensor<2048x2048xf32>
// CHECK-NEXT:    return %[[AB]], %[[ABT]], %[[BATCH]], %[[SPLAT]]
func.func @matmul() -> (tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x1x2xf32>, tensor<2048x2048xf32>) {
  %a = cs349.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %b = cs349.constant dense<[[5.0, 6.0], [7.0, 8.0]]> : tensor<2x2xf32>
  %0 = cs349.matmul %a, %b : tensor<2x2xf32>, tensor<2x2xf32> -> tensor<2x2xf32>
  %1 = cs349.matmul %a, %b transpose_b : tensor<2x2xf32>, tensor<2x2xf32> -> tensor<2x2xf32>
  // The 2-D right operand broadcasts over the batch of two rows.
  %c = cs349.constant dense<[[[1.0, 0.0]], [[0.0, 1.0]]]> : tensor<2x1x2xf32>
  %2 = cs349.matmul %c, %b : tensor<2x1x2xf32>, tensor<2x2xf32> -> tensor<2x1x2xf32>
  // Splats: every element is K * a * b = 4096 * 2 * 2, whatever the size.
  %s = cs349.constant dense<2.0> : tensor<2048x4096xf32>
  %w = cs349.constant dense<2.0> : tensor<4096x2048xf32>
  %3 = cs349.matmul %s, %w : tensor<2048x4096xf32>, tensor<4096x2048xf32> -> tensor<2048x2048xf32>
  return %0, %1, %2, %3 : tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x1x2xf32>, tensor<2048x2048xf32>
}

// -----

// CHECK-LABEL: func.func @views
// CHECK-NEXT:    %[[T:.*]] = cs349.constant dense<{{\[}}[1.000000e+00, 4.000000e+00], [2.000000e+00, 5.000000e+00], [3.000000e+00, 6.000000e+00]]> : tensor<3x2xf32>
// CHECK-NEXT:    %[[R:.*]] = cs349.constant dense<{{\[}}[1.000000e+00, 2.000000e+00], [1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00], [3.000000e+00, 4.000000e+00]]> : tensor<4x2xf32>
// CHECK-NEXT:    %[[S:.*]] = cs349.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00, 6.000000e+00]> : tensor<6xf32>
// CHECK-NEXT:    return %[[T]], %[[R]], %[[S]]
func.func @views() -> (tensor<3x2xf32>, tensor<4x2xf32>, tensor<6xf32>) {
  %a = cs349.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %0 = cs349.transpose %a perm = [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
  %b = cs349.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  // Each row appears twice in a row (GQA's repeat).
  %1 = cs349.repeat %b axis = 0 times = 2 : tensor<2x2xf32> -> tensor<4x2xf32>
  %2 = cs349.reshape %a : tensor<2x3xf32> -> tensor<6xf32>
  return %0, %1, %2 : tensor<3x2xf32>, tensor<4x2xf32>, tensor<6xf32>
}

// -----

// The size limit: a non-splat result of exactly 65536 elements is evaluated,
// one of 65538 is not. Splat op splat folds at any size (here 32 x 2048 x
// 2048, the shape of the layer's scores).

// CHECK-LABEL: func.func @size_limit
// CHECK-DAG:     %[[AT:.*]] = cs349.constant dense_resource<__elided__> : tensor<32768x2xf32>
// CHECK-DAG:     %[[ROW:.*]] = cs349.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK-DAG:     %[[ZEROS:.*]] = cs349.constant dense<0.000000e+00> : tensor<32769x2xf32>
// CHECK-DAG:     %[[SCORES:.*]] = cs349.constant dense<3.000000e+00> : tensor<32x2048x2048xbf16>
// CHECK:         %[[ABOVE:.*]] = cs349.add %[[ROW]], %[[ZEROS]] : tensor<2xf32>, tensor<32769x2xf32>
// CHECK:         return %[[AT]], %[[ABOVE]], %[[SCORES]]
func.func @size_limit() -> (tensor<32768x2xf32>, tensor<32769x2xf32>, tensor<32x2048x2048xbf16>) {
  %row = cs349.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %z0 = cs349.constant dense<0.0> : tensor<32768x2xf32>
  %z1 = cs349.constant dense<0.0> : tensor<32769x2xf32>
  %0 = cs349.add %row, %z0 : tensor<2xf32>, tensor<32768x2xf32>
  %1 = cs349.add %row, %z1 : tensor<2xf32>, tensor<32769x2xf32>
  %one = cs349.constant dense<1.0> : tensor<32x2048x2048xbf16>
  %two = cs349.constant dense<2.0> : tensor<bf16>
  %2 = cs349.add %one, %two : tensor<32x2048x2048xbf16>, tensor<bf16>
  return %0, %1, %2 : tensor<32768x2xf32>, tensor<32769x2xf32>, tensor<32x2048x2048xbf16>
}

// -----

// The matmul work limit (kMaxFoldWork = 2^22 multiply-adds): with K = 64 a
// [256, 256] result costs exactly 2^22 and is evaluated; with K = 128 it
// costs twice that and stays, although its operands (built here by folding a
// repeat and a broadcast) and its result are under the size limit. All rows
// are [1, 2, 1, 2, ...], so the evaluated result is 32 (1 + 4) = 160
// everywhere, which the attribute stores as a splat.

// CHECK-LABEL: func.func @matmul_work_limit
// CHECK-DAG:     %[[AT:.*]] = cs349.constant dense<1.600000e+02> : tensor<256x256xf32>
// CHECK-DAG:     %[[WIDE:.*]] = cs349.constant dense_resource<__elided__> : tensor<256x128xf32>
// CHECK:         %[[ABOVE:.*]] = cs349.matmul %[[WIDE]], %[[WIDE]] transpose_b
// CHECK:         return %[[AT]], %[[ABOVE]]
func.func @matmul_work_limit() -> (tensor<256x256xf32>, tensor<256x256xf32>) {
  %pair = cs349.constant dense<[[1.0, 2.0]]> : tensor<1x2xf32>
  %z64 = cs349.constant dense<0.0> : tensor<256x64xf32>
  %z128 = cs349.constant dense<0.0> : tensor<256x128xf32>
  %r64 = cs349.repeat %pair axis = 1 times = 32 : tensor<1x2xf32> -> tensor<1x64xf32>
  %r128 = cs349.repeat %pair axis = 1 times = 64 : tensor<1x2xf32> -> tensor<1x128xf32>
  %narrow = cs349.add %r64, %z64 : tensor<1x64xf32>, tensor<256x64xf32>
  %wide = cs349.add %r128, %z128 : tensor<1x128xf32>, tensor<256x128xf32>
  %0 = cs349.matmul %narrow, %narrow transpose_b : tensor<256x64xf32>, tensor<256x64xf32> -> tensor<256x256xf32>
  %1 = cs349.matmul %wide, %wide transpose_b : tensor<256x128xf32>, tensor<256x128xf32> -> tensor<256x256xf32>
  return %0, %1 : tensor<256x256xf32>, tensor<256x256xf32>
}

// -----

// erf folds like every elementwise op: element by element in double (erf(1) =
// 0.84270079..., erf(-2) = -0.99532226...), a splat at any size (erf(0.5) =
// 0.5205 rounds to bf16 0.51953125).
// CHECK-LABEL: func.func @erf
// CHECK-NEXT:    %[[E:.*]] = cs349.constant dense<[0.842700779, 0.000000e+00, -0.995322287]> : tensor<3xf32>
// CHECK-NEXT:    %[[S:.*]] = cs349.constant dense<5.195310e-01> : tensor<2x2xbf16>
// CHECK-NEXT:    return %[[E]], %[[S]]
func.func @erf() -> (tensor<3xf32>, tensor<2x2xbf16>) {
  %a = cs349.constant dense<[1.0, 0.0, -2.0]> : tensor<3xf32>
  %0 = cs349.erf %a : tensor<3xf32>
  %s = cs349.constant dense<0.5> : tensor<2x2xbf16>
  %1 = cs349.erf %s : tensor<2x2xbf16>
  return %0, %1 : tensor<3xf32>, tensor<2x2xbf16>
}

// -----

// sigmoid, sqrt, log, cos, sin and relu fold element by element in double
// (sigmoid(1) = 0.73105858, sqrt(2) = 1.41421356, log(2) = 0.69314718,
// cos(-2) = -0.41614684, sin(-2) = -0.90929743); sqrt and log of a negative
// element are NaN, log(0) is -inf; splats fold at any size (sigmoid(0.5) =
// 0.62246 rounds to bf16 0.62109375, log(0.5) = -0.693147 to -0.69140625).
// CHECK-LABEL: func.func @activations_and_math
// CHECK-NEXT:    %[[SIGMOID:.*]] = cs349.constant dense<[0.731058597, 5.000000e-01, 0.119202919]> : tensor<3xf32>
// CHECK-NEXT:    %[[SQRT:.*]] = cs349.constant dense<[1.41421354, 0.000000e+00, 0x{{7FC00000|FFC00000}}]> : tensor<3xf32>
// CHECK-NEXT:    %[[LOG:.*]] = cs349.constant dense<[0.693147182, 0xFF800000, 0x{{7FC00000|FFC00000}}]> : tensor<3xf32>
// CHECK-NEXT:    %[[COS:.*]] = cs349.constant dense<[0.540302277, 1.000000e+00, -0.416146845]> : tensor<3xf32>
// CHECK-NEXT:    %[[SIN:.*]] = cs349.constant dense<[0.841470957, 0.000000e+00, -0.909297406]> : tensor<3xf32>
// CHECK-NEXT:    %[[RELU:.*]] = cs349.constant dense<[1.000000e+00, 0.000000e+00, 0.000000e+00]> : tensor<3xf32>
// CHECK-NEXT:    %[[SIGMOID_SPLAT:.*]] = cs349.constant dense<6.210940e-01> : tensor<2x2xbf16>
// CHECK-NEXT:    %[[LOG_SPLAT:.*]] = cs349.constant dense<-6.914060e-01> : tensor<2x2xbf16>
// CHECK-NEXT:    return %[[SIGMOID]], %[[SQRT]], %[[LOG]], %[[COS]], %[[SIN]], %[[RELU]], %[[SIGMOID_SPLAT]], %[[LOG_SPLAT]]
func.func @activations_and_math() -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<2x2xbf16>, tensor<2x2xbf16>) {
  %a = cs349.constant dense<[1.0, 0.0, -2.0]> : tensor<3xf32>
  %p = cs349.constant dense<[2.0, 0.0, -1.0]> : tensor<3xf32>
  %0 = cs349.sigmoid %a : tensor<3xf32>
  %1 = cs349.sqrt %p : tensor<3xf32>
  %2 = cs349.log %p : tensor<3xf32>
  %3 = cs349.cos %a : tensor<3xf32>
  %4 = cs349.sin %a : tensor<3xf32>
  %5 = cs349.relu %a : tensor<3xf32>
  %s = cs349.constant dense<0.5> : tensor<2x2xbf16>
  %6 = cs349.sigmoid %s : tensor<2x2xbf16>
  %7 = cs349.log %s : tensor<2x2xbf16>
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<2x2xbf16>, tensor<2x2xbf16>
}

// -----

// slice and concat fold on constants (a strided box, pieces along an axis,
// a splat piece among dense ones); a slice of everything is its input, a
// slice of a slice is one slice, a concat of one input is that input.

// CHECK-LABEL: func.func @slice_concat
// CHECK-DAG:     %[[BOX:.*]] = cs349.constant dense<{{\[}}[2.000000e+00, 4.000000e+00], [1.000000e+01, 1.200000e+01]]> : tensor<2x2xf32>
// CHECK-DAG:     %[[CAT:.*]] = cs349.constant dense<{{\[}}[1.000000e+00, 2.000000e+00, 7.000000e+00], [3.000000e+00, 4.000000e+00, 7.000000e+00]]> : tensor<2x3xf32>
// CHECK-DAG:     %[[SPLAT:.*]] = cs349.constant dense<5.000000e-01> : tensor<2x2xf32>
// CHECK:         %[[TWICE:.*]] = cs349.slice %x axes = [0, 1] offsets = [3, 1] sizes = [2, 2] strides = [4, 4] : tensor<8x9xf32> -> tensor<2x2xf32>
// CHECK:         return %[[BOX]], %[[CAT]], %[[SPLAT]], %x, %[[TWICE]], %x
func.func @slice_concat(%x: tensor<8x9xf32>)
    -> (tensor<2x2xf32>, tensor<2x3xf32>, tensor<2x2xf32>, tensor<8x9xf32>, tensor<2x2xf32>, tensor<8x9xf32>) {
  %a = cs349.constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0]]> : tensor<3x4xf32>
  // Rows 0 and 2, columns 1 and 3.
  %0 = cs349.slice %a axes = [0, 1] offsets = [0, 1] sizes = [2, 2] strides = [2, 2] : tensor<3x4xf32> -> tensor<2x2xf32>
  %b = cs349.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %seven = cs349.constant dense<7.0> : tensor<2x1xf32>
  %1 = cs349.concat %b, %seven axis = 1 : tensor<2x2xf32>, tensor<2x1xf32> -> tensor<2x3xf32>
  %half = cs349.constant dense<0.5> : tensor<4x4xf32>
  %2 = cs349.slice %half axes = [0, 1] offsets = [1, 2] sizes = [2, 2] strides = [1, 1] : tensor<4x4xf32> -> tensor<2x2xf32>
  %3 = cs349.slice %x axes = [0] offsets = [0] sizes = [8] strides = [1] : tensor<8x9xf32> -> tensor<8x9xf32>
  // Rows 1, 3, 5, 7 then every other one from the second: rows 3 and 7;
  // columns 1, 3, 5, 7 then every other one: 1 and 5.
  %rows = cs349.slice %x axes = [0, 1] offsets = [1, 1] sizes = [4, 4] strides = [2, 2] : tensor<8x9xf32> -> tensor<4x4xf32>
  %4 = cs349.slice %rows axes = [0, 1] offsets = [1, 0] sizes = [2, 2] strides = [2, 2] : tensor<4x4xf32> -> tensor<2x2xf32>
  %5 = cs349.concat %x axis = 0 : tensor<8x9xf32> -> tensor<8x9xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<2x2xf32>, tensor<2x3xf32>, tensor<2x2xf32>, tensor<8x9xf32>, tensor<2x2xf32>, tensor<8x9xf32>
}

// -----

// cast rounds once, to the result's type, to nearest with ties to even:
// 1 + 2^-8 and 1 + 3 * 2^-8 are exact in f32 and halfway between two bf16
// values (steps of 2^-7), so they round to 1.0 and 1.015625. A round trip through a wider type is the value itself; through a
// narrower one it rounds and stays. A cast to the same type is its input.

// CHECK-LABEL: func.func @cast
// CHECK-DAG:     %[[ROUNDED:.*]] = cs349.constant dense<[1.000000e+00, 1.015630e+00]> : tensor<2xbf16>
// CHECK-DAG:     %[[NARROW:.*]] = cs349.cast %x : tensor<4xf32> -> tensor<4xbf16>
// CHECK-DAG:     %[[BACK:.*]] = cs349.cast %[[NARROW]] : tensor<4xbf16> -> tensor<4xf32>
// CHECK:         return %[[ROUNDED]], %y, %[[BACK]], %x
func.func @cast(%x: tensor<4xf32>, %y: tensor<4xbf16>)
    -> (tensor<2xbf16>, tensor<4xbf16>, tensor<4xf32>, tensor<4xf32>) {
  %c = cs349.constant dense<[1.00390625, 1.01171875]> : tensor<2xf32>
  %0 = cs349.cast %c : tensor<2xf32> -> tensor<2xbf16>
  %wide = cs349.cast %y : tensor<4xbf16> -> tensor<4xf32>
  %1 = cs349.cast %wide : tensor<4xf32> -> tensor<4xbf16>
  %narrow = cs349.cast %x : tensor<4xf32> -> tensor<4xbf16>
  %2 = cs349.cast %narrow : tensor<4xbf16> -> tensor<4xf32>
  %3 = cs349.cast %x : tensor<4xf32> -> tensor<4xf32>
  return %0, %1, %2, %3 : tensor<2xbf16>, tensor<4xbf16>, tensor<4xf32>, tensor<4xf32>
}

// -----

// Integer constants fold through gather (ids past either end read the
// nearest row), compare (NaN: lt fails, ne holds), select and casts: float to i32
// toward zero and saturated (NaN is 0), float to i1 (non-zero, NaN too),
// i64 to i32 keeping the low bits, i1 to f32 as 0 or 1.

// CHECK-LABEL: func.func @integers
// CHECK-DAG: %[[ROWS:.*]] = cs349.constant dense<{{\[}}[5.000000e+00, 6.000000e+00], [1.000000e+00, 2.000000e+00], [5.000000e+00, 6.000000e+00], [1.000000e+00, 2.000000e+00]]> : tensor<4x2xf32>
// CHECK-DAG: %[[LT:.*]] = cs349.constant dense<[true, true, false, false]> : tensor<4xi1>
// CHECK-DAG: %[[NE:.*]] = cs349.constant dense<[true, false, true, true]> : tensor<4xi1>
// CHECK-DAG: %[[SEL:.*]] = cs349.constant dense<[1.000000e+00, 1.000000e+00, 0.000000e+00, 0.000000e+00]> : tensor<4xf32>
// CHECK-DAG: %[[I32:.*]] = cs349.constant dense<[-1, 0, 0, 2147483647]> : tensor<4xi32>
// CHECK-DAG: %[[WRAP:.*]] = cs349.constant dense<[1, -1]> : tensor<2xi32>
// CHECK-DAG: %[[BACK:.*]] = cs349.constant dense<[1.000000e+00, 0.000000e+00, 1.000000e+00, 1.000000e+00]> : tensor<4xf32>
// The i1 cast of x equals x != 0: one constant for both.
// CHECK: return %[[ROWS]], %[[LT]], %[[NE]], %[[SEL]], %[[I32]], %[[NE]], %[[WRAP]], %[[BACK]]
func.func @integers() -> (tensor<4x2xf32>, tensor<4xi1>, tensor<4xi1>, tensor<4xf32>, tensor<4xi32>, tensor<4xi1>, tensor<2xi32>, tensor<4xf32>) {
  %table = cs349.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32>
  %ids = cs349.constant dense<[2, -1, 7, 0]> : tensor<4xi32>
  %0 = cs349.gather %table, %ids axis = 0 : tensor<3x2xf32>, tensor<4xi32> -> tensor<4x2xf32>
  %x = cs349.constant dense<[-1.5, 0.0, 0x7FC00000, 3.0e+10]> : tensor<4xf32>
  %one = cs349.constant dense<1.0> : tensor<f32>
  %zero = cs349.constant dense<0.0> : tensor<f32>
  %1 = cs349.compare lt %x, %one : tensor<4xf32>, tensor<f32> -> tensor<4xi1>
  %2 = cs349.compare ne %x, %zero : tensor<4xf32>, tensor<f32> -> tensor<4xi1>
  %3 = cs349.select %1, %one, %zero : tensor<4xi1>, tensor<f32>, tensor<f32> -> tensor<4xf32>
  %4 = cs349.cast %x : tensor<4xf32> -> tensor<4xi32>
  %5 = cs349.cast %x : tensor<4xf32> -> tensor<4xi1>
  %big = cs349.constant dense<[4294967297, 4294967295]> : tensor<2xi64>
  %6 = cs349.cast %big : tensor<2xi64> -> tensor<2xi32>
  %7 = cs349.cast %5 : tensor<4xi1> -> tensor<4xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<4x2xf32>, tensor<4xi1>, tensor<4xi1>, tensor<4xf32>, tensor<4xi32>, tensor<4xi1>, tensor<2xi32>, tensor<4xf32>
}
