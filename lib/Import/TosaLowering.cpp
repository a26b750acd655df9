//===- TosaLowering.cpp - the TOSA ops cs349 has no op for -----------------===//
//
// What TosaPatterns.cpp did not rewrite goes through upstream's lowering to
// linalg, tensor and arith, so that the rest of the importer (raising and
// opaque kernels) sees one front end, not two.
//
//===----------------------------------------------------------------------===//

#include "ImportPatterns.h"

#include "cs349/Dialect/CS349/IR/CS349Dialect.h"

#include "mlir/Conversion/TosaToArith/TosaToArith.h"
#include "mlir/Conversion/TosaToLinalg/TosaToLinalg.h"
#include "mlir/Conversion/TosaToTensor/TosaToTensor.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Tosa/Transforms/Passes.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;

LogicalResult mlir::cs349::import::lowerRemainingTosa(func::FuncOp func) {
  bool hasTosa = false;
  func.walk([&](Operation *op) {
    if (isa<tosa::TosaDialect>(op->getDialect()) && !isa<tosa::ConstShapeOp>(op))
      hasTosa = true;
  });
  if (!hasTosa)
    return success();

  MLIRContext *context = func.getContext();
  ConversionTarget target(*context);
  target.addIllegalDialect<tosa::TosaDialect>();
  // Shapes are operands of tosa.reshape; they go when their readers go.
  target.addLegalOp<tosa::ConstShapeOp>();
  target.addLegalDialect<arith::ArithDialect, linalg::LinalgDialect,
                         math::MathDialect, tensor::TensorDialect,
                         cs349::CS349Dialect, func::FuncDialect>();
  target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });

  TypeConverter converter;
  tosa::populateTosaTypeConversion(converter);
  RewritePatternSet patterns(context);
  tosa::populateTosaToLinalgConversionPatterns(converter, &patterns);
  tosa::populateTosaToLinalgNamedConversionPatterns(
      converter, &patterns, TosaToLinalgNamedOptions());
  tosa::populateTosaToTensorConversionPatterns(converter, &patterns);
  tosa::populateTosaToArithConversionPatterns(&patterns);
  // An op upstream cannot lower either stays TOSA: the importer then keeps
  // it in an opaque kernel rather than refusing the program.
  (void)applyPartialConversion(func, target, std::move(patterns));
  return success();
}
