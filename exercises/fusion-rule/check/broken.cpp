// A deliberately wrong answer for CI (scripts/grade.sh --check): it forgets
// the size check, so a broadcast past a matmul's output becomes its epilogue.
#include "FusionRules.h"

bool mlir::cs349::mayTakeElementwise(FusionKind kernel, int64_t capacity,
                                     int64_t elements) {
  return kernel != FusionKind::Single;
}
