// cs349-opt prints each value under its step name, and reading a file back
// turns the SSA names written in it into step names again: a step run on its
// own file names results as the whole pipeline would.
// RUN: cs349-opt %s -split-input-file | FileCheck %s
// RUN: cs349-opt %s -split-input-file -mlir-print-debuginfo | FileCheck %s --check-prefix=LOC
// Written and read back, nothing changes.
// RUN: cs349-opt %s -split-input-file > %t.mlir
// RUN: cs349-opt %t.mlir -split-input-file | diff %t.mlir -
// Numbers only, as upstream's tools print them:
// RUN: cs349-opt %s -split-input-file --mlir-use-nameloc-as-prefix=false | FileCheck %s --check-prefix=NUMBERED

// CHECK-LABEL: func.func @named(
// CHECK-SAME:    %x: tensor<4xf32>
// CHECK-NEXT:    %squares = cs349.mul %x, %x
// CHECK-NEXT:    %total = cs349.add %squares, %x
// LOC-LABEL:   func.func @named(
// LOC-SAME:      loc("x"(
// LOC:           cs349.mul {{.*}} loc([[SQUARES:#loc[0-9]*]])
// LOC-DAG:     [[POS:#loc[0-9]*]] = loc("{{.*}}step-names.mlir":[[@LINE+6]]:14)
// LOC-DAG:     [[SQUARES]] = loc("squares"([[POS]]))
// NUMBERED-LABEL: func.func @named(
// NUMBERED-SAME:    %arg0: tensor<4xf32>
// NUMBERED-NEXT:    %0 = cs349.mul %arg0, %arg0
func.func @named(%x: tensor<4xf32>) -> tensor<4xf32> {
  %squares = cs349.mul %x, %x : tensor<4xf32>
  %total = cs349.add %squares, %x : tensor<4xf32>
  return %total : tensor<4xf32>
}

// -----

// Numbered values have no name to keep; an explicit location is kept over
// the SSA name.
// CHECK-LABEL: func.func @numbered_and_located(
// CHECK-SAME:    %arg0: tensor<4xf32>
// CHECK-NEXT:    %0 = cs349.exp %arg0
// CHECK-NEXT:    %layer0.step = cs349.neg %0
func.func @numbered_and_located(%0: tensor<4xf32>) -> tensor<4xf32> {
  %1 = cs349.exp %0 : tensor<4xf32>
  %ignored = cs349.neg %1 : tensor<4xf32> loc("layer0.step")
  return %ignored : tensor<4xf32>
}

// -----

// The printer tells apart two values of one step with a suffix (`_0`); it
// is dropped when read back, since the name without it is a name too. A
// name that merely ends in a number keeps it.
// CHECK-LABEL: func.func @two_of_one_step(
// CHECK-NEXT:    %norm = cs349.mul
// CHECK-NEXT:    %norm_0 = cs349.add
// CHECK-NEXT:    %block_2 = cs349.exp
// LOC-LABEL:   func.func @two_of_one_step(
// LOC-DAG:       loc("norm"(
// LOC-DAG:       loc("block_2"(
// LOC-NOT:       loc("norm_0"
func.func @two_of_one_step(%a: tensor<4xf32>) -> tensor<4xf32> {
  %norm = cs349.mul %a, %a : tensor<4xf32>
  %norm_0 = cs349.add %norm, %a : tensor<4xf32>
  %block_2 = cs349.exp %norm_0 : tensor<4xf32>
  return %block_2 : tensor<4xf32>
}
