//===- CS349Dialect.td - the cs349 dialect ------------------*- tablegen -*-===//
//
// The dialect of one transformer layer, from the ops a front end writes down to
// the kernels whose results a memory plan places in one arena.
//
//===----------------------------------------------------------------------===//

#ifndef CS349_DIALECT_TD
#define CS349_DIALECT_TD

include "mlir/IR/OpBase.td"

def CS349_Dialect : Dialect {
  let name = "cs349";
  let cppNamespace = "::mlir::cs349";
  let summary = "A transformer layer, its kernels and its static memory plan.";
  let description = [{
    The `cs349` dialect describes transformer layers and models on ranked,
    statically shaped tensors of `bf16`, `f16` or `f32` (and of `i32`/`i64`
    indices and `i1` masks where an op reads or makes them: `cs349.gather`,
    `cs349.compare`, `cs349.select`, `cs349.cast`, views, constants), at three
    levels:

    * **layer ops** that a front end writes: `cs349.matmul`, `cs349.rms_norm`,
      `cs349.rope`, `cs349.softmax`, `cs349.silu`, elementwise arithmetic,
      reductions, `cs349.cast`, `cs349.concat`, `cs349.gather`,
      `cs349.compare`, `cs349.select`, views (`cs349.reshape`,
      `cs349.transpose`, `cs349.repeat`, `cs349.slice`)
      and constants (`cs349.constant`, `cs349.causal_mask`, `cs349.rope_table`);
    * **primitive ops** that `--decompose` produces: elementwise, reductions
      and matmul, at the granularity of the lecture (45 written results for a
      Llama layer when every op is its own kernel), plus the fused
      `cs349.attention` that `--match-attention` forms;
    * **kernels**: `cs349.kernel` groups the ops of one kernel in a region that
      is isolated from above. Its operands are what the kernel reads from
      memory and its results are what it writes back: exactly the tensors a
      memory plan must place.

    Views never copy: a view of a kernel result reads that result's memory and
    keeps it alive.
  }];
  let hasConstantMaterializer = 1;
  let useDefaultAttributePrinterParser = 1;
  // Layers are func.func ops, and the dialect checks the references its
  // attributes make from them (cs349.initialized_by) as a symbol user of
  // func.func: the func dialect is loaded first.
  let dependentDialects = ["::mlir::func::FuncDialect"];

  // What passes write for later passes and for the tools to read. The
  // dialect verifies each where it stands (see verifyOperationAttribute and
  // verifyRegionArgAttribute/verifyRegionResultAttribute; the function that
  // cs349.initialized_by names, with the module's symbol uses), so that a
  // plan or a weight mapping edited by hand fails where it is written, not
  // in whatever reads it later.
  let discardableAttrs = (ins
    // On each planned cs349.kernel (--plan-memory): one #cs349.buffer per
    // result, in result order.
    "::mlir::ArrayAttr":$plan,
    // On each planned function (--plan-memory): the arena and its totals.
    "::mlir::cs349::ArenaAttr":$arena,
    // On a function that --fold-norm-weight split off a layer: it computes
    // the folded weights once, at load time.
    "::mlir::UnitAttr":$initializer,
    // On the layer whose folded weights @initializer computes.
    "::mlir::FlatSymbolRefAttr":$initialized_by,
    // On an argument of a layer or of its initializer: its position in the
    // layer's signature before --fold-norm-weight.
    "::mlir::IntegerAttr":$layer_arg,
    // On an argument of a layer: the initializer result it receives.
    "::mlir::IntegerAttr":$init_result,
    // On a folded weight (initializer result, layer argument): the names of
    // the gain and the weight it was folded from.
    "::mlir::ArrayAttr":$folded_from,
    // On a cs349.kernel that --import made of foreign ops: their names.
    "::mlir::ArrayAttr":$opaque
  );
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  let hasRegionResultAttrVerify = 1;
}

class CS349_Op<string mnemonic, list<Trait> traits = []>
    : Op<CS349_Dialect, mnemonic, traits>;

#endif // CS349_DIALECT_TD
