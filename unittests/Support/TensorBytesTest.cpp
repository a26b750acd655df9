//===- TensorBytesTest.cpp - the bytes a tensor occupies ------------------===//

#include "cs349/Support/TensorBytes.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

using namespace mlir;

namespace {

class TensorBytesTest : public ::testing::Test {
protected:
  MLIRContext context;
  Type f32 = Float32Type::get(&context);
  Type bf16 = BFloat16Type::get(&context);
  Type i1 = IntegerType::get(&context, 1);
  Type i8 = IntegerType::get(&context, 8);

  RankedTensorType tensor(ArrayRef<int64_t> shape, Type element) {
    return RankedTensorType::get(shape, element);
  }
};

constexpr int64_t kTwoTo(int n) { return int64_t(1) << n; }

TEST_F(TensorBytesTest, ElementsTimesElementBytes) {
  EXPECT_EQ(mlir::cs349::getTensorBytes(tensor({16, 128}, bf16)), 4096u);
  EXPECT_EQ(mlir::cs349::getTensorBytes(tensor({}, f32)), 4u);
  EXPECT_EQ(mlir::cs349::getTensorBytes(tensor({0, 5}, f32)), 0u);
  EXPECT_EQ(mlir::cs349::getTensorBytes(MemRefType::get({3}, f32)), 12u);
}

// An i1 takes a byte, as in its memref; the planner's copy packed eight to a
// byte and disagreed with the lowering's check of the plan.
TEST_F(TensorBytesTest, SubByteElementsTakeAByte) {
  EXPECT_EQ(mlir::cs349::getElementBytes(i1), 1);
  EXPECT_EQ(mlir::cs349::getTensorBytes(tensor({8}, i1)), 8u);
}

// 2^62 bytes fit; the planner's copy counted bits and overflowed at 2^61
// bytes, rejecting tensors the dialect accepts.
TEST_F(TensorBytesTest, UpTo2To63BytesFit) {
  EXPECT_EQ(mlir::cs349::getTensorBytes(tensor({kTwoTo(60)}, f32)),
            uint64_t(kTwoTo(62)));
  EXPECT_EQ(mlir::cs349::getTensorBytes(tensor({INT64_MAX}, i8)),
            uint64_t(INT64_MAX));
}

TEST_F(TensorBytesTest, BytesOverflowAt2To63) {
  std::string why;
  EXPECT_EQ(mlir::cs349::getTensorBytes(tensor({kTwoTo(62)}, bf16), &why),
            std::nullopt);
  EXPECT_NE(why.find("the bytes of tensor<4611686018427387904xbf16> "
                     "(4611686018427387904 elements x 2 bytes) overflow"),
            std::string::npos)
      << why;
}

TEST_F(TensorBytesTest, ElementCountOverflowAt2To63) {
  std::string why;
  EXPECT_EQ(mlir::cs349::getTensorBytes(tensor({kTwoTo(62), 2}, i8), &why),
            std::nullopt);
  EXPECT_NE(why.find("the element count of tensor<4611686018427387904x2xi8> "
                     "overflows"),
            std::string::npos)
      << why;
}

TEST_F(TensorBytesTest, NoSizeWithoutAStaticShape) {
  std::string why;
  EXPECT_EQ(
      mlir::cs349::getTensorBytes(tensor({ShapedType::kDynamic}, f32), &why),
      std::nullopt);
  EXPECT_EQ(why, "tensor<?xf32> is not a statically shaped type");
  EXPECT_EQ(mlir::cs349::getTensorBytes(f32), std::nullopt);
  EXPECT_EQ(mlir::cs349::getTensorBytes(UnrankedTensorType::get(f32)),
            std::nullopt);
}

TEST(CheckedProductTest, OverflowsPastInt64) {
  EXPECT_EQ(mlir::cs349::checkedProduct({}), 1);
  EXPECT_EQ(mlir::cs349::checkedProduct({3, 5, 7}), 105);
  EXPECT_EQ(mlir::cs349::checkedProduct({kTwoTo(31), kTwoTo(31), 2}),
            std::nullopt);
  EXPECT_EQ(mlir::cs349::checkedProduct({kTwoTo(62), 2}), std::nullopt);
  EXPECT_EQ(mlir::cs349::checkedProduct({kTwoTo(62), 1}), kTwoTo(62));
  // A dynamic size is not a count, even where the product would fit.
  EXPECT_EQ(mlir::cs349::checkedProduct({4, ShapedType::kDynamic}),
            std::nullopt);
  EXPECT_EQ(mlir::cs349::checkedProduct({0, ShapedType::kDynamic}),
            std::nullopt);
}

} // namespace
