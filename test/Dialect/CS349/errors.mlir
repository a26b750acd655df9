// Text that is not IR: cs349-opt reports it at file:line:col and exits with 1,
// never an assertion or a crash.
//
// RUN: split-file %s %t
//
// RUN: not cs349-opt %t/garbage.mlir 2>&1 | FileCheck %s --check-prefix=GARBAGE
// RUN: not cs349-opt %t/unknown-op.mlir 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not cs349-opt %t/unknown-dialect.mlir 2>&1 | FileCheck %s --check-prefix=DIALECT
// RUN: not cs349-opt %t/unterminated.mlir 2>&1 | FileCheck %s --check-prefix=UNTERMINATED
// RUN: not cs349-opt %t/bad-shape.mlir 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: not cs349-opt %t/bad-attr.mlir 2>&1 | FileCheck %s --check-prefix=ATTR
//
// The exit code is exactly 1 (not a signal, not an abort).
// RUN: sh -c 'cs349-opt %t/garbage.mlir 2>/dev/null; test $? -eq 1'
// RUN: sh -c 'cs349-opt %t/unknown-op.mlir 2>/dev/null; test $? -eq 1'
// RUN: sh -c 'cs349-opt %t/bad-shape.mlir 2>/dev/null; test $? -eq 1'

//--- garbage.mlir
this is not MLIR at all {{{
// GARBAGE: garbage.mlir:1:1: error: custom op 'this' is unknown
// GARBAGE-NOT: Stack dump

//--- unknown-op.mlir
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = cs349.frobnicate %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
// UNKNOWN: unknown-op.mlir:2:8: error: custom op 'cs349.frobnicate' is unknown

//--- unknown-dialect.mlir
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "nodialect.op"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
// DIALECT: unknown-dialect.mlir:2:{{[0-9]+}}: error: operation being parsed with an unregistered dialect

//--- unterminated.mlir
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = cs349.exp %x : tensor<4xf32>
// UNTERMINATED: unterminated.mlir:{{[0-9]+}}:{{[0-9]+}}: error: expected

//--- bad-shape.mlir
func.func @f(%a: tensor<4x8xf32>, %b: tensor<4x3xf32>) -> tensor<4x8xf32> {
  %0 = cs349.add %a, %b : tensor<4x8xf32>, tensor<4x3xf32>
  return %0 : tensor<4x8xf32>
}
// SHAPE: bad-shape.mlir:2:8: error: expected broadcastable shapes, got [4, 8] and [4, 3]

//--- bad-attr.mlir
func.func @f(%a: tensor<4x8xf32>) -> tensor<4xf32> {
  %0 = cs349.reduce_sum %a axes = [1, : tensor<4x8xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
// ATTR: bad-attr.mlir:2:39: error: custom op 'cs349.reduce_sum' expected integer value
