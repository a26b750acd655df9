//===- FusionRules.cpp - which kernel may take which op -------------------===//
//
// A course exercise (exercises/fusion-rule) builds a student's file in place
// of this one; the contract is in FusionRules.h.
//
//===----------------------------------------------------------------------===//

#include "FusionRules.h"

bool mlir::cs349::mayTakeElementwise(FusionKind kernel, int64_t capacity,
                                     int64_t elements) {
  switch (kernel) {
  case FusionKind::Matmul:
  case FusionKind::Reduction:
    // An epilogue (after a matmul) or a row-wise op (after a reduction) no
    // larger than what the kernel iterates over.
    return elements <= capacity;
  case FusionKind::Elementwise:
    return true;
  case FusionKind::Single:
    return false;
  }
  return false;
}
