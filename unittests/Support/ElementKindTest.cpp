//===- ElementKindTest.cpp - element kinds and their MLIR types -----------===//

#include "cs349/Support/ElementKind.h"
#include "cs349/Support/ElementType.h"
#include "cs349/Support/TensorBytes.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

namespace {

// cs349-run sizes its buffers with the kind's bytes and the plan with the
// type's: the two must agree for every element type a tensor may have.
TEST(ElementKindTest, BytesAgreeWithTheTypes) {
  mlir::MLIRContext context;
  mlir::Type types[] = {
      mlir::BFloat16Type::get(&context), mlir::Float16Type::get(&context),
      mlir::Float32Type::get(&context), mlir::IntegerType::get(&context, 1),
      mlir::IntegerType::get(&context, 32),
      mlir::IntegerType::get(&context, 64)};
  for (mlir::Type type : types) {
    std::optional<::cs349::ElementKind> kind = mlir::cs349::getElementKind(type);
    ASSERT_TRUE(kind.has_value());
    EXPECT_EQ(::cs349::elementBytes(*kind),
              mlir::cs349::getElementBytes(type).value());
    EXPECT_EQ(::cs349::parseElementKind(::cs349::elementKindName(*kind)), kind);
  }
  EXPECT_FALSE(mlir::cs349::getElementKind(mlir::IntegerType::get(&context, 8)));
  EXPECT_FALSE(mlir::cs349::getElementKind(
      mlir::IntegerType::get(&context, 32, mlir::IntegerType::Unsigned)));
}

// Only the float kinds are --dtype values; integers are never the type of a
// generated layer's activations.
TEST(ElementKindTest, FloatKinds) {
  EXPECT_TRUE(::cs349::isFloatKind(::cs349::ElementKind::BF16));
  EXPECT_TRUE(::cs349::isFloatKind(::cs349::ElementKind::F32));
  EXPECT_FALSE(::cs349::isFloatKind(::cs349::ElementKind::I1));
  EXPECT_FALSE(::cs349::isFloatKind(::cs349::ElementKind::I64));
}

} // namespace
