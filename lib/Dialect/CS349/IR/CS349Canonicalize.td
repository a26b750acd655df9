//===- CS349Canonicalize.td - algebraic identities as DRR ---*- tablegen -*-===//
//
// The canonicalization patterns of cs349 that rewrite one op shape into
// another. Identities that just return an operand or a constant are fold
// hooks (CS349Folds.cpp); everything here builds a new op.
//
// Floating-point policy: the dialect assumes no signed zeros (as XLA and
// fast-math `nsz` do), so 0 - x -> -x is allowed; it does not assume the
// absence of NaN or Inf, so x * 0 -> 0 and x - x -> 0 are not.
//
//===----------------------------------------------------------------------===//

#ifndef CS349_CANONICALIZE_TD
#define CS349_CANONICALIZE_TD

include "mlir/IR/PatternBase.td"
include "cs349/Dialect/CS349/IR/CS349Ops.td"

// The rewrite would change the result type when the matched op broadcasts
// its other operand up to a larger shape.
def SameType : Constraint<CPred<"$0.getType() == $1.getType()">,
                          "of the same type">;

class SplatOf<string value>
    : AttrConstraint<CPred<"::mlir::cs349::isSplatOf($_self, " # value # ")">,
                     "a float splat of " # value>;

//===----------------------------------------------------------------------===//
// Negations: sign flips that cancel or merge into the neighbouring op. Each
// saves the neg once it has no other user.
//===----------------------------------------------------------------------===//

// x + (-y) -> x - y, in both operand orders (add is commutative).
def AddOfNegRhs : Pat<(CS349_AddOp $x, (CS349_NegOp $y)), (CS349_SubOp $x, $y)>;
def AddOfNegLhs : Pat<(CS349_AddOp (CS349_NegOp $y), $x), (CS349_SubOp $x, $y)>;

// x - (-y) -> x + y.
def SubOfNeg : Pat<(CS349_SubOp $x, (CS349_NegOp $y)), (CS349_AddOp $x, $y)>;

// (-x) * (-y) -> x * y and (-x) / (-y) -> x / y.
def MulOfNegs : Pat<(CS349_MulOp (CS349_NegOp $x), (CS349_NegOp $y)),
                    (CS349_MulOp $x, $y)>;
def DivOfNegs : Pat<(CS349_DivOp (CS349_NegOp $x), (CS349_NegOp $y)),
                    (CS349_DivOp $x, $y)>;

// x * -1 -> -x and x / -1 -> -x: exact, and a neg is a cheaper op that the
// rules above can cancel further. The constant is on the right of a mul
// because folding moves constants of commutative ops there.
def MulByMinusOne : Pat<(CS349_MulOp:$result $x, (CS349_ConstantOp SplatOf<"-1.0">:$c)),
                        (CS349_NegOp $x), [(SameType $result, $x)]>;
def DivByMinusOne : Pat<(CS349_DivOp:$result $x, (CS349_ConstantOp SplatOf<"-1.0">:$c)),
                        (CS349_NegOp $x), [(SameType $result, $x)]>;

// 0 - x -> -x (exact for -0; for +0 it differs only in the sign of a zero
// result, which the dialect does not preserve).
def SubFromZero : Pat<(CS349_SubOp:$result (CS349_ConstantOp SplatOf<"0.0">:$c), $x),
                      (CS349_NegOp $x), [(SameType $result, $x)]>;

//===----------------------------------------------------------------------===//
// Powers
//===----------------------------------------------------------------------===//

// pow(x, 2) -> x * x: the square rounded once either way, for every x
// (NaN, infinities and zeros of either sign), and a multiplication is
// cheaper than a call of pow.
def PowOfTwo : Pat<(CS349_PowOp:$result $x, (CS349_ConstantOp SplatOf<"2.0">:$c)),
                   (CS349_MulOp $x, $x), [(SameType $result, $x)]>;

//===----------------------------------------------------------------------===//
// Rotary embeddings
//===----------------------------------------------------------------------===//

// rotate_half([x1, x2]) = [-x2, x1], so applying it twice gives [-x1, -x2].
def RotateHalfTwice : Pat<(CS349_RotateHalfOp (CS349_RotateHalfOp $x)),
                          (CS349_NegOp $x)>;

#endif // CS349_CANONICALIZE_TD
