// RUN: cs349-opt %s -split-input-file --canonicalize | FileCheck %s

// Algebraic identities: fold hooks that return an operand, and the DRR
// patterns of CS349Canonicalize.td. Each positive case has its negative next
// to it. Constant evaluation is tested in constant-fold.mlir.

// CHECK-LABEL: func.func @neutral_elements
// CHECK-SAME:    (%[[X:.*]]: tensor<4x8xf32>)
// CHECK-NEXT:    return %[[X]], %[[X]], %[[X]], %[[X]], %[[X]], %[[X]]
func.func @neutral_elements(%x: tensor<4x8xf32>)
    -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %zero = cs349.constant dense<0.0> : tensor<f32>
  %one = cs349.constant dense<1.0> : tensor<f32>
  %0 = cs349.add %x, %zero : tensor<4x8xf32>, tensor<f32>
  %1 = cs349.sub %x, %zero : tensor<4x8xf32>, tensor<f32>
  %2 = cs349.mul %x, %one : tensor<4x8xf32>, tensor<f32>
  %3 = cs349.div %x, %one : tensor<4x8xf32>, tensor<f32>
  // add and mul are commutative: the constant is moved right, then folded.
  %4 = cs349.add %zero, %x : tensor<f32>, tensor<4x8xf32>
  %5 = cs349.mul %one, %x : tensor<f32>, tensor<4x8xf32>
  return %0, %1, %2, %3, %4, %5
      : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// The neutral constant may have any shape that broadcasts into x.

// CHECK-LABEL: func.func @neutral_row
// CHECK-SAME:    (%[[X:.*]]: tensor<4x8xbf16>)
// CHECK-NEXT:    return %[[X]], %[[X]]
func.func @neutral_row(%x: tensor<4x8xbf16>) -> (tensor<4x8xbf16>, tensor<4x8xbf16>) {
  %zero = cs349.constant dense<0.0> : tensor<8xbf16>
  %one = cs349.constant dense<1.0> : tensor<4x1xbf16>
  %0 = cs349.add %x, %zero : tensor<4x8xbf16>, tensor<8xbf16>
  %1 = cs349.mul %x, %one : tensor<4x8xbf16>, tensor<4x1xbf16>
  return %0, %1 : tensor<4x8xbf16>, tensor<4x8xbf16>
}

// -----

// Negative: when the constant broadcasts x to a larger shape, x + 0 is not x
// (the result type differs), so nothing folds.

// CHECK-LABEL: func.func @neutral_broadcasts_x
// CHECK:         %[[ADD:.*]] = cs349.add %{{.*}}, %{{.*}} : tensor<8xf32>, tensor<4x8xf32>
// CHECK:         %[[MUL:.*]] = cs349.mul %{{.*}}, %{{.*}} : tensor<4x1xf32>, tensor<4x8xf32>
// CHECK:         return %[[ADD]], %[[MUL]]
func.func @neutral_broadcasts_x(%x: tensor<8xf32>, %y: tensor<4x1xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %zero = cs349.constant dense<0.0> : tensor<4x8xf32>
  %one = cs349.constant dense<1.0> : tensor<4x8xf32>
  %0 = cs349.add %x, %zero : tensor<8xf32>, tensor<4x8xf32>
  %1 = cs349.mul %y, %one : tensor<4x1xf32>, tensor<4x8xf32>
  return %0, %1 : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// Negative: identities that need finite operands are not applied. x * 0 is
// NaN for x = NaN or Inf, x - x is NaN for x = Inf, 0 / x is NaN for x = 0,
// x / x is NaN for x = 0, and the constant on the left of sub and div is not
// a neutral element.

// CHECK-LABEL: func.func @not_identities
// CHECK-DAG:     %[[ZERO:.*]] = cs349.constant dense<0.000000e+00> : tensor<f32>
// CHECK-DAG:     %[[ONE:.*]] = cs349.constant dense<1.000000e+00> : tensor<f32>
// CHECK:         %[[A:.*]] = cs349.mul %[[X:.*]], %[[ZERO]]
// CHECK-NEXT:    %[[B:.*]] = cs349.sub %[[X]], %[[X]]
// CHECK-NEXT:    %[[C:.*]] = cs349.div %[[ZERO]], %[[X]]
// CHECK-NEXT:    %[[D:.*]] = cs349.div %[[X]], %[[X]]
// CHECK-NEXT:    %[[E:.*]] = cs349.div %[[ONE]], %[[X]]
// CHECK-NEXT:    return %[[A]], %[[B]], %[[C]], %[[D]], %[[E]]
func.func @not_identities(%x: tensor<4xf32>)
    -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %zero = cs349.constant dense<0.0> : tensor<f32>
  %one = cs349.constant dense<1.0> : tensor<f32>
  %0 = cs349.mul %x, %zero : tensor<4xf32>, tensor<f32>
  %1 = cs349.sub %x, %x : tensor<4xf32>
  %2 = cs349.div %zero, %x : tensor<f32>, tensor<4xf32>
  %3 = cs349.div %x, %x : tensor<4xf32>
  %4 = cs349.div %one, %x : tensor<f32>, tensor<4xf32>
  return %0, %1, %2, %3, %4 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// Negative: a constant that is not a splat of the neutral element stays.

// CHECK-LABEL: func.func @almost_neutral
// CHECK:         cs349.add
// CHECK:         cs349.mul
func.func @almost_neutral(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %zeroish = cs349.constant dense<[0.0, 1.0]> : tensor<2xf32>
  %oneish = cs349.constant dense<[1.0, 0.5]> : tensor<2xf32>
  %0 = cs349.add %x, %zeroish : tensor<2xf32>
  %1 = cs349.mul %x, %oneish : tensor<2xf32>
  return %0, %1 : tensor<2xf32>, tensor<2xf32>
}

// -----

// CHECK-LABEL: func.func @double_negation
// CHECK-SAME:    (%[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT:    %[[N:.*]] = cs349.neg %[[X]]
// CHECK-NEXT:    return %[[X]], %[[N]]
func.func @double_negation(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = cs349.neg %x : tensor<4xf32>
  %1 = cs349.neg %0 : tensor<4xf32>
  %2 = cs349.neg %1 : tensor<4xf32>
  return %1, %2 : tensor<4xf32>, tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @max_self
// CHECK-SAME:    (%[[X:.*]]: tensor<4xf32>, %[[Y:.*]]: tensor<4xf32>)
// CHECK-NEXT:    %[[M:.*]] = cs349.max %[[X]], %[[Y]]
// CHECK-NEXT:    return %[[X]], %[[M]]
func.func @max_self(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = cs349.max %x, %x : tensor<4xf32>
  %1 = cs349.max %x, %y : tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// Negations merge into the neighbouring op (DRR patterns).

// CHECK-LABEL: func.func @negations
// CHECK-SAME:    (%[[X:.*]]: tensor<4x8xf32>, %[[Y:.*]]: tensor<4x8xf32>, %[[R:.*]]: tensor<4x1xf32>)
// CHECK-NEXT:    %[[A:.*]] = cs349.sub %[[X]], %[[Y]] : tensor<4x8xf32>
// CHECK-NEXT:    %[[B:.*]] = cs349.sub %[[X]], %[[R]] : tensor<4x8xf32>, tensor<4x1xf32>
// CHECK-NEXT:    %[[C:.*]] = cs349.add %[[X]], %[[Y]] : tensor<4x8xf32>
// CHECK-NEXT:    %[[D:.*]] = cs349.mul %[[X]], %[[Y]] : tensor<4x8xf32>
// CHECK-NEXT:    %[[E:.*]] = cs349.div %[[X]], %[[R]] : tensor<4x8xf32>, tensor<4x1xf32>
// CHECK-NEXT:    return %[[A]], %[[B]], %[[C]], %[[D]], %[[E]]
func.func @negations(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>, %r: tensor<4x1xf32>)
    -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %ny = cs349.neg %y : tensor<4x8xf32>
  %nr = cs349.neg %r : tensor<4x1xf32>
  %nx = cs349.neg %x : tensor<4x8xf32>
  // x + (-y) -> x - y
  %0 = cs349.add %x, %ny : tensor<4x8xf32>
  // (-r) + x -> x - r, broadcasting as before
  %1 = cs349.add %nr, %x : tensor<4x1xf32>, tensor<4x8xf32>
  // x - (-y) -> x + y
  %2 = cs349.sub %x, %ny : tensor<4x8xf32>
  // (-x) * (-y) -> x * y
  %3 = cs349.mul %nx, %ny : tensor<4x8xf32>
  // (-x) / (-r) -> x / r
  %4 = cs349.div %nx, %nr : tensor<4x8xf32>, tensor<4x1xf32>
  return %0, %1, %2, %3, %4 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// Negative: one negation on a mul or div has nothing to cancel against.

// CHECK-LABEL: func.func @single_negation
// CHECK-NEXT:    %[[N:.*]] = cs349.neg
// CHECK-NEXT:    cs349.mul %[[N]], %{{.*}}
// CHECK-NEXT:    cs349.div %{{.*}}, %[[N]]
func.func @single_negation(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %nx = cs349.neg %x : tensor<4xf32>
  %0 = cs349.mul %nx, %y : tensor<4xf32>
  %1 = cs349.div %y, %nx : tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// x * -1, x / -1 and 0 - x become a neg (and then cancel like one).

// CHECK-LABEL: func.func @to_negation
// CHECK-SAME:    (%[[X:.*]]: tensor<4x8xf32>, %[[Y:.*]]: tensor<4x8xf32>)
// CHECK-NEXT:    %[[A:.*]] = cs349.neg %[[X]]
// CHECK-NEXT:    %[[B:.*]] = cs349.neg %[[X]]
// CHECK-NEXT:    %[[C:.*]] = cs349.neg %[[X]]
// CHECK-NEXT:    %[[D:.*]] = cs349.sub %[[Y]], %[[X]]
// CHECK-NEXT:    return %[[A]], %[[B]], %[[C]], %[[D]]
func.func @to_negation(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>)
    -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %m1 = cs349.constant dense<-1.0> : tensor<f32>
  %zero = cs349.constant dense<0.0> : tensor<8xf32>
  %0 = cs349.mul %x, %m1 : tensor<4x8xf32>, tensor<f32>
  %1 = cs349.div %x, %m1 : tensor<4x8xf32>, tensor<f32>
  %2 = cs349.sub %zero, %x : tensor<8xf32>, tensor<4x8xf32>
  %3 = cs349.add %y, %2 : tensor<4x8xf32>
  return %0, %1, %2, %3 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// Negative: -1 or 0 that broadcasts x to a larger shape is kept (a neg
// cannot change the shape); 0 on the right of a sub is folded instead.

// CHECK-LABEL: func.func @to_negation_broadcasts_x
// CHECK:         cs349.mul %{{.*}}, %{{.*}} : tensor<8xf32>, tensor<4x8xf32>
// CHECK:         cs349.sub %{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<8xf32>
// CHECK-NOT:     cs349.neg
func.func @to_negation_broadcasts_x(%x: tensor<8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %m1 = cs349.constant dense<-1.0> : tensor<4x8xf32>
  %zero = cs349.constant dense<0.0> : tensor<4x8xf32>
  %0 = cs349.mul %x, %m1 : tensor<8xf32>, tensor<4x8xf32>
  %1 = cs349.sub %zero, %x : tensor<4x8xf32>, tensor<8xf32>
  return %0, %1 : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// pow(x, 2) is x * x and pow(x, 1) is x, when the exponent broadcasts into
// x; a power that widens x, another exponent, or a constant base stays.

// CHECK-LABEL: func.func @powers
// CHECK-SAME:    (%[[X:.*]]: tensor<4x8xf32>, %[[Y:.*]]: tensor<8xf32>)
// CHECK-DAG:     %[[TWO:.*]] = cs349.constant dense<2.000000e+00> : tensor<4x8xf32>
// CHECK-DAG:     %[[THREE:.*]] = cs349.constant dense<3.000000e+00> : tensor<f32>
// CHECK:         %[[SQ:.*]] = cs349.mul %[[X]], %[[X]] : tensor<4x8xf32>
// CHECK-NEXT:    %[[WIDE:.*]] = cs349.pow %[[Y]], %[[TWO]] : tensor<8xf32>, tensor<4x8xf32>
// CHECK-NEXT:    %[[CUBE:.*]] = cs349.pow %[[X]], %[[THREE]] : tensor<4x8xf32>, tensor<f32>
// CHECK-NEXT:    %[[EXP2:.*]] = cs349.pow %[[TWO]], %[[X]] : tensor<4x8xf32>
// CHECK-NEXT:    return %[[SQ]], %[[X]], %[[WIDE]], %[[CUBE]], %[[EXP2]]
func.func @powers(%x: tensor<4x8xf32>, %y: tensor<8xf32>)
    -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %one = cs349.constant dense<1.0> : tensor<8xf32>
  %two = cs349.constant dense<2.0> : tensor<f32>
  %two_wide = cs349.constant dense<2.0> : tensor<4x8xf32>
  %three = cs349.constant dense<3.0> : tensor<f32>
  %0 = cs349.pow %x, %two : tensor<4x8xf32>, tensor<f32>
  %1 = cs349.pow %x, %one : tensor<4x8xf32>, tensor<8xf32>
  %2 = cs349.pow %y, %two_wide : tensor<8xf32>, tensor<4x8xf32>
  %3 = cs349.pow %x, %three : tensor<4x8xf32>, tensor<f32>
  %4 = cs349.pow %two_wide, %x : tensor<4x8xf32>
  return %0, %1, %2, %3, %4
      : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// rotate_half twice is a negation; once is not.

// CHECK-LABEL: func.func @rotate_half_twice
// CHECK-SAME:    (%[[Q:.*]]: tensor<2x4x8xbf16>)
// CHECK-NEXT:    %[[R:.*]] = cs349.rotate_half %[[Q]]
// CHECK-NEXT:    %[[N:.*]] = cs349.neg %[[Q]]
// CHECK-NEXT:    return %[[R]], %[[N]]
func.func @rotate_half_twice(%q: tensor<2x4x8xbf16>) -> (tensor<2x4x8xbf16>, tensor<2x4x8xbf16>) {
  %0 = cs349.rotate_half %q : tensor<2x4x8xbf16>
  %1 = cs349.rotate_half %0 : tensor<2x4x8xbf16>
  return %0, %1 : tensor<2x4x8xbf16>, tensor<2x4x8xbf16>
}

// -----

// Views: transpose∘transpose composes (and vanishes when the composition is
// the identity), reshape∘reshape becomes one reshape, and identity views
// fold away.

// CHECK-LABEL: func.func @views
// CHECK-SAME:    (%[[X:.*]]: tensor<2x4x8xf32>)
// CHECK-NEXT:    %[[T:.*]] = cs349.transpose %[[X]] perm = [2, 0, 1] : tensor<2x4x8xf32> -> tensor<8x2x4xf32>
// CHECK-NEXT:    %[[R:.*]] = cs349.reshape %[[X]] : tensor<2x4x8xf32> -> tensor<64xf32>
// CHECK-NEXT:    return %[[X]], %[[T]], %[[R]], %[[X]], %[[X]], %[[X]]
func.func @views(%x: tensor<2x4x8xf32>)
    -> (tensor<2x4x8xf32>, tensor<8x2x4xf32>, tensor<64xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>) {
  // [T, H, dh] -> [H, T, dh] -> back: the layer's head split and merge.
  %t0 = cs349.transpose %x perm = [1, 0, 2] : tensor<2x4x8xf32> -> tensor<4x2x8xf32>
  %t1 = cs349.transpose %t0 perm = [1, 0, 2] : tensor<4x2x8xf32> -> tensor<2x4x8xf32>
  // [1, 0, 2] then [2, 1, 0] is [2, 0, 1].
  %t2 = cs349.transpose %t0 perm = [2, 1, 0] : tensor<4x2x8xf32> -> tensor<8x2x4xf32>
  %r0 = cs349.reshape %x : tensor<2x4x8xf32> -> tensor<8x8xf32>
  %r1 = cs349.reshape %r0 : tensor<8x8xf32> -> tensor<64xf32>
  %r2 = cs349.reshape %r0 : tensor<8x8xf32> -> tensor<2x4x8xf32>
  %t3 = cs349.transpose %x perm = [0, 1, 2] : tensor<2x4x8xf32> -> tensor<2x4x8xf32>
  %p = cs349.repeat %x axis = 1 times = 1 : tensor<2x4x8xf32> -> tensor<2x4x8xf32>
  return %t1, %t2, %r1, %r2, %t3, %p
      : tensor<2x4x8xf32>, tensor<8x2x4xf32>, tensor<64xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>
}

// -----

// Negative: a single view of an activation that is not the identity stays.

// CHECK-LABEL: func.func @views_kept
// CHECK-NEXT:    cs349.transpose
// CHECK-NEXT:    cs349.reshape
// CHECK-NEXT:    cs349.repeat
// CHECK-NEXT:    return
func.func @views_kept(%x: tensor<2x4x8xf32>) -> (tensor<4x2x8xf32>, tensor<8x8xf32>, tensor<4x4x8xf32>) {
  %0 = cs349.transpose %x perm = [1, 0, 2] : tensor<2x4x8xf32> -> tensor<4x2x8xf32>
  %1 = cs349.reshape %x : tensor<2x4x8xf32> -> tensor<8x8xf32>
  %2 = cs349.repeat %x axis = 0 times = 2 : tensor<2x4x8xf32> -> tensor<4x4x8xf32>
  return %0, %1, %2 : tensor<4x2x8xf32>, tensor<8x8xf32>, tensor<4x4x8xf32>
}

// -----

// Views of splats are splats of the view's shape, at any size (a splat is
// one element): here 32 x 2048 x 2048.

// CHECK-LABEL: func.func @views_of_splats
// CHECK-DAG:     %[[A:.*]] = cs349.constant dense<2.000000e+00> : tensor<32x2048x2048xbf16>
// CHECK-DAG:     %[[B:.*]] = cs349.constant dense<2.000000e+00> : tensor<2048x32x2048xbf16>
// CHECK-DAG:     %[[C:.*]] = cs349.constant dense<2.000000e+00> : tensor<128x2048x2048xbf16>
// CHECK:         return %[[A]], %[[B]], %[[C]]
func.func @views_of_splats() -> (tensor<32x2048x2048xbf16>, tensor<2048x32x2048xbf16>, tensor<128x2048x2048xbf16>) {
  %c = cs349.constant dense<2.0> : tensor<2048x65536xbf16>
  %0 = cs349.reshape %c : tensor<2048x65536xbf16> -> tensor<32x2048x2048xbf16>
  %1 = cs349.transpose %0 perm = [1, 0, 2] : tensor<32x2048x2048xbf16> -> tensor<2048x32x2048xbf16>
  %2 = cs349.repeat %0 axis = 0 times = 4 : tensor<32x2048x2048xbf16> -> tensor<128x2048x2048xbf16>
  return %0, %1, %2 : tensor<32x2048x2048xbf16>, tensor<2048x32x2048xbf16>, tensor<128x2048x2048xbf16>
}

// -----

// A reduction over size-1 axes that keeps them reads each element once: the
// input. Without keepdims the shape changes and the op stays.

// CHECK-LABEL: func.func @trivial_reduction
// CHECK-SAME:    (%[[X:.*]]: tensor<4x1xf32>)
// CHECK-NEXT:    %[[R:.*]] = cs349.reduce_sum %[[X]] axes = [1] : tensor<4x1xf32> -> tensor<4xf32>
// CHECK-NEXT:    return %[[X]], %[[X]], %[[R]]
func.func @trivial_reduction(%x: tensor<4x1xf32>) -> (tensor<4x1xf32>, tensor<4x1xf32>, tensor<4xf32>) {
  %0 = cs349.reduce_sum %x axes = [1] keepdims : tensor<4x1xf32> -> tensor<4x1xf32>
  %1 = cs349.reduce_max %x axes = [1] keepdims : tensor<4x1xf32> -> tensor<4x1xf32>
  %2 = cs349.reduce_sum %x axes = [1] : tensor<4x1xf32> -> tensor<4xf32>
  return %0, %1, %2 : tensor<4x1xf32>, tensor<4x1xf32>, tensor<4xf32>
}

// -----

// Identities apply inside kernel bodies too.

// CHECK-LABEL: func.func @in_kernel
// CHECK:         ^bb0(%[[A:.*]]: tensor<4xf32>):
// CHECK-NEXT:      %[[E:.*]] = cs349.exp %[[A]]
// CHECK-NEXT:      cs349.yield %[[E]]
func.func @in_kernel(%x: tensor<4xf32>) -> tensor<4xf32> {
  %k = cs349.kernel (%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    %one = cs349.constant dense<1.0> : tensor<f32>
    %n = cs349.neg %a : tensor<4xf32>
    %nn = cs349.neg %n : tensor<4xf32>
    %m = cs349.mul %nn, %one : tensor<4xf32>, tensor<f32>
    %e = cs349.exp %m : tensor<4xf32>
    cs349.yield %e : tensor<4xf32>
  }
  return %k : tensor<4xf32>
}
