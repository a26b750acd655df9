//===- FlashAttention.cpp - cs349.attention as an online-softmax loop ------===//
//
// softmax(q kT * scale + mask) v without the [H, T, S] scores: for each head
// and query row, the keys are visited in blocks; a block's scores live in a
// vector register, and the running maximum m, the running sum l and the
// output row acc are rescaled by exp(m_old - m_new) whenever a block raises
// the maximum (FlashAttention-2's online softmax). The mask decides which
// keys a query row visits at all: a causal mask stops at the query's own
// position and a sliding window of W also starts W - 1 keys before it, so the
// blocks outside the window are never visited (a window of W costs W keys
// per row, not T). An additive mask visits every key and adds its element to
// the score.
//
//===----------------------------------------------------------------------===//

#include "ElementEmitter.h"

#include "cs349/Dialect/CS349/IR/CS349Ops.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <limits>

using namespace mlir;
using namespace mlir::cs349;
using namespace mlir::cs349::lowering;

Value mlir::cs349::lowering::emitFlashAttention(OpBuilder &builder,
                                                AttentionOp op,
                                                ElementEmitter &emitter,
                                                Value dest, int64_t blockSize) {
  Location loc = op.getLoc();
  auto qType = op.getQuery().getType();
  auto kType = op.getKey().getType();
  int64_t heads = qType.getDimSize(0), queries = qType.getDimSize(1);
  int64_t headDim = qType.getDimSize(2);
  int64_t kvHeads = kType.getDimSize(0), keys = kType.getDimSize(1);
  int64_t block = std::min(blockSize, keys);
  Type elementType = qType.getElementType();
  FloatType f32 = emitter.computeType();
  auto rowType = VectorType::get({headDim}, f32);
  auto blockType = VectorType::get({block}, f32);
  double inf = std::numeric_limits<double>::infinity();

  AttentionMask mask = op.getMask();

  auto idx = [&](OpBuilder &b, int64_t v) { return emitter.index(b, loc, v); };
  // The element of a mask operand that broadcasts (right-aligned, like an
  // add) to the scores [H, T, S] at [head, query, key].
  auto maskIndices = [&](OpBuilder &b, Value maskValue, Value head,
                         Value query, Value key) {
    ArrayRef<int64_t> shape =
        cast<RankedTensorType>(maskValue.getType()).getShape();
    Value scoreIndices[] = {head, query, key};
    SmallVector<Value> indices;
    size_t skipped = 3 - shape.size();
    for (auto [dim, size] : llvm::enumerate(shape))
      indices.push_back(size == 1 ? idx(b, 0) : scoreIndices[skipped + dim]);
    return indices;
  };
  auto splat = [&](OpBuilder &b, VectorType type, Value scalar) {
    return vector::BroadcastOp::create(b, loc, type, scalar).getResult();
  };
  // A row of `headDim` elements of `value` at [head, position, :].
  auto loadRow = [&](OpBuilder &b, Value value, Value head, Value position) {
    Value zero = splat(b, rowType, emitter.constant(b, loc, 0.0));
    auto loop = scf::ForOp::create(
        b, loc, idx(b, 0), idx(b, headDim), idx(b, 1), ValueRange{zero},
        [&](OpBuilder &nb, Location, Value d, ValueRange row) {
          Value x = emitter.read(nb, loc, value, {head, position, d});
          scf::YieldOp::create(
              nb, loc,
              vector::InsertOp::create(nb, loc, x, row.front(), OpFoldResult(d))
                  .getResult());
        });
    return loop.getResult(0);
  };

  auto perHead = [&](OpBuilder &b, Location, Value h, ValueRange outHead) {
    Value group = arith::DivUIOp::create(b, loc, h, idx(b, heads / kvHeads));
    auto perQuery = [&](OpBuilder &b, Location, Value t, ValueRange outRow) {
      Value qRow = loadRow(b, op.getQuery(), h, t);
      Value begin = idx(b, 0), end = idx(b, keys);
      if (mask == AttentionMask::Causal ||
          mask == AttentionMask::SlidingWindow)
        end = arith::AddIOp::create(b, loc, t, idx(b, 1));
      if (std::optional<int64_t> window = op.getWindow()) {
        // max(0, t + 1 - W), without going below zero in unsigned index math.
        Value reach = arith::AddIOp::create(b, loc, begin, idx(b, *window));
        Value past = arith::MaxUIOp::create(b, loc, end, reach);
        begin = arith::SubIOp::create(b, loc, past, idx(b, *window));
      }

      auto perBlock = [&](OpBuilder &b, Location, Value start,
                          ValueRange state) {
        Value runningMax = state[0], runningSum = state[1], acc = state[2];
        Value blockEnd = arith::MinUIOp::create(
            b, loc, arith::AddIOp::create(b, loc, start, idx(b, block)), end);
        // Scores of this block; slots past its end stay -inf (weight 0).
        auto scoreLoop = scf::ForOp::create(
            b, loc, start, blockEnd, idx(b, 1),
            ValueRange{splat(b, blockType, emitter.constant(b, loc, -inf))},
            [&](OpBuilder &nb, Location, Value s, ValueRange scores) {
              auto dot = scf::ForOp::create(
                  nb, loc, idx(nb, 0), idx(nb, headDim), idx(nb, 1),
                  ValueRange{emitter.constant(nb, loc, 0.0)},
                  [&](OpBuilder &ib, Location, Value d, ValueRange sum) {
                    Value q = vector::ExtractOp::create(ib, loc, qRow,
                                                        OpFoldResult(d));
                    Value k = emitter.read(ib, loc, op.getKey(),
                                           {group, s, d});
                    Value product = arith::MulFOp::create(ib, loc, q, k);
                    scf::YieldOp::create(
                        ib, loc,
                        arith::AddFOp::create(ib, loc, sum.front(), product)
                            .getResult());
                  });
              Value score = arith::MulFOp::create(
                  nb, loc, dot.getResult(0),
                  emitter.constant(nb, loc,
                                   op.getScale().convertToDouble()));
              if (Value additive = op.getAdditiveMask())
                score = arith::AddFOp::create(
                    nb, loc, score,
                    emitter.read(nb, loc, additive,
                                 maskIndices(nb, additive, h, t, s)));
              Value slot = arith::SubIOp::create(nb, loc, s, start);
              scf::YieldOp::create(
                  nb, loc,
                  vector::InsertOp::create(nb, loc, score, scores.front(),
                                           OpFoldResult(slot))
                      .getResult());
            });
        Value scores = scoreLoop.getResult(0);
        Value blockMax = vector::ReductionOp::create(
            b, loc, vector::CombiningKind::MAXIMUMF, scores);
        Value newMax = arith::MaximumFOp::create(b, loc, runningMax, blockMax);
        // An additive mask can hide every key seen so far: with the maximum
        // still -inf, exp(-inf - -inf) would be NaN. Shifting by 0 instead
        // gives weight 0 to the hidden keys and keeps the row finite for
        // the keys after them (a row hidden entirely still ends 0/0, as the
        // softmax it replaces).
        Value shift = newMax;
        if (mask == AttentionMask::Additive) {
          Value allHidden = arith::CmpFOp::create(
              b, loc, arith::CmpFPredicate::OEQ, newMax,
              emitter.constant(b, loc, -inf));
          shift = arith::SelectOp::create(b, loc, allHidden,
                                          emitter.constant(b, loc, 0.0),
                                          newMax);
        }
        Value correction = math::ExpOp::create(
            b, loc, arith::SubFOp::create(b, loc, runningMax, shift));
        Value weights = math::ExpOp::create(
            b, loc,
            arith::SubFOp::create(b, loc, scores,
                                  splat(b, blockType, shift)));
        Value newSum = arith::AddFOp::create(
            b, loc, arith::MulFOp::create(b, loc, runningSum, correction),
            vector::ReductionOp::create(b, loc, vector::CombiningKind::ADD,
                                        weights));
        Value scaled = arith::MulFOp::create(b, loc, acc,
                                             splat(b, rowType, correction));
        auto accumulate = scf::ForOp::create(
            b, loc, start, blockEnd, idx(b, 1), ValueRange{scaled},
            [&](OpBuilder &nb, Location, Value s, ValueRange row) {
              Value slot = arith::SubIOp::create(nb, loc, s, start);
              Value p = vector::ExtractOp::create(nb, loc, weights,
                                                  OpFoldResult(slot));
              Value vRow = loadRow(nb, op.getValue(), group, s);
              scf::YieldOp::create(
                  nb, loc,
                  vector::FMAOp::create(nb, loc, splat(nb, rowType, p), vRow,
                                        row.front())
                      .getResult());
            });
        scf::YieldOp::create(
            b, loc, ValueRange{newMax, newSum, accumulate.getResult(0)});
      };

      auto blocks = scf::ForOp::create(
          b, loc, begin, end, idx(b, block),
          ValueRange{emitter.constant(b, loc, -inf),
                     emitter.constant(b, loc, 0.0),
                     splat(b, rowType, emitter.constant(b, loc, 0.0))},
          perBlock);
      Value sum = blocks.getResult(1), acc = blocks.getResult(2);
      auto store = scf::ForOp::create(
          b, loc, idx(b, 0), idx(b, headDim), idx(b, 1), outRow,
          [&](OpBuilder &nb, Location, Value d, ValueRange out) {
            Value x = vector::ExtractOp::create(nb, loc, acc, OpFoldResult(d));
            Value y = emitter.narrow(
                nb, loc, arith::DivFOp::create(nb, loc, x, sum), elementType);
            scf::YieldOp::create(nb, loc,
                                 tensor::InsertOp::create(nb, loc, y,
                                                          out.front(),
                                                          ValueRange{h, t, d})
                                     .getResult());
          });
      scf::YieldOp::create(b, loc, store.getResults());
    };
    auto rows = scf::ForOp::create(b, loc, idx(b, 0), idx(b, queries),
                                   idx(b, 1), outHead, perQuery);
    scf::YieldOp::create(b, loc, rows.getResults());
  };
  auto loop = scf::ForOp::create(builder, loc, idx(builder, 0),
                                 idx(builder, heads), idx(builder, 1),
                                 ValueRange{dest}, perHead);
  return loop.getResult(0);
}
