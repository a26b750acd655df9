//===- CS349Attrs.td - cs349 attributes ---------------------*- tablegen -*-===//

#ifndef CS349_ATTRS_TD
#define CS349_ATTRS_TD

include "cs349/Dialect/CS349/IR/CS349Dialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

class CS349_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<CS349_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def CS349_RopeTableKind : I32EnumAttr<"RopeTableKind",
    "which table of rotary position embeddings", [
      I32EnumAttrCase<"Cos", 0, "cos">,
      I32EnumAttrCase<"Sin", 1, "sin">
    ]> {
  let cppNamespace = "::mlir::cs349";
}

def CS349_AttentionMask : I32EnumAttr<"AttentionMask",
    "which keys each query of an attention sees", [
      I32EnumAttrCase<"None", 0, "none">,
      I32EnumAttrCase<"Causal", 1, "causal">,
      I32EnumAttrCase<"SlidingWindow", 2, "sliding_window">,
      I32EnumAttrCase<"Additive", 3, "additive">
    ]> {
  let cppNamespace = "::mlir::cs349";
}

def CS349_GeluMode : I32EnumAttr<"GeluMode",
    "which formula of GELU: exact with erf, or the tanh approximation", [
      I32EnumAttrCase<"Erf", 0, "erf">,
      I32EnumAttrCase<"Tanh", 1, "tanh">
    ]> {
  let cppNamespace = "::mlir::cs349";
}

def CS349_ComparePredicate : I32EnumAttr<"ComparePredicate",
    "how cs349.compare orders its operands", [
      I32EnumAttrCase<"Eq", 0, "eq">,
      I32EnumAttrCase<"Ne", 1, "ne">,
      I32EnumAttrCase<"Lt", 2, "lt">,
      I32EnumAttrCase<"Le", 3, "le">,
      I32EnumAttrCase<"Gt", 4, "gt">,
      I32EnumAttrCase<"Ge", 5, "ge">
    ]> {
  let cppNamespace = "::mlir::cs349";
}

def CS349_BufferAttr : CS349_Attr<"Buffer", "buffer"> {
  let summary = "where one written result lives in the arena, and when";
  let description = [{
    The memory plan of one kernel result: its byte `offset` in the function's
    arena, its size in `bytes`, and its lifetime as the inclusive range of
    kernel indices `[first, last]` (`first` is the producing kernel, `last` the
    last kernel that reads it, directly or through views, or the last kernel
    for a function result).

    ```mlir
    #cs349.buffer<offset = 0, bytes = 1048576, first = 3, last = 7>
    ```
  }];
  let parameters = (ins "uint64_t":$offset, "uint64_t":$bytes,
                        "int64_t":$first, "int64_t":$last);
  let assemblyFormat = [{
    `<` `offset` `=` $offset `,` `bytes` `=` $bytes `,` `first` `=` $first `,`
        `last` `=` $last `>`
  }];
}

def CS349_ArenaAttr : CS349_Attr<"Arena", "arena"> {
  let summary = "the memory plan of one function";
  let description = [{
    Attached by `--plan-memory` to a function: the size of its arena in `bytes`,
    the `naive` size (every written result in a buffer of its own), the
    `lower_bound` (the most bytes live at any one kernel: no plan can be
    smaller), the `alignment` of every offset, the number of `kernels` and the
    `strategy` that placed the buffers.

    ```mlir
    #cs349.arena<bytes = 30208, naive = 48640, lower_bound = 30208,
                 alignment = 1, kernels = 10, strategy = "greedy-by-size">
    ```
  }];
  let parameters = (ins "uint64_t":$bytes, "uint64_t":$naive,
                        "uint64_t":$lower_bound, "uint64_t":$alignment,
                        "int64_t":$kernels, StringRefParameter<>:$strategy);
  let assemblyFormat = [{
    `<` `bytes` `=` $bytes `,` `naive` `=` $naive `,` `lower_bound` `=`
        $lower_bound `,` `alignment` `=` $alignment `,` `kernels` `=` $kernels
        `,` `strategy` `=` $strategy `>`
  }];
}

#endif // CS349_ATTRS_TD
