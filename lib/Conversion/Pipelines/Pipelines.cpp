//===- Pipelines.cpp - cs349 lowering pipelines -----------------------------===//
//
// Everything after convert-cs349-to-linalg is upstream: one-shot
// bufferization, results as out-parameters (so that a caller owns them and
// the arena can be freed on return), ownership-based deallocation, loops and
// the LLVM dialect.
//
//===----------------------------------------------------------------------===//

#include "cs349/Conversion/Passes.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/TosaToArith/TosaToArith.h"
#include "mlir/Conversion/TosaToLinalg/TosaToLinalg.h"
#include "mlir/Conversion/TosaToTensor/TosaToTensor.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVMPass.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/BufferDeallocationOpInterfaceImpl.h"
#include "mlir/Dialect/Arith/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/FuncBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/ControlFlow/Transforms/BufferDeallocationOpInterfaceImpl.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/AllocationOpInterfaceImpl.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/BufferDeallocationOpInterfaceImpl.h"
#include "mlir/Dialect/SCF/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void mlir::cs349::buildBufferizePipeline(OpPassManager &pm,
                                         const LoweringPipelineOptions &options) {
  // cs349 ops first: the conversion drivers of upstream's TOSA and
  // elementwise lowerings fold every op they meet, cs349's with its own fold
  // hooks, and a run is to check those hooks, not to apply them.
  ConvertCS349ToLinalgOptions convert;
  convert.mode = options.mode;
  convert.attentionBlock = options.attentionBlock;
  convert.kernelScratch = options.kernelScratch;
  pm.addPass(createConvertCS349ToLinalg(convert));
  // TOSA input (an imported model's original, or a TOSA op --import kept
  // in an opaque kernel, now inlined) goes through upstream's lowering to
  // linalg; on other input these passes find nothing to do.
  // (Shapes, tosa.const_shape, are left unused: the canonicalizer after
  // bufferization removes them.)
  OpPassManager &functionPm = pm.nest<func::FuncOp>();
  functionPm.addPass(tosa::createTosaToLinalgNamed());
  functionPm.addPass(tosa::createTosaToLinalg());
  functionPm.addPass(createTosaToArithPass());
  functionPm.addPass(createTosaToTensorPass());
  // arith and math applied to whole tensors (front ends write them too).
  functionPm.addPass(createConvertElementwiseToLinalgPass());
  // linalg.softmax and other ops with no loops of their own.
  functionPm.addPass(createDecomposeAggregatedOps());
  // After the lowerings, which may fold two results into one.
  functionPm.addPass(createCopyRepeatedReturns());
  // No CSE before bufferization: two results planned at the same offset
  // have identical memref.view ops, and merging them would tell
  // bufferization that two restrict tensors alias, which it would then
  // "fix" with copies outside the arena.

  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  // No padding: an allocation is exactly the bytes of its buffer, so the
  // bytes a run allocates can be compared with the plan.
  bufferize.bufferAlignment = 0;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));

  bufferization::BufferResultsToOutParamsPassOptions outParams;
  outParams.hoistStaticAllocs = true;
  outParams.modifyPublicFunctions = true;
  pm.addPass(bufferization::createBufferResultsToOutParamsPass(outParams));
  bufferization::buildBufferDeallocationPipeline(pm);
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

void mlir::cs349::buildLowerToLLVMPipeline(
    OpPassManager &pm, const LoweringPipelineOptions &options) {
  buildBufferizePipeline(pm, options);
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  arith::ArithExpandOpsPassOptions expand;
  // bf16 <-> f32 as integer code: no dependence on the host's bf16 support.
  expand.includeBf16 = true;
  pm.addPass(arith::createArithExpandOpsPass(expand));
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createConvertVectorToLLVMPass());
  FinalizeMemRefToLLVMConversionPassOptions memref;
  // Allocations go through _mlir_memref_to_llvm_alloc/free, which a runtime
  // can count.
  memref.useGenericFunctions = true;
  pm.addPass(createFinalizeMemRefToLLVMConversionPass(memref));
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createUBToLLVMConversionPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

void mlir::cs349::registerLoweringDialects(DialectRegistry &registry) {
  registry.insert<arith::ArithDialect, bufferization::BufferizationDialect,
                  cf::ControlFlowDialect, func::FuncDialect,
                  linalg::LinalgDialect, LLVM::LLVMDialect, math::MathDialect,
                  memref::MemRefDialect, scf::SCFDialect,
                  tensor::TensorDialect, vector::VectorDialect>();
  arith::registerBufferizableOpInterfaceExternalModels(registry);
  arith::registerBufferDeallocationOpInterfaceExternalModels(registry);
  bufferization::func_ext::registerBufferizableOpInterfaceExternalModels(
      registry);
  cf::registerBufferDeallocationOpInterfaceExternalModels(registry);
  linalg::registerBufferizableOpInterfaceExternalModels(registry);
  memref::registerAllocationOpInterfaceExternalModels(registry);
  scf::registerBufferizableOpInterfaceExternalModels(registry);
  scf::registerBufferDeallocationOpInterfaceExternalModels(registry);
  tensor::registerBufferizableOpInterfaceExternalModels(registry);
  vector::registerBufferizableOpInterfaceExternalModels(registry);
}

void mlir::cs349::registerConversionPassesAndPipelines() {
  registerCS349ConversionPasses();
  PassPipelineRegistration<LoweringPipelineOptions>(
      "bufferize",
      "Lower cs349 to linalg on tensors and bufferize it: the memref-level "
      "program, planned (one arena) or not",
      buildBufferizePipeline);
  PassPipelineRegistration<LoweringPipelineOptions>(
      "lower-to-llvm",
      "Lower cs349 all the way to the LLVM dialect, ready for the JIT",
      buildLowerToLLVMPipeline);
}
