//===- CS349Ops.td - cs349 operations -----------------------*- tablegen -*-===//

#ifndef CS349_OPS_TD
#define CS349_OPS_TD

include "cs349/Dialect/CS349/IR/CS349Dialect.td"
include "cs349/Dialect/CS349/IR/CS349Attrs.td"
include "cs349/Dialect/CS349/IR/CS349Interfaces.td"
include "mlir/IR/OpBase.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/ViewLikeInterface.td"

//===----------------------------------------------------------------------===//
// Types and traits
//===----------------------------------------------------------------------===//

def CS349_Float : AnyTypeOf<[BF16, F16, F32]>;
// StaticShapeTensorOf<[BF16, F16, F32]> with the same summary (and so the
// same diagnostics and docs), but the predicate is one function that reads
// the RankedTensorType directly: ODS's generic form casts to the ShapedType
// interface twice, an interface-map lookup each, and this check runs on
// every operand and result each time the module is verified (after every
// pass by default).
def CS349_Tensor : Type<
    CPred<"::mlir::cs349::isStaticFloatTensor($_self)">,
    "statically shaped tensor of bfloat16 type or 16-bit float or 32-bit "
    "float values (at most 2^63-1 bytes)",
    "::mlir::RankedTensorType">;

// Integer tensors: token ids and indices (i32, i64) and masks (i1). Only the
// ops that take them name them; arithmetic stays on CS349_Tensor.
def CS349_IntTensor : Type<
    CPred<"::llvm::isa<::mlir::RankedTensorType>($_self) && "
          "::llvm::cast<::mlir::RankedTensorType>($_self).hasStaticShape() && "
          "::mlir::cs349::isIntegerElementType("
          "::llvm::cast<::mlir::RankedTensorType>($_self).getElementType()) && "
          "::mlir::cs349::hasRepresentableSize($_self)">,
    "statically shaped tensor of 1-bit, 32-bit or 64-bit signless integer "
    "values (at most 2^63-1 bytes)",
    "::mlir::RankedTensorType">;
// What moves data without computing on it (views, concat, cast, constants,
// kernels) takes either.
def CS349_AnyTensor : Type<
    Or<[CS349_Tensor.predicate, CS349_IntTensor.predicate]>,
    "statically shaped tensor of bfloat16 type or 16-bit float or 32-bit "
    "float or 1-bit, 32-bit or 64-bit signless integer values (at most "
    "2^63-1 bytes)",
    "::mlir::RankedTensorType">;

// Ops that only reinterpret their operand's memory: no copy, no kernel.
def CS349_View : NativeOpTrait<"IsView"> { let cppNamespace = "::mlir::cs349"; }
// Ops whose value is known at compile time; a kernel that reads one computes
// it in place (or loads it from constant memory) rather than from the arena.
def CS349_ConstantData : NativeOpTrait<"IsConstantData"> {
  let cppNamespace = "::mlir::cs349";
}
// Composite ops that --decompose expands into primitives.
def CS349_Composite : NativeOpTrait<"IsComposite"> {
  let cppNamespace = "::mlir::cs349";
}
// Ops with no per-element form: the lowering computes the whole result at
// once (attention's tiled online softmax), so a kernel always stores it.
def CS349_ComputedWhole : NativeOpTrait<"IsComputedWhole"> {
  let cppNamespace = "::mlir::cs349";
}

// The kernel kind an op declares to --fuse (FusionOpInterface).
class CS349_FusionKindIs<string kind> {
  code declaration = [{
    static ::mlir::cs349::FusionKind getFusionKind() {
      return ::mlir::cs349::FusionKind::}] # kind # [{;
    }
  }];
}

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

def CS349_ConstantOp : CS349_Op<"constant",
    [ConstantLike, Pure, CS349_ConstantData,
     AllTypesMatch<["value", "result"]>]> {
  let summary = "a dense tensor constant";
  let description = [{
    A tensor known at compile time: weights generated with
    `--weights=random`, scalars such as epsilon or 1/sqrt(dh), and the results
    of constant folding.

    ```mlir
    %eps = cs349.constant dense<1.0e-05> : tensor<bf16>
    ```
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs CS349_AnyTensor:$result);
  let assemblyFormat = "attr-dict $value";
  let hasFolder = 1;
  let hasVerifier = 1;
}

def CS349_CausalMaskOp : CS349_Op<"causal_mask", [Pure, CS349_ConstantData]> {
  let summary = "the additive causal mask";
  let description = [{
    A `[T, T]` tensor that is `0` where the key position is at or before the
    query position and `-inf` after it. Adding it to attention scores before a
    softmax hides the future. With `window = W` (`W >= 1`) it also hides keys
    `W` or more positions back: key `j` is visible from query `i` exactly when
    `i - W < j <= i` (a sliding window). It is never materialised by constant
    folding: kernels compute it from the indices.

    ```mlir
    %mask = cs349.causal_mask : tensor<2048x2048xbf16>
    %local = cs349.causal_mask window = 4096 : tensor<8192x8192xbf16>
    ```
  }];
  let arguments = (ins OptionalAttr<I64Attr>:$window);
  let results = (outs CS349_Tensor:$result);
  let assemblyFormat = "(`window` `=` $window^)? attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def CS349_RopeTableOp : CS349_Op<"rope_table", [Pure, CS349_ConstantData]> {
  let summary = "a table of rotary position embeddings";
  let description = [{
    The `[T, dh]` table of `cos` or `sin` of `t * theta^(-2i/dh)` where `i` is
    the column modulo `dh/2`, so that
    `rope(x) = x * cos + rotate_half(x) * sin`.

    ```mlir
    %cos = cs349.rope_table cos theta = 5.000000e+05 : tensor<2048x128xbf16>
    ```
  }];
  let arguments = (ins CS349_RopeTableKind:$kind, F64Attr:$theta);
  let results = (outs CS349_Tensor:$result);
  let assemblyFormat = "$kind `theta` `=` $theta attr-dict `:` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Elementwise ops
//===----------------------------------------------------------------------===//

class CS349_BinaryOp<string mnemonic, list<Trait> traits = []>
    : CS349_Op<mnemonic, !listconcat(traits,
        [Pure, DeclareOpInterfaceMethods<InferTypeOpInterface>,
         CS349_ElementwiseOpInterface, CS349_FusionOpInterface])> {
  let description = [{
    Elementwise with NumPy-style broadcasting of the two operands; the element
    types must agree. A single type after the colon means both operands have
    it.

    ```mlir
    %y = cs349.}] # mnemonic # [{ %a, %b : tensor<2048x4096xbf16>
    %z = cs349.}] # mnemonic # [{ %a, %r : tensor<2048x4096xbf16>, tensor<2048x1xbf16>
    ```
  }];
  let arguments = (ins CS349_Tensor:$lhs, CS349_Tensor:$rhs);
  let results = (outs CS349_Tensor:$result);
  let hasCustomAssemblyFormat = 1;
  let extraClassDeclaration = CS349_FusionKindIs<"Elementwise">.declaration # [{
    /// One pair of elements, in double (constant folding).
    static double evaluate(double lhs, double rhs);
    /// One pair of f32 elements as scalar code (the lowering).
    static ::mlir::Value emit(::mlir::OpBuilder &builder,
                              ::mlir::Location loc, ::mlir::Value lhs,
                              ::mlir::Value rhs);
    static double evaluateElement(::llvm::ArrayRef<double> operands) {
      return evaluate(operands[0], operands[1]);
    }
    static ::mlir::Value emitElement(::mlir::OpBuilder &builder,
                                     ::mlir::Location loc,
                                     ::mlir::ValueRange operands) {
      return emit(builder, loc, operands[0], operands[1]);
    }
  }];
}

def CS349_AddOp : CS349_BinaryOp<"add", [Commutative]> {
  let summary = "elementwise addition";
  let hasCanonicalizer = 1;
  let hasFolder = 1;
}
def CS349_SubOp : CS349_BinaryOp<"sub"> {
  let summary = "elementwise subtraction";
  let hasCanonicalizer = 1;
  let hasFolder = 1;
}
def CS349_MulOp : CS349_BinaryOp<"mul", [Commutative]> {
  let summary = "elementwise multiplication";
  let hasCanonicalizer = 1;
  let hasFolder = 1;
}
def CS349_DivOp : CS349_BinaryOp<"div"> {
  let summary = "elementwise division";
  let hasCanonicalizer = 1;
  let hasFolder = 1;
}
def CS349_MaxOp : CS349_BinaryOp<"max", [Commutative]> {
  let summary = "elementwise maximum";
  let description = [{
    The larger of the two elements, with NumPy-style broadcasting; a NaN
    operand gives NaN (`arith.maximumf`). `cs349.maxnum` ignores NaN instead.

    ```mlir
    %y = cs349.max %a, %b : tensor<2048x4096xbf16>
    ```
  }];
  let hasFolder = 1;
}
def CS349_MaxNumOp : CS349_BinaryOp<"maxnum", [Commutative]> {
  let summary = "elementwise maximum that ignores NaN";
  let description = [{
    The larger of the two elements, with NumPy-style broadcasting; where one
    operand is NaN the other is the result, and only two NaNs give NaN
    (`arith.maxnumf`, C's `fmax`). Front ends write it for `torch.fmax` and
    for row maxima that skip NaN. A row maximum of `x` that ignores NaN is
    `reduce_max` of `maxnum(x, -inf)`, since `maxnum(NaN, -inf)` is `-inf`:

    ```mlir
    %ninf = cs349.constant dense<0xFF800000> : tensor<f32>
    %x2 = cs349.maxnum %x, %ninf : tensor<4x8xf32>, tensor<f32>
    %m = cs349.reduce_max %x2 axes = [1] keepdims : tensor<4x8xf32> -> tensor<4x1xf32>
    ```
  }];
  let hasFolder = 1;
}

def CS349_PowOp : CS349_BinaryOp<"pow"> {
  let summary = "elementwise power";
  let description = [{
    `lhs` raised to the power `rhs`, element by element with NumPy-style
    broadcasting (`math.powf`, C's `pow`): a negative base with a
    non-integral exponent gives NaN, `pow(x, 0)` is 1 for every `x`, NaN
    included. Front ends write it for `x.pow(2)` in RMSNorm, `x ** 3` in
    GELU's tanh form and `tosa.pow`. A power of exactly 2 canonicalizes to
    `x * x` and a power of 1 folds to `x`; constant operands fold.

    ```mlir
    %two = cs349.constant dense<2.0> : tensor<f32>
    %sq = cs349.pow %x, %two : tensor<2048x4096xbf16>, tensor<f32>
    %y = cs349.pow %a, %b : tensor<2048x4096xf32>
    ```
  }];
  let hasCanonicalizer = 1;
  let hasFolder = 1;
}

// ElementwiseOpInterface for one operand: the op defines `evaluate` and
// `emit` (in CS349ElementMath.cpp).
def CS349_UnaryElementMethods {
  code declaration = [{
    /// One element, in double (constant folding).
    static double evaluate(double x);
    /// One f32 element as scalar code (the lowering).
    static ::mlir::Value emit(::mlir::OpBuilder &builder,
                              ::mlir::Location loc, ::mlir::Value x);
    static double evaluateElement(::llvm::ArrayRef<double> operands) {
      return evaluate(operands[0]);
    }
    static ::mlir::Value emitElement(::mlir::OpBuilder &builder,
                                     ::mlir::Location loc,
                                     ::mlir::ValueRange operands) {
      return emit(builder, loc, operands[0]);
    }
  }];
}

class CS349_UnaryOp<string mnemonic, list<Trait> traits = []>
    : CS349_Op<mnemonic, !listconcat(traits,
        [Pure, SameOperandsAndResultType])> {
  let arguments = (ins CS349_Tensor:$input);
  let results = (outs CS349_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
}

// An elementwise function of one operand: the op defines `evaluate` (double,
// for folding) and `emit` (f32 scalar code, for the lowering); folding,
// fusion, the lowering and cs349-run follow from the interfaces.
class CS349_ElementwiseUnaryOp<string mnemonic, list<Trait> traits = []>
    : CS349_UnaryOp<mnemonic, !listconcat(traits,
        [Elementwise, CS349_ElementwiseOpInterface, CS349_FusionOpInterface])> {
  let description = [{
    Elementwise on a tensor of any shape.

    ```mlir
    %y = cs349.}] # mnemonic # [{ %x : tensor<2048x14336xbf16>
    ```
  }];
  let extraClassDeclaration = !strconcat(
      CS349_FusionKindIs<"Elementwise">.declaration,
      CS349_UnaryElementMethods.declaration);
}

def CS349_NegOp : CS349_ElementwiseUnaryOp<"neg", [Involution]> {
  let summary = "elementwise negation";
}
def CS349_ExpOp : CS349_ElementwiseUnaryOp<"exp"> {
  let summary = "elementwise e^x";
}
def CS349_RsqrtOp : CS349_ElementwiseUnaryOp<"rsqrt"> {
  let summary = "elementwise 1/sqrt(x)";
}
def CS349_TanhOp : CS349_ElementwiseUnaryOp<"tanh"> {
  let summary = "elementwise hyperbolic tangent";
}
def CS349_ErfOp : CS349_ElementwiseUnaryOp<"erf"> {
  let summary = "elementwise Gauss error function";
  let description = [{
    `erf(x) = 2/sqrt(pi) * integral from 0 to x of exp(-t^2) dt`, the
    function of the exact GELU, `gelu(x) = x/2 * (1 + erf(x/sqrt(2)))`.
    Elementwise on a tensor of any shape; it folds on constants and fuses like
    any elementwise op.

    ```mlir
    %y = cs349.erf %x : tensor<2048x14336xbf16>
    ```
  }];
}

def CS349_SigmoidOp : CS349_ElementwiseUnaryOp<"sigmoid"> {
  let summary = "elementwise logistic function 1/(1 + e^-x)";
  let description = [{
    `sigmoid(x) = 1 / (1 + exp(-x))`, one primitive: it folds on constants and
    fuses like any elementwise op (a matmul epilogue, an elementwise kernel).

    ```mlir
    %y = cs349.sigmoid %x : tensor<2048x14336xbf16>
    ```
  }];
}
def CS349_SqrtOp : CS349_ElementwiseUnaryOp<"sqrt"> {
  let summary = "elementwise square root";
  let description = [{
    `sqrt(x)` on a tensor of any shape. Negative elements give NaN, in the
    folder and at run time alike (`-0` gives `-0`).

    ```mlir
    %y = cs349.sqrt %x : tensor<2048x14336xbf16>
    ```
  }];
}
def CS349_LogOp : CS349_ElementwiseUnaryOp<"log"> {
  let summary = "elementwise natural logarithm";
  let description = [{
    `log(x)`, the natural logarithm, on a tensor of any shape. `log(0)` is
    `-inf` and negative elements give NaN, in the folder and at run time
    alike.

    ```mlir
    %y = cs349.log %x : tensor<2048x14336xbf16>
    ```
  }];
}
def CS349_CosOp : CS349_ElementwiseUnaryOp<"cos"> {
  let summary = "elementwise cosine (radians)";
}
def CS349_SinOp : CS349_ElementwiseUnaryOp<"sin"> {
  let summary = "elementwise sine (radians)";
}
def CS349_ReluOp : CS349_ElementwiseUnaryOp<"relu"> {
  let summary = "elementwise rectified linear unit max(x, 0)";
  let description = [{
    `relu(x) = max(x, 0)`; NaN stays NaN (like `cs349.max`). Fuses like any
    elementwise op, as a matmul epilogue for instance.

    ```mlir
    %y = cs349.relu %x : tensor<2048x14336xbf16>
    ```
  }];
}

def CS349_SiluOp : CS349_UnaryOp<"silu",
    [Elementwise, CS349_Composite, CS349_ElementwiseOpInterface]> {
  let summary = "SiLU activation x * sigmoid(x)";
  let description = [{
    `silu(x) = x / (1 + exp(-x))`. `--decompose` expands it into `neg`,
    `exp`, `add 1` and `div`.

    ```mlir
    %a = cs349.silu %gate : tensor<2048x14336xbf16>
    ```
  }];
  let extraClassDeclaration = CS349_UnaryElementMethods.declaration;
}

def CS349_GeluOp : CS349_Op<"gelu",
    [Pure, SameOperandsAndResultType, Elementwise, CS349_Composite,
     CS349_ElementwiseOpInterface]> {
  let summary = "GELU activation, exact (erf) or tanh-approximated";
  let description = [{
    `mode = erf` (the default, elided when printed):
    `gelu(x) = 0.5 * x * (1 + erf(x / sqrt(2)))`.
    `mode = tanh`:
    `gelu(x) = 0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 * x^3)))`.

    A composite, like `silu`: `--decompose` expands it into the primitives of
    its formula (`mul`, `erf` or `tanh`, `add`), so that the elementwise
    steps fuse like any others (a matmul epilogue after the up projection)
    and the unfused plan counts each intermediate as it would be written. It
    still folds on constants and lowers as one op when not decomposed.

    ```mlir
    %a = cs349.gelu %h : tensor<2048x3072xbf16>
    %b = cs349.gelu %h mode = tanh : tensor<2048x3072xbf16>
    ```
  }];
  let arguments = (ins CS349_Tensor:$input,
      DefaultValuedAttr<CS349_GeluMode, "::mlir::cs349::GeluMode::Erf">:$mode);
  let results = (outs CS349_Tensor:$result);
  let assemblyFormat = "$input (`mode` `=` $mode^)? attr-dict `:` type($input)";
  let extraClassDeclaration = [{
    /// The constants of the formulas (folding, lowering and --decompose).
    static constexpr double kInvSqrt2 = 0.70710678118654752440;
    static constexpr double kSqrt2OverPi = 0.79788456080286535588;
    static constexpr double kCubic = 0.044715;
    /// One element in double (folding), by the formula of the op's mode.
    double evaluateElement(::llvm::ArrayRef<double> operands);
    /// One f32 element as scalar code (the lowering).
    ::mlir::Value emitElement(::mlir::OpBuilder &builder, ::mlir::Location loc,
                              ::mlir::ValueRange operands);
  }];
}

def CS349_CastOp : CS349_Op<"cast",
    [Pure, CS349_ElementwiseOpInterface,
     CS349_FusionOpInterface]> {
  let summary = "elementwise conversion to another element type";
  let description = [{
    Each element of `input` converted to the result's element type; the
    shapes are equal. Between float types it rounds to nearest, ties to even
    (exact when widening). An integer becomes the float nearest to it,
    rounded once (`i1` is 0 or 1). A float becomes `i1` 1 unless it is 0 (NaN is 1), and
    `i32`/`i64` rounded toward zero, saturated at the type's range, NaN 0.
    Between integer types it sign-extends (`i1` zero-extends), truncates to
    the low bits, or gives `i1` 1 for every non-zero value. This is how mixed precision is written: bf16 weights and
    activations with f32 softmax statistics or an f32 residual stream. Each
    tensor keeps its own width, so the memory plan counts a cast's result at
    its element type's bytes. It folds on constants (integers up to 2^53 in
    magnitude, which a double holds exactly), folds away a round trip
    through a wider type, and fuses like any elementwise op.

    ```mlir
    %wide = cs349.cast %scores : tensor<32x2048x2048xbf16> -> tensor<32x2048x2048xf32>
    %back = cs349.cast %probs : tensor<32x2048x2048xf32> -> tensor<32x2048x2048xbf16>
    ```
  }];
  let arguments = (ins CS349_AnyTensor:$input);
  let results = (outs CS349_AnyTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
  let extraClassDeclaration = CS349_FusionKindIs<"Elementwise">.declaration # [{
    /// One element in double (folding), converted as the types say.
    double evaluateElement(::llvm::ArrayRef<double> operands);
    /// One element as scalar code (the lowering): f32 for a float type, the
    /// integer type itself for an integer one.
    ::mlir::Value emitElement(::mlir::OpBuilder &builder, ::mlir::Location loc,
                              ::mlir::ValueRange operands);
  }];
}

def CS349_CompareOp : CS349_Op<"compare",
    [Pure, CS349_ElementwiseOpInterface, CS349_FusionOpInterface]> {
  let summary = "elementwise comparison, an i1 mask";
  let description = [{
    `lhs <predicate> rhs` element by element, with NumPy-style broadcasting of
    the two float operands (of one element type); the result is an `i1`
    tensor of the broadcast shape. The predicates are `eq`, `ne`, `lt`, `le`,
    `gt`, `ge`; a NaN operand makes every predicate false except `ne`. With
    `cs349.select` this applies a mask computed at run time, such as padding
    (keys whose position is at or past a sequence's length).

    ```mlir
    %valid = cs349.compare lt %key_pos, %length
        : tensor<1x2048xf32>, tensor<f32> -> tensor<1x2048xi1>
    ```
  }];
  let arguments = (ins CS349_ComparePredicate:$predicate, CS349_Tensor:$lhs,
                       CS349_Tensor:$rhs);
  let results = (outs CS349_IntTensor:$result);
  let assemblyFormat = [{
    $predicate $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->`
        type($result)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = CS349_FusionKindIs<"Elementwise">.declaration # [{
    /// 1 or 0, by the op's predicate (folding).
    double evaluateElement(::llvm::ArrayRef<double> operands);
    /// An i1 from two f32 elements (the lowering).
    ::mlir::Value emitElement(::mlir::OpBuilder &builder, ::mlir::Location loc,
                              ::mlir::ValueRange operands);
  }];
}

def CS349_SelectOp : CS349_Op<"select",
    [Pure, CS349_ElementwiseOpInterface, CS349_FusionOpInterface]> {
  let summary = "elementwise choice between two tensors by an i1 mask";
  let description = [{
    `condition ? true_value : false_value` element by element, the three
    operands broadcast NumPy-style to the result's shape; the condition is
    `i1`, the two values share a float element type. A padding mask hides
    keys by selecting `-inf` for them before the softmax:

    ```mlir
    %masked = cs349.select %valid, %scores, %minus_inf
        : tensor<1x2048xi1>, tensor<32x2048x2048xbf16>, tensor<bf16>
        -> tensor<32x2048x2048xbf16>
    ```
  }];
  let arguments = (ins CS349_IntTensor:$condition, CS349_Tensor:$true_value,
                       CS349_Tensor:$false_value);
  let results = (outs CS349_Tensor:$result);
  let assemblyFormat = [{
    $condition `,` $true_value `,` $false_value attr-dict `:`
        type($condition) `,` type($true_value) `,` type($false_value) `->`
        type($result)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = CS349_FusionKindIs<"Elementwise">.declaration # [{
    static double evaluateElement(::llvm::ArrayRef<double> operands) {
      return operands[0] != 0.0 ? operands[1] : operands[2];
    }
    static ::mlir::Value emitElement(::mlir::OpBuilder &builder,
                                     ::mlir::Location loc,
                                     ::mlir::ValueRange operands);
  }];
}

// rotate_half permutes within a row of the last dimension: any kernel that
// holds whole rows (a matmul epilogue over the head dimension, a row-wise
// kernel) computes it like an elementwise op.
def CS349_RotateHalfOp : CS349_UnaryOp<"rotate_half",
    [CS349_FusionOpInterface]> {
  let summary = "the rotate-half permutation of rotary embeddings";
  let description = [{
    Splits the last dimension into halves `[x1, x2]` and returns `[-x2, x1]`.
    One primitive op, as in the lecture's decomposition of RoPE.

    ```mlir
    %r = cs349.rotate_half %q : tensor<32x2048x128xbf16>
    ```
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
  let extraClassDeclaration = CS349_FusionKindIs<"Elementwise">.declaration;
}

//===----------------------------------------------------------------------===//
// Reductions and row-wise composites
//===----------------------------------------------------------------------===//

class CS349_ReductionOp<string mnemonic, list<Trait> traits = []>
    : CS349_Op<mnemonic, !listconcat(traits,
        [Pure, CS349_ReductionOpInterface, CS349_FusionOpInterface,
         DeclareOpInterfaceMethods<CS349_RecomputeCostOpInterface,
                                   ["getReadsPerElement"]>])> {
  let description = [{
    Reduces over `axes`; with `keepdims` the reduced dimensions stay with
    size 1, which is what the row-wise broadcasts of rms_norm and softmax need.

    ```mlir
    %s = cs349.}] # mnemonic # [{ %x axes = [1] keepdims : tensor<2048x4096xbf16> -> tensor<2048x1xbf16>
    ```
  }];
  let arguments = (ins CS349_Tensor:$input, DenseI64ArrayAttr:$axes,
                       UnitAttr:$keepdims);
  let results = (outs CS349_Tensor:$result);
  let assemblyFormat = [{
    $input `axes` `=` $axes (`keepdims` $keepdims^)? attr-dict `:`
        type($input) `->` type($result)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
  let extraClassDeclaration = CS349_FusionKindIs<"Reduction">.declaration # [{
    /// The reduction's identity and combining step, in double (folding) and
    /// as f32 scalar code (the lowering).
    static double identity();
    static double combine(double accumulated, double element);
    static ::mlir::Value emitCombine(::mlir::OpBuilder &builder,
                                     ::mlir::Location loc,
                                     ::mlir::Value accumulated,
                                     ::mlir::Value element);
  }];
}

def CS349_ReduceSumOp : CS349_ReductionOp<"reduce_sum"> {
  let summary = "sum over axes";
}
def CS349_ReduceMaxOp : CS349_ReductionOp<"reduce_max"> {
  let summary = "maximum over axes";
}

def CS349_SoftmaxOp : CS349_Op<"softmax",
    [Pure, SameOperandsAndResultType, CS349_Composite,
     DeclareOpInterfaceMethods<CS349_RecomputeCostOpInterface,
                               ["getReadsPerElement"]>]> {
  let summary = "softmax along one axis";
  let description = [{
    `exp(x - max(x)) / sum(exp(x - max(x)))` along `axis`. `--decompose`
    expands it into `reduce_max`, `sub`, `exp`, `reduce_sum` and `div`.

    ```mlir
    %p = cs349.softmax %s axis = 2 : tensor<32x2048x2048xbf16>
    ```
  }];
  let arguments = (ins CS349_Tensor:$input, I64Attr:$axis);
  let results = (outs CS349_Tensor:$result);
  let assemblyFormat = "$input `axis` `=` $axis attr-dict `:` type($input)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def CS349_RmsNormOp : CS349_Op<"rms_norm",
    [Pure, AllTypesMatch<["input", "result"]>, CS349_Composite,
     DeclareOpInterfaceMethods<CS349_RecomputeCostOpInterface,
                               ["getReadsPerElement"]>]> {
  let summary = "RMSNorm over the last dimension, times a gain";
  let description = [{
    `x * rsqrt(mean(x*x, last axis) + epsilon) * gain`, with `gain` of shape
    `[d]` where `d` is the last dimension of `x`. `--decompose` expands it into
    `x*x`, a row sum, `/d`, `+epsilon`, `rsqrt`, `x*r` and `*gain`.

    ```mlir
    %h = cs349.rms_norm %x, %attn_norm epsilon = 1.000000e-05
        : tensor<2048x4096xbf16>, tensor<4096xbf16>
    ```
  }];
  let arguments = (ins CS349_Tensor:$input, CS349_Tensor:$gain,
                       F64Attr:$epsilon);
  let results = (outs CS349_Tensor:$result);
  let assemblyFormat = [{
    $input `,` $gain `epsilon` `=` $epsilon attr-dict `:` type($input) `,`
        type($gain)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def CS349_LayerNormOp : CS349_Op<"layer_norm",
    [Pure, AllTypesMatch<["input", "result"]>, CS349_Composite,
     DeclareOpInterfaceMethods<CS349_RecomputeCostOpInterface,
                               ["getReadsPerElement"]>]> {
  let summary = "LayerNorm over the last dimension, times a gain, plus a bias";
  let description = [{
    `(x - mean(x)) * rsqrt(var(x) + epsilon) * gain (+ bias)` with mean and
    (biased) variance over the last axis of `x`; `gain` and the optional
    `bias` have shape `[d]` where `d` is the last dimension of `x`.
    `--decompose` expands it into a row sum times `1/d` (the mean), `x - mean`,
    its square, a second row sum times `1/d` (the variance), `+epsilon`,
    `rsqrt`, `*`, `*gain` and `+bias`. Like `rms_norm` it is one row kernel
    after `--fuse`.

    ```mlir
    %h = cs349.layer_norm %x, %ln_gain, %ln_bias epsilon = 1.000000e-05
        : tensor<1024x768xf32>, tensor<768xf32>, tensor<768xf32>
    %n = cs349.layer_norm %x, %ln_gain epsilon = 1.000000e-05
        : tensor<1024x768xf32>, tensor<768xf32>
    ```
  }];
  let arguments = (ins CS349_Tensor:$input, CS349_Tensor:$gain,
                       Optional<CS349_Tensor>:$bias, F64Attr:$epsilon);
  let results = (outs CS349_Tensor:$result);
  let assemblyFormat = [{
    $input `,` $gain (`,` $bias^)? `epsilon` `=` $epsilon attr-dict `:`
        type($input) `,` type($gain) (`,` type($bias)^)?
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def CS349_RopeOp : CS349_Op<"rope",
    [Pure, AllTypesMatch<["input", "result"]>, AllTypesMatch<["cos", "sin"]>,
     CS349_Composite,
     DeclareOpInterfaceMethods<CS349_RecomputeCostOpInterface,
                               ["getReadsPerElement", "isCostlyToRecompute"]>]> {
  let summary = "rotary position embedding";
  let description = [{
    `x * cos + rotate_half(x) * sin` with `[T, dh]` tables that broadcast over
    the leading (head) dimensions of `x`. `--decompose` expands it into these
    four primitive ops.

    ```mlir
    %qr = cs349.rope %q, %cos, %sin
        : tensor<32x2048x128xbf16>, tensor<2048x128xbf16>
    ```
  }];
  let arguments = (ins CS349_Tensor:$input, CS349_Tensor:$cos,
                       CS349_Tensor:$sin);
  let results = (outs CS349_Tensor:$result);
  let assemblyFormat = [{
    $input `,` $cos `,` $sin attr-dict `:` type($input) `,` type($cos)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Contractions
//===----------------------------------------------------------------------===//

def CS349_MatmulOp : CS349_Op<"matmul",
    [Pure, CS349_FusionOpInterface,
     DeclareOpInterfaceMethods<CS349_RecomputeCostOpInterface,
                               ["getReadsPerElement"]>]> {
  let summary = "batched matrix multiplication";
  let description = [{
    `lhs [..., M, K] @ rhs [..., K, N] -> [..., M, N]`; the batch dimensions
    broadcast NumPy-style. With `transpose_b` the right operand is read as
    `[..., N, K]`, which is how attention scores `q @ kT` are written without a
    separate transpose.

    ```mlir
    %q = cs349.matmul %h, %wq : tensor<2048x4096xbf16>, tensor<4096x4096xbf16>
        -> tensor<2048x4096xbf16>
    %s = cs349.matmul %q, %k transpose_b
        : tensor<32x2048x128xbf16>, tensor<32x2048x128xbf16>
        -> tensor<32x2048x2048xbf16>
    ```
  }];
  let arguments = (ins CS349_Tensor:$lhs, CS349_Tensor:$rhs,
                       UnitAttr:$transpose_b);
  let results = (outs CS349_Tensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs (`transpose_b` $transpose_b^)? attr-dict `:` type($lhs) `,`
        type($rhs) `->` type($result)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
  let extraClassDeclaration = CS349_FusionKindIs<"Matmul">.declaration;
}

def CS349_AttentionOp : CS349_Op<"attention",
    [Pure, AllTypesMatch<["query", "result"]>, CS349_ComputedWhole,
     DeclareOpInterfaceMethods<CS349_RecomputeCostOpInterface,
                               ["getReadsPerElement"]>]> {
  let summary = "fused scaled dot-product attention (FlashAttention)";
  let description = [{
    `softmax(q @ kT * scale + mask) @ v` in one kernel, computed tile by tile
    with an online softmax, so the `[H, T, S]` scores and probabilities never
    reach memory. `q` is `[H, T, dh]`, `k` and `v` are `[G, S, dh]` with `H` a
    multiple of `G`: grouped-query attention, query head `h` reads key/value
    head `h / (H/G)`.

    The `mask` says which keys query `i` sees:
    * `none`: every key (an encoder);
    * `causal`: key `j` when `j <= i` (`T == S`);
    * `sliding_window` with `window = W` (`W >= 1`): key `j` when
      `i - W < j <= i` (`T == S`), the last `W` positions up to the query's
      own; the lowering never visits the keys outside the window;
    * `additive` with a mask operand: every key, and the operand (a `[T, S]`
      tensor, or one that broadcasts to `[H, T, S]`, such as `[1, T, S]` or
      `[T, 1]`) is added to the scaled scores, `-inf` hiding a key (padding).

    ```mlir
    %o = cs349.attention %q, %k, %v scale = 0.088388347648318433 mask = causal
        : tensor<32x2048x128xbf16>, tensor<8x2048x128xbf16>, tensor<8x2048x128xbf16>
    %w = cs349.attention %q, %k, %v scale = 0.088388347648318433
        mask = sliding_window window = 4096
        : tensor<32x2048x128xbf16>, tensor<8x2048x128xbf16>, tensor<8x2048x128xbf16>
    %p = cs349.attention %q, %k, %v scale = 0.088388347648318433
        mask = additive %pad
        : tensor<32x2048x128xbf16>, tensor<8x2048x128xbf16>, tensor<8x2048x128xbf16>,
          tensor<2048x2048xbf16>
    ```
  }];
  let arguments = (ins CS349_Tensor:$query, CS349_Tensor:$key,
                       CS349_Tensor:$value, F64Attr:$scale,
                       CS349_AttentionMask:$mask,
                       OptionalAttr<I64Attr>:$window,
                       Optional<CS349_Tensor>:$additive_mask);
  let results = (outs CS349_Tensor:$result);
  let assemblyFormat = [{
    $query `,` $key `,` $value `scale` `=` $scale `mask` `=` $mask
        (`window` `=` $window^)? ($additive_mask^)? attr-dict `:` type($query)
        `,` type($key) `,` type($value) (`,` type($additive_mask)^)?
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::LogicalResult verifyMask(::mlir::RankedTensorType query,
                                     ::mlir::RankedTensorType key);
  }];
}

//===----------------------------------------------------------------------===//
// Views
//===----------------------------------------------------------------------===//

class CS349_ViewOp<string mnemonic, list<Trait> traits = []>
    : CS349_Op<mnemonic, !listconcat(traits,
        [Pure, CS349_View, ViewLikeOpInterface])> {
  let extraClassDeclaration = [{
    ::mlir::Value getViewSource() { return getInput(); }
  }];
}

def CS349_ReshapeOp : CS349_ViewOp<"reshape"> {
  let summary = "a view with another shape";
  let description = [{
    The same elements in the same (row-major) order under another static
    shape. A view: no copy.

    ```mlir
    %q3 = cs349.reshape %q : tensor<2048x4096xbf16> -> tensor<2048x32x128xbf16>
    ```
  }];
  let arguments = (ins CS349_AnyTensor:$input);
  let results = (outs CS349_AnyTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def CS349_TransposeOp : CS349_ViewOp<"transpose"> {
  let summary = "a view with permuted dimensions";
  let description = [{
    Result dimension `i` is input dimension `perm[i]`. A view: no copy.

    ```mlir
    %qh = cs349.transpose %q3 perm = [1, 0, 2]
        : tensor<2048x32x128xbf16> -> tensor<32x2048x128xbf16>
    ```
  }];
  let arguments = (ins CS349_AnyTensor:$input, DenseI64ArrayAttr:$perm);
  let results = (outs CS349_AnyTensor:$result);
  let assemblyFormat = [{
    $input `perm` `=` $perm attr-dict `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def CS349_RepeatOp : CS349_ViewOp<"repeat"> {
  let summary = "a view repeating each slice along an axis (GQA)";
  let description = [{
    Each slice along `axis` appears `times` times in a row: result index `i`
    along `axis` reads input index `i / times`. This is how grouped-query
    attention shares one key/value head among `H/G` query heads. A view: no
    copy.

    ```mlir
    %kr = cs349.repeat %k axis = 0 times = 4
        : tensor<8x2048x128xbf16> -> tensor<32x2048x128xbf16>
    ```
  }];
  let arguments = (ins CS349_AnyTensor:$input, I64Attr:$axis, I64Attr:$times);
  let results = (outs CS349_AnyTensor:$result);
  let assemblyFormat = [{
    $input `axis` `=` $axis `times` `=` $times attr-dict `:` type($input) `->`
        type($result)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def CS349_SliceOp : CS349_ViewOp<"slice"> {
  let summary = "a view of a strided box of the input";
  let description = [{
    Along each of `axes`, the result keeps `sizes[i]` elements of the input
    starting at `offsets[i]`, `strides[i]` apart: result index `j` along
    `axes[i]` reads input index `offsets[i] + j * strides[i]`. Dimensions not
    named keep every element. A view: no copy, and reading it keeps the
    input's whole buffer alive. This is how one fused QKV projection is split
    into q, k and v.

    ```mlir
    %q = cs349.slice %qkv axes = [1] offsets = [0] sizes = [768] strides = [1]
        : tensor<1024x2304xbf16> -> tensor<1024x768xbf16>
    %even = cs349.slice %x axes = [0, 1] offsets = [0, 1] sizes = [4, 3]
        strides = [1, 2] : tensor<4x6xf32> -> tensor<4x3xf32>
    ```
  }];
  let arguments = (ins CS349_AnyTensor:$input, DenseI64ArrayAttr:$axes,
                       DenseI64ArrayAttr:$offsets, DenseI64ArrayAttr:$sizes,
                       DenseI64ArrayAttr:$strides);
  let results = (outs CS349_AnyTensor:$result);
  let assemblyFormat = [{
    $input `axes` `=` $axes `offsets` `=` $offsets `sizes` `=` $sizes
        `strides` `=` $strides attr-dict `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
  let extraClassDeclaration = [{
    ::mlir::Value getViewSource() { return getInput(); }
    /// Offset and stride of every input dimension (0 and 1 where no axis
    /// names it): result index j along dim d reads offset[d] + j * stride[d].
    void getFullOffsetsAndStrides(::llvm::SmallVectorImpl<int64_t> &offsets,
                                  ::llvm::SmallVectorImpl<int64_t> &strides);
  }];
}

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

def CS349_ConcatOp : CS349_Op<"concat",
    [Pure, CS349_FusionOpInterface,
     DeclareOpInterfaceMethods<CS349_RecomputeCostOpInterface,
                               ["getReadsPerElement", "isCostlyToRecompute"]>]> {
  let summary = "the inputs one after another along an axis";
  let description = [{
    The inputs, of one rank and element type and equal sizes outside `axis`,
    placed one after another along `axis`: the result's size there is the sum
    of theirs. Each result element reads one element of one input, so it
    fuses like an elementwise op (it joins the kernel of an input, or
    computes its inputs in its own kernel); it is not a view, since its
    inputs live in different buffers.

    ```mlir
    %kv = cs349.concat %cache, %k axis = 1
        : tensor<8x2047x128xbf16>, tensor<8x1x128xbf16> -> tensor<8x2048x128xbf16>
    ```
  }];
  let arguments = (ins Variadic<CS349_AnyTensor>:$inputs, I64Attr:$axis);
  let results = (outs CS349_AnyTensor:$result);
  let assemblyFormat = [{
    $inputs `axis` `=` $axis attr-dict `:` type($inputs) `->` type($result)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
  let extraClassDeclaration = CS349_FusionKindIs<"Elementwise">.declaration;
}

def CS349_GatherOp : CS349_Op<"gather", [Pure, CS349_FusionOpInterface]> {
  let summary = "slices of a table picked by integer indices (embedding lookup)";
  let description = [{
    Along `axis`, the slice of `table` that each element of `indices` (`i32`
    or `i64`) names: the result's shape is the table's with its `axis`
    dimension replaced by the shape of `indices`, and
    `result[p..., i..., s...] = table[p..., indices[i...], s...]`. An
    embedding lookup gathers rows (`axis = 0`) of a `[vocab, d]` table by
    token ids. An index outside `[0, n)` (`n` the table's size along `axis`)
    reads the nearest slice, 0 or `n - 1`, folded or at run time: a bad id
    never reads outside the table.

    ```mlir
    %h = cs349.gather %wte, %ids axis = 0
        : tensor<50257x768xbf16>, tensor<1024xi32> -> tensor<1024x768xbf16>
    ```
  }];
  let arguments = (ins CS349_Tensor:$table, CS349_IntTensor:$indices,
                       I64Attr:$axis);
  let results = (outs CS349_Tensor:$result);
  let assemblyFormat = [{
    $table `,` $indices `axis` `=` $axis attr-dict `:` type($table) `,`
        type($indices) `->` type($result)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
  let extraClassDeclaration = CS349_FusionKindIs<"Elementwise">.declaration;
}

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

def CS349_KernelOp : CS349_Op<"kernel",
    [IsolatedFromAbove, RecursiveMemoryEffects,
     SingleBlockImplicitTerminator<"YieldOp">]> {
  let summary = "the ops of one kernel";
  let description = [{
    A kernel reads its operands from memory, computes its body without
    touching memory in between, and writes its results back. Only kernel
    results are written results: they are what `--plan-memory` places in the
    arena. The body is isolated from above: it sees the operands as block
    arguments, and constants it needs are cloned into it.

    ```mlir
    %h = cs349.kernel (%x, %g) : (tensor<16x128xf32>, tensor<128xf32>) -> tensor<16x128xf32> {
    ^bb0(%xa: tensor<16x128xf32>, %ga: tensor<128xf32>):
      %n = cs349.rms_norm %xa, %ga epsilon = 1.000000e-05 : tensor<16x128xf32>, tensor<128xf32>
      cs349.yield %n : tensor<16x128xf32>
    }
    ```
  }];
  let arguments = (ins Variadic<CS349_AnyTensor>:$inputs);
  let results = (outs Variadic<CS349_AnyTensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    `(` $inputs `)` `:` functional-type($inputs, $results) attr-dict-with-keyword
        $body
  }];
  let hasVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    OpBuilder<(ins "::mlir::TypeRange":$resultTypes,
                   "::mlir::ValueRange":$inputs)>
  ];
  let extraClassDeclaration = [{
    /// Whether the body runs ops of other dialects (what `--import` could
    /// not raise): such a kernel is one op to the cs349 passes, and its
    /// lowering inlines the body.
    bool isOpaque();
  }];
}

def CS349_YieldOp : CS349_Op<"yield",
    [Pure, Terminator, ReturnLike, HasParent<"KernelOp">]> {
  let summary = "the values a kernel writes back";
  let description = [{
    Ends a kernel body; its operands become the kernel's results.

    ```mlir
    cs349.yield %n : tensor<16x128xf32>
    ```
  }];
  let arguments = (ins Variadic<CS349_AnyTensor>:$values);
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
  let builders = [OpBuilder<(ins), [{ /* nothing to yield */ }]>];
}

#endif // CS349_OPS_TD
