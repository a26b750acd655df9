// RUN: cs349-opt %s -split-input-file | cs349-opt -split-input-file | FileCheck %s
// RUN: cs349-opt %s -split-input-file -mlir-print-op-generic | cs349-opt -split-input-file | FileCheck %s

// Every cs349 op survives parse -> print -> parse, in the custom and the
// generic form.

// CHECK-LABEL: func.func @constants
func.func @constants() -> (tensor<bf16>, tensor<4x4xbf16>, tensor<4x8xf16>, tensor<4x8xf16>) {
  // CHECK: cs349.constant dense<1.000000e+00> : tensor<bf16>
  %one = cs349.constant dense<1.0> : tensor<bf16>
  // CHECK: cs349.causal_mask : tensor<4x4xbf16>
  %mask = cs349.causal_mask : tensor<4x4xbf16>
  // CHECK: cs349.causal_mask window = 2 : tensor<4x4xbf16>
  %window = cs349.causal_mask window = 2 : tensor<4x4xbf16>
  // CHECK: cs349.rope_table cos theta = 5.000000e+05 : tensor<4x8xf16>
  %cos = cs349.rope_table cos theta = 500000.0 : tensor<4x8xf16>
  // CHECK: cs349.rope_table sin theta = 5.000000e+05 : tensor<4x8xf16>
  %sin = cs349.rope_table sin theta = 500000.0 : tensor<4x8xf16>
  return %one, %mask, %cos, %sin : tensor<bf16>, tensor<4x4xbf16>, tensor<4x8xf16>, tensor<4x8xf16>
}

// -----

// CHECK-LABEL: func.func @elementwise
func.func @elementwise(%a: tensor<4x8xf32>, %r: tensor<4x1xf32>, %s: tensor<f32>) -> tensor<4x8xf32> {
  // CHECK: cs349.add %{{.*}}, %{{.*}} : tensor<4x8xf32>{{$}}
  %0 = cs349.add %a, %a : tensor<4x8xf32>
  // CHECK: cs349.sub %{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<4x1xf32>
  %1 = cs349.sub %0, %r : tensor<4x8xf32>, tensor<4x1xf32>
  // CHECK: cs349.mul %{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<f32>
  %2 = cs349.mul %1, %s : tensor<4x8xf32>, tensor<f32>
  // CHECK: cs349.div %{{.*}}, %{{.*}} : tensor<4x1xf32>, tensor<4x8xf32>
  %3 = cs349.div %r, %2 : tensor<4x1xf32>, tensor<4x8xf32>
  // CHECK: cs349.max %{{.*}}, %{{.*}} : tensor<4x8xf32>{{$}}
  %m = cs349.max %3, %a : tensor<4x8xf32>
  // CHECK: cs349.maxnum %{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<f32>
  %4 = cs349.maxnum %m, %s : tensor<4x8xf32>, tensor<f32>
  // CHECK: cs349.neg
  %5 = cs349.neg %4 : tensor<4x8xf32>
  // CHECK: cs349.exp
  %6 = cs349.exp %5 : tensor<4x8xf32>
  // CHECK: cs349.rsqrt
  %7 = cs349.rsqrt %6 : tensor<4x8xf32>
  // CHECK: cs349.tanh
  %8 = cs349.tanh %7 : tensor<4x8xf32>
  // CHECK: cs349.silu
  %9 = cs349.silu %8 : tensor<4x8xf32>
  // CHECK: cs349.rotate_half %{{.*}} : tensor<4x8xf32>
  %10 = cs349.rotate_half %9 : tensor<4x8xf32>
  // CHECK: cs349.pow %{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<4x1xf32>
  %11 = cs349.pow %10, %r : tensor<4x8xf32>, tensor<4x1xf32>
  return %11 : tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func.func @rowwise
func.func @rowwise(%x: tensor<4x8xbf16>, %g: tensor<8xbf16>, %q: tensor<2x4x8xbf16>,
                   %cos: tensor<4x8xbf16>, %sin: tensor<4x8xbf16>)
    -> (tensor<4x1xbf16>, tensor<4xbf16>, tensor<4x8xbf16>, tensor<4x8xbf16>, tensor<2x4x8xbf16>) {
  // CHECK: cs349.reduce_sum %{{.*}} axes = [1] keepdims : tensor<4x8xbf16> -> tensor<4x1xbf16>
  %0 = cs349.reduce_sum %x axes = [1] keepdims : tensor<4x8xbf16> -> tensor<4x1xbf16>
  // CHECK: cs349.reduce_max %{{.*}} axes = [1] : tensor<4x8xbf16> -> tensor<4xbf16>
  %1 = cs349.reduce_max %x axes = [1] : tensor<4x8xbf16> -> tensor<4xbf16>
  // CHECK: cs349.softmax %{{.*}} axis = 1 : tensor<4x8xbf16>
  %2 = cs349.softmax %x axis = 1 : tensor<4x8xbf16>
  // CHECK: cs349.rms_norm %{{.*}}, %{{.*}} epsilon = 1.000000e-05 : tensor<4x8xbf16>, tensor<8xbf16>
  %3 = cs349.rms_norm %x, %g epsilon = 1.0e-5 : tensor<4x8xbf16>, tensor<8xbf16>
  // CHECK: cs349.rope %{{.*}}, %{{.*}}, %{{.*}} : tensor<2x4x8xbf16>, tensor<4x8xbf16>
  %4 = cs349.rope %q, %cos, %sin : tensor<2x4x8xbf16>, tensor<4x8xbf16>
  return %0, %1, %2, %3, %4 : tensor<4x1xbf16>, tensor<4xbf16>, tensor<4x8xbf16>, tensor<4x8xbf16>, tensor<2x4x8xbf16>
}

// -----

// CHECK-LABEL: func.func @contractions
func.func @contractions(%h: tensor<4x16xbf16>, %w: tensor<16x32xbf16>, %q: tensor<4x4x8xbf16>,
                        %k: tensor<2x4x8xbf16>, %v: tensor<2x4x8xbf16>)
    -> (tensor<4x32xbf16>, tensor<4x4x4xbf16>, tensor<4x4x8xbf16>) {
  // CHECK: cs349.matmul %{{.*}}, %{{.*}} : tensor<4x16xbf16>, tensor<16x32xbf16> -> tensor<4x32xbf16>
  %0 = cs349.matmul %h, %w : tensor<4x16xbf16>, tensor<16x32xbf16> -> tensor<4x32xbf16>
  // CHECK: cs349.repeat %{{.*}} axis = 0 times = 2 : tensor<2x4x8xbf16> -> tensor<4x4x8xbf16>
  %kr = cs349.repeat %k axis = 0 times = 2 : tensor<2x4x8xbf16> -> tensor<4x4x8xbf16>
  // CHECK: cs349.matmul %{{.*}}, %{{.*}} transpose_b : tensor<4x4x8xbf16>, tensor<4x4x8xbf16> -> tensor<4x4x4xbf16>
  %1 = cs349.matmul %q, %kr transpose_b : tensor<4x4x8xbf16>, tensor<4x4x8xbf16> -> tensor<4x4x4xbf16>
  // CHECK: cs349.attention %{{.*}}, %{{.*}}, %{{.*}} scale = 0.35355339000000002 mask = causal : tensor<4x4x8xbf16>, tensor<2x4x8xbf16>, tensor<2x4x8xbf16>
  %2 = cs349.attention %q, %k, %v scale = 0.35355339 mask = causal : tensor<4x4x8xbf16>, tensor<2x4x8xbf16>, tensor<2x4x8xbf16>
  return %0, %1, %2 : tensor<4x32xbf16>, tensor<4x4x4xbf16>, tensor<4x4x8xbf16>
}

// -----

// Every mask kind of attention prints and parses back.
// CHECK-LABEL: func.func @attention_masks
func.func @attention_masks(%q: tensor<4x4x8xf32>, %k: tensor<2x6x8xf32>, %kk: tensor<2x4x8xf32>,
                           %pad: tensor<4x6xf32>, %row: tensor<1x1x6xf32>)
    -> (tensor<4x4x8xf32>, tensor<4x4x8xf32>, tensor<4x4x8xf32>, tensor<4x4x8xf32>, tensor<4x4x8xf32>) {
  // CHECK: cs349.attention %{{.*}}, %{{.*}}, %{{.*}} scale = 1.250000e-01 mask = none : tensor<4x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x8xf32>
  %0 = cs349.attention %q, %k, %k scale = 0.125 mask = none : tensor<4x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x8xf32>
  // CHECK: cs349.attention %{{.*}}, %{{.*}}, %{{.*}} scale = 1.250000e-01 mask = causal : tensor<4x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>
  %1 = cs349.attention %q, %kk, %kk scale = 0.125 mask = causal : tensor<4x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>
  // CHECK: cs349.attention %{{.*}}, %{{.*}}, %{{.*}} scale = 1.250000e-01 mask = sliding_window window = 2 : tensor<4x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>
  %2 = cs349.attention %q, %kk, %kk scale = 0.125 mask = sliding_window window = 2 : tensor<4x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>
  // CHECK: cs349.attention %{{.*}}, %{{.*}}, %{{.*}} scale = 1.250000e-01 mask = additive %{{.*}} : tensor<4x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x8xf32>, tensor<4x6xf32>
  %3 = cs349.attention %q, %k, %k scale = 0.125 mask = additive %pad : tensor<4x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x8xf32>, tensor<4x6xf32>
  // CHECK: cs349.attention %{{.*}}, %{{.*}}, %{{.*}} scale = 1.250000e-01 mask = additive %{{.*}} : tensor<4x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x8xf32>, tensor<1x1x6xf32>
  %4 = cs349.attention %q, %k, %k scale = 0.125 mask = additive %row : tensor<4x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x8xf32>, tensor<1x1x6xf32>
  return %0, %1, %2, %3, %4 : tensor<4x4x8xf32>, tensor<4x4x8xf32>, tensor<4x4x8xf32>, tensor<4x4x8xf32>, tensor<4x4x8xf32>
}

// -----

// CHECK-LABEL: func.func @views
func.func @views(%x: tensor<4x16xf32>) -> tensor<2x4x8xf32> {
  // CHECK: cs349.reshape %{{.*}} : tensor<4x16xf32> -> tensor<4x2x8xf32>
  %0 = cs349.reshape %x : tensor<4x16xf32> -> tensor<4x2x8xf32>
  // CHECK: cs349.transpose %{{.*}} perm = [1, 0, 2] : tensor<4x2x8xf32> -> tensor<2x4x8xf32>
  %1 = cs349.transpose %0 perm = [1, 0, 2] : tensor<4x2x8xf32> -> tensor<2x4x8xf32>
  return %1 : tensor<2x4x8xf32>
}

// -----

// CHECK-LABEL: func.func @kernel
func.func @kernel(%x: tensor<4x8xf32>, %g: tensor<8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  // CHECK: %[[K:.*]]:2 = cs349.kernel(%{{.*}}, %{{.*}}) : (tensor<4x8xf32>, tensor<8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  // CHECK-NEXT: ^bb0(%{{.*}}: tensor<4x8xf32>, %{{.*}}: tensor<8xf32>):
  // CHECK: cs349.yield %{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<4x8xf32>
  %r:2 = cs349.kernel (%x, %g) : (tensor<4x8xf32>, tensor<8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  ^bb0(%a: tensor<4x8xf32>, %b: tensor<8xf32>):
    %n = cs349.rms_norm %a, %b epsilon = 1.0e-5 : tensor<4x8xf32>, tensor<8xf32>
    %e = cs349.silu %n : tensor<4x8xf32>
    cs349.yield %n, %e : tensor<4x8xf32>, tensor<4x8xf32>
  }
  return %r#0, %r#1 : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func.func @erf
// CHECK: cs349.erf %{{.*}} : tensor<4x8xbf16>
func.func @erf(%x: tensor<4x8xbf16>) -> tensor<4x8xbf16> {
  %0 = cs349.erf %x : tensor<4x8xbf16>
  return %0 : tensor<4x8xbf16>
}

// -----

// CHECK-LABEL: func.func @activations_and_math
// CHECK: cs349.sigmoid %{{.*}} : tensor<4x8xbf16>
// CHECK: cs349.sqrt %{{.*}} : tensor<4x8xbf16>
// CHECK: cs349.log %{{.*}} : tensor<4x8xbf16>
// CHECK: cs349.cos %{{.*}} : tensor<4x8xbf16>
// CHECK: cs349.sin %{{.*}} : tensor<4x8xbf16>
// CHECK: cs349.relu %{{.*}} : tensor<4x8xbf16>
func.func @activations_and_math(%x: tensor<4x8xbf16>) -> tensor<4x8xbf16> {
  %0 = cs349.sigmoid %x : tensor<4x8xbf16>
  %1 = cs349.sqrt %0 : tensor<4x8xbf16>
  %2 = cs349.log %1 : tensor<4x8xbf16>
  %3 = cs349.cos %2 : tensor<4x8xbf16>
  %4 = cs349.sin %3 : tensor<4x8xbf16>
  %5 = cs349.relu %4 : tensor<4x8xbf16>
  return %5 : tensor<4x8xbf16>
}

// -----

// CHECK-LABEL: func.func @layer_norm
func.func @layer_norm(%x: tensor<2x4x8xbf16>, %g: tensor<8xbf16>, %b: tensor<8xbf16>)
    -> (tensor<2x4x8xbf16>, tensor<2x4x8xbf16>) {
  // CHECK: cs349.layer_norm %{{.*}}, %{{.*}}, %{{.*}} epsilon = 1.000000e-05 : tensor<2x4x8xbf16>, tensor<8xbf16>, tensor<8xbf16>
  %0 = cs349.layer_norm %x, %g, %b epsilon = 1.0e-5 : tensor<2x4x8xbf16>, tensor<8xbf16>, tensor<8xbf16>
  // CHECK: cs349.layer_norm %{{.*}}, %{{.*}} epsilon = 5.000000e-01 : tensor<2x4x8xbf16>, tensor<8xbf16>{{$}}
  %1 = cs349.layer_norm %x, %g epsilon = 0.5 : tensor<2x4x8xbf16>, tensor<8xbf16>
  return %0, %1 : tensor<2x4x8xbf16>, tensor<2x4x8xbf16>
}

// -----

// CHECK-LABEL: func.func @gelu
// CHECK: cs349.gelu %{{.*}} : tensor<4x8xbf16>
// CHECK: cs349.gelu %{{.*}} mode = tanh : tensor<4x8xbf16>
func.func @gelu(%x: tensor<4x8xbf16>) -> (tensor<4x8xbf16>, tensor<4x8xbf16>) {
  %0 = cs349.gelu %x : tensor<4x8xbf16>
  %1 = cs349.gelu %x mode = tanh : tensor<4x8xbf16>
  return %0, %1 : tensor<4x8xbf16>, tensor<4x8xbf16>
}

// -----

// CHECK-LABEL: func.func @slice_concat_cast
func.func @slice_concat_cast(%x: tensor<4x12xbf16>, %y: tensor<4x3xbf16>)
    -> (tensor<4x7xbf16>, tensor<4x12xf32>) {
  // CHECK: cs349.slice %{{.*}} axes = [1] offsets = [0] sizes = [4] strides = [1] : tensor<4x12xbf16> -> tensor<4x4xbf16>
  %q = cs349.slice %x axes = [1] offsets = [0] sizes = [4] strides = [1] : tensor<4x12xbf16> -> tensor<4x4xbf16>
  // CHECK: cs349.slice %{{.*}} axes = [0, 1] offsets = [1, 5] sizes = [2, 3] strides = [2, 3] : tensor<4x12xbf16> -> tensor<2x3xbf16>
  %s = cs349.slice %x axes = [0, 1] offsets = [1, 5] sizes = [2, 3] strides = [2, 3] : tensor<4x12xbf16> -> tensor<2x3xbf16>
  // CHECK: cs349.concat %{{.*}}, %{{.*}} axis = 1 : tensor<4x4xbf16>, tensor<4x3xbf16> -> tensor<4x7xbf16>
  %c = cs349.concat %q, %y axis = 1 : tensor<4x4xbf16>, tensor<4x3xbf16> -> tensor<4x7xbf16>
  // CHECK: cs349.cast %{{.*}} : tensor<4x12xbf16> -> tensor<4x12xf32>
  %w = cs349.cast %x : tensor<4x12xbf16> -> tensor<4x12xf32>
  return %c, %w : tensor<4x7xbf16>, tensor<4x12xf32>
}

// -----

// Integer tensors: ids and positions (i32, i64), masks (i1), in the ops that
// read or make them, in views and constants.
// CHECK-LABEL: func.func @integers
func.func @integers(%wte: tensor<16x8xbf16>, %ids: tensor<2x3xi32>, %x: tensor<4x8xf32>, %keep: tensor<1x8xi1>)
    -> (tensor<2x3x8xbf16>, tensor<4x8xf32>, tensor<6xi32>, tensor<4x8xi32>, tensor<3xi64>, tensor<2xi1>) {
  // CHECK: cs349.gather %{{.*}}, %{{.*}} axis = 0 : tensor<16x8xbf16>, tensor<2x3xi32> -> tensor<2x3x8xbf16>
  %e = cs349.gather %wte, %ids axis = 0 : tensor<16x8xbf16>, tensor<2x3xi32> -> tensor<2x3x8xbf16>
  %zero = cs349.constant dense<0.0> : tensor<f32>
  // CHECK: cs349.compare ge %{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<f32> -> tensor<4x8xi1>
  %pos = cs349.compare ge %x, %zero : tensor<4x8xf32>, tensor<f32> -> tensor<4x8xi1>
  // CHECK: cs349.select %{{.*}}, %{{.*}}, %{{.*}} : tensor<1x8xi1>, tensor<4x8xf32>, tensor<f32> -> tensor<4x8xf32>
  %s = cs349.select %keep, %x, %zero : tensor<1x8xi1>, tensor<4x8xf32>, tensor<f32> -> tensor<4x8xf32>
  // CHECK: cs349.reshape %{{.*}} : tensor<2x3xi32> -> tensor<6xi32>
  %flat = cs349.reshape %ids : tensor<2x3xi32> -> tensor<6xi32>
  // CHECK: cs349.cast %{{.*}} : tensor<4x8xi1> -> tensor<4x8xi32>
  %n = cs349.cast %pos : tensor<4x8xi1> -> tensor<4x8xi32>
  // CHECK: cs349.constant dense<[0, 1, 2]> : tensor<3xi64>
  %p = cs349.constant dense<[0, 1, 2]> : tensor<3xi64>
  // CHECK: cs349.concat %{{.*}}, %{{.*}} axis = 0 : tensor<1xi1>, tensor<1xi1> -> tensor<2xi1>
  %k = cs349.slice %keep axes = [1] offsets = [0] sizes = [1] strides = [1] : tensor<1x8xi1> -> tensor<1x1xi1>
  %k1 = cs349.reshape %k : tensor<1x1xi1> -> tensor<1xi1>
  %kk = cs349.concat %k1, %k1 axis = 0 : tensor<1xi1>, tensor<1xi1> -> tensor<2xi1>
  return %e, %s, %flat, %n, %p, %kk : tensor<2x3x8xbf16>, tensor<4x8xf32>, tensor<6xi32>, tensor<4x8xi32>, tensor<3xi64>, tensor<2xi1>
}
